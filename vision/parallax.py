"""Tiles stand up off the board: where the camera sees their top faces, and what they hide beside them.

A tile is a box about a quarter of a square tall, and the camera reads its top face. Seen from a camera at
height Z squares above the board, the plane of the top faces (height t) is the board's plane scaled about
the camera's foot (the board point straight below it) by Z / (Z - t): in board units, a top face lies at
`foot + (1 + lift) * (square - foot)`. A camera high above (the shared photos of cameras A and C) has a lift
of about 0.01, a tile at the edge 0.07 of a square out; a camera close above the board (camera B, which
reported it) about 0.045: a tile seven squares out from the foot shows its top face 0.3 of a square over
its outer neighbour, and its inner side in between. Read with the board plane's grid alone, such a frame
has doubt on every empty square beside a tile (a pale face over its edge) and letters cut at the edge.

So the reader keeps one number for the camera, `lift`, measured on the frame's own tiles (the lift that puts
their letters in the middles of their squares, `lift_from_letters`) and followed from frame to frame, reads
the tiles on the top faces' grid, and measures the empty squares beside tiles only on the part of them no
neighbour's box can reach.
"""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration
from vision.geometry import SIZE

MIN_TILES = 8  # lettered tiles a frame needs before the lift is measured on it ...
FEW_TILES = 4  # ... or this many, if they tell it within `MAX_ERROR` (tiles far out, laid squarely)
MAX_ERROR = 0.006  # standard error of a lift measured on fewer than `MIN_TILES` tiles
MIN_REACH = 2.0  # RMS distance (squares) of those tiles from the camera's foot: nearer, no tile leans enough
MAX_LIFT = 0.1  # a camera 3 squares above the board, lower than any that sees the whole board
USE_LIFT = 0.015  # below this the top faces' grid is the board's (within 0.1 square everywhere)
AWAY = 0.2  # an empty square beside a tile is measured from at least this far (share of a square) from that side
FOLLOW = 0.5  # weight of a frame's own measure of the lift against the lift followed so far


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


def lift_from_letters(
    squares: np.ndarray, letters: np.ndarray, at: np.ndarray, lift: float
) -> float | None:
    """The camera's lift from where the tiles' letters lie, as read on the grid of lift `lift`.

    `squares`: the tiles' squares (N x 2, column and row); `letters`: where each tile's letter was found
    (N x 2, board units of that grid). A letter is printed in the middle of its tile's top face, so on the
    right grid the letters lie in the middles of their squares, give or take how the tiles were laid; on a
    grid of too small a lift, each letter lies out from its square's middle in proportion to its distance
    from the camera's foot: by `(true - lift) / (1 + lift)` of it (`top_matrix`). That proportion is fitted
    over the tiles, beside an offset every letter shares (a set printed off its tiles' middles), and
    refitted without the tiles that fit worst (one pushed off its square). None when the tiles are too few
    or too near the foot to tell.

    Why letters and not faces: a face is pale wherever it is seen, its side too, so how much face falls in
    the squares hardly changes with the lift (0.80 to 0.85 over the lifts tried, on camera C's board under
    the `tall` perturbation), and on a crowded board the best score fell to lift 0.
    """
    if len(squares) < FEW_TILES:
        return None
    middles = np.asarray(squares, np.float64) + 0.5
    out = middles - np.asarray(at, np.float64)
    if float(np.sqrt((out**2).sum(axis=1).mean())) < MIN_REACH:
        return None
    off = np.asarray(letters, np.float64) - middles
    n = len(middles)
    design = np.zeros((2 * n, 3))
    design[:n, 0] = 1.0  # the shared offset, x
    design[n:, 1] = 1.0  # ... and y
    design[:, 2] = np.concatenate([out[:, 0], out[:, 1]])
    target = np.concatenate([off[:, 0], off[:, 1]])
    keep = np.ones(n, bool)
    coef = np.zeros(3)
    for _ in range(2):
        rows = np.concatenate([keep, keep])
        coef, *_ = np.linalg.lstsq(design[rows], target[rows], rcond=None)
        miss = np.hypot(*(design @ coef - target).reshape(2, n))
        keep = miss <= max(float(np.percentile(miss, 80)), 0.05)
        if keep.sum() < FEW_TILES:
            return None
    if keep.sum() < MIN_TILES:
        # Few tiles: only if they tell the lift well (how far each lies from the fit, against how far out
        # they lie from the foot).
        rows = np.concatenate([keep, keep])
        used = design[rows]
        left = float(((used @ coef - target[rows]) ** 2).sum()) / max(len(used) - 3, 1)
        spread = used[:, 2] - used[:, 2].mean()
        if np.sqrt(left / max(float(spread @ spread), 1e-9)) > MAX_ERROR:
            return None
    return float(np.clip(lift + coef[2] * (1.0 + lift), 0.0, MAX_LIFT))


def follow(before: float | None, now: float) -> float:
    """The lift followed over frames: the first measure as it is, then each frame's moves it part way."""
    return now if before is None else (1 - FOLLOW) * before + FOLLOW * now


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
