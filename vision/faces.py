"""What a tile's face looks like in this camera's frames, learnt from the tiles themselves.

Why: the reader tells a tile from a square by its face, pale and unsaturated beside the board's saturated
colours. A fixed test (saturation below 70, value above a level) holds where the light is white and the
board's colours are those of the boards measured. It fails where they are not, and `vision.light` cannot
always tell: it takes the light's colour from the premium squares, measured against the green boards'
palette, so on a board printed in other colours it either refuses the lamp (a warm lamp then leaves every
face orange, saturation 0.3) or takes the board's own colours for the lamp's (camera C's board under a dark
tone curve: the faces turned green). And the light is not the same everywhere: over camera C's games the
near corner grows darker and bluer than the middle, so one correction cannot serve the whole board.

But every frame with tiles holds their faces, and a face is the frame's white wherever it lies. A square
with a tile shows a letter: a compact dark mark in a bright, even face. That is found without knowing any
colour (`candidates`), so the faces' colour and brightness are measured wherever tiles lie, fitted as a
plane over the board (a constant when the tiles are few or in one place), and the face test follows them:
- the tint is taken out before the test, so a face is neutral wherever it lies (`TileLight.gains`);
- the brightness floor is a share of the faces' own brightness there (`TileLight.floor`), so a tile in a
  dark corner is a tile, and a shadow beside a bright one is not;
- the saturation limit lies between the faces' and the board's palest squares' (`TileLight.max_sat`), so a
  pale tone curve that brings the green squares near the faces does not make tiles of them.
A hand, a sleeve or a shadow has no letter in it (the dark bands between fingers cross the square, a letter
does not), so it cannot teach the test a false white; and only a frame that reads clear is remembered for
the frames after it (`Follower`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np

from vision.geometry import SIZE

PITCH = 40  # rectified pixels per square (`cells.PITCH`; not imported: cells imports this module)
PAD = 0.5  # squares of margin around the grid (`cells.PAD`)
INSET = 0.2  # share of a square left out at each side when measuring it (a neighbour's tile cannot reach)
MIN_INK, MAX_INK = 0.04, 0.45  # share of a tile square's middle that is its letter (a blank has none)
MAX_SPREAD = 0.03  # RMS chromaticity spread of a face (even); a board square's printed dots spread more
CLUSTER = 0.04  # chromaticity distance (L1) from the faces' median within which a candidate is a face
MIN_FACES = 3  # faces needed to measure the light on them at all
PLANE_FACES = 8  # ... and to fit a plane over the board (else one value for the whole board)
PLANE_SPREAD = 0.3  # the faces must spread this far (std of their places, -1..1) for a plane's slope
FLOOR = 0.6  # a face pixel is at least this share of the faces' brightness where it lies
DEFAULT_MAX_SAT = 70.0  # the fixed test's saturation limit (0..255), kept when the board cannot be measured
# ... and how far the limit may rise on a board far more saturated than the faces: a dark tone curve (gamma
# 1.5) saturates the faces' edges beside their letters (80-100 on camera C's near corner) and the board more.
# A hand's skin measures 95-130: the limit stays below it.
MAX_SAT = 90.0
MIN_SAT_GAP = 10.0  # the limit stays this far (0..255) above the faces' own saturation
MAX_TINT = 0.5  # |log| of a channel's tint taken out at most (a face twice as red as green is no face)


@dataclass(frozen=True)
class TileLight:
    """The faces' light over the board: per channel, a plane of log tint, and a plane of log brightness.

    Planes are coefficients of (1, u, v), u and v the board's column and row from -1 to 1; `tint` is 3 x 3
    (one row per channel B, G, R, summing to zero over the channels), `level` 3 (log of the faces' mean grey).
    """

    tint: np.ndarray
    level: np.ndarray
    max_sat: float = DEFAULT_MAX_SAT
    faces: int = 0

    def gains(self, side: int) -> np.ndarray:
        """Per-pixel gains (side x side x 3, float32) that make the faces neutral on a rectified board."""
        u, v = _coarse()
        small = np.stack([np.exp(-(t[0] + t[1] * u + t[2] * v)) for t in self.tint], axis=2).astype(np.float32)
        return np.asarray(cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR))

    def floor(self, side: int) -> np.ndarray:
        """Per-pixel brightness floor (side x side, float32, 0..255) of a face on a rectified board."""
        u, v = _coarse()
        lv = self.level
        small = (FLOOR * np.exp(lv[0] + lv[1] * u + lv[2] * v)).astype(np.float32)
        return np.asarray(cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR))

    def turned(self, quarters: int) -> TileLight:
        """The same light on the board image turned by `quarters` (as `np.rot90`): a pixel at (u, v) of the
        turned image lay at (-v, u) of the image before, so a plane a + b u + c v becomes a + c u - b v."""
        tint, level = self.tint.copy(), self.level.copy()
        for _ in range(quarters % 4):
            tint = np.column_stack([tint[:, 0], tint[:, 2], -tint[:, 1]])
            level = np.array([level[0], level[2], -level[1]])
        return TileLight(tint, level, self.max_sat, self.faces)

    @property
    def saturation(self) -> float:
        """How saturated (0..1, HSV's measure) the faces are at the middle of the board, before their tint
        is taken out: 0 for neutral faces."""
        t = self.tint[:, 0]
        return float(1.0 - np.exp(t.min() - t.max()))

    def to_json(self) -> dict[str, object]:
        return {
            "tint": [[float(x) for x in row] for row in self.tint],
            "level": [float(x) for x in self.level],
            "max_sat": float(self.max_sat),
            "faces": int(self.faces),
        }


@cache
def _coarse() -> tuple[np.ndarray, np.ndarray]:
    """u, v (column and row from -1 to 1, in board units) at the middles of a 32 x 32 grid over a rectified
    board (`PAD` squares of margin): the light is smooth, so its fields are computed there and resized."""
    n = 32
    side = SIZE + 2 * PAD  # in squares
    x = (np.arange(n) + 0.5) * side / n - PAD
    t = (x - SIZE / 2) / (SIZE / 2)
    v, u = np.meshgrid(t, t, indexing="ij")
    return u, v


def square_pixels(rect: np.ndarray, inset: float = INSET, step: int = 2) -> np.ndarray:
    """The middle of each square of a rectified board, every `step`-th pixel each way: 225 x n x 3 float32
    (row-major squares). Every third pixel (an 8 x 8 sample of a 24-pixel middle) is plenty for colours and
    for marks a letter's stroke wide, and a ninth of the work."""
    off = round(PAD * PITCH)
    i = int(PITCH * inset)
    n = PITCH - 2 * i
    grid = rect[off : off + SIZE * PITCH, off : off + SIZE * PITCH].reshape(SIZE, PITCH, SIZE, PITCH, 3)
    middle = grid[:, i : i + n : step, :, i : i + n : step]
    m = middle.shape[1]
    return np.ascontiguousarray(middle.transpose(0, 2, 1, 3, 4)).reshape(SIZE * SIZE, m * m, 3).astype(np.float32)


@dataclass(frozen=True)
class Faces:
    """The squares that show a letter on an even face, and what their faces look like (per square)."""

    squares: np.ndarray  # 225 booleans
    colour: np.ndarray  # 225 x 3: mean B, G, R of the bright half of each square's middle
    pixels: np.ndarray  # 225 x n x 3: the middles themselves
    bright: np.ndarray  # 225 x n booleans: the bright half


def candidates(rect: np.ndarray, seen: np.ndarray | None = None) -> Faces:
    """The squares of `rect` (a rectified board) that look like a lettered tile, whatever the light's colour.

    A tile's middle is a bright even face with a compact dark mark (its letter); a board square is even all
    over, or printed with dots at its edge; a hand or a sleeve is neither even nor lettered. The faces that
    agree in colour with most of the others are kept (a stray square does not move the median).
    """
    px = square_pixels(rect)
    grey = px.mean(axis=2)
    n = grey.shape[1]
    part = np.partition(grey, (n // 2, int(0.8 * n)), axis=1)
    median, level = part[:, n // 2], part[:, int(0.8 * n)]
    bright = grey >= median[:, None]
    dark = grey < 0.6 * level[:, None]
    ink = dark.mean(axis=1)
    # A letter is a mark inside the face; a dark band from one side of the middle to the other is a gap
    # between fingers, a tile's edge or a shadow's.
    side = round(np.sqrt(n))
    marks = dark.reshape(len(dark), side, side)
    across = marks.any(axis=1).all(axis=1) | marks.any(axis=2).all(axis=1)
    squares = (ink >= MIN_INK) & (ink <= MAX_INK) & (level > 30) & ~across
    if seen is not None:
        squares &= seen
    # The colours, only of the squares with a mark (the tiles, and a few others): the costly part.
    idx = np.flatnonzero(squares)
    weight = bright[idx].astype(np.float32)
    count = np.maximum(weight.sum(axis=1), 1.0)
    mine = px[idx]
    colour = np.zeros((SIZE * SIZE, 3), np.float32)
    colour[idx] = np.einsum("snc,sn->sc", mine, weight) / count[:, None]
    centre = colour / np.maximum(colour.sum(axis=1, keepdims=True), 1.0)
    chroma = mine / np.maximum(mine.sum(axis=2, keepdims=True), 1.0)
    # The spread of the bright half's chromaticity about its mean, from sums (no per-pixel difference).
    mean_chroma = np.einsum("snc,sn->sc", chroma, weight) / count[:, None]
    square = np.einsum("sn,sn->s", (chroma * chroma).sum(axis=2), weight) / count
    spread = np.sqrt(np.maximum(square - (mean_chroma * mean_chroma).sum(axis=1), 0.0))
    squares[idx] &= spread < MAX_SPREAD
    if squares.sum() >= MIN_FACES:
        typical = np.median(centre[squares], axis=0)
        squares &= np.abs(centre - typical).sum(axis=1) < CLUSTER
    return Faces(squares, colour, px, bright)


def measure(rect: np.ndarray, seen: np.ndarray | None = None) -> TileLight | None:
    """The faces' light on `rect`, or None when it shows fewer than `MIN_FACES` lettered tiles."""
    faces = candidates(rect, seen)
    idx = np.flatnonzero(faces.squares)
    if len(idx) < MIN_FACES:
        return None
    rows, cols = np.divmod(idx, SIZE)
    half = SIZE / 2
    u, v = (cols + 0.5 - half) / half, (rows + 0.5 - half) / half  # as `_coords` places the squares' middles
    logs = np.log(np.maximum(faces.colour[idx], 1.0))
    plane = len(idx) >= PLANE_FACES and min(float(u.std()), float(v.std())) >= PLANE_SPREAD
    design = np.column_stack([np.ones(len(idx)), u, v]) if plane else np.ones((len(idx), 1))
    keep = np.ones(len(idx), bool)
    coef = np.zeros((design.shape[1], 3))
    for _ in range(2):  # fit, then again without the quarter that fits worst (a face in a hand's shadow)
        coef, *_ = np.linalg.lstsq(design[keep], logs[keep], rcond=None)
        residual = np.abs(logs - design @ coef).sum(axis=1)
        if keep.sum() >= 2 * MIN_FACES:
            keep = residual <= np.percentile(residual, 75) + 1e-9
    full = np.zeros((3, 3))
    full[: coef.shape[0]] = coef  # rows: 1, u, v; columns: B, G, R
    level = full.mean(axis=1)
    tint = np.clip(full - level[:, None], -MAX_TINT, MAX_TINT).T  # 3 channels x (1, u, v)
    light = TileLight(tint, level, DEFAULT_MAX_SAT, int(keep.sum()))
    return TileLight(tint, level, _max_sat(faces, idx[keep], light), int(keep.sum()))


def _max_sat(faces: Faces, kept: np.ndarray, light: TileLight) -> float:
    """The saturation limit (0..255) between the faces' own saturation and the board's palest squares',
    both measured with the faces' tint taken out."""
    # The faces, and every third square without a mark (the board: a sample is plenty for its palest).
    unmarked = np.flatnonzero(~faces.squares)[::3]
    which = np.concatenate([kept, unmarked])
    rows, cols = np.divmod(which, SIZE)
    u, v = (cols + 0.5 - SIZE / 2) / (SIZE / 2), (rows + 0.5 - SIZE / 2) / (SIZE / 2)
    t = light.tint
    g = np.exp(-(t[:, 0][None, :] + np.outer(u, t[:, 1]) + np.outer(v, t[:, 2]))).astype(np.float32)
    balanced = faces.pixels[which] * g[:, None, :]  # the light is smooth: one gain per square's middle
    top = balanced.max(axis=2)
    sat = 255.0 * (top - balanced.min(axis=2)) / np.maximum(top, 1.0)
    face_sat = sat[: len(kept)][faces.bright[kept]]
    tile = float(np.percentile(face_sat, 95)) if face_sat.size else 0.0
    board_sat = sat[len(kept) :]
    n = board_sat.shape[1]
    part = np.partition(board_sat, (n // 10, n // 2), axis=1)
    board = part[:, n // 2] > tile + 3 * MIN_SAT_GAP  # squares whose median is far from any face's
    if board.sum() < 5:
        return DEFAULT_MAX_SAT
    low = float(np.percentile(part[board, n // 10], 10))
    return float(np.clip((tile + low) / 2, tile + MIN_SAT_GAP, MAX_SAT))


class Follower:
    """The faces' light of one camera over a game: what each frame is read with, and what is kept for the
    frames that show no lettered tile (an empty board, a hand over the tiles).

    A frame with lettered tiles is read with its own measurement: the light moves between frames (camera C's
    faces were warm on one frame and neutral on the next, as its exposure followed the scene), and the
    frame's own tiles say so best. It is kept only once the frame reads clear: a frame with a hand or a sheet
    of paper in it teaches nothing for the frames after it.
    """

    def __init__(self) -> None:
        self.kept: TileLight | None = None
        self._offered: TileLight | None = None

    def offer(self, measured: TileLight | None) -> TileLight | None:
        """The light to read this frame with, given its own measurement (None: no lettered tiles in it)."""
        self._offered = measured or self.kept
        return self._offered

    def settle(self, clear: bool) -> None:
        """Keep the light this frame was read with if the frame read clear."""
        if clear and self._offered is not None:
            self.kept = self._offered


def face_mask(rect: np.ndarray, light: TileLight) -> tuple[np.ndarray, np.ndarray]:
    """Which pixels of `rect` are a tile's face under `light` (neutral once its tint is out, bright enough
    for where they lie, and less saturated than the limit); and the HSV planes they were judged on."""
    side = rect.shape[0]
    if light.tint[:, 1:].any():
        balanced = cv2.multiply(rect, light.gains(side), dtype=cv2.CV_8U)
    else:  # one tint for the whole board: a gain per channel
        gains: Any = (*np.exp(-light.tint[:, 0]).tolist(), 0.0)  # a Scalar to OpenCV
        balanced = cv2.multiply(rect, gains)
    hsv = np.asarray(cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV))
    floor = light.floor(side) if light.level[1:].any() else float(FLOOR * np.exp(light.level[0]))
    face: np.ndarray = (hsv[..., 1] < light.max_sat) & (hsv[..., 2] > floor)
    return face, hsv
