"""The camera as the referee opens it: calibration on a camera's first frames, and the camera released on failure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.sensors import CALIBRATION_FRAMES, CameraOpener, calibrate_live, open_camera
from vision.errors import BoardNotFoundError, CalibrationError, FrameSourceError


class Frames:
    """A frame source handing out the given frames in order ("dark" until the exposure settles)."""

    def __init__(self, frames: list[str]) -> None:
        self.frames = list(frames)
        self.reads = 0
        self.closed = False

    def read(self) -> str:
        self.reads += 1
        return self.frames.pop(0)

    def close(self) -> None:
        self.closed = True


def find_board(frame: str) -> str:
    if frame != "board":
        raise BoardNotFoundError(f"no board found in {frame} frame")
    return "calibration"


def test_the_board_is_found_once_the_exposure_has_settled() -> None:
    source = Frames(["dark", "dark", "board", "board"])
    assert calibrate_live(source, find_board) == "calibration"
    assert source.reads == 3


def test_no_board_in_any_of_the_first_frames_is_an_error() -> None:
    source = Frames(["dark"] * CALIBRATION_FRAMES + ["board"])
    with pytest.raises(BoardNotFoundError, match="no board found in dark frame"):
        calibrate_live(source, find_board)
    assert source.reads == CALIBRATION_FRAMES


def test_a_camera_whose_board_is_not_found_is_closed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.shipped

    source = Frames(["dark"] * CALIBRATION_FRAMES)
    monkeypatch.setattr(vision, "open_source", lambda url: source)
    monkeypatch.setattr(vision, "calibrate", find_board)
    monkeypatch.setattr(vision.shipped, "shipped_classifier", lambda edition: "classifier")
    with pytest.raises(BoardNotFoundError):
        open_camera("picamera2:", None, "english")
    assert source.closed  # released: the next start can open the camera again


def test_what_waiting_cannot_mend_is_refused_before_the_camera_is_opened(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    import vision.shipped

    def no_camera(url: str) -> Any:
        raise AssertionError("not reached: the configuration is wrong")

    monkeypatch.setattr(vision, "open_source", no_camera)
    monkeypatch.setattr(vision.shipped, "shipped_classifier", lambda edition: "classifier")
    with pytest.raises(FrameSourceError, match="'abc' is not a camera number"):
        CameraOpener("picamera2:abc", None, "english")
    with pytest.raises(CalibrationError, match="calibration file not found"):
        CameraOpener("picamera2:", str(tmp_path / "calib.json"), "english")


def test_the_opener_can_be_called_again_after_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.shipped

    sources = [FrameSourceError("picamera2:0: no such camera, or it is busy"), Frames(["board"])]

    def open_source(url: str) -> Any:
        item = sources.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    monkeypatch.setattr(vision, "open_source", open_source)
    monkeypatch.setattr(vision, "calibrate", find_board)
    monkeypatch.setattr(vision, "BoardReader", lambda calib, classifier: ("reader", calib, classifier))
    monkeypatch.setattr(vision.shipped, "shipped_classifier", lambda edition: "classifier")
    opener = CameraOpener("picamera2:", None, "english")
    with pytest.raises(FrameSourceError, match="no such camera"):
        opener()
    port = opener()
    assert port.reader == ("reader", "calibration", "classifier") and port.up
