"""A camera bumped mid-game: the reader finds the grid again on the frame itself, and only when the tiles it
knew read where they were; a grid that would misplace them is refused and the reader keeps waiting.

Synthetic frames always; a real game's later frames shifted, turned and scaled (`perturb.bump`) when
../shared/photos is present (read where they lie, nothing kept).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import perturb, recalibration
from vision.classifier import TileClassifier
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.synth import random_board, render_scene
from vision.teach import LabelledPhoto, load_labels


def test_a_moved_camera_is_calibrated_again_when_the_tiles_read_where_they_were(
    english_model: TileClassifier,
) -> None:
    board = random_board(np.random.default_rng(9), "english", count=30)
    reader = BoardReader(calibrate(render_scene(board, seed=9, tiles="english").frame), english_model)
    assert reader.read(render_scene(board, seed=9, tiles="english").frame).board == board
    later = [row for row in board]
    later[0] = "Q" + later[0][1:] if later[0][0] == "." else later[0]  # a new tile since
    moved = render_scene(later, seed=10, tiles="english").frame  # the camera stands elsewhere now
    reading = reader.read(moved)
    assert reader.recalibrations == 1
    assert reading.board == later and not reading.occluded
    assert "calibrated again" in reading.notes[0]
    assert reader.read(render_scene(later, seed=10, tiles="english").frame).board == later


def test_a_grid_found_again_that_misplaces_the_tiles_is_refused(english_model: TileClassifier) -> None:
    board = random_board(np.random.default_rng(9), "english", count=30)
    reader = BoardReader(calibrate(render_scene(board, seed=9, tiles="english").frame), english_model)
    reader.read(render_scene(board, seed=9, tiles="english").frame)
    before = reader.calibration
    other = random_board(np.random.default_rng(11), "english", count=30)  # not the tiles the reader knows
    reading = reader.read(render_scene(other, seed=10, tiles="english").frame)
    assert reader.recalibrations == 0 and reader.calibration is before
    assert reading.occluded, "a frame of a moved camera must not be trusted"
    assert any("is not used" in note and "do not read the same" in note for note in reading.notes)
    # The camera put back where it was: read as before, nothing lost.
    assert reader.read(render_scene(board, seed=9, tiles="english").frame).board == board


def test_a_hand_is_not_a_bump(english_model: TileClassifier) -> None:
    board = random_board(np.random.default_rng(4), "english", count=40)
    reader = BoardReader(calibrate(render_scene(board, seed=4, tiles="english").frame), english_model)
    reader.read(render_scene(board, seed=4, tiles="english").frame)
    before = reader.calibration
    reading = reader.read(render_scene(board, seed=4, tiles="english", hand=True).frame)
    assert reading.occluded and reader.calibration is before and reader.recalibrations == 0


def test_how_far_a_grid_moved_ignores_its_quarter_turn() -> None:
    frame = render_scene(["." * 15] * 15, seed=2).frame
    calib = calibrate(frame)
    from vision.orientation import turn

    assert recalibration.moved_by(calib, turn(calib, 1))[1] < 1e-6
    shifted = calibrate(perturb.bump(frame, (0.04, 0.0), 0.0, 1.0))
    quarters, distance = recalibration.moved_by(calib, shifted)
    assert quarters == 0 and 0.5 < distance < 1.0  # 4% of 960 pixels is about 0.7 of a square here


@pytest.fixture(scope="module")
def game01(shared_dir: Path) -> list[LabelledPhoto]:
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    return [p for p in load_labels(labels) if p.game == "game01"]


@pytest.mark.parametrize(
    ("shift", "degrees", "scale"),
    [((0.03, 0.015), 2.0, 1.03), ((-0.02, 0.03), -1.0, 0.97), ((0.0, 0.0), 4.0, 1.0)],
)
def test_a_real_game_bumped_mid_game_reads_on(
    game01: list[LabelledPhoto], german_model: TileClassifier, shift: tuple[float, float], degrees: float,
    scale: float,
) -> None:
    """Calibrated on the first frame, a few frames read, then the camera knocked: the rest read right."""
    first, before, after, last = game01[0], game01[8], game01[12], game01[-1]
    reader = BoardReader(calibrate(cv2.imread(str(first.path))), german_model)
    assert reader.read(cv2.imread(str(before.path))).board == list(before.board)
    for photo in (after, last):
        reading = reader.read(perturb.bump(cv2.imread(str(photo.path)), shift, degrees, scale))
        assert reading.board == list(photo.board), reading.notes
        assert not reading.occluded, reading.notes
    assert reader.recalibrations == 1


def test_a_real_frame_of_another_game_is_not_taken_for_the_bumped_board(
    game01: list[LabelledPhoto], shared_dir: Path, german_model: TileClassifier
) -> None:
    """game02 was played on the same board: its grid is found, its tiles are not the ones game01 had."""
    other = [p for p in load_labels(shared_dir / "photos" / "labels.json") if p.game == "game02"][-1]
    reader = BoardReader(calibrate(cv2.imread(str(game01[0].path))), german_model)
    reader.read(cv2.imread(str(game01[8].path)))
    reading = reader.read(perturb.bump(cv2.imread(str(other.path))))
    assert reading.occluded and reader.recalibrations == 0
    assert any("do not read the same" in note for note in reading.notes)


def test_a_reader_started_mid_game_checks_a_bump_against_the_tiles_it_is_given(
    english_model: TileClassifier,
) -> None:
    """A table restarted mid-game has read no clear frame yet: the game's committed tiles stand in."""
    board = random_board(np.random.default_rng(9), "english", count=30)
    calib = calibrate(render_scene(board, seed=9, tiles="english").frame)
    moved = render_scene(board, seed=10, tiles="english").frame
    waiting = BoardReader(calib, english_model)
    assert waiting.read(moved).occluded and waiting.recalibrations == 0  # nothing to check the grid against
    told = BoardReader(calib, english_model)
    told.remember({f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}": ch for r, row in enumerate(board)
                   for c, ch in enumerate(row) if ch != "."})
    assert told.read(moved).board == board and told.recalibrations == 1
    with pytest.raises(ValueError, match="P1"):
        told.remember({"P1": "A"})


def test_a_remembered_tile_read_in_doubt_stays_remembered(english_model: TileClassifier) -> None:
    """One frame's doubt about a tile (a glare, a finger's shadow) must not make the reader forget it."""
    from vision.geometry import ALL_SQUARES
    from vision.reader import BoardReading, SquareReading

    reader = BoardReader(calibrate(render_scene(["." * 15] * 15, seed=2).frame), english_model)
    reader.remember({"H8": "Q", "H9": "I"})
    squares = {n: SquareReading(n, False, ".", 1.0, False) for n in ALL_SQUARES}
    squares["H8"] = SquareReading("H8", True, "O", 0.2, True)  # doubted this time
    squares["H9"] = SquareReading("H9", True, "I", 1.0, False)
    squares["H10"] = SquareReading("H10", True, "S", 1.0, False)  # a new tile
    reader._remember(BoardReading(squares, occluded=False))
    assert reader.tiles == {"H8": "Q", "H9": "I", "H10": "S"}


def test_a_bump_is_suspected_from_many_foreign_squares_or_fewer_spread_over_the_board() -> None:
    """A small turn moves the grid's edges and corners, barely its centre: fewer foreign squares, in every
    quarter (game01 turned 4 degrees shows 39). A hand covers one region from one side."""
    def idx(names: list[tuple[int, int]]) -> set[int]:
        return {r * 15 + c for r, c in names}

    rim = idx([(0, c) for c in range(0, 15, 2)] + [(14, c) for c in range(0, 15, 2)]
              + [(r, 0) for r in range(2, 13, 3)] + [(r, 14) for r in range(2, 13, 3)])
    assert len(rim) < recalibration.MANY_FOREIGN and recalibration.looks_moved(rim)
    hand = idx([(r, c) for r in range(0, 6) for c in range(4, 11)])  # 42 squares from the top edge
    assert recalibration.looks_moved(hand), "many foreign squares: look (a hand costs one search)"
    small_hand = idx([(r, c) for r in range(0, 5) for c in range(3, 10)])  # 35, one side
    assert not recalibration.looks_moved(small_hand)
    assert not recalibration.looks_moved(idx([(0, 0), (0, 14), (14, 0), (14, 14)])), "too few to say"
