"""Reading synthetic boards: every letter of both editions, blanks, hands, several frames."""

from __future__ import annotations

import numpy as np
import pytest

from vision import orientation
from vision.classifier import TileClassifier
from vision.reader import BoardReader, combine_readings
from vision.registration import calibrate
from vision.synth import random_board, render_scene
from vision.tilesets import tile_values


def _board_with(letters: str) -> list[str]:
    cells = list(letters)
    rows = []
    for r in range(15):
        row = ["."] * 15
        if r % 2 == 1:
            for c in range(0, 15, 2):
                if cells:
                    row[c] = cells.pop(0)
        rows.append("".join(row))
    assert not cells
    return rows


@pytest.mark.parametrize("tiles", ["german", "english"])
def test_every_letter_and_blanks_are_read(tiles: str, request: pytest.FixtureRequest) -> None:
    model: TileClassifier = request.getfixturevalue(f"{tiles}_model")
    letters = "".join(tile_values(tiles)) + "??"
    board = _board_with(letters)
    empty = render_scene(["." * 15] * 15, tiles=tiles, seed=11, tilt=0.04)
    scene = render_scene(board, tiles=tiles, seed=11, tilt=0.04)
    reader = BoardReader(calibrate(empty.frame), model)
    reading = reader.read(scene.frame)
    assert not reading.occluded
    assert reading.board == board
    assert reading.squares["A2"].letter == letters[0]
    assert all(reading.squares[n].confidence > 0 for n in reading.squares)


def test_a_hand_makes_the_frame_occluded_and_never_a_confident_misread(german_model: TileClassifier) -> None:
    for seed in range(3):
        board = random_board(np.random.default_rng(seed), count=50)
        calib = calibrate(render_scene(board, seed=seed).frame)
        scene = render_scene(board, seed=seed, hand=True)
        reading = BoardReader(calib, german_model).read(scene.frame)
        assert reading.occluded, f"seed {seed}: the hand went unnoticed"
        truth = {n: board[int(n[1:]) - 1]["ABCDEFGHIJKLMNO".index(n[0])] for n in reading.squares}
        confident_wrong = [n for n, s in reading.squares.items() if s.letter != truth[n] and not s.uncertain]
        assert confident_wrong == [], f"seed {seed}"
        assert set(reading.uncertain) <= scene.covered | set(reading.uncertain)
        assert reading.uncertain, "covered squares must be reported uncertain"


def test_several_frames_combine_past_a_hand(german_model: TileClassifier) -> None:
    board = random_board(np.random.default_rng(4), count=40)
    calib = calibrate(render_scene(board, seed=4).frame)
    reader = BoardReader(calib, german_model)
    frames = [render_scene(board, seed=4, hand=(k == 0), blur=0.5 + 0.1 * k).frame for k in range(3)]
    readings = [reader.read(f) for f in frames]
    assert readings[0].occluded
    combined = combine_readings(readings)
    assert not combined.occluded
    assert combined.board == board
    assert combined.uncertain == []


def test_reading_json_has_the_stable_keys(german_model: TileClassifier) -> None:
    board = random_board(np.random.default_rng(6), count=10)
    scene = render_scene(board, seed=6)
    out = BoardReader(calibrate(scene.frame), german_model).read(scene.frame).to_json("a.png")
    assert sorted(out) == ["board", "image", "ms", "occluded", "uncertain"]
    assert out["board"] == board and out["image"] == "a.png" and out["ms"] > 0


def test_motion_blur_makes_the_frame_occluded_and_every_square_doubtful(german_model: TileClassifier) -> None:
    from vision.synth import motion_blur

    board = random_board(np.random.default_rng(8), count=40)
    scene = render_scene(board, seed=8)
    reader = BoardReader(calibrate(scene.frame), german_model)
    assert not reader.read(scene.frame).occluded
    smeared = reader.read(motion_blur(scene.frame, 12, 30))
    assert smeared.occluded and any("motion blur" in n for n in smeared.notes)
    assert len(smeared.uncertain) == 225


@pytest.mark.parametrize("gain", [0.5, 1.3])
def test_a_change_of_light_is_not_a_hand(gain: float, german_model: TileClassifier) -> None:
    board = random_board(np.random.default_rng(12), count=45)
    scene = render_scene(board, seed=12)
    reader = BoardReader(calibrate(scene.frame), german_model)
    other_light = np.clip(scene.frame.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    reading = reader.read(other_light)
    assert not reading.occluded, reading.notes
    assert reading.board == board


@pytest.mark.parametrize("offset", [(0.35, 0.0), (0.5, 0.0), (0.5, 0.5), (0.0, -0.5)])
def test_a_tile_being_slid_between_squares_is_doubt(offset: tuple[float, float], german_model: TileClassifier) -> None:
    board = [*["." * 15] * 7, ".......Q.......", *["." * 15] * 7]
    calib = calibrate(render_scene(["." * 15] * 15, seed=3).frame)
    reading = BoardReader(calib, german_model).read(render_scene(board, seed=3, loose={(7, 7): offset}).frame)
    assert reading.occluded
    touched = {"H8", "I8" if offset[0] > 0 else "H8", "H9" if offset[1] > 0 else "H7" if offset[1] < 0 else "H8"}
    assert touched <= set(reading.uncertain)
    sure = {n: s.letter for n, s in reading.squares.items() if not s.uncertain}
    assert all(letter == "." for letter in sure.values())


def test_a_tile_nudged_a_little_is_still_read(german_model: TileClassifier) -> None:
    board = [*["." * 15] * 7, ".......Q.......", *["." * 15] * 7]
    calib = calibrate(render_scene(["." * 15] * 15, seed=3).frame)
    reading = BoardReader(calib, german_model).read(render_scene(board, seed=3, loose={(7, 7): (0.2, -0.15)}).frame)
    assert not reading.occluded and reading.board == board and reading.uncertain == []


@pytest.mark.parametrize(("tiles", "seed"), [("german", 5), ("english", 6)])
def test_tiles_laid_upside_down_are_never_read_as_their_lookalikes(
    tiles: str, seed: int, request: pytest.FixtureRequest
) -> None:
    """An upside-down A looks like a V, an upside-down Ö like an O: such tiles must come out uncertain (or
    right), never as the lookalike with confidence."""
    model: TileClassifier = request.getfixturevalue(f"{tiles}_model")
    letters = list(tile_values(tiles))
    rows = [["."] * 15 for _ in range(15)]
    where = {}
    for k, letter in enumerate(letters):
        r, c = (k // 7) * 3 + 1, (k % 7) * 2 + 1
        rows[r][c] = letter
        where["ABCDEFGHIJKLMNO"[c] + str(r + 1)] = letter
    board = ["".join(row) for row in rows]
    # The camera knows which way round the board lies (settled by earlier tiles, or markers): with every
    # tile upside down and nothing else to go by, the board itself would look turned half round.
    calib = orientation.turn(calibrate(render_scene(["." * 15] * 15, seed=seed).frame), 0)
    upside_down = {(int(n[1:]) - 1, "ABCDEFGHIJKLMNO".index(n[0])): 2 for n in where}
    reading = BoardReader(calib, model).read(render_scene(board, seed=seed, tiles=tiles, turned=upside_down).frame)
    wrong = [
        (n, want, reading.squares[n].letter)
        for n, want in where.items()
        if reading.squares[n].letter != want and not reading.squares[n].uncertain
    ]
    assert wrong == []
