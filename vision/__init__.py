"""The camera path: frames in, square observations (letter, confidence, doubt) out.

OpenCV and numpy are the heavy dependencies (Pillow renders glyphs); camera libraries (Picamera2) are
imported lazily, only when a real camera is opened. Nothing here imports `referee`. See docs/vision.md.

Public API (what the table service uses in-process)::

    from vision import open_source, Calibration, calibrate, BoardReader, DiceReader, TileClassifier

    source = open_source("picamera2:")          # or "v4l2:0", "files:/path/to/folder", "synthetic:seed=1"
    calib = calibrate(source.read())            # find the board (ArUco markers if present, else its grid)
    calib.save("calib.json")                    # Calibration.load("calib.json") later
    model = TileClassifier.load(MODEL)          # from `referee vision teach`; or shipped_classifier("german")
    reader = BoardReader(calib, model)
    reading = reader.read(frame)                # frame: HxWx3 uint8 BGR array
    reading.board          # 15 strings, `.` empty, a letter, `?` a blank tile (labels.json characters)
    reading.squares["H8"]  # SquareReading(name, occupied, letter, confidence, uncertain)
    reading.occluded       # True when a hand / motion blur / something foreign covers part of the board
    reading.uncertain      # square names whose content must not be trusted ("H9", ...)
    reading.notes          # why, in words
    combine_readings([r1, r2, r3])  # vote several frames of a still board into one, keeping doubt honest

    dice = DiceReader(shipped_classifier("english"), tray=(x, y, w, h)).read(frame)
    # -> [DieReading(letter, confidence, centre, uncertain)], "?" for a blank face

Errors are `vision.errors.VisionError` subclasses (each also a `ValueError` and a `RefereeError`).

Modules:
- `sources`: `FrameSource` protocol and its sources (Picamera2, OpenCV/V4L2, files/folder replay, synthetic).
- `calibration`: `Calibration` (image -> board homography), JSON load/save; `registration`: finding the board
  from ArUco markers or from its own green field and grid lines; `markers`: the printable marker sheet.
- `cells`: rectified squares, tile-face statistics, glyph-centred letter patches, HOG, sharpness.
- `classifier`: the letter classifier (HOG + cv2.ml SVM, doubt from the nearest examples); `shipped`: the one
  built from rendered glyphs; `teach`: learning a user's own tiles from labelled photos.
- `reader`: occupancy, letters, doubt (occlusion, blur, uncertain squares, squares outside the frame),
  multi-frame combination; `recalibration`: finding the grid again after a bump, checked against the tiles.
- `synth`, `glyphs`: a synthetic renderer of boards, tiles, hands, motion blur and dice; `dice`: the tray reader.

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
