"""Rendering tiles: a cream face, the letter, and its value, in TrueType fonts (Pillow) or Hershey fonts.

Used twice: the shipped classifier learns from these renders (data the project makes itself, never cut from
anyone's photos), and the synthetic renderer draws boards and dice with them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
FONT_NAMES = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSans.ttf",
    "LiberationSans-Bold.ttf",
)


@cache
def truetype_fonts() -> tuple[str, ...]:
    """Paths of the sans-serif TrueType fonts available here (Debian: fonts-dejavu-core); may be empty."""
    found = []
    for name in FONT_NAMES:
        for folder in FONT_DIRS:
            if (folder / name).is_file():
                found.append(str(folder / name))
                break
    try:
        import PIL.ImageFont  # noqa: F401
    except ImportError:  # pragma: no cover - Pillow is a core dependency; keep Hershey as the fallback
        return ()
    return tuple(found)


def font_choices() -> list[str]:
    """Every font the renderer can use: TrueType paths, then the Hershey fonts built into OpenCV."""
    return [*truetype_fonts(), "hershey:simplex", "hershey:duplex"]


def render_tile(
    letter: str,
    value: int | None,
    size: int,
    font: str,
    *,
    face: tuple[int, int, int] = (205, 228, 236),
    ink: tuple[int, int, int] = (40, 45, 40),
    scale: float = 0.55,
    short_q: bool = False,
    width: float = 1.0,
    value_scale: float = 0.2,
    value_at: tuple[float, float] = (0.86, 0.9),
) -> np.ndarray:
    """A square BGR image of one tile seen from above. `letter` "?" or "" draws a blank tile.

    `short_q` draws Q as an O crossed by a short tail at its lower right, as the geometric sans faces of
    printed tiles do; TrueType fonts at hand (DejaVu) hang a long tail below the line instead. `width`
    stretches the letter sideways about its middle: printed tiles use wide geometric faces (a round O, a
    wide W) that no font at hand has, and DejaVu's letters are about a quarter narrower. `value_scale` is
    the value's height as a part of the tile (printed tiles' digits are larger than DejaVu's at 0.2), and
    `value_at` where the value's lower right corner lies, as parts of the tile (printed tiles put it nearer
    the corner than DejaVu's metrics do; nearer the letter, a Q's tail and its 10 run together into one
    glyph).
    """
    img = np.empty((size, size, 3), np.uint8)
    img[:] = face
    if letter in ("", "?"):
        return img
    if font.startswith("hershey:"):
        _hershey(img, letter, value, font, ink, scale)
    else:
        img = _truetype(img, letter, value, font, ink, scale, short_q and letter == "Q", width, value_scale, value_at)
    return img


def _truetype(
    img: np.ndarray,
    letter: str,
    value: int | None,
    font: str,
    ink: tuple[int, int, int],
    scale: float,
    short_q: bool = False,
    width: float = 1.0,
    value_scale: float = 0.2,
    value_at: tuple[float, float] = (0.86, 0.9),
) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    size = img.shape[0]
    # The letter is drawn as a coverage mask first, so that it can be stretched sideways on its own (the
    # value keeps its shape), then laid on the face in the ink's colour.
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    big = ImageFont.truetype(font, max(8, round(size * scale * 1.32)))
    # Centre the capital's box (not the font's line box) a little up and left, as printed tiles do.
    shape = "O" if short_q else letter
    box = draw.textbbox((0, 0), shape, font=big)
    w, h = box[2] - box[0], box[3] - box[1]
    x, y = (size - w) / 2 - box[0] - size * 0.04, (size - h) / 2 - box[1] - size * 0.02
    draw.text((x, y), shape, font=big, fill=255)
    if short_q:
        left, top = x + box[0], y + box[1]
        # The tail of printed tiles' Q is a thick stroke from the bowl's middle to its own lower right (camera
        # C's set: a font's tail, from the bowl's edge outwards, left its three Q tiles 0-45 % sure against O):
        # it does not hang below the line, so the letter's box stays the O's.
        stroke = max(2, round(h * 0.20))
        draw.line([(left + 0.48 * w, top + 0.52 * h), (left + 0.88 * w, top + 0.92 * h)], fill=255, width=stroke)
    cover = np.asarray(mask, np.float32) / 255.0
    if width != 1.0:
        middle = size / 2 - size * 0.04
        m = np.array([[width, 0.0, middle * (1 - width)], [0.0, 1.0, 0.0]], np.float32)
        cover = np.asarray(
            cv2.warpAffine(cover, m, (size, size), flags=cv2.INTER_LINEAR, borderValue=0.0), np.float32
        )
    rgb = img[..., ::-1].astype(np.float32)
    rgb = rgb * (1 - cover[..., None]) + np.array(ink[::-1], np.float32) * cover[..., None]
    pil = Image.fromarray(np.clip(rgb + 0.5, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(pil)
    colour = tuple(int(c) for c in ink[::-1])
    if value is not None:
        small = ImageFont.truetype(font, max(6, round(size * value_scale)))
        text = str(value)
        vb = draw.textbbox((0, 0), text, font=small)
        draw.text(
            (size * value_at[0] - (vb[2] - vb[0]) - vb[0], size * value_at[1] - (vb[3] - vb[1]) - vb[1]),
            text,
            font=small,
            fill=colour,
        )
    return np.asarray(pil)[..., ::-1].copy()


def _hershey(
    img: np.ndarray, letter: str, value: int | None, font: str, ink: tuple[int, int, int], scale: float
) -> None:
    size = img.shape[0]
    face = cv2.FONT_HERSHEY_DUPLEX if font.endswith("duplex") else cv2.FONT_HERSHEY_SIMPLEX
    base = letter.translate(str.maketrans("ÄÖÜ", "AOU"))
    thick = max(1, round(size / 22))
    (w, h), _ = cv2.getTextSize(base, face, 1.0, thick)
    fs = scale * size / h
    (w, h), _ = cv2.getTextSize(base, face, fs, thick)
    x, y = round((size - w) / 2 - size * 0.04), round((size + h) / 2)
    cv2.putText(img, base, (x, y), face, fs, ink, thick, cv2.LINE_AA)
    if base != letter:  # umlaut: two dots above the capital
        r = max(1, round(size * 0.035))
        for dx in (0.3, 0.7):
            cv2.circle(img, (round(x + dx * w), round(y - h - size * 0.09)), r, ink, -1, cv2.LINE_AA)
    if value is not None:
        vs = fs * 0.32
        (vw, _vh), _ = cv2.getTextSize(str(value), face, vs, max(1, thick // 2))
        cv2.putText(
            img,
            str(value),
            (round(size * 0.88 - vw), round(size * 0.9)),
            face,
            vs,
            ink,
            max(1, thick // 2),
            cv2.LINE_AA,
        )
