"""The board picture: what is drawn where, checked on the pixels."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from referee.web.board_image import BLANK_INK, CELL, LAST_PLAY, MARGIN, PREMIUM, TILE, UNKNOWN, board_png, render_board


def cell_pixels(image: np.ndarray, square: str) -> np.ndarray:
    col, row = ord(square[0]) - ord("A"), int(square[1:]) - 1
    y0, x0 = MARGIN + row * CELL, MARGIN + col * CELL
    return image[y0:y0 + CELL, x0:x0 + CELL].reshape(-1, 3)


def share(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 12) -> float:
    return float(np.mean(np.all(np.abs(pixels.astype(int) - colour) <= tolerance, axis=1)))


def test_tiles_blanks_unknowns_premiums_and_the_last_play(table: Any) -> None:
    table.play("G8=Q H8=U I8=I J8=Z", "8G QUIZ", ["QUIZ"], 44)
    table.play("F5=S G5=H H5=o I5=W K5=?", "5F SHoW?", ["SHOW"], 9)
    image = render_board(table.snapshot())
    assert image.shape == (2 * MARGIN + 15 * CELL, 2 * MARGIN + 15 * CELL, 3)
    assert share(cell_pixels(image, "G8"), TILE) > 0.4
    assert share(cell_pixels(image, "K5"), UNKNOWN) > 0.4
    assert share(cell_pixels(image, "H5"), BLANK_INK) > 0.02  # a blank's letter is drawn in its own colour
    assert share(cell_pixels(image, "G5"), BLANK_INK) == 0.0
    assert share(cell_pixels(image, "A1"), PREMIUM["T"]) > 0.5
    assert share(cell_pixels(image, "F5"), LAST_PLAY) > 0.1  # the last play is outlined
    assert share(cell_pixels(image, "G8"), LAST_PLAY) == 0.0


def test_umlauts_get_their_dots(table: Any) -> None:
    table.play("H8=A I8=Ä", "8H AÄ", [], 2)
    image = render_board(table.snapshot())
    plain, umlaut = cell_pixels(image, "H8"), cell_pixels(image, "I8")
    dark = (20, 20, 20)
    assert share(umlaut, dark, 60) > share(plain, dark, 60)


def test_png_round_trips(table: Any) -> None:
    table.play("H8=Q H9=I", "H8 QI", ["QI"], 22)
    data = board_png(table.snapshot())
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, render_board(table.snapshot()))
