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


@pytest.mark.parametrize(("past", "seen"), [(-3.0, True), (1.0, True), (4.0, True), (30.0, False)])
def test_a_square_whose_corner_lies_a_hair_past_the_frame_is_seen(past: float, seen: bool) -> None:
    """Squares of 80 pixels, the grid's bottom-right corner `past` pixels beyond the frame's right edge. After a
    bump, camera C's corner square lay 3 pixels inside and its refitted grid 1 pixel outside: reported unseen,
    its tile was missing from the reading. Its middle, where it is read, is well inside; a square cut by a
    third of its side is not."""
    width = round(40 + 15 * 80 - past)
    to_board = np.array([[1 / 80, 0, -0.5], [0, 1 / 80, -0.5], [0, 0, 1]])  # grid from (40, 40), 80 px a square
    calib = Calibration.from_matrix(to_board, (width + 1, 1400))
    assert bool(calib.visible()[224]) is seen
    assert bool(calib.visible()[223])  # its neighbour is inside whatever
