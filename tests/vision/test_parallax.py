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


def test_the_lift_is_where_the_letters_lie_out_from_their_squares() -> None:
    """Letters read on the board's grid lie out from their squares' middles by the lift times their distance
    from the camera's foot; each tile laid a little off its square, and one pushed far off, do not move it."""
    rng = np.random.default_rng(4)
    at = np.array([7.3, 7.8])
    squares = np.array([(c, r) for r in range(2, 14, 2) for c in range(1, 15, 3)], np.float64)
    middles = squares + 0.5
    laid = rng.normal(0, 0.06, middles.shape) + np.array([0.03, -0.02])  # how each was laid, and the print
    letters = at + 1.045 * (middles - at) + laid
    letters[3] += np.array([0.4, 0.0])  # a tile being pushed
    assert parallax.lift_from_letters(squares, letters, at, 0.0) == pytest.approx(0.045, abs=0.006)
    # Read on the grid of another lift, the same letters give the same lift.
    top = at + (letters - at) / 1.03
    assert parallax.lift_from_letters(squares, top, at, 0.03) == pytest.approx(0.045, abs=0.006)
    assert parallax.lift_from_letters(squares[:3], letters[:3], at, 0.0) is None  # too few to tell
    # Five tiles far out, laid squarely, tell it; five laid carelessly do not.
    five = np.array([(1, 1), (13, 1), (7, 13), (1, 13), (13, 13)], np.float64)
    square_letters = at + 1.045 * (five + 0.5 - at) + rng.normal(0, 0.01, five.shape)
    assert parallax.lift_from_letters(five, square_letters, at, 0.0) == pytest.approx(0.045, abs=0.006)
    careless = at + 1.045 * (five + 0.5 - at) + rng.normal(0, 0.15, five.shape)
    assert parallax.lift_from_letters(five, careless, at, 0.0) is None
    near = at + rng.uniform(-1, 1, (12, 2))
    assert parallax.lift_from_letters(np.floor(near), near, at, 0.0) is None  # all by the foot


@pytest.mark.slow
@pytest.mark.parametrize("game", ["game01", "game13"])
def test_every_frame_of_a_game_stood_up_reads_as_the_photo(
    game: str, shared_dir: Path, german_model: TileClassifier
) -> None:
    """Every frame, as a table reads them, not every fourth. On camera C's game13 the lift measured on the
    faces fell to 0 on a frame of 30 tiles (a tile's pale side scores as face at any lift), and from then on
    the top faces' grid was the board's: 16 squares flagged a frame. And an empty square boxed in by tiles
    on its outer sides (N14) showed their sides on the top faces' grid and read as a blank. On game01, a
    tile's dark top edge was taken for an umlaut over its S."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    photos = [p for p in load_labels(labels) if p.game == game and p.flag != "player_names_before_start"]
    if not photos:
        pytest.skip(f"the shared photos have no {game}")
    first = cv2.imread(str(photos[0].path))
    corners = calibrate(first).corners()
    reader = BoardReader(calibrate(perturb.stand_tiles(first, corners, photos[0].board)), german_model)
    for photo in photos:
        frame = perturb.stand_tiles(cv2.imread(str(photo.path)), corners, photo.board)
        reading = reader.read(frame, where=photo.file)
        assert reading.board == list(photo.board), (photo.file, reading.notes)
        assert not reading.occluded, (photo.file, reading.notes)
    assert 0.04 < reader.lift < 0.07  # 0.045 raised, plus the photo's own


def test_a_synthetic_game_of_tall_tiles_reads_every_board(german_model: TileClassifier) -> None:
    """The renderer stands its tiles up too (`render_scene(lift=...)`): a game of 90 tiles laid in a random
    order, read at eight stages from the empty board on. The first tiles lie far out before 8 are down, so
    the lift is measured on as few as 4 when they tell it well (the first frames flagged a square beside an
    edge tile before), and a tall tile's top edge over a U was read as an umlaut's dots (a sure Ü)."""
    from vision.synth import random_board, render_scene

    for seed in (1, 4, 5):
        full = random_board(np.random.default_rng(seed), count=90)
        order = [i for i in np.random.default_rng(seed + 50).permutation(225) if full[i // 15][i % 15] != "."]
        reader = BoardReader(calibrate(render_scene(["." * 15] * 15, seed=seed, lift=0.045).frame), german_model)
        for count in (5, 10, 20, 45, 60, 90):
            laid = set(order[:count])
            board = ["".join(ch if r * 15 + c in laid else "." for c, ch in enumerate(row))
                     for r, row in enumerate(full)]
            reading = reader.read(render_scene(board, seed=seed, lift=0.045).frame)
            assert reading.board == board, (seed, count, reading.notes)
            assert not reading.occluded, (seed, count, reading.notes)
        assert reader.lift == pytest.approx(0.045, abs=0.006)
