"""The sheet put on each table of a hall: its number, its PIN and its page's address as a QR code.

A PNG at 150 dots per inch the size of an A5 page (874 x 1240), printed from any image viewer: players scan
the code with a phone to open the table's page and type the PIN printed under it. The QR code is made by
the pure-Python `qrcode` package (its module matrix only) and drawn with Pillow, so nothing but Pillow
draws; error correction M, so a crease or a coffee ring does not stop a phone reading it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 874, 1240  # A5 at 150 dpi
_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of `text` as rows of dark (True) modules, with its four-module quiet zone."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=4)
    code.add_data(text)
    code.make(fit=True)
    return [[bool(cell) for cell in row] for row in code.get_matrix()]


def _font(size: int, bold: bool = True) -> Any:
    for path in _FONTS if bold else _FONTS[::-1]:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def render_sheet(*, table: int, pin: str, url: str, event: str, division: str = "") -> Image.Image:
    """The sheet as an image (see the module docstring)."""
    img = Image.new("L", (WIDTH, HEIGHT), 255)
    draw = ImageDraw.Draw(img)

    def centred(y: int, text: str, size: int, bold: bool = True) -> int:
        font = _font(size, bold)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        draw.text(((WIDTH - (right - left)) // 2 - left, y - top), text, fill=0, font=font)
        return int(y + (bottom - top))

    y = centred(60, event, 40, bold=False) + 30
    y = centred(y, f"Table {table}", 110) + 20
    if division:
        y = centred(y, f"Division {division}", 44, bold=False)
    matrix = qr_matrix(url)
    scale = min(560 // len(matrix), 20)
    side = scale * len(matrix)
    left, top = (WIDTH - side) // 2, y + 40
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                draw.rectangle((left + c * scale, top + r * scale, left + (c + 1) * scale - 1,
                                top + (r + 1) * scale - 1), fill=0)
    y = centred(top + side + 20, url, 30, bold=False) + 50
    y = centred(y, f"PIN {pin}", 90) + 30
    centred(y, "Scan the code, open the page, type the PIN to play.", 26, bold=False)
    return img


def write_sheet(path: Path, **fields: Any) -> None:
    """Render the sheet (see `render_sheet`) and save it as a PNG with its print size (150 dpi)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    render_sheet(**fields).save(path, format="PNG", dpi=(150, 150))
    path.chmod(0o600)  # it shows the table's PIN: for the director's printer, not for everyone on the laptop
