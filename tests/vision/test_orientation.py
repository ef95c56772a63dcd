"""Which way round the board lies: settled from its tiles, folded into the calibration, names in its own A1."""

from __future__ import annotations

import numpy as np
import pytest

from vision import cells, orientation
from vision.classifier import TileClassifier
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.synth import render_scene

WORD = [*["." * 15] * 7, "......QUARZ....", *["." * 15] * 7]


def test_a_turned_calibration_rectifies_the_turned_board() -> None:
    frame = render_scene(WORD, seed=2).frame
    calib = calibrate(frame)
    plain = cells.rectify(frame, calib.matrix)
    for q in range(4):
        turned = cells.rectify(frame, orientation.turn(calib, q).matrix).astype(int)
        # The turn of board units about the grid's centre is the image turned (within a pixel); the premium
        # layout looks alike every way round, the word does not.
        diffs = [float(np.abs(turned - np.rot90(plain, k).astype(int)).mean()) for k in range(4)]
        assert diffs[q] < 10 and diffs[q] == min(diffs)


def test_turned_index_is_a_permutation_that_turns_back() -> None:
    for q in range(4):
        idx = orientation.turned_index(q)
        assert sorted(idx) == list(range(225))
    assert orientation.turned_index(1)[orientation.turned_index(3)].tolist() == list(range(225))


@pytest.mark.parametrize("quarters", [0, 1, 2, 3])
def test_the_first_tiles_settle_the_orientation(quarters: int, german_model: TileClassifier) -> None:
    """Calibrated on an empty board (no orientation yet), read in the board's own squares once tiles lie."""
    empty = np.ascontiguousarray(np.rot90(render_scene(["." * 15] * 15, seed=4).frame, quarters))
    played = np.ascontiguousarray(np.rot90(render_scene(WORD, seed=4).frame, quarters))
    calib = calibrate(empty)
    assert not orientation.is_settled(calib)
    reader = BoardReader(calib, german_model)
    assert reader.read(empty).board == ["." * 15] * 15 and not reader.settled
    reading = reader.read(played)
    assert reader.settled and orientation.is_settled(reader.calibration)
    assert reading.board == WORD and reading.squares["G8"].letter == "Q" and not reading.uncertain
    # The settled calibration saved and loaded reads the same without voting again.
    again = BoardReader(reader.calibration.from_json(reader.calibration.to_json()), german_model)
    assert again.settled and again.read(played).board == WORD


def test_the_light_turns_with_the_board() -> None:
    """A lamp's fall-off measured before the orientation was settled is turned with the board."""
    from vision import light

    frame = render_scene(WORD, seed=5).frame
    calib = calibrate(frame)
    rect = cells.rectify(frame, calib.matrix)
    ramp = np.linspace(1.0, 0.4, rect.shape[1], dtype=np.float32)[None, :, None]
    lamp = light.measure(np.clip(rect * ramp, 0, 255).astype(np.uint8))
    assert lamp is not None and lamp["field"][1] < -0.2  # darker to the right: x's coefficient
    turned = orientation.turn(calib.__class__.from_matrix(calib.matrix, calib.image_size, extra={"light": lamp}), 1)
    assert turned.extra["light"]["field"][2] == -lamp["field"][1]  # ... to the top once turned a quarter
