"""Image files are sized from their header before any pixel is decoded."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import FrameSourceError
from vision.images import ImageTooLargeError, image_size, read_image


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header claims width x height; its one data chunk is a few bytes (a decoding bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = chunk(b"IDAT", zlib.compress(b"\0" * 64))
    data = chunk(b"IDAT", zlib.compress(b"\0" * 64))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + data + chunk(b"IEND", b""))


def test_a_huge_png_is_refused_from_its_header(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    _png_header_only(bomb, 30000, 30000)
    assert image_size(bomb) == (30000, 30000)
    with pytest.raises(ImageTooLargeError, match=r"bomb.png: the image is 30000x30000 \(900 megapixels\)"):
        read_image(bomb)


def test_a_frame_under_the_limit_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.full((30, 40, 3), 200, np.uint8))
    assert read_image(path).shape == (30, 40, 3)
    with pytest.raises(ImageTooLargeError, match="more than the 0 megapixels"):
        read_image(path, max_pixels=1000)


@pytest.mark.parametrize("content", [b"", b"not an image at all"])
def test_a_file_that_is_no_image_says_so(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.jpg"
    path.write_bytes(content)
    with pytest.raises(FrameSourceError, match=r"junk\.jpg: cannot be read as an image"):
        read_image(path)


def test_the_read_command_refuses_a_bomb(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main
    from vision.registration import calibrate
    from vision.synth import random_board, render_scene

    frame = render_scene(random_board(np.random.default_rng(1)), seed=1).frame
    calib = tmp_path / "calib.json"
    calibrate(frame).save(calib)
    bomb = tmp_path / "bomb.png"
    _png_header_only(bomb, 30000, 30000)
    assert main(["vision", "read", str(bomb), "--calibration", str(calib), "--tiles", "german"]) == 2
    assert "bomb.png: the image is 30000x30000" in capsys.readouterr().err


def test_jpeg_size_from_its_header(tmp_path: Path) -> None:
    path = tmp_path / "frame.jpg"
    cv2.imwrite(str(path), np.full((48, 64, 3), 90, np.uint8))
    assert image_size(path) == (64, 48)
