"""Perturbed copies of real board photos: how a camera sees a table that is not a photo studio.

The test suite and `benchmarks/vision.py` both turn clean, labelled photos into games seen through a camera
mounted some other way, under some other lamp: turned by quarter turns or a few degrees, tilted, a warm or
dim lamp, light falling off across the board, a vignetting lens, the board cut at the frame's edge, sensor
noise, another resolution. The same perturbation is applied to every frame of a game (a camera does not
change its mount or its lamp between turns). Nothing here is saved: frames are made in memory at run time
from photos read where they lie.

Each kind says what the truth becomes: the board's own letters do not change (A1 stays A1 whichever way
the camera looks), but a cut frame hides squares, and `visible_squares` says which ones a reader can see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

TABLE_BGR = (60, 90, 130)  # a wooden table top, for the corners a rotation uncovers


@dataclass(frozen=True)
class Kind:
    """One perturbation: its name, what it does in words, and the function that does it to a frame.

    `apply(frame, rng)` returns the perturbed frame; `rng` is seeded per game so every frame of a game gets
    the same noise pattern's statistics but a fresh draw, as a real sensor would give.
    """

    name: str
    what: str
    apply: Callable[[np.ndarray, np.random.Generator], np.ndarray]
    cut: str = ""  # the frame edge this kind cuts ("right", ...), empty if the whole board stays in view
    # Applied on top of `apply` to the second half of a game's frames: the camera bumped mid-game.
    later: Callable[[np.ndarray, np.random.Generator], np.ndarray] | None = None
    # Applied instead of `apply` when the kind needs to know the board: `stand(frame, corners, board)`, with
    # the grid's corners in the clean frame (TL, TR, BR, BL) and the labelled board (15 strings).
    stand: Callable[[np.ndarray, np.ndarray, tuple[str, ...]], np.ndarray] | None = None


def reencode(frame: np.ndarray, quality: int = 90) -> np.ndarray:
    """The frame through a JPEG round trip, as a camera would deliver it."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:  # pragma: no cover - OpenCV always encodes a valid BGR image
        raise ValueError("JPEG encoding failed")
    return np.asarray(decoded)


def quarter_turn(frame: np.ndarray, quarters: int) -> np.ndarray:
    """The camera turned by `quarters` x 90 degrees (counter-clockwise as seen in the frame)."""
    return np.ascontiguousarray(np.rot90(frame, quarters))


def rotate(frame: np.ndarray, degrees: float) -> np.ndarray:
    """Turned by a small angle about the centre; the canvas grows so nothing is cut, the corners are table."""
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(frame, m, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=TABLE_BGR)


def tilt(frame: np.ndarray, degrees: float) -> np.ndarray:
    """The camera tilted towards the board's far edge: the far edge shrinks (a keystone), nothing is cut."""
    h, w = frame.shape[:2]
    shrink = 0.5 * w * (1 - np.cos(np.radians(degrees))) + 0.25 * w * np.sin(np.radians(degrees)) ** 2
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[shrink, 0], [w - shrink, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return np.asarray(cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=TABLE_BGR))


def scale_light(frame: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Multiply the light per pixel (and channel, B G R) by `gains` (broadcast to the frame), clipped."""
    out: np.ndarray = np.clip(frame.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return out


def warm(frame: np.ndarray) -> np.ndarray:
    """A warm lamp: red +20%, blue -20%."""
    return scale_light(frame, np.array([0.8, 1.0, 1.2], np.float32))


def gamma(frame: np.ndarray, g: float) -> np.ndarray:
    """Another tone curve: out = 255 * (in / 255) ** g."""
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** g, 0, 255).astype(np.uint8)
    return cv2.LUT(frame, lut)


def gradient(frame: np.ndarray, low: float = 0.5) -> np.ndarray:
    """Light falling from one side: full on the left, `low` of it on the right, smoothly."""
    w = frame.shape[1]
    ramp = np.linspace(1.0, low, w, dtype=np.float32)[None, :, None]
    return scale_light(frame, ramp)


def vignette(frame: np.ndarray, corner: float = 0.55) -> np.ndarray:
    """A lens that darkens towards the corners: `corner` of the light in the frame's corners."""
    h, w = frame.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2
    return scale_light(frame, (1 - (1 - corner) * r2 / 2)[..., None])


def cut(frame: np.ndarray, edge: str, share: float = 0.03) -> np.ndarray:
    """The frame cut by `share` of its size at `edge` ("left", "right", "top", "bottom")."""
    h, w = frame.shape[:2]
    dx, dy = round(w * share), round(h * share)
    return {
        "left": frame[:, dx:],
        "right": frame[:, : w - dx],
        "top": frame[dy:],
        "bottom": frame[: h - dy],
    }[edge].copy()


def bump(frame: np.ndarray, shift: tuple[float, float] = (0.03, 0.015), degrees: float = 2.0,
         scale: float = 1.03) -> np.ndarray:
    """The camera knocked: the picture shifted by `shift` (shares of its width and height), turned by
    `degrees` and scaled by `scale` about its centre, at the same frame size (the camera is the same)."""
    h, w = frame.shape[:2]
    m = bump_matrix((w, h), shift, degrees, scale)
    return np.asarray(cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=TABLE_BGR))


def bump_matrix(size: tuple[int, int], shift: tuple[float, float] = (0.03, 0.015), degrees: float = 2.0,
                scale: float = 1.03) -> np.ndarray:
    """The 2x3 affine map of `bump` for frames of `size` (width, height): where each pixel goes."""
    w, h = size
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, scale)
    m[:, 2] += np.array([shift[0] * w, shift[1] * h])
    return np.asarray(m)


def noise(frame: np.ndarray, rng: np.random.Generator, sigma: float = 8.0) -> np.ndarray:
    """Sensor noise: Gaussian, `sigma` grey levels per channel."""
    return np.clip(frame.astype(np.float32) + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def resize_to(frame: np.ndarray, width: int) -> np.ndarray:
    """Another camera resolution (same aspect ratio)."""
    h, w = frame.shape[:2]
    interp = cv2.INTER_AREA if width < w else cv2.INTER_CUBIC
    return cv2.resize(frame, (width, round(h * width / w)), interpolation=interp)


def stand_tiles(frame: np.ndarray, corners: np.ndarray, board: tuple[str, ...] | list[str],
                lift: float = 0.045) -> np.ndarray:
    """Tall tiles seen by a low camera: every tile of `board` raised into a box whose top face the camera
    sees displaced away from the frame's centre by `lift` of its distance from it (in squares: 0.045 puts
    a tile 7 squares out 0.3 of a square over its outer neighbour), and whose inner side shows between its
    square and its top face.

    A camera at height Z squares above the board sees a tile of height t squares with its top face scaled
    about the camera's foot by Z / (Z - t): the top faces of a whole board are the board's squares scaled
    about one point. 0.045 is a camera about 6 squares up for tiles a quarter of a square tall: camera B of
    the issue that reported it, which the shared photos (cameras high above) do not show. Tiles are drawn
    from the outside in, so an inner tile's top face covers its outer neighbour's side, as in a photo.
    """
    out = frame.copy()
    h, w = frame.shape[:2]
    src = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    to_image = cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))
    to_board = np.linalg.inv(to_image)
    foot = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float64), to_board)[0, 0]
    tiles = [(r, c) for r in range(15) for c in range(15) if board[r][c] != "."]
    tiles.sort(key=lambda rc: -float(np.hypot(rc[1] + 0.5 - foot[0], rc[0] + 0.5 - foot[1])))
    inset = 0.03  # a tile is a little smaller than its square
    for r, c in tiles:
        base = np.array([[c + inset, r + inset], [c + 1 - inset, r + inset], [c + 1 - inset, r + 1 - inset],
                         [c + inset, r + 1 - inset]], np.float64)
        top = foot + (1.0 + lift) * (base - foot)
        base_px = cv2.perspectiveTransform(base[None], to_image)[0]
        top_px = cv2.perspectiveTransform(top[None], to_image)[0]
        x0, y0 = np.floor(np.minimum(base_px.min(axis=0), top_px.min(axis=0))).astype(int) - 1
        x1, y1 = np.ceil(np.maximum(base_px.max(axis=0), top_px.max(axis=0))).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        roi = out[y0:y1, x0:x1]
        offset = np.array([x0, y0], np.float64)
        face = frame[max(0, int(base_px[:, 1].min())) : int(base_px[:, 1].max()) + 1,
                     max(0, int(base_px[:, 0].min())) : int(base_px[:, 0].max()) + 1]
        if face.size == 0:
            continue
        side = np.median(face.reshape(-1, 3), axis=0) * 0.78  # the side, in the tile's own shade
        hull = cv2.convexHull(np.vstack([base_px, top_px]).astype(np.float32) - offset.astype(np.float32))
        cv2.fillConvexPoly(roi, np.rint(hull).astype(np.int32), tuple(float(v) for v in side), cv2.LINE_AA)
        # The top face: the tile as the photo shows it, moved to where the raised face is seen.
        move = cv2.getPerspectiveTransform(base_px.astype(np.float32), (top_px - offset).astype(np.float32))
        raised = cv2.warpPerspective(frame, move, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        mask = np.zeros(roi.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.rint(top_px - offset).astype(np.int32), 255, cv2.LINE_AA)
        roi[mask > 127] = raised[mask > 127]
    return out


def dim(frame: np.ndarray) -> np.ndarray:
    """A dim room: brightness x0.6."""
    return scale_light(frame, np.array(0.6, np.float32))


KINDS: tuple[Kind, ...] = (
    Kind("clean", "re-encoded (JPEG q90)", lambda f, r: reencode(f)),
    Kind("turn90", "camera turned a quarter (board at 90 degrees)", lambda f, r: quarter_turn(f, 1)),
    Kind("turn180", "camera turned half round", lambda f, r: quarter_turn(f, 2)),
    Kind("turn270", "camera turned three quarters", lambda f, r: quarter_turn(f, 3)),
    Kind("rotate3", "turned 3 degrees", lambda f, r: rotate(f, 3.0)),
    Kind("rotate10", "turned 10 degrees", lambda f, r: rotate(f, 10.0)),
    Kind("tilt15", "camera tilted 15 degrees", lambda f, r: tilt(f, 15.0)),
    Kind("tilt30", "camera tilted 30 degrees", lambda f, r: tilt(f, 30.0)),
    Kind("warm", "warm lamp (red +20%, blue -20%)", lambda f, r: warm(f)),
    Kind("dim", "dim room (brightness x0.6)", lambda f, r: dim(f)),
    Kind("gamma1.5", "gamma 1.5 (darker mid-tones)", lambda f, r: gamma(f, 1.5)),
    Kind("gamma0.6", "gamma 0.6 (paler mid-tones)", lambda f, r: gamma(f, 0.6)),
    Kind("gradient", "light falling off to half across the board", lambda f, r: gradient(f)),
    Kind("vignette", "lens vignetting (55% in the corners)", lambda f, r: vignette(f)),
    Kind("cut-right", "frame cut 3% at the right (the board's margin)", lambda f, r: cut(f, "right"), cut="right"),
    Kind("cut-grid", "frame cut 8% at the right (into the grid)", lambda f, r: cut(f, "right", 0.08), cut="right"),
    Kind("noise", "sensor noise (sigma 8)", lambda f, r: noise(f, r)),
    Kind(
        "bumped",
        "camera knocked mid-game (shifted 3% and 1.5%, turned 2 degrees, 3% nearer)",
        lambda f, r: reencode(f),
        later=lambda f, r: reencode(bump(f)),
    ),
    Kind(
        "tall",
        "tall tiles, low camera (top faces 4.5% of their distance from the frame's centre out)",
        lambda f, r: reencode(f),
        stand=lambda f, corners, board: reencode(stand_tiles(f, corners, board)),
    ),
    Kind("small", "640 pixels wide", lambda f, r: resize_to(f, 640)),
    Kind("large", "4032 pixels wide", lambda f, r: resize_to(f, 4032)),
)

BY_NAME = {k.name: k for k in KINDS}


def visible_squares(corners: np.ndarray, size: tuple[int, int], margin: float = 0.0) -> np.ndarray:
    """Which of the 225 squares lie wholly inside a frame of `size` (width, height), top row first.

    `corners` are the grid's four corners in that frame's pixels (TL, TR, BR, BL as `Calibration.corners`).
    Used to score a cut frame: a square half out of the frame may be read or reported unseen.
    """
    from vision.calibration import Calibration

    w, h = size
    src = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    to_image = cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))
    calib = Calibration.from_matrix(np.linalg.inv(to_image), size)
    out = np.ones(225, bool)
    for i in range(225):
        r, c = divmod(i, 15)
        pts = calib.board_to_image(np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], np.float64))
        out[i] = bool(
            (pts[:, 0] >= -margin).all()
            and (pts[:, 0] <= w - 1 + margin).all()
            and (pts[:, 1] >= -margin).all()
            and (pts[:, 1] <= h - 1 + margin).all()
        )
    return out
