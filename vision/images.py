"""Reading image files without trusting their size: the header is read first, the pixels only if few enough.

A 30000 x 30000 PNG is a few kilobytes on disk and 2.7 GB of pixels once decoded (about 7 GB at OpenCV's
peak): one such file in a replay folder or on the command line would take the Pi down. Pillow reads the
header without decoding; OpenCV decodes only frames under `MAX_PIXELS`.
"""

from __future__ import annotations

import struct
import warnings
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

from vision.errors import FrameSourceError

MAX_PIXELS = 50_000_000  # 50 megapixels: four times a 12 MP Pi camera frame, 150 MB once decoded


class ImageTooLargeError(FrameSourceError):
    """An image file whose header announces more pixels than a frame may have."""


def image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) from the file's header, without decoding its pixels.

    PNG and JPEG (what cameras and the replay folders hold) are read here, a few hundred bytes at most;
    other formats through Pillow's lazy open."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
                width, height = struct.unpack(">II", head[16:24])
                return int(width), int(height)
            if head.startswith(b"\xff\xd8"):
                size = _jpeg_size(f)
                if size is not None:
                    return size
    except FileNotFoundError:
        raise FrameSourceError(f"{path}: no such image file") from None
    except OSError as exc:
        raise FrameSourceError(f"{path}: cannot be read ({exc.strerror})") from None
    return _pillow_size(path)


def _jpeg_size(f: BinaryIO) -> tuple[int, int] | None:
    """Width and height from a JPEG's first start-of-frame marker (segments before it are skipped)."""
    f.seek(2)
    while True:
        marker = f.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            return None
        kind = marker[1]
        if kind in (0xD8, 0x01) or 0xD0 <= kind <= 0xD7:
            continue  # markers without a length
        length_bytes = f.read(2)
        if len(length_bytes) < 2:
            return None
        (length,) = struct.unpack(">H", length_bytes)
        if kind in _JPEG_SOF:
            data = f.read(5)
            if len(data) < 5:
                return None
            height, width = struct.unpack(">HH", data[1:5])
            return int(width), int(height)
        f.seek(length - 2, 1)


_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _pillow_size(path: str | Path) -> tuple[int, int]:
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                return int(img.size[0]), int(img.size[1])
    except Image.DecompressionBombError as exc:
        raise ImageTooLargeError(f"{path}: the image is far too large to decode ({exc})") from None
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise FrameSourceError(f"{path}: cannot be read as an image ({exc})") from None


def read_image(path: str | Path, *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """The image at `path` as a BGR array; refused before decoding if it has more than `max_pixels` pixels."""
    w, h = image_size(path)
    if w * h > max_pixels:
        raise ImageTooLargeError(
            f"{path}: the image is {w}x{h} ({w * h / 1e6:.0f} megapixels), more than the "
            f"{max_pixels / 1e6:.0f} megapixels a camera frame may have; refused before decoding"
        )
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise FrameSourceError(f"{path}: cannot be read as an image")
    return frame
