from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.errors import CalibrationError


def _calib() -> Calibration:
    m = np.array([[0.02, 0.001, -1.0], [0.0005, 0.021, -2.0], [1e-6, 2e-6, 1.0]])
    return Calibration.from_matrix(m, (640, 480), method="grid", source="x.jpg", extra={"k": [1, 2]})


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    calib = _calib()
    calib.save(tmp_path / "c.json")
    again = Calibration.load(tmp_path / "c.json")
    assert again.image_size == (640, 480)
    assert np.allclose(again.matrix, calib.matrix)
    pts = np.array([[10.0, 20.0], [300.0, 200.0]])
    assert np.allclose(again.board_to_image(again.image_to_board(pts)), pts)


def test_missing_and_corrupt_files_say_what_and_where(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="not found"):
        Calibration.load(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"bad\.json"):
        Calibration.load(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text(json.dumps({"homography": []}), encoding="utf-8")
    with pytest.raises(CalibrationError, match="not a calibration file"):
        Calibration.load(tmp_path / "other.json")


def test_frames_of_another_size_are_refused() -> None:
    with pytest.raises(CalibrationError, match="800x600"):
        _calib().check_frame(np.zeros((600, 800, 3), np.uint8), "cam")


def test_singular_homography_is_refused() -> None:
    with pytest.raises(CalibrationError, match="invertible"):
        Calibration.from_matrix(np.zeros((3, 3)), (10, 10))
