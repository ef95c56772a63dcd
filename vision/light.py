"""Evening out the light on a rectified board, using the board itself as the colour chart.

Why: the reader tells a tile from a square by colour (a tile's face is pale and unsaturated, the squares are
saturated), and a warm lamp, a dim room or light falling from one side moves every colour. But every frame
holds a colour chart: the empty squares of each premium kind share one colour, so how a kind's squares
differ across the board is the light's shape (a gradient, a vignette), and the kinds together average to
the same colour on the boards measured (red, pink, dark blue, light blue and green: `TARGET`, each channel
within 2 % of it on every clean frame), so their mean says the lamp's colour and strength.

A camera's tone curve (its gamma) is not a gain: it stretches or squeezes the board's contrast, so a darker
curve saturates the pale tile faces and a paler one bleaches the light-blue squares towards a tile's face.
But the spread of the premium kinds' log colours is a property of the board's design (0.50-0.52 on both
green boards measured, and on the rendered one), and a tone curve `out = in ** g` multiplies it by `g`,
while a lamp's colour or strength leaves it alone. So the spread measured on the calibration frame gives
the curve, and it is undone before anything else.

Three steps, measured on the calibration frame and applied to every frame after (each left out when the
light is within a dead band of even and neutral):
0. The tone curve: `g` from the spread of the kinds' log colours against `CONTRAST`, undone per pixel.
1. The shape: log brightness of each square relative to its kind's median, fitted by a quadratic surface
   over the squares that look like their kind (tiles do not), and divided out.
2. The colour and level: per channel, the mean of the kinds' medians is brought to `TARGET` (raised for a
   dim room, never lowered: a pale board is not a bright lamp).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import cells
from vision.geometry import SIZE, premium_layout

# The mean of the kinds' colours on clean frames of the green boards, per channel (B, G, R). Not grey: the
# kinds average 7-9 % lower in green than in blue and red on every green board measured (and on the rendered
# one); with a grey target that board tint sat just inside the dead band and a vignette pushed it out.
TARGET = np.array([100.0, 89.0, 96.5])
GAIN_DEAD_BAND = 0.1  # |log| of the tint on every channel, or of the level: below it, near enough (a tan board)
FIELD_DEAD_BAND = 0.5  # the fitted light varies less than this (log) across the board: leave it
MAX_GAIN = 3.0
CHROMA_TOLERANCE = 0.25  # how far a square's chromaticity may lie from its kind's to count as that kind
CONTRAST = 0.51  # RMS spread of the kinds' log colours (per channel, centred) on boards under a plain tone curve
TONE_DEAD_BAND = 0.2  # |log g| below this: the board's own contrast, not a tone curve (a tan board is 0.16 off)
MAX_TONE = 2.0
# A lamp may not leave the palest board squares less saturated than this, unless the camera's frame already
# had them so: undoing a tone curve the board's design only seemed to have bleaches them towards a tile's
# face. The palest kind of the green boards measures 0.47-0.51 with the right tone undone (and as taken).
PALEST_SATURATION = 0.45
# The (kind, channel) pairs the spread is measured on: the red of the green and dark-blue squares is near
# black on the green boards (sensor noise, not colour), so it is left out. Kinds in the order ".TDtd".
SPREAD_KINDS = ".TDtd"
SPREAD_MASK = np.array([[1, 1, 0], [1, 1, 1], [1, 1, 1], [1, 1, 0], [1, 1, 1]], bool)
# The green boards' design (the synthetic renderer's palette, B, G, R per kind), whose pattern of log colours
# a tone curve scales; and how much of a measured pattern may lie outside it for the tone to be measured.
DESIGN_COLOURS = {
    ".": np.array([60.0, 135.0, 40.0]), "T": np.array([45.0, 45.0, 205.0]), "D": np.array([125.0, 130.0, 235.0]),
    "t": np.array([165.0, 85.0, 25.0]), "d": np.array([225.0, 175.0, 95.0]),
}
MAX_PATTERN_MISFIT = 0.42


def _design(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Quadratic surface terms in board units centred on the board (x, y in -1..1)."""
    x = (cols + 0.5) / (SIZE / 2) - 1
    y = (rows + 0.5) / (SIZE / 2) - 1
    return np.column_stack([np.ones_like(x), x, y, x * x, y * y, x * y])


def _kinds() -> np.ndarray:
    return np.array(list("".join(premium_layout())))


def tone_of(medians: dict[str, np.ndarray]) -> float:
    """The tone curve's exponent `g` (out = in ** g, in 0..1) from the kinds' median colours (B, G, R).

    1.0 when a kind is missing (covered by tiles) or the contrast is within the dead band of the usual.
    """
    if any(k not in medians for k in SPREAD_KINDS):
        return 1.0
    devs = _log_deviations(medians)
    spread = float(np.sqrt(np.mean(devs**2)))
    g = spread / CONTRAST
    # A tone curve multiplies every kind's log colour alike, so it keeps the design's pattern of colours and
    # only scales it; a board whose pattern differs is another design, whose contrast says nothing of the
    # camera's curve (the board of camera C: 0.4-0.7 of its pattern unexplained, the green boards 0.05).
    design = _log_deviations(DESIGN_COLOURS)
    fitted = float(devs @ design / (design @ design)) * design
    if float(np.linalg.norm(devs - fitted)) > MAX_PATTERN_MISFIT * float(np.linalg.norm(devs)):
        return 1.0
    if not np.isfinite(g) or abs(np.log(max(g, 1e-6))) <= TONE_DEAD_BAND:
        return 1.0
    return float(np.clip(g, 1 / MAX_TONE, MAX_TONE))


def _log_deviations(medians: dict[str, np.ndarray]) -> np.ndarray:
    """The kinds' log colours, centred per channel over the kinds (the pairs of `SPREAD_MASK`)."""
    logs = np.log(np.maximum(np.array([medians[k] for k in SPREAD_KINDS], np.float64), 1.0) / 255.0)
    return np.concatenate([logs[SPREAD_MASK[:, c], c] - logs[SPREAD_MASK[:, c], c].mean() for c in range(3)])


def _untone(values: np.ndarray, g: float) -> np.ndarray:
    """`values` (0..255) with the tone curve `in ** g` undone."""
    out: np.ndarray = 255.0 * (np.clip(values, 0.0, 255.0) / 255.0) ** (1.0 / g)
    return out


def _medians(bgr: np.ndarray, kinds: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per kind, the median colour of the squares whose chromaticity is close to the kind's; and those squares."""
    chroma = bgr / bgr.sum(axis=1, keepdims=True)
    like = np.zeros(SIZE * SIZE, bool)
    medians: dict[str, np.ndarray] = {}
    for kind in np.unique(kinds):
        mine = kinds == kind
        centre = np.median(chroma[mine], axis=0)
        close = mine & (np.abs(chroma - centre).sum(axis=1) < CHROMA_TOLERANCE * centre.sum() / 3)
        if close.sum() >= 2:
            like |= close
            medians[str(kind)] = np.median(bgr[close], axis=0)
    return medians, like


def measure(rect: np.ndarray) -> dict[str, object] | None:
    """The light on a rectified board (`cells.rectify`): per-channel gains and the shape of its fall-off.

    Measured once, on the calibration frame (mostly empty squares, so every kind shows its colour), and
    kept in the calibration: the lamp stays, and the reader follows slower changes (clouds, a lamp switched
    on) from the empty squares as before. None when too little board is in view to tell.

    A correction that bleaches the board's own squares is refused: the reader tells a tile by its pale,
    unsaturated face, so a lamp that pales empty squares makes tiles (or doubt) out of them. That happens
    where the board's design is not the green boards' (the board of camera C in the shared photos has more
    contrast than `CONTRAST`, so its design was taken for a dark tone curve, and undoing it bleached the
    light-blue squares to half their saturation); the tone step is then left out, and if the rest still
    bleaches, the whole lamp.
    """
    bgr = cells.per_square_mean(rect, inset=0.25).astype(np.float64) + 1.0
    kinds = _kinds()
    medians, like = _medians(bgr, kinds)
    if like.sum() < 30 or len(medians) < 3:
        return None
    before = _palest(rect, like)
    for tone in dict.fromkeys((tone_of(medians), 1.0)):
        lamp = _lamp(bgr, kinds, dict(medians), like, tone)
        if _palest(apply(rect, lamp), like) >= min(before, PALEST_SATURATION):
            return lamp
    return None


def _palest(rect: np.ndarray, like: np.ndarray) -> float:
    """How saturated the palest of the board-coloured squares (`like`) are: the 5th percentile of their
    mean saturation (0..1). A tile's face is told from a square by being unsaturated."""
    return float(np.percentile(cells.colour_stats(rect)[like, 2], 5))


def _lamp(
    bgr: np.ndarray, kinds: np.ndarray, medians: dict[str, np.ndarray], like: np.ndarray, tone: float
) -> dict[str, object]:
    """The lamp measured from the squares' colours `bgr` with the tone curve `tone` undone first."""
    if tone != 1.0:
        bgr = _untone(bgr - 1.0, tone) + 1.0
        medians = {k: np.median(bgr[like & (kinds == k)], axis=0) for k in medians}
    gray = bgr.mean(axis=1)
    reference = np.array([medians[str(k)].mean() if str(k) in medians else np.nan for k in kinds])
    use = like & np.isfinite(reference)
    rows, cols = np.divmod(np.arange(SIZE * SIZE), SIZE)
    coef, *_ = np.linalg.lstsq(_design(rows[use], cols[use]), np.log(gray[use] / reference[use]), rcond=None)
    coef[0] = 0.0  # the shape only; the level is the gains'
    field_squares = _design(rows, cols) @ coef
    if float(np.ptp(field_squares)) > FIELD_DEAD_BAND:
        bgr = bgr / np.exp(field_squares)[:, None]
        medians = {k: np.median(bgr[like & (kinds == k)], axis=0) for k in medians}
    else:
        coef[:] = 0.0
    gains = np.clip(TARGET / np.mean(list(medians.values()), axis=0), 1 / MAX_GAIN, MAX_GAIN)
    # A board paler than the green ones (a tan board) is not a bright lamp: the level is raised for a dim
    # room, never lowered; the lamp's colour (the gains relative to each other) is always taken out.
    # The colour and the level each have their own dead band: a board's own slight tint, left alone on a
    # clean frame, must not be taken out only because a dim room raised the level (it tints the tiles).
    level = float(np.exp(np.log(gains).mean()))
    tint = gains / level
    if float(np.abs(np.log(tint)).max()) <= GAIN_DEAD_BAND:
        tint[:] = 1.0
    level = max(level, 1.0)
    if np.log(level) <= GAIN_DEAD_BAND:
        level = 1.0
    gains = tint * level
    return {"gains": [float(g) for g in gains], "field": [float(c) for c in coef], "tone": tone}


def apply(rect: np.ndarray, light: object) -> np.ndarray:
    """`rect` with the light `measure` found taken out (unchanged when there is none to take out).

    Per pixel and channel: the tone curve undone, divided by the fall-off, times the channel's gain. Without
    a fall-off the whole of it is one lookup table per channel, the cheapest way.
    """
    if not isinstance(light, dict):
        return rect
    gains = np.asarray(light.get("gains", [1.0, 1.0, 1.0]), np.float64)
    coef = np.asarray(light.get("field", [0.0] * 6), np.float64)
    tone = light.get("tone", 1.0)
    if gains.shape != (3,) or coef.shape != (6,) or not isinstance(tone, (int, float)) or tone <= 0:
        return rect
    flat = not coef.any()
    if flat and np.all(gains == 1.0) and tone == 1.0:
        return rect
    levels = _untone(np.arange(256, dtype=np.float64), float(tone))
    if flat:
        luts = np.clip(levels[None, :] * gains[:, None] + 0.5, 0, 255).astype(np.uint8)
        return np.asarray(cv2.merge([cv2.LUT(rect[..., c], luts[c]) for c in range(3)]))
    if tone != 1.0:
        rect = cv2.LUT(rect, np.clip(levels + 0.5, 0, 255).astype(np.uint8))
    side = rect.shape[0]
    # The surface on a coarse grid (board units; the rectified image has `cells.PAD` squares of margin),
    # then resized: the light is smooth.
    u = (np.arange(32) + 0.5) * side / 32 / cells.PITCH - cells.PAD
    gy, gx = np.meshgrid(u, u, indexing="ij")
    coarse = _design(gy.ravel() - 0.5, gx.ravel() - 0.5) @ coef
    gain = cv2.resize(np.exp(-coarse).reshape(32, 32).astype(np.float32), (side, side))
    per_pixel = cv2.merge([gain * np.float32(g) for g in gains])
    lit: np.ndarray = cv2.multiply(rect, per_pixel, dtype=cv2.CV_8U)
    return lit
