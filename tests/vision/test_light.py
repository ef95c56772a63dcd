"""The light measured from the board's own colours: a lamp's colour and level, its fall-off, a tone curve."""

from __future__ import annotations

import numpy as np
import pytest

from vision import cells, light, perturb
from vision.geometry import SIZE, premium_layout
from vision.registration import calibrate
from vision.synth import TAN, render_scene

EMPTY = ["." * SIZE] * SIZE


def _rect(frame: np.ndarray) -> np.ndarray:
    return cells.rectify(frame, calibrate(frame).matrix)


def _kind_colours(rect: np.ndarray) -> dict[str, np.ndarray]:
    bgr = cells.per_square_mean(rect, inset=0.25)
    kinds = np.array(list("".join(premium_layout())))
    return {k: np.median(bgr[kinds == k], axis=0) for k in ".TDtd"}


@pytest.fixture(scope="module")
def board() -> np.ndarray:
    return render_scene(EMPTY, seed=3).frame


@pytest.mark.parametrize(("g", "low", "high"), [(1.5, 1.35, 1.65), (0.6, 0.54, 0.67), (1.8, 1.6, 2.0)])
def test_a_tone_curve_is_measured_from_the_boards_contrast(
    board: np.ndarray, g: float, low: float, high: float
) -> None:
    measured = light.measure(cells.rectify(perturb.gamma(board, g), calibrate(board).matrix))
    assert measured is not None
    assert low <= float(measured["tone"]) <= high  # type: ignore[arg-type]


@pytest.mark.parametrize("lamp", ["clean", "warm", "dim"])
def test_a_lamp_is_not_taken_for_a_tone_curve(board: np.ndarray, lamp: str) -> None:
    frame = perturb.BY_NAME[lamp].apply(board, np.random.default_rng(0))
    measured = light.measure(_rect(frame))
    assert measured is not None and measured["tone"] == 1.0


def test_a_tan_board_is_not_taken_for_a_tone_curve() -> None:
    """A board of another design has its own contrast (the tan one is 15 % flatter): the dead band keeps it."""
    measured = light.measure(_rect(render_scene(EMPTY, seed=2, palette=TAN).frame))
    assert measured is not None and measured["tone"] == 1.0


@pytest.mark.parametrize("g", [1.5, 0.6])
def test_undoing_the_tone_curve_brings_the_colours_back(board: np.ndarray, g: float) -> None:
    """Each kind's colour after the correction is within a few levels of the same board under a plain curve."""
    matrix = calibrate(board).matrix
    plain = _kind_colours(cells.rectify(board, matrix))
    rect = cells.rectify(perturb.gamma(board, g), matrix)
    before = _kind_colours(rect)
    after = _kind_colours(light.apply(rect, light.measure(rect)))
    for kind in ".TDtd":
        error_after = float(np.abs(after[kind] - plain[kind]).max())
        error_before = float(np.abs(before[kind] - plain[kind]).max())
        assert error_after < max(12.0, 0.3 * error_before), (kind, plain[kind], before[kind], after[kind])


def test_the_correction_without_a_fall_off_is_one_table_per_channel() -> None:
    rect = np.random.default_rng(1).integers(0, 256, (64, 64, 3)).astype(np.uint8)
    out = light.apply(rect, {"gains": [1.0, 1.0, 1.0], "field": [0.0] * 6, "tone": 2.0})
    expected = np.clip(255.0 * (rect / 255.0) ** 0.5 + 0.5, 0, 255).astype(np.uint8)
    assert np.array_equal(out, expected)
    assert light.apply(rect, {"gains": [1.0, 1.0, 1.0], "field": [0.0] * 6}) is rect
    assert light.apply(rect, {"gains": [1.0, 1.0, 1.0], "field": [0.0] * 6, "tone": "x"}) is rect
