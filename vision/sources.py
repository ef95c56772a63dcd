"""Frame sources behind one interface: Picamera2, V4L2 cameras through OpenCV, files and folders, synthetic.

`open_source(url)` picks one by URL, as pyserial's `serial_for_url` does for ports:
- `picamera2:` or `picamera2:1` the Pi camera (python3-picamera2 from apt; imported only here, lazily)
- `v4l2:0` or `v4l2:/dev/video2` a USB camera through OpenCV's V4L2 backend
- `files:/path/a.jpg,/path/b.png` or `files:/path/folder` replay of recorded frames, in name order
- `synthetic:seed=3` rendered boards (see `vision.synth`), for the simulated table and the tests
Every source returns BGR uint8 frames, the layout the rest of `vision` expects.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import FrameSourceError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource(Protocol):
    """Anything that hands out frames: `read()` the next one, `close()` when done."""

    name: str

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class FileSource:
    """Recorded frames from image files, in order; `loop=True` starts again after the last one."""

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
                paths += sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES)
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
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise FrameSourceError(f"{path}: cannot be read as an image")
        self.current = path
        return frame

    def __iter__(self) -> Iterator[np.ndarray]:
        while self._next < len(self.paths):
            yield self.read()

    def close(self) -> None:
        self._next = len(self.paths)


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
            self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*fourcc))
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


class Picamera2Source:
    """The Raspberry Pi camera through Picamera2 (imported only when this source is opened).

    Picamera2's "RGB888" format is, despite its name, laid out B, G, R in memory: exactly OpenCV's order.
    """

    def __init__(self, camera: int = 0, *, size: tuple[int, int] = (2028, 1520), module: Any = None) -> None:
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
            config = self._cam.create_still_configuration(main={"size": size, "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
        except (RuntimeError, IndexError, OSError) as exc:
            raise FrameSourceError(f"{self.name}: camera cannot be started ({exc})") from exc

    def read(self) -> np.ndarray:
        frame = self._cam.capture_array("main")
        if frame is None or frame.ndim != 3:
            raise FrameSourceError(f"{self.name}: the camera gave no frame")
        return np.ascontiguousarray(frame[..., :3])

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


def open_source(url: str) -> FrameSource:
    """A frame source by URL (see the module docstring)."""
    scheme, _, rest = url.partition(":")
    if scheme == "picamera2":
        return Picamera2Source(int(rest or 0))
    if scheme == "v4l2":
        return OpenCVSource(int(rest) if rest.isdigit() else (rest or 0))
    if scheme == "files":
        return FileSource.from_spec(rest)
    if scheme == "synthetic":
        from vision.synth import SyntheticSource

        options = dict(part.split("=", 1) for part in rest.split(",") if "=" in part)
        return SyntheticSource(seed=int(options.get("seed", 0)), tiles=options.get("tiles", "german"))
    raise FrameSourceError(f"unknown frame source {url!r}: use picamera2:, v4l2:N, files:PATH or synthetic:")
