"""Tall tiles seen by a low camera (`vision.parallax`, the `tall` perturbation): the geometry on its own, and
a real photo raised into boxes read as exactly as the photo itself. The photo is read from ../shared/photos
and skipped cleanly without it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import parallax, perturb
from vision.classifier import TileClassifier
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.teach import load_labels


def test_the_top_faces_grid_is_the_board_scaled_about_the_cameras_foot() -> None:
    matrix = np.eye(3)
    at = np.array([7.5, 7.5])
    top = parallax.top_matrix(matrix, at, 0.05)
    # A top face's corner seen at the board point 7.5 + 1.05 * (15 - 7.5) is the tile's corner (15, 15).
    seen = np.array([7.5 + 1.05 * 7.5, 7.5 + 1.05 * 7.5, 1.0])
    corner = top @ seen
    assert np.allclose(corner[:2] / corner[2], [15.0, 15.0])
    assert np.allclose(parallax.top_matrix(matrix, at, 0.0), matrix)


def test_an_empty_square_is_measured_past_the_faces_that_reach_over_it() -> None:
    tiles = np.zeros(225, bool)
    tiles[7 * 15 + 12] = True  # M8, right of the foot
    x0, x1, y0, y1 = parallax.boxes_away_from(tiles, 0.2, lift=0.05, at=np.array([7.5, 7.5]))
    n8 = 7 * 15 + 13  # its outer neighbour: M8's face reaches 0.05 * 5 = 0.25 over it
    assert x0[n8] >= 0.25 + 0.05 and x1[n8] == pytest.approx(0.8)
    l8 = 7 * 15 + 11  # its inner neighbour: the face leans away, only the fixed distance from the side
    assert x1[l8] == pytest.approx(1 - parallax.AWAY)
    far = 0  # A1: no tile near it
    assert (x0[far], x1[far], y0[far], y1[far]) == pytest.approx((0.2, 0.8, 0.2, 0.8))


@pytest.mark.slow
def test_a_real_photo_with_its_tiles_stood_up_reads_as_the_photo(
    shared_dir: Path, german_model: TileClassifier
) -> None:
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    game = [p for p in load_labels(labels) if p.game == "game01"]
    first = cv2.imread(str(game[0].path))
    corners = calibrate(first).corners()
    reader = BoardReader(calibrate(first), german_model)
    flagged = 0
    for photo in game[::4]:
        frame = perturb.stand_tiles(cv2.imread(str(photo.path)), corners, photo.board)
        reading = reader.read(frame, where=str(photo.path))
        assert reading.board == list(photo.board), (photo.file, reading.notes)
        flagged += reading.occluded
    assert flagged == 0
    assert reader.lift > 0.03  # the camera's lift was measured on the tiles (0.045 raised, plus the photo's own)


@pytest.mark.slow
def test_a_flat_camera_under_a_warm_lamp_measures_no_lift(shared_dir: Path, german_model: TileClassifier) -> None:
    """The lift is measured on the faces as the reader finds them, with the calibration's light correction:
    on raw frames a warm lamp's orange faces fail the face test, and game01's flat camera measured the
    largest lift tried (0.08), which put the letters' grid off the tiles (7 of 9 frames flagged)."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    game = [p for p in load_labels(labels) if p.game == "game01"]
    reader = BoardReader(calibrate(perturb.warm(cv2.imread(str(game[0].path)))), german_model)
    flagged = 0
    for photo in game[::3]:
        reading = reader.read(perturb.warm(cv2.imread(str(photo.path))), where=str(photo.path))
        assert reading.board == list(photo.board), (photo.file, reading.notes)
        flagged += reading.occluded
    assert flagged == 0
    assert reader.lift < parallax.USE_LIFT
