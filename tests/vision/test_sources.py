"""Frame sources: replay from files, and the real drivers against fakes of the libraries they call."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from vision.classifier import TileClassifier
from vision.errors import FrameSourceError
from vision.sources import FileSource, OpenCVSource, Picamera2Source, open_source
from vision.synth import SyntheticSource


def test_folder_replay_in_name_order(tmp_path: Path) -> None:
    for k, name in enumerate(["b.png", "a.png", "c.jpg"]):
        cv2.imwrite(str(tmp_path / name), np.full((20, 30, 3), 10 * k, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image", encoding="utf-8")
    source = open_source(f"files:{tmp_path}")
    assert isinstance(source, FileSource)
    frames = [source.read() for _ in range(3)]
    assert [int(f[0, 0, 0]) for f in frames] == [10, 0, 20]
    with pytest.raises(FrameSourceError, match="no more frames"):
        source.read()


def test_missing_files_and_unknown_sources_are_clear(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="neither an image file nor a folder"):
        open_source(f"files:{tmp_path / 'nope.jpg'}")
    with pytest.raises(FrameSourceError, match="no images"):
        open_source(f"files:{tmp_path}")
    with pytest.raises(FrameSourceError, match="unknown frame source"):
        open_source("rtsp://camera")


class FakeCapture:
    """Stands in for cv2.VideoCapture: records the properties set, hands out scripted frames."""

    def __init__(self, frames: list[np.ndarray | None], opened: bool = True) -> None:
        self.frames = frames
        self.opened = opened
        self.props: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        frame = self.frames.pop(0) if self.frames else None
        return frame is not None, frame

    def release(self) -> None:
        self.released = True


def test_v4l2_source_against_a_fake_capture() -> None:
    fake = FakeCapture([np.zeros((4, 4, 3), np.uint8)])
    seen: list[Any] = []
    source = OpenCVSource(2, width=1280, height=720, capture_factory=lambda dev: seen.append(dev) or fake)
    assert seen == [2] and fake.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    assert source.read().shape == (4, 4, 3)
    with pytest.raises(FrameSourceError, match="gave no frame"):
        source.read()
    source.close()
    assert fake.released
    with pytest.raises(FrameSourceError, match="cannot be opened"):
        OpenCVSource(0, capture_factory=lambda dev: FakeCapture([], opened=False))


class FakePicamera2:
    instances: ClassVar[list[FakePicamera2]] = []

    def __init__(self, camera: int) -> None:
        self.camera = camera
        self.config: dict[str, Any] | None = None
        self.started = self.closed = False
        FakePicamera2.instances.append(self)

    def create_still_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        return np.full((6, 8, 4), 7, np.uint8)  # XBGR8888-like: a fourth channel to drop

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


class FakeModule:
    Picamera2 = FakePicamera2


def test_picamera2_source_against_a_fake_module() -> None:
    source = Picamera2Source(1, size=(640, 480), module=FakeModule())
    cam = FakePicamera2.instances[-1]
    assert cam.camera == 1 and cam.started
    assert cam.config == {"main": {"size": (640, 480), "format": "RGB888"}}
    frame = source.read()
    assert frame.shape == (6, 8, 3) and frame.flags["C_CONTIGUOUS"]
    source.close()
    assert cam.closed


def test_picamera2_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_picamera(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "picamera2":
            raise ImportError("No module named 'picamera2'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera)
    with pytest.raises(FrameSourceError, match="python3-picamera2"):
        Picamera2Source(0)


def test_synthetic_source_grows_a_game() -> None:
    source = open_source("synthetic:seed=3")
    assert isinstance(source, SyntheticSource)
    first, second = source.read(), source.read()
    assert first.shape == second.shape and first.dtype == np.uint8
    assert source.last is not None
    assert sum(ch != "." for row in source.last.board for ch in row) == 10


def test_synthetic_camera_films_the_board_it_is_given(german_model: TileClassifier) -> None:
    from vision.reader import BoardReader
    from vision.registration import calibrate

    rows = ["." * 15] * 15
    source = SyntheticSource(seed=5, board=lambda: rows)
    reader = BoardReader(calibrate(source.read()), german_model)
    rows = [*rows[:7], ".....QUARK.....", *rows[8:]]
    assert reader.read(source.read()).board == rows
