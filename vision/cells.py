"""Cutting the rectified board into squares, and the features the classifiers see.

The board is warped to `PITCH` pixels per square with half a square of margin, so a tile pushed off its
square by a clumsy hand is still inside the window cut around the square (`GLYPH_WINDOW` squares wide).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.faces import TileLight, face_mask
from vision.geometry import SIZE

PITCH = 40  # rectified pixels per square
PAD = 0.5  # squares of margin around the grid
PATCH = 32  # side of the normalised grey patch the letter classifier sees
GLYPH_WINDOW = 1.4  # squares: room for a tile pushed a third of a square off its place
# Ink darker than the face by less than this share of it is no ink: a blank. On every tile of the shared
# photos, blanks measure at most 0.035 (under sensor noise) and letters at least 0.41, but only 0.24 under a
# pale tone curve (gamma 0.6: a worn grey S), which a limit of 0.25 read as a confident blank.
NO_INK = 0.12
# A mark taller than this many letters of the board (or wider than `WIDE_GLYPH`) may be a letter merged with a
# tile's dark edge (`find_glyph`'s `letter_px`, `_letter_without_edges`).
TALL_GLYPH = 1.3
WIDE_GLYPH = 1.6
TILE_CLOSE = max(3, int(PITCH * 0.35) | 1)  # pixels: the tile plane is the faces closed over gaps this narrow
DARK_BOARD = 90.0  # `board_value` of a calibration frame below which its board counts as dark


def rectify(frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The board seen from straight above, `PITCH` px per square plus `PAD` squares of margin."""
    pad = PAD * PITCH
    shift = np.array([[PITCH, 0, pad], [0, PITCH, pad], [0, 0, 1]], dtype=np.float64)
    side = round(SIZE * PITCH + 2 * pad)
    return cv2.warpPerspective(frame, shift @ homography, (side, side), flags=cv2.INTER_LINEAR)


def normalise(gray_window: np.ndarray) -> np.ndarray:
    """Resize to PATCH x PATCH and stretch the contrast between ink and tile face (lighting invariance)."""
    return _stretch(cv2.resize(gray_window, (PATCH, PATCH), interpolation=cv2.INTER_AREA))


def hog(patch_stack: np.ndarray) -> np.ndarray:
    """HOG descriptors (N x D, float32) of grey patches: gradients survive lighting and small shifts."""
    descriptor = _hog_descriptor()
    feats = [np.asarray(descriptor.compute(p)).ravel() for p in patch_stack]
    return np.asarray(feats, dtype=np.float32).reshape(len(patch_stack), -1)


@cache
def _hog_descriptor() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((PATCH, PATCH), (16, 16), (8, 8), (8, 8), 9)


@dataclass
class Planes:
    """Per-pixel planes of one rectified frame, computed once and shared by every square's test."""

    gray: np.ndarray
    hsv: np.ndarray
    face: np.ndarray  # bool: pale, unsaturated pixels (a tile's face)
    tile: np.ndarray  # bool: the face with its letters' holes closed (where tiles are)
    exposure: float = 1.0  # brightness of the board now relative to the calibration frame


def board_value(hsv: np.ndarray) -> float:
    """Median brightness of the board's own saturated colours (tiles are pale, so they do not count)."""
    v = hsv[..., 2][hsv[..., 1] > 100]
    return float(np.median(v)) if v.size >= 500 else 0.0


def planes(rect: np.ndarray, reference_value: float = 0.0, faces: TileLight | None = None) -> Planes:
    """The planes of a rectified board. With the calibration frame's `board_value`, the tile-face test
    follows the exposure: a cloud that darkens the room darkens tiles and board alike. With `faces` (the
    faces' own light, `vision.faces`), the test follows the tiles' colour and brightness where they lie."""
    gray = cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY)
    exposure = 1.0
    if faces is not None:
        # The faces' own light says where a face is; the planes' colours are the faces' tint taken out.
        face, hsv = face_mask(rect, faces)
    else:
        hsv = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)
        if reference_value > 0:
            now = board_value(hsv)
            if now > 0:
                exposure = float(np.clip(now / reference_value, 0.35, 2.0))
        # The pale level follows the exposure; and a calibration frame whose board was dark (a dim room whose
        # lamp could not be taken out) lowers it in proportion, or every tile would read as an empty square,
        # surely. Calibrations of lit boards measure 97-125 here, and keep the level as it is.
        dark = min(1.0, reference_value / DARK_BOARD) if reference_value > 0 else 1.0
        face = (hsv[..., 1] < 70) & (hsv[..., 2] > min(110.0 * exposure * dark, 200.0))
    tile = cv2.morphologyEx(face.astype(np.uint8), cv2.MORPH_CLOSE, _ellipse(TILE_CLOSE)) > 0
    return Planes(gray, hsv, face, tile, exposure)


def per_square_mean(plane: np.ndarray, inset: float = 0.2) -> np.ndarray:
    """Mean of `plane` over the middle of each square (225 rows, one per square; channels kept).

    From the plane's integral image: four look-ups per square instead of a mean over a strided view, which
    costs a few milliseconds a read on the Lab and saturation planes.
    """
    off = round(PAD * PITCH)
    i = int(PITCH * inset)
    src = plane.view(np.uint8) if plane.dtype == bool else plane
    integral = np.asarray(cv2.integral(np.ascontiguousarray(src), sdepth=cv2.CV_64F))
    integral = integral.reshape(integral.shape[0], integral.shape[1], -1)
    starts = off + np.arange(SIZE) * PITCH + i
    ends = starts + PITCH - 2 * i
    below, above = integral[ends], integral[starts]
    total = below[:, ends] - above[:, ends] - below[:, starts] + above[:, starts]
    out: np.ndarray = (total / float((PITCH - 2 * i) ** 2)).astype(np.float32).reshape(SIZE * SIZE, *plane.shape[2:])
    return out


def per_box_mean(
    plane: np.ndarray, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray
) -> np.ndarray:
    """Mean of `plane` over one box per square (225 rows; channels kept): the box spans x0..x1, y0..y1 of
    the square (shares of a square, per square). From the integral image, as `per_square_mean`."""
    off = PAD * PITCH
    src = plane.view(np.uint8) if plane.dtype == bool else plane
    integral = np.asarray(cv2.integral(np.ascontiguousarray(src), sdepth=cv2.CV_64F))
    integral = integral.reshape(integral.shape[0], integral.shape[1], -1)
    rows, cols = np.divmod(np.arange(SIZE * SIZE), SIZE)
    xa = np.rint(off + (cols + x0) * PITCH).astype(int)
    xb = np.maximum(np.rint(off + (cols + x1) * PITCH).astype(int), xa + 1)
    ya = np.rint(off + (rows + y0) * PITCH).astype(int)
    yb = np.maximum(np.rint(off + (rows + y1) * PITCH).astype(int), ya + 1)
    total = integral[yb, xb] - integral[ya, xb] - integral[yb, xa] + integral[ya, xa]
    area = ((xb - xa) * (yb - ya)).astype(np.float64)
    out: np.ndarray = (total / area[:, None]).astype(np.float32).reshape(SIZE * SIZE, *plane.shape[2:])
    return out


def colour_stats_in(rect: np.ndarray, pl: Planes, boxes: tuple[np.ndarray, ...]) -> np.ndarray:
    """`colour_stats` measured on one box per square (see `per_box_mean`) instead of the middle 60%."""
    face = per_box_mean(pl.face.astype(np.float32), *boxes)
    ink = per_box_mean((pl.hsv[..., 2] < 90).astype(np.float32), *boxes)
    sv = per_box_mean(pl.hsv[..., 1:], *boxes) / 255.0
    return np.column_stack([face, ink, sv]).astype(np.float32)


def colour_stats(rect: np.ndarray, pl: Planes | None = None) -> np.ndarray:
    """Per square (225 x 4): share of tile-face pixels, share of dark pixels, mean saturation, mean value.

    A tile's face is pale and unsaturated; the board's squares (green, red, pink, blues) are saturated.
    Measured on the central 60% of each square, where a neighbour's tile cannot reach.
    """
    pl = pl or planes(rect)
    face = per_square_mean(pl.face.astype(np.float32))
    ink = per_square_mean((pl.hsv[..., 2] < 90).astype(np.float32))
    sv = per_square_mean(pl.hsv[..., 1:]) / 255.0
    return np.column_stack([face, ink, sv]).astype(np.float32)


def square_lab(rect: np.ndarray) -> np.ndarray:
    """Mean Lab colour of the middle half of each square (225 x 3)."""
    return per_square_mean(cv2.cvtColor(rect, cv2.COLOR_BGR2LAB), inset=0.25)


def empty_colours(rect: np.ndarray) -> list[list[float] | None]:
    """Mean Lab colour of the middle of each square that is empty in this (calibration) frame, else None.

    Stored in the calibration: the reader tells a hand from the board by how far a square's colour moved."""
    stats = colour_stats(rect)
    lab = square_lab(rect)
    return [[float(v) for v in lab[i]] if stats[i, 0] < 0.02 else None for i in range(SIZE * SIZE)]


def window_box(row: int, col: int, window: float = GLYPH_WINDOW) -> tuple[int, int, int]:
    """(x0, y0, side) of the window of `window` squares centred on square (row, col) of a rectified board."""
    half = window * PITCH / 2
    x0 = round((col + 0.5 + PAD) * PITCH - half)
    y0 = round((row + 0.5 + PAD) * PITCH - half)
    return max(0, x0), max(0, y0), round(2 * half)


@dataclass(frozen=True)
class Glyph:
    """Where a tile's letter lies in a window: centre and height in pixels.

    `height` 0.0 means a clean face with no ink near the middle (a blank tile); -1.0 means ink that is not
    shaped like a letter (doubt: a hand, a shadow, a smudge).
    """

    cx: float
    cy: float
    height: float
    dots_misplaced: bool = False  # two dots under or beside the letter: an umlaut on a turned tile
    dots_above: bool = False  # two marks just above the letter, side by side: an umlaut's dots
    body_cy: float = -1.0  # the middle of the letter without the marks above it (-1: as `cy`)

    @property
    def found(self) -> bool:
        return self.height > 0


def glyph_patch(window: np.ndarray, letter_height: float | None = None) -> tuple[np.ndarray, float]:
    """The letter of the tile in a BGR window, centred on its glyph and scaled; and the glyph's height.

    Why: tiles lie off-centre and differ in size between editions and cameras; centring on the glyph and
    scaling by the letter height makes the patch the same for the same letter wherever the tile lies. The
    scale is `letter_height` (squares; the board's typical capital) when given, else the glyph's own height:
    a common scale keeps a Q's tail or a J's descender from shrinking the letter. The small value digit is
    left in (it is part of what a tile looks like). Heights are in squares, 0.0 and -1.0 as in `Glyph`.
    (The reader, `teach` and the shipped classifier all use the glyph's own height.)
    """
    pl = planes(window)
    return glyph_from_planes(pl.gray, pl.face, pl.tile, letter_height)


def glyph_window(pl: Planes, row: int, col: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grey, face and tile planes of the glyph window of square (row, col) of a rectified board."""
    x0, y0, side = window_box(row, col, GLYPH_WINDOW)
    sl = (slice(y0, y0 + side), slice(x0, x0 + side))
    return pl.gray[sl], pl.face[sl], pl.tile[sl]


def glyph_at(pl: Planes, row: int, col: int, letter_height: float | None = None) -> tuple[np.ndarray, float]:
    """`glyph_patch` of square (row, col), cut from the planes of the whole rectified board."""
    return glyph_from_planes(*glyph_window(pl, row, col), letter_height)


def glyph_from_planes(
    gray: np.ndarray, face: np.ndarray, tile: np.ndarray, letter_height: float | None = None
) -> tuple[np.ndarray, float]:
    """`glyph_patch` on precomputed planes of one window (see `Planes`)."""
    glyph = find_glyph(gray, face, tile)
    if not glyph.found:
        return normalise(gray), glyph.height
    return cut_glyph(gray, glyph, letter_height * PITCH if letter_height else glyph.height), glyph.height / PITCH


def cut_glyph(gray: np.ndarray, glyph: Glyph, letter_px: float) -> np.ndarray:
    """The PATCH x PATCH patch centred on `glyph`, 1.6 letter heights wide, contrast stretched."""
    side = 1.6 * letter_px
    k = PATCH / side
    m = np.array([[k, 0, PATCH / 2 - glyph.cx * k], [0, k, PATCH / 2 - glyph.cy * k]])
    patch = cv2.warpAffine(gray, m, (PATCH, PATCH), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return _stretch(patch)


def find_glyph(
    gray: np.ndarray, face: np.ndarray, tile: np.ndarray, letter_px: float | None = None, strict: bool = False,
    edge: bool = False,
) -> Glyph:
    """Locate the letter in a window: the dark mark nearest the middle, with umlaut dots above it.

    `letter_px`: the height of the board's letters, when known: a mark much taller or wider than that is cut
    down to the letter in it, when its extra is thinner than a stroke (`_letter_without_edges`). `strict`: ink
    only the darker half of the way from the face to the letter's darkest (not half of it): umlaut dots that a
    dark tone curve or blur joined to their letter by grey pixels come apart again. `edge`: the window of a
    square on the board's edge row or column, which may reach the cloth beyond the board (`_own_face`)."""
    h, w = gray.shape
    n_face = int(face.sum())
    if n_face < 0.15 * h * w:
        return Glyph(w / 2, h / 2, 0.0)
    m0, m1 = round(0.3 * h), round(0.7 * h)
    if edge:
        face, tile = _own_face(face, tile, m0, m1)
    level = float(gray[face].mean())
    # Ink is judged against the darkest pixels in the middle of the window, where the glyph is: printing and
    # light vary, and a faded grey letter must count as much as a black one.
    middle = gray[m0:m1, m0:m1]
    dark = float(np.partition(middle, max(0, middle.size // 30), axis=None)[middle.size // 30])
    if level - dark < NO_INK * level:
        return Glyph(w / 2, h / 2, 0.0)  # no ink anywhere near the middle: a clean blank face
    limit = (level + 3 * dark) / 4 if strict else max(0.62 * level, (level + dark) / 2)
    ink = (tile & (gray < limit)).astype(np.uint8)
    # The dark gap between two touching tiles is a long straight line; a letter's strokes are short. Remove
    # the gaps, or a letter touching one merges into a shape that is no letter.
    ink &= ~_long_lines(ink)
    n, labels, stats, best = _pick_letter(ink)
    if best < 0:
        return Glyph(w / 2, h / 2, -1.0)  # ink, but nothing shaped like a letter: not a clean blank
    x, y, bw, bh, _ = stats[best]
    if letter_px and (bh > TALL_GLYPH * letter_px or bw > WIDE_GLYPH * letter_px):
        x, y, bw, bh = _letter_without_edges(labels == best, x, y, bw, bh, letter_px)
    y0, y1 = y, y + bh
    below = 0
    above: list[tuple[float, float, int]] = []  # marks just above the letter: centre x, centre y, top
    beside: list[tuple[float, float]] = []
    for i in range(1, n):
        dx, dy, dw, dh, _ = stats[i]
        if i == best:
            continue
        within_width = dx >= x - 2 and dx + dw <= x + bw + 2
        # An umlaut's dot or the apex of a thin A: small and roundish, not a fragment of a tile's dark edge. A
        # faint dot (blurred, or seen on a raised face warped by the camera's angle) is only its darkest
        # row: a 4x1 dash on camera A's tall tiles.
        dot = max(dw, dh) < 0.15 * PITCH and max(dw, dh) <= 2 * min(dw, dh) + 2
        if within_width and dot and y - 0.3 * bh <= dy + dh <= y + 2:  # part of the letter, above it
            above.append((dx + dw / 2, dy + dh / 2, int(dy)))
        elif within_width and y + bh - 2 <= dy <= y + 1.3 * bh and max(dw, dh) < 0.15 * PITCH:
            below += 1  # dots under the letter: an umlaut upside down
        elif (
            max(dw, dh) < 0.12 * PITCH
            and y <= dy + dh / 2 <= y + bh
            and (x - 0.3 * bh <= dx + dw <= x + 2 or x + bw - 2 <= dx <= x + bw + 0.3 * bh)
        ):
            beside.append((dx + dw / 2, dy + dh / 2))  # a mark at the letter's side: perhaps a dot
    if above:
        y0 = min(y0, *(a[2] for a in above))
    # Umlaut dots are two, side by side: one mark above the letter is an A's apex or a speck, not dots.
    pair = any(
        abs(a[1] - b[1]) < 0.1 * PITCH and abs(a[0] - b[0]) > 0.1 * PITCH
        for k, a in enumerate(above)
        for b in above[k + 1 :]
    )
    # Two dots stacked at the letter's side: an umlaut lying sideways (the value's digits sit side by side).
    sideways = any(
        abs(a[0] - b[0]) < 0.1 * PITCH and abs(a[1] - b[1]) > 0.2 * bh
        for k, a in enumerate(beside)
        for b in beside[k + 1 :]
    )
    return Glyph((x + x + bw) / 2, (y0 + y1) / 2, float(bh), dots_misplaced=below >= 2 or sideways,
                 dots_above=pair, body_cy=(y + y1) / 2)


def _pick_letter(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, int]:
    """The connected marks of `ink` (count, labels and stats as OpenCV gives them) and the one most like a
    letter (or -1): letter-sized, near the middle, the biggest there."""
    h, w = ink.shape
    n, labels, stats, _centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    best, best_area = -1, 0.0
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        cx, cy = x + bw / 2, y + bh / 2
        if (
            not 0.26 * PITCH <= bh <= 0.75 * PITCH
            or bw > 0.8 * PITCH
            or abs(cx - w / 2) > 0.45 * PITCH
            or abs(cy - h / 2) > 0.45 * PITCH
        ):
            continue
        # Prefer big marks near the middle: a letter sits mid-tile; a shadow or a tile's edge does not. And
        # solid ones: a letter's strokes fill a fifth of its box at least, the thin dark frame of a tile's
        # edges a tenth (game02's I lost to its tile's edges, a bigger mark around it).
        fill = min(1.0, area / (bw * bh) / 0.2)
        score = fill * area / (1.0 + ((cx - w / 2) ** 2 + (cy - h / 2) ** 2) / (0.25 * PITCH) ** 2)
        if score > best_area:
            best, best_area = i, score
    return n, labels, stats, best


def _letter_without_edges(
    mark: np.ndarray, x: int, y: int, bw: int, bh: int, letter_px: float
) -> tuple[int, int, int, int]:
    """The box (x, y, width, height) of the letter in `mark`, a mark much bigger than the board's letters.

    Such a mark is a letter merged with a tile's dark edge: a corner of a tall tile's side, a short slanting
    gap, the thin frame of the tile's own edges. Those are thinner than a letter's stroke, so they go when
    the mark is opened by three pixels, and the biggest piece left is the letter, if it is letter-sized. A
    letter's own tail (a Q's) is a stroke and stays.
    """
    opened = cv2.morphologyEx(mark.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _labels, stats, _centroids = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if n < 2:
        return x, y, bw, bh
    big = 1 + int(np.argmax(stats[1:, 4]))
    px, py, pw, ph, _area = stats[big]
    if 0.26 * PITCH <= ph <= TALL_GLYPH * letter_px and pw <= WIDE_GLYPH * letter_px:
        return int(px), int(py), int(pw), int(ph)
    # Still too big: the box of a letter's size where the mark is densest (an edge is thin beside strokes).
    # That box of a Q is its bowl, an O: the reader takes it only when the mark as a whole reads in doubt.
    side = round(letter_px)
    if bh > side:
        top = int(np.argmax(np.convolve(mark[y : y + bh, x : x + bw].sum(axis=1), np.ones(side), mode="valid")))
        y, bh = y + top, side
    if bw > round(WIDE_GLYPH * letter_px):
        wide = round(WIDE_GLYPH * letter_px)
        left = int(np.argmax(np.convolve(mark[y : y + bh, x : x + bw].sum(axis=0), np.ones(wide), mode="valid")))
        x, bw = x + left, wide
    box = mark[y : y + bh, x : x + bw]
    rows, cols = np.flatnonzero(box.any(axis=1)), np.flatnonzero(box.any(axis=0))
    if not len(rows):
        return x, y, bw, bh
    return x + int(cols[0]), y + int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


@cache
def _line_kernels(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.ones((n, 1), np.uint8), np.ones((1, n), np.uint8)


def _own_face(face: np.ndarray, tile: np.ndarray, m0: int, m1: int) -> tuple[np.ndarray, np.ndarray]:
    """The face of the tile in the middle of a window, and its tile plane: pale regions that do not reach the
    middle (the white cloth beyond the board, a neighbour's face past the gap) left out.

    The tile plane closes the faces over narrow dark gaps; a tall tile on the edge row, raised towards the
    cloth by a low camera, came within a few pixels of it, and the dark strip of board between them closed
    into the tile and merged with the letter (a D read as an E on camera C's top row). Only the edge
    squares' windows reach past the board (inside it, a neighbour's face lies past a gap line, which
    `_long_lines` takes out); asked of every window it cost 5 ms a frame."""
    n, labels = cv2.connectedComponents(face.astype(np.uint8), connectivity=8)
    if n <= 2:
        return face, tile
    mine = np.unique(labels[m0:m1, m0:m1])
    mine = mine[mine > 0]
    if len(mine) == n - 1:
        return face, tile
    own = np.isin(labels, mine)
    if not own.any():
        return face, tile
    closed = cv2.morphologyEx(own.astype(np.uint8), cv2.MORPH_CLOSE, _ellipse(TILE_CLOSE)) > 0
    return own, tile & closed


@cache
def _ellipse(k: int) -> np.ndarray:
    """The elliptical structuring element of size `k` (cached: made per window otherwise)."""
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _long_lines(ink: np.ndarray, share: float = 0.7) -> np.ndarray:
    """Pixels of `ink` on straight vertical or horizontal runs longer than `share` of a square (dilated by 1)."""
    kv, kh = _line_kernels(int(PITCH * share))
    lines = np.asarray(cv2.morphologyEx(ink, cv2.MORPH_OPEN, kv)) | np.asarray(
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, kh)
    )
    return cv2.dilate(lines, np.ones((3, 3), np.uint8)).astype(np.uint8)


def _stretch(patch: np.ndarray) -> np.ndarray:
    """Stretch grey levels so ink is near 0 and the tile face near 255 (2nd and 90th percentiles)."""
    flat = np.sort(patch, axis=None)
    lo, hi = float(flat[int(0.02 * (flat.size - 1))]), float(flat[int(0.90 * (flat.size - 1))])
    if hi - lo < 8:
        hi = lo + 8
    out: np.ndarray = np.clip((patch.astype(np.float32) - lo) * (255.0 / (hi - lo)), 0, 255).astype(np.uint8)
    return out


def sharpness(gray: np.ndarray) -> float:
    """How much finer detail a rectified board has than a blurred copy of itself (lower: blurred).

    The ratio of gradient energy before and after a Gaussian blur, in the worse of the two axes, so motion
    blur in any direction shows. It depends on what lies on the board only mildly, so the reader compares a
    frame with its calibration frame.
    """
    g = gray.astype(np.float32)
    b = cv2.GaussianBlur(g, (0, 0), 2.0)
    ratios = []
    for dx, dy in ((1, 0), (0, 1)):
        fine = float(np.abs(cv2.Sobel(g, cv2.CV_32F, dx, dy, ksize=3)).mean())
        coarse = float(np.abs(cv2.Sobel(b, cv2.CV_32F, dx, dy, ksize=3)).mean())
        ratios.append(fine / max(coarse, 1e-6))
    return min(ratios)


ON_EDGE = {(r, c): r in (0, SIZE - 1) or c in (0, SIZE - 1) for r in range(SIZE) for c in range(SIZE)}


def board_glyphs(
    pl: Planes, squares: list[tuple[int, int]], letter_px: float | None = None, strict: bool = False
) -> dict[tuple[int, int], tuple[np.ndarray | None, Glyph]]:
    """Glyph patches of the tiles on `squares`, and the glyph found (patch None when no letter was found).

    Each patch is scaled by its glyph's own height; cutting all at the board's median letter height was tried
    (to help a long-tailed Q) and did not read better on the reference photos. `letter_px`: as `find_glyph`."""
    out: dict[tuple[int, int], tuple[np.ndarray | None, Glyph]] = {}
    for sq in squares:
        win = glyph_window(pl, *sq)
        g = find_glyph(*win, letter_px, strict, edge=ON_EDGE[sq])
        out[sq] = (cut_glyph(win[0], g, g.height) if g.found else None, g)
    return out
