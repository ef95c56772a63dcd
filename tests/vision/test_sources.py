"""Frame sources: replay from files, and the real drivers against fakes of the libraries they call."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from vision.classifier import TileClassifier
from vision.errors import FrameSourceError
from vision.sources import (
    FileSource,
    OpenCVSource,
    Picamera2Source,
    StillSource,
    check_source,
    natural_key,
    open_source,
)
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


def test_a_folder_plays_in_natural_order(tmp_path: Path) -> None:
    """Photos numbered without zero padding (a phone's image-2 ... image-10) and a photo slipped in between
    two (board-00a) play in the order they were taken, not in plain name order."""
    names = ["image-10.jpg", "image-2.jpg", "image-1.jpg", "board-01.png", "board-00a.png", "board-00.png"]
    for k, name in enumerate(names):
        cv2.imwrite(str(tmp_path / name), np.full((20, 30, 3), 10 * k, np.uint8))
    source = open_source(f"files:{tmp_path}")
    assert isinstance(source, FileSource)
    assert [p.name for p in source.paths] == ["board-00.png", "board-00a.png", "board-01.png",
                                              "image-1.jpg", "image-2.jpg", "image-10.jpg"]
    assert sorted([Path("IMG_9.JPG"), Path("img_10.jpg")], key=natural_key) == [Path("IMG_9.JPG"), Path("img_10.jpg")]


def test_a_still_photo_is_read_again_until_the_next_is_shown(tmp_path: Path) -> None:
    for k in range(2):
        cv2.imwrite(str(tmp_path / f"{k}.png"), np.full((20, 30, 3), 10 * k + 5, np.uint8))
    still = StillSource()
    with pytest.raises(FrameSourceError, match="no photo shown yet"):
        still.read()
    still.show(tmp_path / "0.png")
    assert int(still.read()[0, 0, 0]) == int(still.read()[0, 0, 0]) == 5
    still.show(tmp_path / "1.png")
    assert int(still.read()[0, 0, 0]) == 15 and still.current == tmp_path / "1.png"
    with pytest.raises(FrameSourceError, match="cannot be read"):
        (tmp_path / "bad.png").write_bytes(b"not a png")
        still.show(tmp_path / "bad.png")


def test_missing_files_and_unknown_sources_are_clear(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="neither an image file nor a folder"):
        open_source(f"files:{tmp_path / 'nope.jpg'}")
    with pytest.raises(FrameSourceError, match="no images"):
        open_source(f"files:{tmp_path}")
    with pytest.raises(FrameSourceError, match="unknown frame source"):
        open_source("rtsp://camera")


class FakeCapture:
    """Stands in for cv2.VideoCapture on the V4L2 backend: a ring of driver buffers that the camera fills while
    time passes (`advance`), `grab()` re-queueing the buffer it held and dequeuing the oldest filled one (or
    waiting one frame period when none is filled), as OpenCV's cap_v4l does. Frame k is filled with k."""

    def __init__(self, frames: int | None = None, opened: bool = True, buffers: int = 4,
                 honours_buffersize: bool = True, grants: dict[int, float] | None = None) -> None:
        self.opened = opened
        self.buffers = buffers
        self.honours_buffersize = honours_buffersize
        self.grants = grants or {}  # properties the camera answers differently from what was asked
        self.props: dict[int, float] = {}
        self.released = False
        self.now = 0  # the number of the frame the camera is exposing
        self.filled: list[int] = []  # frame numbers in filled buffers, oldest first
        self.held: int | None = None
        self.free = buffers
        self.frames_left = frames  # None: a camera that never stops; N: N frames, then unplugged

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        if prop == cv2.CAP_PROP_BUFFERSIZE:
            if not self.honours_buffersize:
                return False
            self.buffers = self.free = int(value)
            self.filled = []
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        if prop in self.grants:
            return self.grants[prop]
        if prop == cv2.CAP_PROP_BUFFERSIZE:
            return self.buffers if self.honours_buffersize else 0
        if prop == cv2.CAP_PROP_FPS:
            return 30.0
        return self.props.get(prop, 0.0)

    def advance(self, frames: int) -> None:
        """Time passes: the camera fills the buffers queued to it, one frame each, the rest are dropped."""
        for k in range(min(self.free, frames)):
            self.filled.append(self.now + k + 1)
        self.free -= min(self.free, frames)
        self.now += frames

    def grab(self) -> bool:
        if self.frames_left is not None:
            if self.frames_left == 0:
                return False
            self.frames_left -= 1
        if self.held is not None:
            self.free += 1
            self.held = None
        if not self.filled:
            self.advance(1)  # wait for the next frame
        self.held = self.filled.pop(0)
        return True

    def retrieve(self) -> tuple[bool, np.ndarray | None]:
        if self.held is None:
            return False, None
        return True, np.full((4, 4, 3), self.held % 256, np.uint8)

    def read(self) -> tuple[bool, np.ndarray | None]:
        return self.retrieve() if self.grab() else (False, None)

    def release(self) -> None:
        self.released = True


def test_v4l2_source_against_a_fake_capture() -> None:
    fake = FakeCapture(frames=3)
    seen: list[Any] = []
    source = OpenCVSource(2, width=1280, height=720, capture_factory=lambda dev: seen.append(dev) or fake)
    assert seen == [2] and fake.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    assert source.read().shape == (4, 4, 3)
    with pytest.raises(FrameSourceError, match="gave no frame"):
        source.read()
    source.close()
    assert fake.released
    unplugged = FakeCapture(opened=False)
    with pytest.raises(FrameSourceError, match="cannot be opened"):
        OpenCVSource(0, capture_factory=lambda dev: unplugged)
    assert unplugged.released  # nothing half-open is left behind


def test_the_fake_driver_queue_hands_out_stale_frames_to_a_plain_read() -> None:
    """The problem the source works around: four buffers filled a second ago come out first."""
    fake = FakeCapture()
    fake.read()
    fake.advance(30)  # a second at 30 fps; the four free buffers hold frames 2..5
    ok, frame = fake.read()
    assert ok and frame is not None and int(frame[0, 0, 0]) == 2


@pytest.mark.parametrize("honours", [True, False])
def test_v4l2_read_returns_a_frame_taken_after_the_call(honours: bool) -> None:
    fake = FakeCapture(honours_buffersize=honours)
    source = OpenCVSource(0, capture_factory=lambda dev: fake)
    assert fake.props.get(cv2.CAP_PROP_BUFFERSIZE) == (1 if honours else None)
    source.read()
    for _ in range(3):
        fake.advance(30)  # a second passes between reads; a tile is laid meanwhile
        called_at = fake.now
        assert int(source.read()[0, 0, 0]) > called_at


def test_v4l2_asks_for_mjpg_at_the_size_and_reports_what_it_got(caplog: pytest.LogCaptureFixture) -> None:
    mjpg = cv2.VideoWriter_fourcc(*"MJPG")
    fake = FakeCapture()
    source = OpenCVSource(0, width=1920, height=1080, capture_factory=lambda dev: fake)
    assert fake.props[cv2.CAP_PROP_FOURCC] == mjpg
    assert source.granted == {"width": 1920, "height": 1080, "fourcc": "MJPG", "fps": 30.0, "buffers": 1}
    yuyv = cv2.VideoWriter_fourcc(*"YUYV")
    small = FakeCapture(grants={cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 720,
                                cv2.CAP_PROP_FOURCC: yuyv})
    with caplog.at_level("WARNING", logger="vision.sources"):
        source = OpenCVSource(0, capture_factory=lambda dev: small)
    assert source.granted["width"] == 1280 and source.granted["fourcc"] == "YUYV"
    assert "asked for 1920x1080 MJPG, the camera gives 1280x720 YUYV" in caplog.text


class FakeRequest:
    def __init__(self, cam: FakePicamera2, started: int) -> None:
        self.cam, self.started = cam, started

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        return np.full((6, 8, 4), self.started, np.uint8)  # XBGR8888-like: a fourth channel to drop

    def release(self) -> None:
        self.cam.released += 1


class FakePicamera2:
    """Stands in for picamera2.Picamera2. Frames are numbered by when their exposure started: `now` is the
    number of the frame being exposed when a capture is asked for, which began *before* the call."""

    instances: ClassVar[list[FakePicamera2]] = []
    controls: ClassVar[dict[str, tuple[Any, ...]]] = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
    fail_in: ClassVar[str] = ""  # "configure" or "start": that call raises, as a camera in use does

    def __init__(self, camera: int) -> None:
        self.camera = camera
        self.config: dict[str, Any] | None = None
        self.started = self.closed = False
        self.set: dict[str, Any] = {}
        self.now = 40
        self.released = 0
        self.captures: list[dict[str, Any]] = []
        self.hangs = False
        self.cancelled = False
        FakePicamera2.instances.append(self)

    @property
    def camera_controls(self) -> dict[str, tuple[Any, ...]]:
        return dict(self.controls)

    def create_still_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        if self.fail_in == "configure":
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        self.config = config

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.set.update(controls)

    def start(self) -> None:
        if self.fail_in == "start":
            raise RuntimeError("camera.start() failed")
        self.started = True

    def _next(self) -> int:
        started, self.now = self.now, self.now + 1  # the frame being exposed completes; the next one starts
        return started

    def capture_request(self, wait: Any = None, signal_function: Any = None, flush: Any = None) -> FakeRequest:
        self.captures.append({"wait": wait, "flush": flush})
        if self.hangs:
            raise TimeoutError("Job timed out")
        if flush is True:
            self._next()  # Picamera2 drops the frame whose exposure began before the call
        return FakeRequest(self, self._next())

    def cancel_all_and_flush(self) -> None:
        self.cancelled = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


class OldPicamera2(FakePicamera2):
    """A Picamera2 from before `flush`: capture_array only, returning the next frame to complete."""

    capture_request = None  # type: ignore[assignment]

    def capture_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        return np.full((6, 8, 4), self._next(), np.uint8)


def fake_module(cls: type[FakePicamera2] = FakePicamera2, **attrs: Any) -> Any:
    return type("FakeModule", (), {"Picamera2": type(cls.__name__, (cls,), attrs)})()


def test_picamera2_source_against_a_fake_module() -> None:
    source = Picamera2Source(1, size=(640, 480), module=fake_module())
    cam = FakePicamera2.instances[-1]
    assert cam.camera == 1 and cam.started
    assert cam.config == {"main": {"size": (640, 480), "format": "RGB888"}}
    frame = source.read()
    assert frame.shape == (6, 8, 3) and frame.flags["C_CONTIGUOUS"]
    assert cam.captures == [{"wait": Picamera2Source.CAPTURE_TIMEOUT_S, "flush": True}] and cam.released == 1
    source.close()
    assert cam.closed


@pytest.mark.parametrize("cls", [FakePicamera2, OldPicamera2])
def test_picamera2_read_returns_a_frame_begun_after_the_call(cls: type[FakePicamera2]) -> None:
    source = Picamera2Source(0, module=fake_module(cls))
    cam = FakePicamera2.instances[-1]
    for _ in range(3):
        called_at = cam.now  # that frame's exposure began before this read was asked for
        assert int(source.read()[0, 0, 0]) > called_at


def test_picamera2_that_hangs_is_a_frame_source_error() -> None:
    source = Picamera2Source(0, module=fake_module())
    cam = FakePicamera2.instances[-1]
    cam.hangs = True
    with pytest.raises(FrameSourceError, match="no frame within 5 s"):
        source.read()
    assert cam.cancelled


@pytest.mark.parametrize("where", ["configure", "start"])
def test_picamera2_failing_to_start_is_closed_again(where: str) -> None:
    with pytest.raises(FrameSourceError, match="cannot be started"):
        Picamera2Source(0, module=fake_module(fail_in=where))
    cam = FakePicamera2.instances[-1]
    assert cam.closed and not cam.started  # released: a retry in this process can acquire it


def test_picamera2_autofocus_continuous_or_a_fixed_lens_position(caplog: pytest.LogCaptureFixture) -> None:
    source = Picamera2Source(0, module=fake_module())
    assert FakePicamera2.instances[-1].set == {"AfMode": 2} and source.focus == "continuous autofocus"
    source = Picamera2Source(0, lens_position=2.0, module=fake_module())
    assert FakePicamera2.instances[-1].set == {"AfMode": 0, "LensPosition": 2.0}
    with caplog.at_level("WARNING", logger="vision.sources"):
        Picamera2Source(0, lens_position=40.0, module=fake_module())
    assert FakePicamera2.instances[-1].set["LensPosition"] == 15.0 and "outside 0.0..15.0" in caplog.text


def test_picamera2_without_autofocus_is_left_alone(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="vision.sources"):
        source = Picamera2Source(0, lens_position=2.0, module=fake_module(controls={"ExposureTime": (1, 9, 5)}))
    cam = FakePicamera2.instances[-1]
    assert cam.set == {} and cam.started and source.focus == "fixed (no autofocus)"
    assert "no focus control; lens=2.0 is ignored" in caplog.text


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


@pytest.mark.parametrize(("url", "says"), [
    ("picamera2:abc", "'abc' is not a camera number: use picamera2: for the first camera or picamera2:N"),
    ("v4l2:cam", "'cam' is neither a device number nor a device path: use v4l2:N"),
    ("picamera2:0?lens=near", "lens='near' is not valid; lens is a lens position in dioptres"),
    ("v4l2:0?size=big", "size='big' is not valid; size is WIDTHxHEIGHT in pixels"),
    ("v4l2:0?lens=2", "unknown option 'lens'; v4l2: takes size, fourcc"),
    ("camera", "unknown frame source 'camera': use picamera2: or picamera2:N"),
])
def test_a_bad_camera_url_names_the_bad_value_and_what_is_accepted(url: str, says: str) -> None:
    with pytest.raises(FrameSourceError, match=re.escape(says)):
        check_source(url)
    with pytest.raises(FrameSourceError, match=re.escape(says)):
        open_source(url)  # refused before any camera library is touched


def test_camera_url_options_reach_the_source(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.sources as sources

    opened: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(sources, "Picamera2Source", lambda cam, **kw: opened.append((cam, kw)))
    monkeypatch.setattr(sources, "OpenCVSource", lambda dev, **kw: opened.append((dev, kw)))
    open_source("picamera2:1?lens=2.5&size=1332x990")
    open_source("v4l2:/dev/v4l/by-id/usb-cam-video-index0?size=1280x720&fourcc=YUYV")
    open_source("v4l2:")
    assert opened == [(1, {"lens_position": 2.5, "size": (1332, 990)}),
                      ("/dev/v4l/by-id/usb-cam-video-index0", {"width": 1280, "height": 720, "fourcc": "YUYV"}),
                      (0, {})]
