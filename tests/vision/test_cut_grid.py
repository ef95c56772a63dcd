"""A grid cut by the frame's edge: calibrated from the lines that show, the rest reported unseen, never empty.

On synthetic frames (always) and on real photos of game12 (when ../shared/photos is present; nothing cut from
them is kept), cut at each edge of the frame.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import perturb
from vision.calibration import Calibration
from vision.classifier import TileClassifier
from vision.errors import BoardNotFoundError
from vision.geometry import ALL_SQUARES, move_camera_hint
from vision.reader import BoardReader, combine_readings
from vision.registration import calibrate
from vision.synth import random_board, render_scene
from vision.teach import LabelledPhoto, load_labels

EDGES = ("left", "right", "top", "bottom")


def _offset(frame: np.ndarray, edge: str, share: float) -> np.ndarray:
    """Where the cut frame's pixel (0, 0) lies in the uncut frame."""
    h, w = frame.shape[:2]
    return np.array([round(w * share) if edge == "left" else 0, round(h * share) if edge == "top" else 0], float)


def _squares_off(found: Calibration, truth: np.ndarray, offset: np.ndarray) -> float:
    """Worst distance, in squares, of the found grid's corners from the true ones (uncut frame pixels)."""
    pitch = float(np.linalg.norm(truth[1] - truth[0])) / 15
    return float(np.abs(found.corners() + offset - truth).max()) / pitch


def _check_reading(reader: BoardReader, frame: np.ndarray, board: list[str] | tuple[str, ...]) -> list[str]:
    """Read `frame`: every square the frame shows must be right, the others unseen (and uncertain)."""
    reading = reader.read(frame)
    seen = reader.calibration.visible()
    for i, name in enumerate(ALL_SQUARES):
        r, c = divmod(i, 15)
        if seen[i]:
            assert reading.board[r][c] == board[r][c], f"{name}: {board[r][c]} read as {reading.board[r][c]}"
        else:
            assert name in reading.unseen and reading.squares[name].uncertain
    assert not reading.occluded, reading.notes
    return reading.unseen


@pytest.mark.parametrize("edge", EDGES)
def test_a_synthetic_grid_cut_by_the_frame_is_calibrated_and_read(edge: str, german_model: TileClassifier) -> None:
    board = random_board(np.random.default_rng(3), count=60)
    empty = render_scene(["." * 15] * 15, seed=3, tilt=0.02)
    played = render_scene(board, seed=3, tilt=0.02)
    truth = Calibration.from_matrix(empty.homography, (empty.frame.shape[1], empty.frame.shape[0])).corners()
    # Cut off about one and a half columns (or rows) of the grid.
    extent = {"left": truth[:, 0].min(), "top": truth[:, 1].min(),
              "right": empty.frame.shape[1] - truth[:, 0].max(), "bottom": empty.frame.shape[0] - truth[:, 1].max()}
    size = empty.frame.shape[1] if edge in ("left", "right") else empty.frame.shape[0]
    share = (extent[edge] + 1.5 * (truth[1, 0] - truth[0, 0]) / 15) / size
    calib = calibrate(perturb.cut(empty.frame, edge, share), where="cut.png")
    assert _squares_off(calib, truth, _offset(empty.frame, edge, share)) < 0.1
    assert calib.cut_edges() == [edge]
    unseen = _check_reading(BoardReader(calib, german_model), perturb.cut(played.frame, edge, share), board)
    assert 15 <= len(unseen) <= 30


@pytest.mark.parametrize("edge", EDGES)
def test_a_grid_cut_too_far_is_refused_naming_the_edge(edge: str) -> None:
    frame = render_scene(["." * 15] * 15, seed=3, tilt=0.02).frame
    hint = f"move the camera so the whole board is in the frame: the {edge} edge is cut"
    with pytest.raises(BoardNotFoundError, match=hint):
        calibrate(perturb.cut(frame, edge, 0.3), where="far.png")


def test_the_hint_names_every_cut_edge() -> None:
    assert move_camera_hint(["left"]) == "move the camera so the whole board is in the frame: the left edge is cut"
    assert move_camera_hint(["top", "left"]).endswith("the top and left edges are cut")


def test_unseen_squares_survive_combining_and_reach_the_json(german_model: TileClassifier) -> None:
    frame = render_scene(["." * 15] * 15, seed=3, tilt=0.02).frame
    cut = perturb.cut(frame, "right", 0.22)  # the margin and a column of the grid
    reader = BoardReader(calibrate(cut), german_model)
    one = reader.read(cut)
    assert one.unseen and "O8" in one.unseen and one.to_json("x")["unseen"] == one.unseen
    assert any("outside the frame" in note for note in one.notes)
    both = combine_readings([one, reader.read(cut)])
    assert both.unseen == one.unseen and all(both.squares[n].uncertain for n in one.unseen)
    whole = BoardReader(calibrate(frame), german_model).read(frame)
    assert whole.unseen == [] and "unseen" not in whole.to_json("x")


@pytest.fixture(scope="module")
def game12(shared_dir: Path) -> list[LabelledPhoto]:
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    mine = [p for p in load_labels(labels) if p.game == "game12"]
    return [mine[0], mine[-1]]


@pytest.mark.parametrize("edge", EDGES)
def test_a_real_board_cut_by_the_frame_reads_every_square_it_shows(
    edge: str, game12: list[LabelledPhoto], german_model: TileClassifier
) -> None:
    """game12's grid reaches close to the frame: a 12% cut takes one or two rows or columns of it."""
    first, last = (cv2.imread(str(p.path)) for p in game12)
    truth = calibrate(first).corners()
    calib = calibrate(perturb.cut(first, edge, 0.12), where=f"game12 cut {edge}")
    assert _squares_off(calib, truth, _offset(first, edge, 0.12)) < 0.1
    assert calib.cut_edges() == [edge]
    unseen = _check_reading(BoardReader(calib, german_model), perturb.cut(last, edge, 0.12), game12[1].board)
    assert len(unseen) >= 15
