"""The camera path: frames in, square observations (letter, confidence, doubt) out.

OpenCV and numpy are the only heavy dependencies; camera libraries (Picamera2) are imported lazily, only
when a real camera is opened. Nothing here imports `referee`.

Public API (what the table service uses in-process)::

    from vision import open_source, Calibration, calibrate, BoardReader, DiceReader, TileClassifier

    source = open_source("picamera2:")          # or "v4l2:0", "files:/path/to/folder", "synthetic:seed=1"
    calib = calibrate(source.read())            # find the board (ArUco markers if present, else its grid)
    calib.save("calib.json")                    # Calibration.load("calib.json") later
    reader = BoardReader(calib, TileClassifier.load(MODEL) or TileClassifier.shipped("german"))
    reading = reader.read(frame)                # frame: HxWx3 uint8 BGR array
    reading.board          # 15 strings, `.` empty, a letter, `?` a blank tile (labels.json characters)
    reading.squares["H8"]  # SquareReading(name, occupied, letter, confidence, uncertain)
    reading.occluded       # True when a hand / motion blur / something foreign covers part of the board
    reading.uncertain      # square names whose content must not be trusted ("H9", ...)
    combine_readings([r1, r2, r3])  # vote several frames into one, keeping doubt honest

    dice = DiceReader(TileClassifier.shipped_dice(), tray=(x, y, w, h)).read(frame)  # [DieReading(letter, conf)]

Modules:
- `sources`: `FrameSource` protocol and its sources (Picamera2, OpenCV/V4L2, files/folder replay, synthetic).
- `calibration`: `Calibration` (image -> board homography), JSON load/save; `registration`: finding the board
  from ArUco markers or from its own green field and grid lines; `markers`: the printable marker sheet.
- `cells`: cutting rectified squares and features; `classifier`: the letter classifier (HOG + cv2.ml SVM),
  the shipped one built from rendered glyphs, and `teach` to learn a user's own tiles from labelled photos.
- `reader`: occupancy, letters, doubt (occlusion and uncertain squares), multi-frame combination.
- `synth`: a synthetic renderer of boards, tiles, hands and dice; `dice`: the dice tray reader.

Square names are column letter + row number, `A1` top left as the camera sees the board, `H8` the centre.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "BoardReader",
    "BoardReading",
    "Calibration",
    "DiceReader",
    "FrameSource",
    "SquareReading",
    "TileClassifier",
    "VisionError",
    "calibrate",
    "combine_readings",
    "open_source",
]

_WHERE = {
    "BoardReader": "vision.reader",
    "BoardReading": "vision.reader",
    "SquareReading": "vision.reader",
    "combine_readings": "vision.reader",
    "Calibration": "vision.calibration",
    "calibrate": "vision.registration",
    "DiceReader": "vision.dice",
    "FrameSource": "vision.sources",
    "open_source": "vision.sources",
    "TileClassifier": "vision.classifier",
    "VisionError": "vision.errors",
}

if TYPE_CHECKING:  # pragma: no cover
    from vision.calibration import Calibration
    from vision.classifier import TileClassifier
    from vision.dice import DiceReader
    from vision.errors import VisionError
    from vision.reader import BoardReader, BoardReading, SquareReading, combine_readings
    from vision.registration import calibrate
    from vision.sources import FrameSource, open_source


def __getattr__(name: str) -> Any:
    """Import lazily so `import vision` stays cheap (the CLI imports it at start-up)."""
    module_name = _WHERE.get(name)
    if module_name is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
