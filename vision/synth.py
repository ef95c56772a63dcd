"""A synthetic renderer: boards with tiles, perspective, lighting, blur and hands; and trays of dice.

Why: real photos of hands over a board, of every letter, and of dice do not exist (yet); rendered frames with
known truth let the tests check registration under perspective, every letter, blanks, hands and dice.
Premium squares follow the standard layout (`data/premium.txt`: T triple word, D double word, t triple
letter, d double letter).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.geometry import SIZE, premium_layout
from vision.glyphs import font_choices, render_tile
from vision.tilesets import BLANK, EMPTY, tile_values

COLOURS = {".": (60, 135, 40), "T": (45, 45, 205), "D": (125, 130, 235), "t": (165, 85, 25), "d": (225, 175, 95)}
# A tan board with the colours of many English editions.
TAN = {".": (150, 190, 215), "T": (50, 60, 200), "D": (150, 150, 240), "t": (170, 110, 40), "d": (230, 200, 150)}
PX = 48  # rendered pixels per square before the camera warp


@dataclass
class Scene:
    frame: np.ndarray
    board: list[str]  # the truth, labels.json characters
    homography: np.ndarray  # image px -> board units, the truth
    covered: set[str] = field(default_factory=set)  # squares under a hand


def random_board(rng: np.random.Generator, tiles: str = "german", count: int = 40) -> list[str]:
    """A board with `count` random tiles (letters of `tiles`, some blanks) on random squares."""
    letters = [*tile_values(tiles), BLANK]
    grid = [[EMPTY] * SIZE for _ in range(SIZE)]
    for k in rng.permutation(SIZE * SIZE)[:count]:
        grid[k // SIZE][k % SIZE] = letters[int(rng.integers(len(letters)))]
    return ["".join(row) for row in grid]


def render_board(
    board: list[str],
    *,
    tiles: str = "german",
    rng: np.random.Generator | None = None,
    font: str | None = None,
    palette: dict[str, tuple[int, int, int]] | None = None,
    loose: dict[tuple[int, int], tuple[float, float]] | None = None,
    turned: dict[tuple[int, int], int] | None = None,
) -> np.ndarray:
    """The board seen from straight above, 1 square of margin, `PX` pixels per square (`palette`: COLOURS)."""
    colours = palette or COLOURS
    rng = rng or np.random.default_rng(0)
    values = tile_values(tiles)
    fonts = font_choices()
    side = (SIZE + 2) * PX
    img = np.empty((side, side, 3), np.uint8)
    img[:] = colours["."]
    for r, row in enumerate(premium_layout()):
        for c, kind in enumerate(row):
            x, y = (c + 1) * PX, (r + 1) * PX
            img[y : y + PX, x : x + PX] = colours[kind]
    for k in range(SIZE + 1):
        p = (k + 1) * PX
        cv2.line(img, (PX, p), (side - PX, p), (20, 30, 20), 2)
        cv2.line(img, (p, PX), (p, side - PX), (20, 30, 20), 2)
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            if ch == EMPTY:
                continue
            t = round(PX * 0.94)
            tile = render_tile(ch, values.get(ch), t, font or fonts[int(rng.integers(len(fonts)))])
            if (r, c) in (turned or {}):  # a tile laid down sideways or upside down
                tile = np.ascontiguousarray(np.rot90(tile, turned[(r, c)]))  # type: ignore[index]
            dx, dy = rng.integers(-3, 4, size=2)
            if (r, c) in (loose or {}):  # a tile being slid: off its square by a share of a square
                dx, dy = (round(v * PX) for v in loose[(r, c)])  # type: ignore[index]
            x, y = (c + 1) * PX + (PX - t) // 2 + int(dx), (r + 1) * PX + (PX - t) // 2 + int(dy)
            img[y : y + t, x : x + t] = tile
    return img


def render_scene(
    board: list[str],
    *,
    tiles: str = "german",
    seed: int = 0,
    size: tuple[int, int] = (960, 900),
    tilt: float = 0.06,
    blur: float = 0.6,
    hand: bool = False,
    font: str | None = None,
    palette: dict[str, tuple[int, int, int]] | None = None,
    loose: dict[tuple[int, int], tuple[float, float]] | None = None,
    turned: dict[tuple[int, int], int] | None = None,
    lift: float = 0.0,
) -> Scene:
    """A camera frame of `board`: perspective (`tilt`), uneven light, blur, noise, and optionally a hand.

    `lift`: the tiles stand up as boxes seen by a camera that low (`vision.parallax`: 0.045 is a camera about
    six squares above the board), their top faces out from the frame's centre and their sides showing
    (`vision.perturb.stand_tiles`); 0 prints them flat on the board."""
    rng = np.random.default_rng(seed)  # the camera and the light: the same for the same seed, whatever the board
    flat = render_board(
        board, tiles=tiles, rng=np.random.default_rng([seed, 1]), font=font, palette=palette, loose=loose, turned=turned
    )
    w, h = size
    side = flat.shape[0]
    span = 0.86 * min(w, h)
    cx, cy = w / 2 + rng.uniform(-0.03, 0.03) * w, h / 2 + rng.uniform(-0.03, 0.03) * h
    base = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64) * span / 2
    corners = base + np.array([cx, cy]) + rng.uniform(-tilt, tilt, size=(4, 2)) * span
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (70, 110, 150)  # a wooden table
    frame = np.asarray(cv2.warpPerspective(flat, warp, (w, h), dst=frame, borderMode=cv2.BORDER_TRANSPARENT))
    # board units -> flat px: (u + 1) * PX; so image -> board units is that inverted after the warp.
    units_to_flat = np.array([[PX, 0, PX], [0, PX, PX], [0, 0, 1]], dtype=np.float64)
    homography = np.linalg.inv(warp @ units_to_flat)
    if lift > 0:
        from vision.perturb import stand_tiles

        to_image = np.linalg.inv(homography)
        grid = np.array([[0, 0, 1], [15, 0, 1], [15, 15, 1], [0, 15, 1]], np.float64) @ to_image.T
        frame = stand_tiles(frame, grid[:, :2] / grid[:, 2:3], board, lift)
    covered: set[str] = set()
    if hand:
        covered = draw_hand(frame, homography, rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.85 + 0.25 * (xx / w) * float(rng.uniform(0.5, 1.0)) - 0.1 * (yy / h)
    frame = np.clip(frame.astype(np.float32) * light[..., None] + rng.normal(0, 2.5, frame.shape), 0, 255)
    frame = cv2.GaussianBlur(frame.astype(np.uint8), (0, 0), blur) if blur > 0 else frame.astype(np.uint8)
    return Scene(frame, list(board), homography, covered)


def draw_hand(frame: np.ndarray, homography: np.ndarray, rng: np.random.Generator) -> set[str]:
    """Draw (in place) a skin-coloured palm and fingers reaching in from the bottom edge of `frame`.

    `homography` maps image px to board units (a Calibration's matrix); returns the squares the hand covers.
    """
    from vision.geometry import square_name

    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    reach = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.45, 0.65) * h])
    palm = (round(reach[0]), round(reach[1] + 0.16 * h))
    cv2.ellipse(mask, palm, (round(0.09 * w), round(0.12 * h)), 0, 0, 360, 255, -1)
    cv2.rectangle(mask, (palm[0] - round(0.07 * w), palm[1]), (palm[0] + round(0.07 * w), h), 255, -1)
    for k in range(4):
        x = palm[0] + round((k - 1.5) * 0.04 * w)
        cv2.line(
            mask, (x, palm[1]), (x + round((k - 1.5) * 0.01 * w), round(reach[1] - 0.05 * h)), 255, round(0.03 * w)
        )
    skin = np.array([120, 150, 205], np.float32) * float(rng.uniform(0.8, 1.1))
    frame[mask > 0] = np.clip(skin, 0, 255).astype(np.uint8)
    covered = set()
    inv = np.linalg.inv(homography)
    for r in range(SIZE):
        for c in range(SIZE):
            pts = np.array([[c + fx, r + fy, 1.0] for fx in (0.25, 0.5, 0.75) for fy in (0.25, 0.5, 0.75)]) @ inv.T
            pts = pts[:, :2] / pts[:, 2:3]
            inside = [0 <= x < w and 0 <= y < h and mask[int(y), int(x)] > 0 for x, y in pts]
            if any(inside):
                covered.add(square_name(r, c))
    return covered


@dataclass
class DiceScene:
    frame: np.ndarray
    letters: list[str]  # the truth, in no particular order
    tray: tuple[int, int, int, int]


def render_dice(
    letters: list[str], *, tiles: str = "english", seed: int = 0, size: tuple[int, int] = (640, 480), die_px: int = 64
) -> DiceScene:
    """A tray of dice seen from above, each at any rotation, none touching. "?" is a blank face."""
    rng = np.random.default_rng(seed)
    values = tile_values(tiles)
    w, h = size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (40, 40, 120)  # a dark red felt tray
    placed: list[tuple[float, float]] = []
    fonts = font_choices()
    for letter in letters:
        for _ in range(500):
            x, y = rng.uniform(die_px, w - die_px), rng.uniform(die_px, h - die_px)
            if all((x - px) ** 2 + (y - py) ** 2 > (1.6 * die_px) ** 2 for px, py in placed):
                break
        else:
            raise ValueError(f"{len(letters)} dice of {die_px} px do not fit in a {w}x{h} tray")
        placed.append((x, y))
        face = render_tile(
            letter, values.get(letter), die_px, fonts[int(rng.integers(len(fonts)))], face=(235, 240, 240)
        )
        m = cv2.getRotationMatrix2D((die_px / 2, die_px / 2), float(rng.uniform(0, 360)), 1.0)
        m[0, 2] += x - die_px / 2
        m[1, 2] += y - die_px / 2
        frame = np.asarray(cv2.warpAffine(face, m, (w, h), dst=frame, borderMode=cv2.BORDER_TRANSPARENT))
    frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), 0.6))
    return DiceScene(frame, list(letters), (0, 0, w, h))


def motion_blur(frame: np.ndarray, length: float, angle: float = 0.0) -> np.ndarray:
    """The frame smeared along a line of `length` px at `angle` degrees: a camera or a board being bumped."""
    size = max(3, round(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    kernel[size // 2, :] = 1.0
    m = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), angle, 1.0)
    kernel = np.asarray(cv2.warpAffine(kernel, m, (size, size)))
    return cv2.filter2D(frame, -1, kernel / max(float(kernel.sum()), 1e-6))


class SyntheticSource:
    """A fixed synthetic camera over a board, for the simulated table and the tests.

    `board` is called for every frame and returns the 15 rows to draw (the simulated game's board); without
    it the source films a random game growing by five tiles a frame. The camera stays put (its pose comes
    from `seed`), as a real one bolted above the table does.
    """

    def __init__(self, seed: int = 0, tiles: str = "german", board: Callable[[], list[str]] | None = None) -> None:
        self.name = f"synthetic:seed={seed}"
        self.tiles = tiles
        self._seed = seed
        self._board = board
        self._count = 0
        self.last: Scene | None = None

    def read(self) -> np.ndarray:
        self._count += 1
        if self._board is not None:
            rows = list(self._board())
        else:
            rows = random_board(np.random.default_rng(self._seed), self.tiles, count=min(100, 5 * self._count))
        self.last = render_scene(rows, tiles=self.tiles, seed=self._seed)
        return self.last.frame

    def close(self) -> None:
        self.last = None
