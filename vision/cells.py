"""Cutting the rectified board into squares, and the features the classifiers see.

The board is warped to `PITCH` pixels per square with half a square of margin, so a tile pushed off its
square by a clumsy hand is still inside the window we cut around the square (`WINDOW` squares wide).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import SIZE

PITCH = 40  # rectified pixels per square
PAD = 0.5  # squares of margin around the grid
WINDOW = 1.2  # the window cut around each square, in squares
PATCH = 32  # side of the normalised grey patch the letter classifier sees
_HOG = None


def rectify(frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The board seen from straight above, `PITCH` px per square plus `PAD` squares of margin."""
    pad = PAD * PITCH
    shift = np.array([[PITCH, 0, pad], [0, PITCH, pad], [0, 0, 1]], dtype=np.float64)
    side = round(SIZE * PITCH + 2 * pad)
    return cv2.warpPerspective(frame, shift @ homography, (side, side), flags=cv2.INTER_LINEAR)


def square_window(rect: np.ndarray, row: int, col: int, window: float = WINDOW) -> np.ndarray:
    """The window of `window` squares centred on square (row, col) of a rectified board."""
    centre_x = (col + 0.5 + PAD) * PITCH
    centre_y = (row + 0.5 + PAD) * PITCH
    half = window * PITCH / 2
    x0, y0 = round(centre_x - half), round(centre_y - half)
    side = round(2 * half)
    return rect[max(0, y0) : y0 + side, max(0, x0) : x0 + side]


def patches(rect: np.ndarray, window: float = WINDOW) -> np.ndarray:
    """225 grey patches (PATCH x PATCH), row by row, normalised for brightness and contrast."""
    gray = cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY) if rect.ndim == 3 else rect
    out = np.empty((SIZE * SIZE, PATCH, PATCH), np.uint8)
    for r in range(SIZE):
        for c in range(SIZE):
            out[r * SIZE + c] = normalise(square_window(gray, r, c, window))
    return out


def normalise(gray_window: np.ndarray) -> np.ndarray:
    """Resize to PATCH x PATCH and stretch the contrast between ink and tile face (lighting invariance)."""
    patch = cv2.resize(gray_window, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    lo, hi = np.percentile(patch, (2, 90))
    if hi - lo < 8:
        hi = lo + 8
    return np.clip((patch.astype(np.float32) - lo) * (255.0 / (hi - lo)), 0, 255).astype(np.uint8)


def hog(patch_stack: np.ndarray) -> np.ndarray:
    """HOG descriptors (N x D, float32) of grey patches: gradients survive lighting and small shifts."""
    global _HOG
    if _HOG is None:
        _HOG = cv2.HOGDescriptor((PATCH, PATCH), (16, 16), (8, 8), (8, 8), 9)
    feats = [_HOG.compute(p).ravel() for p in patch_stack]
    return np.asarray(feats, dtype=np.float32).reshape(len(patch_stack), -1)


def colour_stats(rect: np.ndarray) -> np.ndarray:
    """Per square (225 x 6): fractions of tile-face, ink, and board-colour pixels, plus mean HSV.

    A tile's face is pale and unsaturated; the board's squares (green, red, pink, blues) are saturated.
    Measured on the central 60% of each square, where a neighbour's tile cannot reach.
    """
    hsv = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)
    s = hsv[..., 1].astype(np.float32)
    v = hsv[..., 2].astype(np.float32)
    face = ((s < 70) & (v > 110)).astype(np.float32)
    ink = (v < 90).astype(np.float32)
    inset = int(PITCH * 0.2)
    off = round(PAD * PITCH)
    out = np.empty((SIZE * SIZE, 6), np.float32)
    for r in range(SIZE):
        for c in range(SIZE):
            y0, x0 = off + r * PITCH + inset, off + c * PITCH + inset
            sl = (slice(y0, y0 + PITCH - 2 * inset), slice(x0, x0 + PITCH - 2 * inset))
            out[r * SIZE + c] = (
                face[sl].mean(),
                ink[sl].mean(),
                hsv[..., 0][sl].mean() / 180.0,
                s[sl].mean() / 255.0,
                v[sl].mean() / 255.0,
                s[sl].std() / 255.0,
            )
    return out


def glyph_patch(window: np.ndarray) -> tuple[np.ndarray, float]:
    """The letter of the tile in a BGR window, centred and scaled on its glyph; and the glyph's height.

    Why: tiles lie off-centre and differ in size between editions and cameras; centring on the glyph and
    scaling by its height makes the patch the same for the same letter wherever the tile lies. The small
    value digit is left in (it is part of what a tile looks like). Height 0.0 means no glyph was found:
    a blank tile (or something that is not a tile at all).
    """
    hsv = cv2.cvtColor(window, cv2.COLOR_BGR2HSV)
    gray = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
    face = (hsv[..., 1] < 70) & (hsv[..., 2] > 110)
    h, w = gray.shape
    if face.sum() < 0.15 * h * w:
        return normalise(gray), 0.0
    k = max(3, int(PITCH * 0.35) | 1)
    tile = cv2.morphologyEx(
        face.astype(np.uint8), cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    level = float(np.median(gray[face]))
    ink = ((tile > 0) & (gray < 0.62 * level)).astype(np.uint8)
    n, _, stats, _centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    best, best_area = -1, 0
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
        if area > best_area:
            best, best_area = i, int(area)
    if best < 0:
        return normalise(gray), 0.0
    x, y, bw, bh, _ = stats[best]
    x0, y0, x1, y1 = x, y, x + bw, y + bh
    for i in range(1, n):  # umlaut dots: small marks just above the glyph, within its width
        dx, dy, dw, dh, _ = stats[i]
        if i != best and dy + dh <= y + 2 and dy + dh >= y - 0.3 * bh and dx >= x - 2 and dx + dw <= x + bw + 2:
            x0, y0 = min(x0, dx), min(y0, dy)
            x1 = max(x1, dx + dw)
    cx, cy = (x + x + bw) / 2, (y0 + y1) / 2
    side = 1.6 * bh
    m = np.array([[PATCH / side, 0, PATCH / 2 - cx * PATCH / side], [0, PATCH / side, PATCH / 2 - cy * PATCH / side]])
    patch = cv2.warpAffine(gray, m, (PATCH, PATCH), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return _stretch(patch), float(bh) / PITCH


def _stretch(patch: np.ndarray) -> np.ndarray:
    lo, hi = np.percentile(patch, (2, 90))
    if hi - lo < 8:
        hi = lo + 8
    return np.clip((patch.astype(np.float32) - lo) * (255.0 / (hi - lo)), 0, 255).astype(np.uint8)
