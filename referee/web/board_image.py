"""The current board as a PNG, drawn from a snapshot with OpenCV.

For a director's records, a club's social media post, or a dispute after the game: a picture of the board
exactly as the referee scored it (not a camera photo), with the premium squares, blanks in a different
colour, unknown tiles marked, and the last play outlined. OpenCV's built-in fonts have no umlauts, so
the German Ä, Ö and Ü are drawn as their base letter with two dots.
"""

from __future__ import annotations

import cv2
import numpy as np

from game.errors import NotationError
from game.squares import COLUMNS, Square
from referee.table.api import Snapshot
from referee.words import say

CELL = 44
MARGIN = 30
# Colours are BGR.
BACKGROUND = (34, 52, 28)
EMPTY = (160, 196, 172)
PREMIUM = {"d": (230, 200, 140), "t": (200, 120, 40), "D": (170, 170, 245), "T": (60, 60, 210)}
STAR = (60, 60, 210)
TILE = (178, 226, 246)
TILE_EDGE = (90, 140, 170)
INK = (20, 20, 20)
BLANK_INK = (30, 30, 200)
UNKNOWN = (150, 150, 150)
LAST_PLAY = (0, 200, 255)
LABEL = (230, 240, 230)
FONT = cv2.FONT_HERSHEY_DUPLEX
UMLAUTS = {"Ä": "A", "Ö": "O", "Ü": "U"}


def _centered(img: np.ndarray, text: str, cx: int, cy: int, scale: float, color: tuple[int, int, int],
              thickness: int) -> tuple[int, int, int, int]:
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thickness)
    x, y = cx - w // 2, cy + h // 2
    cv2.putText(img, text, (x, y), FONT, scale, color, thickness, cv2.LINE_AA)
    return x, y - h, w, h


def _letter(img: np.ndarray, letter: str, cx: int, cy: int, color: tuple[int, int, int]) -> None:
    base = UMLAUTS.get(letter, letter)
    if not base.isascii():
        base = "?"  # a letter the font cannot draw: say so rather than draw garbage
    x, top, w, _ = _centered(img, base, cx, cy + 2, 0.95, color, 2)
    if base != letter and letter in UMLAUTS:
        for dx in (w // 4, 3 * w // 4):
            cv2.circle(img, (x + dx, top - 5), 2, color, -1, cv2.LINE_AA)


def _star(img: np.ndarray, cx: int, cy: int) -> None:
    """The start square's star (the layout's, from the snapshot: H8 on the board, E5 on Scramble's mat)."""
    outer, inner = CELL * 0.38, CELL * 0.16
    points = [(cx + (outer if i % 2 == 0 else inner) * np.sin(i * np.pi / 5),
               cy - (outer if i % 2 == 0 else inner) * np.cos(i * np.pi / 5)) for i in range(10)]
    cv2.fillPoly(img, [np.array(points, np.int32)], STAR, cv2.LINE_AA)


def _square_to_cell(square: str) -> tuple[int, int] | None:
    """`H8` -> (column, row), 0-based; None for what is not a square's name."""
    try:
        sq = Square.from_str(square)
    except NotationError:
        return None
    return sq.col, sq.row


def render_board(snapshot: Snapshot) -> np.ndarray:
    """The board of `snapshot` as a BGR image."""
    board = snapshot.get("board") or []
    premiums = snapshot.get("premiums") or []
    rows = len(board)
    cols = len(board[0]) if board else 0
    lang = str(snapshot.get("language", "en"))
    # the premium squares' short names as the page shows them (referee/words/board.py: 3W/2W/3B/2B in German)
    names = {kind: say("board", f"premium.{kind}", lang) for kind in "dtDT"}
    start = _square_to_cell(str(snapshot.get("start") or ""))
    img = np.full((MARGIN * 2 + rows * CELL, MARGIN * 2 + cols * CELL, 3), BACKGROUND, np.uint8)
    for c in range(cols):
        _centered(img, COLUMNS[c], MARGIN + c * CELL + CELL // 2, MARGIN // 2, 0.5, LABEL, 1)
    for r in range(rows):
        _centered(img, str(r + 1), MARGIN // 2, MARGIN + r * CELL + CELL // 2, 0.45, LABEL, 1)
    for r, line in enumerate(board):
        for c, ch in enumerate(line):
            x0, y0 = MARGIN + c * CELL, MARGIN + r * CELL
            cx, cy = x0 + CELL // 2, y0 + CELL // 2
            prem = premiums[r][c] if r < len(premiums) and c < len(premiums[r]) else "."
            cv2.rectangle(img, (x0 + 1, y0 + 1), (x0 + CELL - 2, y0 + CELL - 2), PREMIUM.get(prem, EMPTY), -1)
            if ch == ".":
                if (c, r) == start:
                    _star(img, cx, cy)
                elif prem in names:
                    _centered(img, names[prem], cx, cy, 0.45, (255, 255, 255) if prem in "tT" else INK, 1)
                continue
            cv2.rectangle(img, (x0 + 3, y0 + 3), (x0 + CELL - 4, y0 + CELL - 4), TILE if ch != "?" else UNKNOWN, -1)
            cv2.rectangle(img, (x0 + 3, y0 + 3), (x0 + CELL - 4, y0 + CELL - 4), TILE_EDGE, 1)
            if ch == "?":
                _letter(img, "?", cx, cy, INK)
            elif ch.islower():
                _letter(img, ch.upper(), cx, cy, BLANK_INK)
            else:
                _letter(img, ch, cx, cy, INK)
    for square in snapshot.get("last_play") or []:
        cell = _square_to_cell(square)
        if cell is None or not (0 <= cell[0] < cols and 0 <= cell[1] < rows):
            continue
        x0, y0 = MARGIN + cell[0] * CELL, MARGIN + cell[1] * CELL
        cv2.rectangle(img, (x0 + 1, y0 + 1), (x0 + CELL - 2, y0 + CELL - 2), LAST_PLAY, 3)
    return img


def board_png(snapshot: Snapshot) -> bytes:
    """The board of `snapshot` as PNG bytes."""
    ok, data = cv2.imencode(".png", render_board(snapshot))
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise RuntimeError("OpenCV could not encode the board image")
    return data.tobytes()
