"""Frame sources behind one interface: Picamera2, V4L2 cameras through OpenCV, files and folders, synthetic.

`open_source(url)` picks one by URL, as pyserial's `serial_for_url` does for ports:
- `picamera2:` or `picamera2:1` the Pi camera (python3-picamera2 from apt; imported only here, lazily);
  `picamera2:?lens=2.0` fixes the focus of an autofocus camera (dioptres), `?size=2028x1520` the frame size
- `v4l2:0` or `v4l2:/dev/video2` a USB camera through OpenCV's V4L2 backend (MJPG, 1920x1080 unless
  `?size=1280x720` / `&fourcc=YUYV` say otherwise)
- `files:/path/a.jpg,/path/b.png` or `files:/path/folder` replay of recorded frames, a folder in natural order
  (`image-2` before `image-10`, `board-00` before `board-00a` before `board-01`: `natural_key`)
- `synthetic:seed=3` rendered boards (see `vision.synth`), for the simulated table and the tests
Every source returns BGR uint8 frames, the layout the rest of `vision` expects.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import FrameSourceError
from vision.images import read_image

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
_DIGITS = re.compile(r"(\d+)")


def natural_key(path: Path) -> tuple[object, ...]:
    """Sort key for photo names as people number them: runs of digits compare as numbers (`image-2` before
    `image-10`) and a name before the same name with a suffix (`board-00` before `board-00a` before `board-01`).
    Cameras and phones number without zero padding, so plain name order would put a game's tenth move second."""
    parts = _DIGITS.split(path.stem.casefold())
    key = tuple((int(p), p) if k % 2 else p for k, p in enumerate(parts))
    return (key, path.suffix.casefold(), path.name)


def image_files(folder: Path) -> list[Path]:
    """The image files of a folder (not its subfolders), in natural order (`natural_key`)."""
    return sorted((q for q in folder.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES and q.is_file()),
                  key=natural_key)


class FrameSource(Protocol):
    """Anything that hands out frames: `read()` the next one, `close()` when done."""

    name: str

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class FileSource:
    """Recorded frames from image files, in order (a folder's in natural order); `loop=True` starts again after
    the last one."""

    def __init__(self, paths: list[Path], loop: bool = False) -> None:
        if not paths:
            raise FrameSourceError("files: no image files given")
        self.paths = paths
        self.loop = loop
        self.name = f"files:{paths[0].parent}"
        self._next = 0
        self.current: Path | None = None

    @classmethod
    def from_spec(cls, spec: str, loop: bool = False) -> FileSource:
        paths: list[Path] = []
        for part in spec.split(","):
            p = Path(part)
            if p.is_dir():
                paths += image_files(p)
            elif p.is_file():
                paths.append(p)
            else:
                raise FrameSourceError(f"files: {p} is neither an image file nor a folder")
        if not paths:
            raise FrameSourceError(f"files: no images ({', '.join(IMAGE_SUFFIXES)}) in {spec}")
        return cls(paths, loop)

    def read(self) -> np.ndarray:
        if self._next >= len(self.paths):
            if not self.loop:
                raise FrameSourceError(f"{self.name}: no more frames (replayed all {len(self.paths)})")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        frame = read_image(path)
        self.current = path
        return frame

    def __iter__(self) -> Iterator[np.ndarray]:
        while self._next < len(self.paths):
            yield self.read()

    def close(self) -> None:
        self._next = len(self.paths)


class StillSource:
    """A photo in front of the camera: every `read()` returns the photo last `show`n, as a real camera returns the
    same board as long as nobody touches it. Replaying a photographed game (`referee vision replay`) lays one
    photo down per turn, and the table may look as often as it likes without using up the next move's photo.
    The decoded photo is kept, so a second look costs no decoding."""

    def __init__(self, name: str = "photos") -> None:
        self.name = name
        self.current: Path | None = None
        self._frame: np.ndarray | None = None

    def show(self, path: Path) -> None:
        """Put `path` in front of the camera (decoded now: a bad file is a `VisionError` naming it)."""
        self._frame = read_image(path)
        self.current = path

    def read(self) -> np.ndarray:
        if self._frame is None:
            raise FrameSourceError(f"{self.name}: no photo shown yet")
        return self._frame

    def close(self) -> None:
        self._frame = None


class OpenCVSource:
    """A V4L2 (USB) camera through OpenCV's VideoCapture. `capture_factory` lets tests hand in a fake.

    Fresh frames: OpenCV's V4L2 backend streams into a ring of driver buffers (4 by default) and `read()`
    dequeues the *oldest* filled one, so at one read a second a plain `read()` returns a frame taken about a
    second earlier, before the tile was laid. We ask for one buffer (CAP_PROP_BUFFERSIZE=1, which the V4L2
    backend supports from OpenCV 3.4.2 on: a value from 1 to its maximum, applied by restarting the stream) and
    still drain what may be queued before each read: `grab()` as many times as the driver may hold buffers
    (the count OpenCV reports, or its default of 4 if it reports none) plus one for a driver that grants more
    than asked, so the frame `read()` returns went into a buffer re-queued during this call: taken after the
    call began. `grab()` does not decode, so draining costs a frame period or two, not a decode per buffer.

    MJPG: USB 2 carries 1080p YUYV at about 5 fps; MJPG at the requested size runs at the camera's full rate.
    What the camera actually granted (size, pixel format, rate, buffers) is in `granted` and logged.
    """

    DEFAULT_BUFFERS = 4  # OpenCV's V4L2 backend's buffer count when CAP_PROP_BUFFERSIZE is not reported

    def __init__(
        self,
        device: int | str = 0,
        *,
        width: int = 1920,
        height: int = 1080,
        fourcc: str = "MJPG",
        capture_factory: Callable[..., Any] | None = None,
    ) -> None:
        factory = capture_factory or (lambda dev: cv2.VideoCapture(dev, cv2.CAP_V4L2))
        self.name = f"v4l2:{device}"
        self._cap = factory(device)
        if not self._cap.isOpened():
            self._cap.release()
            raise FrameSourceError(f"{self.name}: camera cannot be opened (is it plugged in, is it busy?)")
        try:
            # The pixel format first: the sizes a camera offers depend on it (many offer 1080p only in MJPG).
            self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*fourcc))  # type: ignore[attr-defined]  # not in OpenCV's stubs
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
            self.granted = self._granted()
        except BaseException:
            self._cap.release()
            raise
        buffers = self.granted["buffers"]
        self._drain = (buffers if isinstance(buffers, int) and buffers >= 1 else self.DEFAULT_BUFFERS) + 1
        g = self.granted
        log.info("%s: %sx%s %s at %s fps, %s driver buffer(s)", self.name, g["width"], g["height"], g["fourcc"],
                 g["fps"], g["buffers"] or "?")
        if (g["width"], g["height"]) != (width, height) or g["fourcc"] != fourcc:
            log.warning("%s: asked for %dx%d %s, the camera gives %sx%s %s", self.name, width, height, fourcc,
                        g["width"], g["height"], g["fourcc"])

    def _granted(self) -> dict[str, Any]:
        code = int(self._cap.get(cv2.CAP_PROP_FOURCC))
        fourcc = "".join(chr((code >> (8 * k)) & 0xFF) for k in range(4)).strip("\0 ") or "?"
        return {"width": int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                "height": int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
                "fourcc": fourcc, "fps": round(float(self._cap.get(cv2.CAP_PROP_FPS)), 1),
                "buffers": int(self._cap.get(cv2.CAP_PROP_BUFFERSIZE))}

    def read(self) -> np.ndarray:
        """A frame taken after this call began (the driver's queued frames are dropped first)."""
        for _ in range(self._drain):
            if not self._cap.grab():
                raise FrameSourceError(f"{self.name}: the camera gave no frame")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise FrameSourceError(f"{self.name}: the camera gave no frame")
        return frame

    def close(self) -> None:
        self._cap.release()


# libcamera's AfModeEnum values (controls::AfModeManual, AfModeContinuous), used when `libcamera` itself cannot
# be imported (a fake module in the tests); Picamera2 accepts the plain integers for enum controls.
AF_MANUAL, AF_CONTINUOUS = 0, 2


class Picamera2Source:
    """The Raspberry Pi camera through Picamera2 (imported only when this source is opened).

    Picamera2's "RGB888" format is, despite its name, laid out B, G, R in memory: exactly OpenCV's order.

    Fresh frames. Read in Picamera2's own source (picamera2.py): `capture_array()` pops the first request in
    `completed_requests`. With the still configuration's single buffer nothing is kept there
    (`_max_queue_len` is 0 when buffer_count is 1), so it waits for the next frame to *complete*, but that
    frame's exposure may have begun before the call (up to a frame period, longer in dim light); with more
    buffers and `queue=True` it may be a frame completed long before. `capture_request(flush=True)` drops every
    request whose exposure started (SensorTimestamp - ExposureTime) before the call, so we use it, and on a
    Picamera2 too old to know `flush` we throw one captured frame away and take the next. `wait` bounds the
    wait (a camera whose cable came out never completes a request).

    Focus. A camera with autofocus (Camera Module 3) lists "AfMode" in `camera_controls`: it is set to
    continuous autofocus, or to manual at `lens_position` (dioptres, 1/metres: a board 50 cm below is 2.0)
    when given. A camera without autofocus has no "AfMode" and is left alone (`lens_position` then ignored).
    """

    CAPTURE_TIMEOUT_S = 5.0

    def __init__(self, camera: int = 0, *, size: tuple[int, int] = (2028, 1520), lens_position: float | None = None,
                 module: Any = None) -> None:
        self.name = f"picamera2:{camera}"
        if module is None:
            try:
                module = importlib.import_module("picamera2")
            except ImportError as exc:
                raise FrameSourceError(
                    f"{self.name}: Picamera2 is not installed (on a Pi: sudo apt install python3-picamera2)"
                ) from exc
        try:
            self._cam = module.Picamera2(camera)
        except (RuntimeError, IndexError, OSError) as exc:
            raise FrameSourceError(f"{self.name}: no such camera, or it is busy ({exc})") from exc
        try:
            config = self._cam.create_still_configuration(main={"size": size, "format": "RGB888"})
            self._cam.configure(config)
            self.focus = self._set_focus(lens_position)
            self._cam.start()
        except BaseException as exc:
            # The camera is acquired: left open, it stays busy for the next try in this process.
            with contextlib.suppress(Exception):
                self._cam.close()
            if isinstance(exc, RuntimeError | IndexError | OSError | ValueError):
                raise FrameSourceError(f"{self.name}: camera cannot be started ({exc})") from exc
            raise
        try:
            self._flush = "flush" in inspect.signature(self._cam.capture_request).parameters
        except (AttributeError, TypeError, ValueError):
            self._flush = False
        log.info("%s: %dx%d, focus %s", self.name, size[0], size[1], self.focus)

    def _set_focus(self, lens_position: float | None) -> str:
        controls = getattr(self._cam, "camera_controls", None) or {}
        if "AfMode" not in controls:
            if lens_position is not None:
                log.warning("%s: this camera has no focus control; lens=%s is ignored", self.name, lens_position)
            return "fixed (no autofocus)"
        try:
            modes = importlib.import_module("libcamera").controls.AfModeEnum
            manual, continuous = modes.Manual, modes.Continuous
        except (ImportError, AttributeError):
            manual, continuous = AF_MANUAL, AF_CONTINUOUS
        if lens_position is None:
            self._cam.set_controls({"AfMode": continuous})
            return "continuous autofocus"
        low, high = (float(v) for v in controls.get("LensPosition", (0.0, 32.0))[:2])
        position = min(max(float(lens_position), low), high)
        if position != lens_position:
            log.warning("%s: lens=%s is outside %s..%s; using %s", self.name, lens_position, low, high, position)
        self._cam.set_controls({"AfMode": manual, "LensPosition": position})
        return f"fixed at {position} dioptres"

    def _capture(self) -> Any:
        cam = self._cam
        if not self._flush:  # Picamera2 without `flush`: the first frame may have begun before the call
            cam.capture_array("main")
            return cam.capture_array("main")
        request = cam.capture_request(flush=True, wait=self.CAPTURE_TIMEOUT_S)
        try:
            return request.make_array("main")
        finally:
            request.release()

    def read(self) -> np.ndarray:
        """A frame whose exposure began after this call."""
        try:
            frame = self._capture()
        except TimeoutError as exc:
            with contextlib.suppress(Exception):
                self._cam.cancel_all_and_flush()
            raise FrameSourceError(f"{self.name}: no frame within {self.CAPTURE_TIMEOUT_S:g} s "
                                   "(is the camera cable seated?)") from exc
        except RuntimeError as exc:
            raise FrameSourceError(f"{self.name}: the camera gave no frame ({exc})") from exc
        if frame is None or frame.ndim != 3:
            raise FrameSourceError(f"{self.name}: the camera gave no frame")
        return np.ascontiguousarray(frame[..., :3])

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


CAMERA_OPTIONS = {"picamera2": ("size", "lens"), "v4l2": ("size", "fourcc")}
ACCEPTED = ("picamera2: or picamera2:N, v4l2:N or v4l2:/dev/..., files:PATH or synthetic:; a camera may take "
            "?size=WxH (both), &lens=DIOPTRES (picamera2) or &fourcc=MJPG (v4l2)")


def _options(url: str, scheme: str, query: str) -> dict[str, Any]:
    """`size=1280x720&lens=2.0` checked for `scheme`: a bad value names itself and what is accepted."""
    out: dict[str, Any] = {}
    for part in filter(None, query.split("&")):
        key, _, value = part.partition("=")
        if key not in CAMERA_OPTIONS[scheme]:
            raise FrameSourceError(f"{url}: unknown option {key!r}; {scheme}: takes "
                                   + ", ".join(CAMERA_OPTIONS[scheme]))
        try:
            if key == "size":
                w, _, h = value.lower().partition("x")
                out["size"] = (int(w), int(h))
                if min(out["size"]) <= 0:
                    raise ValueError
            elif key == "lens":
                out["lens_position"] = float(value)
                if not 0.0 <= out["lens_position"] <= 100.0:
                    raise ValueError
            elif key == "fourcc":
                if len(value) != 4:
                    raise ValueError
                out["fourcc"] = value
        except ValueError:
            hint = {"size": "WIDTHxHEIGHT in pixels, e.g. 1920x1080", "lens": "a lens position in dioptres, "
                    "0 (infinity) to about 15, e.g. 2.0 for a board 50 cm away", "fourcc": "four letters, e.g. MJPG"}
            raise FrameSourceError(f"{url}: {key}={value!r} is not valid; {key} is {hint[key]}") from None
    return out


def check_source(url: str) -> tuple[str, str, dict[str, Any]]:
    """Check a frame source URL without opening a camera: (scheme, target, options), or a FrameSourceError
    that names the bad part and what is accepted (for `files:`, a missing file or folder). A camera URL that
    passes may still fail to open (no camera there, or busy): that one is worth retrying."""
    scheme, sep, rest = url.partition(":")
    if not sep or scheme not in ("picamera2", "v4l2", "files", "synthetic"):
        raise FrameSourceError(f"unknown frame source {url!r}: use {ACCEPTED}")
    if scheme in CAMERA_OPTIONS:
        target, _, query = rest.partition("?")
        options = _options(url, scheme, query)
        if scheme == "picamera2" and target and not target.isdigit():
            raise FrameSourceError(f"{url}: {target!r} is not a camera number: use picamera2: for the first camera "
                                   "or picamera2:N, N = 0, 1, ... as `rpicam-hello --list-cameras` numbers them")
        if scheme == "v4l2" and target and not (target.isdigit() or target.startswith("/")):
            raise FrameSourceError(f"{url}: {target!r} is neither a device number nor a device path: use v4l2:N "
                                   "(/dev/videoN) or v4l2:/dev/v4l/by-id/... (`ls /dev/v4l/by-id/`)")
        return scheme, target, options
    if scheme == "files":
        FileSource.from_spec(rest)  # recorded frames are there or not: no use waiting for them (reads nothing)
    return scheme, rest, {}


def open_source(url: str) -> FrameSource:
    """A frame source by URL (see the module docstring)."""
    scheme, rest, options = check_source(url)
    if scheme == "picamera2":
        return Picamera2Source(int(rest or 0), **options)
    if scheme == "v4l2":
        size = options.pop("size", None)
        if size is not None:
            options["width"], options["height"] = size
        return OpenCVSource(int(rest) if rest.isdigit() else (rest or 0), **options)
    if scheme == "files":
        return FileSource.from_spec(rest)
    from vision.synth import SyntheticSource

    named = dict(part.split("=", 1) for part in rest.split(",") if "=" in part)
    return SyntheticSource(seed=int(named.get("seed", 0)), tiles=named.get("tiles", "german"))
