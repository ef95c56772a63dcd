"""Registration on synthetic frames with known truth (perspective, light, blur), markers, and failure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibration import _apply
from vision.classifier import TileClassifier
from vision.errors import BoardNotFoundError
from vision.markers import find_markers, marker_sheet
from vision.registration import calibrate
from vision.synth import random_board, render_scene

POINTS = np.array([[0, 0], [15, 0], [15, 15], [0, 15], [7.5, 7.5], [3, 11]], dtype=np.float64)


@pytest.mark.parametrize(("seed", "tilt", "tiles"), [(1, 0.0, 0), (2, 0.05, 30), (3, 0.08, 80)])
def test_grid_found_under_perspective(seed: int, tilt: float, tiles: int) -> None:
    board = random_board(np.random.default_rng(seed), count=tiles)
    scene = render_scene(board, seed=seed, tilt=tilt)
    calib = calibrate(scene.frame)
    truth = _apply(np.linalg.inv(scene.homography), POINTS)
    # Within a twentieth of a square everywhere on the board.
    pitch = np.linalg.norm(truth[1] - truth[0]) / 15
    assert np.abs(calib.board_to_image(POINTS) - truth).max() < 0.05 * pitch
    assert calib.method == "grid"
    assert calib.extra["empty_colours"][0] is not None or board[0][0] != "."


def test_no_board_is_a_clear_error() -> None:
    noise = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    with pytest.raises(BoardNotFoundError, match=r"no board found in kitchen\.jpg"):
        calibrate(noise, where="kitchen.jpg")


def test_corner_markers_give_the_grid_whichever_way_up_they_were_stuck() -> None:
    scene = render_scene(random_board(np.random.default_rng(5), count=20), seed=5, tilt=0.0, blur=0.0)
    frame = scene.frame.copy()
    inv = np.linalg.inv(scene.homography)
    pitch = float(np.linalg.norm(_apply(inv, np.array([[1.0, 0.0]])) - _apply(inv, np.array([[0.0, 0.0]]))))
    side = round(pitch * 0.9)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    # Each marker outside the grid, its inner corner on the grid corner.
    corners = _apply(inv, np.array([[0, 0], [15, 0], [15, 15], [0, 15]], dtype=np.float64))
    for marker_id, ((cx, cy), (sx, sy)) in enumerate(zip(corners, [(-1, -1), (1, -1), (1, 1), (-1, 1)], strict=True)):
        img = cv2.cvtColor(cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1), cv2.COLOR_GRAY2BGR)
        img = np.ascontiguousarray(np.rot90(img, marker_id))  # stuck on any way up
        padded = cv2.copyMakeBorder(img, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        x0 = round(cx) - (padded.shape[1] - 6 if sx < 0 else 6)
        y0 = round(cy) - (padded.shape[0] - 6 if sy < 0 else 6)
        frame[y0 : y0 + padded.shape[0], x0 : x0 + padded.shape[1]] = padded
    assert sorted(find_markers(frame)) == [0, 1, 2, 3]
    calib = calibrate(frame)
    assert calib.method == "aruco"
    assert np.abs(calib.board_to_image(POINTS) - _apply(inv, POINTS)).max() < 0.1 * pitch


def test_marker_sheet_holds_the_four_markers() -> None:
    sheet = marker_sheet(30.0, dpi=150)
    assert sheet.shape[0] > sheet.shape[1]  # A4 portrait
    assert sorted(find_markers(sheet)) == [0, 1, 2, 3]


def test_a_moved_camera_is_noticed(english_model: TileClassifier) -> None:
    from vision.reader import BoardReader
    from vision.registration import check_alignment

    board = random_board(np.random.default_rng(9), count=30)
    calib = calibrate(render_scene(board, seed=9).frame)
    same = render_scene(board, seed=9, blur=0.8).frame
    moved = render_scene(board, seed=10).frame  # another seed: the camera stands elsewhere
    assert check_alignment(same, calib) < 0.05
    assert check_alignment(moved, calib) > 0.3
    reading = BoardReader(calib, english_model).read(moved)
    assert reading.occluded
    assert any("may have moved" in note for note in reading.notes)


def test_a_tan_board_without_markers_is_found_by_its_outline(english_model: TileClassifier) -> None:
    from vision.reader import BoardReader
    from vision.synth import TAN

    board = random_board(np.random.default_rng(2), "english", count=40)
    empty = render_scene(["." * 15] * 15, seed=2, palette=TAN, tiles="english")
    calib = calibrate(empty.frame)
    truth = _apply(np.linalg.inv(empty.homography), POINTS)
    pitch = np.linalg.norm(truth[1] - truth[0]) / 15
    assert np.abs(calib.board_to_image(POINTS) - truth).max() < 0.05 * pitch
    reading = BoardReader(calib, english_model).read(render_scene(board, seed=2, palette=TAN, tiles="english").frame)
    assert not reading.occluded
    assert reading.board == board


def test_no_board_message_suggests_markers() -> None:
    table = np.full((480, 640, 3), (70, 110, 150), np.uint8)
    with pytest.raises(BoardNotFoundError, match="referee vision markers"):
        calibrate(table, where="table.jpg")


def test_corners_are_ordered_clockwise_from_the_top_left() -> None:
    from vision.registration import order_corners

    square = np.array([[10, 10], [100, 12], [98, 95], [8, 90]], dtype=np.float64)
    assert np.array_equal(order_corners(square[[2, 0, 3, 1]]), square)
    turned = np.array([[40, 0], [100, 40], [60, 100], [0, 60]], dtype=np.float64)  # a board turned ~35 degrees
    assert np.array_equal(order_corners(turned[[3, 1, 0, 2]]), turned)


def test_a_board_cut_by_the_frame_that_cannot_be_fitted_says_which_edge() -> None:
    scene = render_scene(["." * 15] * 15, seed=0, tilt=0.18)  # this camera cuts the field's bottom edge
    with pytest.raises(BoardNotFoundError, match="whole board is in the frame: the bottom"):
        calibrate(scene.frame, where="tilted.png")


def test_a_grid_that_does_not_fit_the_premium_layout_is_refused() -> None:
    from vision.synth import COLOURS

    plain = {kind: COLOURS["."] for kind in COLOURS}  # a board without premium squares
    scene = render_scene(["." * 15] * 15, seed=4, palette=plain)
    with pytest.raises(BoardNotFoundError, match="premium squares"):
        calibrate(scene.frame)
    calib = calibrate(scene.frame, standard_layout=False)
    assert calib.extra["layout_agreement"] < 0.9
