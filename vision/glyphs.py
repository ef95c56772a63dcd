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
) -> np.ndarray:
    """A square BGR image of one tile seen from above. `letter` "?" or "" draws a blank tile.

    `short_q` draws Q as an O crossed by a short tail at its lower right, as the geometric sans faces of
    printed tiles do; TrueType fonts at hand (DejaVu) hang a long tail below the line instead.
    """
    img = np.empty((size, size, 3), np.uint8)
    img[:] = face
    if letter in ("", "?"):
        return img
    if font.startswith("hershey:"):
        _hershey(img, letter, value, font, ink, scale)
    else:
        img = _truetype(img, letter, value, font, ink, scale, short_q and letter == "Q")
    return img


def _truetype(
    img: np.ndarray,
    letter: str,
    value: int | None,
    font: str,
    ink: tuple[int, int, int],
    scale: float,
    short_q: bool = False,
) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    size = img.shape[0]
    pil = Image.fromarray(img[..., ::-1])
    draw = ImageDraw.Draw(pil)
    big = ImageFont.truetype(font, max(8, round(size * scale * 1.32)))
    colour = tuple(int(c) for c in ink[::-1])
    # Centre the capital's box (not the font's line box) a little up and left, as printed tiles do.
    shape = "O" if short_q else letter
    box = draw.textbbox((0, 0), shape, font=big)
    w, h = box[2] - box[0], box[3] - box[1]
    x, y = (size - w) / 2 - box[0] - size * 0.04, (size - h) / 2 - box[1] - size * 0.02
    draw.text((x, y), shape, font=big, fill=colour)
    if short_q:
        left, top = x + box[0], y + box[1]
        stroke = max(2, round(h * 0.14))
        draw.line([(left + 0.55 * w, top + 0.62 * h), (left + 1.02 * w, top + 1.05 * h)], fill=colour, width=stroke)
    if value is not None:
        small = ImageFont.truetype(font, max(6, round(size * 0.2)))
        text = str(value)
        vb = draw.textbbox((0, 0), text, font=small)
        draw.text(
            (size * 0.86 - (vb[2] - vb[0]) - vb[0], size * 0.9 - (vb[3] - vb[1]) - vb[1]), text, font=small, fill=colour
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
