"""The table's eyes: the camera as the referee uses it (the simulated table's own is referee/sim/camera.py).

`CameraPort` turns frames into `CameraSquare`s for `referee.fusion`. It reads a fresh frame when
a turn is committed (so letters are current at the moment that matters) and otherwise every
`interval_s`, and reports itself lost after `lost_after` failed reads in a row, so the table can
say "the camera is not sending pictures" instead of scoring on stale letters.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from referee.fusion import CameraSquare
from referee.ports import BoardReaderPort, BoardSeen, DiceReaderPort, DieSeen, FrameSource

log = logging.getLogger(__name__)


def camera_squares(reading: BoardSeen) -> dict[str, CameraSquare] | None:
    """A `vision` BoardReading as camera squares; None for an occluded frame (a hand over the board),
    which must not change what the table believes. Squares outside the frame are marked `unseen`."""
    if reading.occluded:
        return None
    uncertain = set(reading.uncertain)
    unseen = set(getattr(reading, "unseen", ()))  # squares a frame that cuts the board does not show
    out: dict[str, CameraSquare] = {}
    for name, sq in reading.squares.items():
        out[name] = CameraSquare(bool(sq.occupied), sq.letter, float(sq.confidence),
                                 bool(sq.uncertain) or name in uncertain, name in unseen)
    return out


class CameraPort:
    """A frame source and a board reader, with failure counting. Thread-safe."""

    def __init__(self, source: FrameSource, reader: BoardReaderPort, lost_after: int = 3,
                 dice_reader: DiceReaderPort | None = None) -> None:
        self.source = source
        self.reader = reader
        self.dice_reader = dice_reader  # Scramble: a vision.DiceReader for the dice tray, or None
        self.rack_reader: DiceReaderPort | None = None  # a vision.DiceReader on the area racks are laid at the end
        self.lost_after = lost_after
        self.failures = 0
        self.frames = 0
        self.last: dict[str, CameraSquare] | None = None
        self.last_at: float | None = None  # when the frame behind `last` was taken (the `clock`'s time)
        # Why the frame read last could not be used ("" when it could): the reader's notes for a frame it does not
        # trust (a hand, blur, something covers), or the error of a failed read. A commit must not score a board
        # the camera could not see at the press on an older frame (TableService.commit says so instead).
        self.blind = ""
        self.blind_squares: list[str] = []  # the squares the reader doubted in that frame
        self.clock = time.monotonic
        self._lock = threading.Lock()
        self._closed = False

    @property
    def up(self) -> bool:
        return self.failures < self.lost_after

    def read(self) -> dict[str, CameraSquare] | None:
        """Read one frame. Returns the squares, or None (occluded, or the read failed: counted)."""
        with self._lock:
            taken = self.clock()
            try:
                frame = self.source.read()
                reading = self.reader.read(frame)
            except Exception as exc:  # a camera error must never stop the table
                self.failures += 1
                log.warning("camera read failed (%d in a row): %s", self.failures, exc)
                self.blind, self.blind_squares = f"the camera gave no picture ({exc})", []
                return None
            self.failures = 0
            self.frames += 1
            squares = camera_squares(reading)
            if squares is not None:
                self.last = squares
                self.last_at = taken
                self.blind, self.blind_squares = "", []
            else:
                notes = [str(n) for n in getattr(reading, "notes", ())]
                self.blind = "; ".join(notes) or "the camera does not trust this picture"
                self.blind_squares = list(reading.uncertain)
            return squares

    def read_dice(self, reader: DiceReaderPort | None = None) -> list[DieSeen] | None:
        """The dice in the tray (vision DieReadings), or None without a tray reader or when the read fails.
        `reader`: another area read the same way (the rack area: square tiles, any rotation)."""
        reader = reader or self.dice_reader
        if reader is None:
            return None
        with self._lock:
            try:
                return list(reader.read(self.source.read()))
            except Exception as exc:
                self.failures += 1
                log.warning("dice tray read failed: %s", exc)
                return None

    def __enter__(self) -> CameraPort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the camera (not while another thread is in the middle of reading it). Safe to call again:
        the source is closed once (a camera's driver may not like a second release)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            close = getattr(self.source, "close", None)  # a still image or a fake has nothing to release
            if close is not None:
                close()


CALIBRATION_FRAMES = 10


def calibrate_live(source: Any, calibrate: Callable[[Any], Any], frames: int = CALIBRATION_FRAMES) -> Any:
    """Find the board in the first of `frames` frames that shows it. A camera's first frames after it starts
    come before its automatic exposure and white balance have settled (a Pi camera's are dark and tinted):
    a board not found in one of those is looked for in the next, and only `frames` misses in a row fail."""
    for attempt in range(1, frames + 1):
        try:
            return calibrate(source.read())
        except ValueError as exc:  # vision's BoardNotFoundError (a RefereeError and ValueError)
            if attempt == frames:
                raise
            log.info("board not found in camera frame %d of %d (%s); trying the next", attempt, frames, exc)
    raise ValueError("frames must be at least 1")


class CameraOpener:
    """Opens the table's camera, again and again if need be. What waiting cannot mend is checked here, once:
    the URL (`vision.sources.check_source`), the calibration file and the letter classifier, so a wrong
    configuration is refused at start. Calling the opener opens the camera and finds the board (when there is
    no calibration file); that may fail (unplugged, busy, the board not in view yet) and is worth retrying.
    If anything fails after the camera opened, the camera is closed again (a camera left open is busy for
    the next try)."""

    def __init__(self, url: str, calibration: str | None, edition: str,
                 dice_tray: tuple[int, int, int, int] | None = None,
                 rack_area: tuple[int, int, int, int] | None = None) -> None:
        from vision import Calibration
        from vision.shipped import shipped_classifier
        from vision.sources import check_source

        check_source(url)
        self.url = url
        self.calibration = Calibration.load(calibration) if calibration else None
        self.classifier = shipped_classifier(edition)
        self.dice_tray = dice_tray
        self.rack_area = rack_area

    def __call__(self) -> CameraPort:
        from vision import BoardReader, DiceReader, calibrate, open_source

        source = open_source(self.url)
        try:
            calib = self.calibration or calibrate_live(source, calibrate)
        except BaseException:
            source.close()
            raise
        dice = DiceReader(self.classifier, self.dice_tray) if self.dice_tray is not None else None
        port = CameraPort(source, BoardReader(calib, self.classifier), dice_reader=dice)
        if self.rack_area is not None:
            port.rack_reader = DiceReader(self.classifier, self.rack_area)
        return port


def open_camera(url: str, calibration: str | None, edition: str,
                dice_tray: tuple[int, int, int, int] | None = None,
                rack_area: tuple[int, int, int, int] | None = None) -> CameraPort:
    """Open a real (or file/synthetic) camera with `vision` once (see `CameraOpener`)."""
    return CameraOpener(url, calibration, edition, dice_tray, rack_area)()
