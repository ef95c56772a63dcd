"""Tiles stand up off the board: where the camera sees their top faces, and what they hide beside them.

A tile is a box about a quarter of a square tall, and the camera reads its top face. Seen from a camera at
height Z squares above the board, the plane of the top faces (height t) is the board's plane scaled about
the camera's foot (the board point straight below it) by Z / (Z - t): in board units, a top face lies at
`foot + (1 + lift) * (square - foot)`. A camera high above (the shared photos of cameras A and C) has a lift
of about 0.01, a tile at the edge 0.07 of a square out; a camera close above the board (camera B, which
reported it) about 0.045: a tile seven squares out from the foot shows its top face 0.3 of a square over
its outer neighbour, and its inner side in between. Read with the board plane's grid alone, such a frame
has doubt on every empty square beside a tile (a pale face over its edge) and letters cut at the edge.

So the reader keeps one number for the camera, `lift`, measured on the frame's own tiles (the lift whose top
faces cover the tiles' squares best), reads the tiles on the top faces' grid, and measures the empty squares
beside tiles only on the part of them no neighbour's box can reach.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision import cells
from vision.calibration import Calibration
from vision.geometry import SIZE

LIFTS = np.round(np.arange(0.0, 0.0801, 0.01), 3)  # the lifts tried (a camera 3 to 25+ squares up)
MIN_TILES = 8  # tiles a frame needs before the lift is measured on it
MAX_TILES = 30  # ... and beyond which it is not measured again: on a crowded board every square is some
# tile's face at any lift, and the measure loses its hold (it fell to 0 on game 13's later frames)
USE_LIFT = 0.015  # below this the top faces' grid is the board's (within 0.1 square everywhere)
AWAY = 0.2  # an empty square beside a tile is measured from at least this far (share of a square) from that side


def foot(calibration: Calibration) -> np.ndarray:
    """The board point (board units) under the frame's centre: where a camera looking straight down stands."""
    w, h = calibration.image_size
    out: np.ndarray = calibration.image_to_board(np.array([[w / 2.0, h / 2.0]]))[0]
    return out


def top_matrix(matrix: np.ndarray, at: np.ndarray, lift: float) -> np.ndarray:
    """The homography (image px -> board units) of the tiles' top faces: the board's, scaled about `at`."""
    s = 1.0 / (1.0 + lift)
    scale = np.array([[s, 0.0, at[0] * (1 - s)], [0.0, s, at[1] * (1 - s)], [0.0, 0.0, 1.0]])
    out: np.ndarray = scale @ matrix
    return out


def measure_lift(
    frame: np.ndarray,
    matrix: np.ndarray,
    at: np.ndarray,
    tiles: np.ndarray,
    board_value: float = 0.0,
    correct: Callable[[np.ndarray], np.ndarray] | None = None,
) -> float:
    """The lift of this camera, from the tiles (`tiles`: 225 booleans) of one frame.

    Each lift tried gives a grid of top faces; the right one puts the tiles' pale faces squarely on their
    squares (the share of face pixels in the middle of the tiles' squares is highest). Refined between the
    two best by a parabola. `correct`: the calibration's light correction, applied to each rectified image
    before its faces are found, as the reader does: under a warm lamp the raw faces are too orange to pass
    for faces, the scores go flat, and a flat camera (game01 warm) measured the largest lift tried.
    """
    grid = np.asarray(tiles, bool).reshape(SIZE, SIZE)
    free = np.zeros((SIZE, SIZE), np.int32)  # empty squares beside each square, of its four
    padded = np.pad(~grid, 1, constant_values=True)
    free += padded[:-2, 1:-1].astype(np.int32) + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]
    # Tiles with empty squares beside them say most: a face that is off its square shows there.
    loose = (grid & (free >= 2)).ravel()
    asked = loose if loose.sum() >= 5 else np.asarray(tiles, bool)
    scores = []
    for lift in LIFTS:
        rect = cells.rectify(frame, top_matrix(matrix, at, float(lift)))
        if correct is not None:
            rect = correct(rect)
        face = cells.per_square_mean(cells.planes(rect, board_value).face.astype(np.float32), inset=0.1)
        scores.append(float(face[asked].mean()))
    best = int(np.argmax(scores))
    if 0 < best < len(LIFTS) - 1:
        a, b, c = scores[best - 1], scores[best], scores[best + 1]
        denom = a - 2 * b + c
        if denom < 0:
            step = float(LIFTS[1] - LIFTS[0])
            return float(LIFTS[best] + step * 0.5 * (a - c) / denom)
    return float(LIFTS[best])


def boxes_away_from(
    tiles: np.ndarray, inset: float, lift: float = 0.0, at: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per square, the part (x0, x1, y0, y1 as shares of the square) to measure it on: the middle, inset by
    `inset`, moved off each side that has a tile beside it past the top face of any of its eight neighbours
    that reaches over it (with `lift` about `at`), and no further: a tile slid a third of a square onto the
    square is a tile in motion, to be doubted, not a face leaning over (the shade is `reader.SHADE`'s)."""
    grid = np.asarray(tiles, bool).reshape(SIZE, SIZE)
    at = np.zeros(2) if at is None else np.asarray(at, np.float64)
    rows, cols = np.divmod(np.arange(SIZE * SIZE), SIZE)
    x0 = np.full(SIZE * SIZE, inset)
    x1 = np.full(SIZE * SIZE, 1.0 - inset)
    y0 = np.full(SIZE * SIZE, inset)
    y1 = np.full(SIZE * SIZE, 1.0 - inset)
    margin = 0.08  # past a neighbour's face, for the blur of its edge
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            r, c = rows + dr, cols + dc
            inside = (r >= 0) & (r < SIZE) & (c >= 0) & (c < SIZE)
            has = np.zeros(SIZE * SIZE, bool)
            has[inside] = grid[r[inside], c[inside]]
            # The neighbour's top face, in this square's own units (0..1 spans this square).
            left = at[0] + (1 + lift) * (c - at[0]) - cols
            right = at[0] + (1 + lift) * (c + 1 - at[0]) - cols
            top = at[1] + (1 + lift) * (r - at[1]) - rows
            bottom = at[1] + (1 + lift) * (r + 1 - at[1]) - rows
            over_x = np.where(dc < 0, right, 1.0 - left) if dc else np.ones(SIZE * SIZE)
            over_y = np.where(dr < 0, bottom, 1.0 - top) if dr else np.ones(SIZE * SIZE)
            if dr and dc:  # a corner neighbour: give up the side it reaches least far over
                reaches = has & (over_x > 0) & (over_y > 0)
                clip_x = reaches & (over_x <= over_y)
                clip_y = reaches & ~clip_x
            else:
                clip_x = has & bool(dc)
                clip_y = has & bool(dr)
            if dc:
                need_x = np.maximum(AWAY if not dr else 0.0, over_x + margin)
                if dc < 0:
                    x0 = np.where(clip_x, np.maximum(x0, need_x), x0)
                else:
                    x1 = np.where(clip_x, np.minimum(x1, 1.0 - need_x), x1)
            if dr:
                need_y = np.maximum(AWAY if not dc else 0.0, over_y + margin)
                if dr < 0:
                    y0 = np.where(clip_y, np.maximum(y0, need_y), y0)
                else:
                    y1 = np.where(clip_y, np.minimum(y1, 1.0 - need_y), y1)
    # Squeezed from both sides: a thin box in the middle of what is left, never an empty one.
    for lo, hi in ((x0, x1), (y0, y1)):
        thin = hi - lo < 0.2
        mid = np.clip((lo + hi) / 2, 0.1, 0.9)
        lo[thin], hi[thin] = mid[thin] - 0.1, mid[thin] + 0.1
    return x0, x1, y0, y1
