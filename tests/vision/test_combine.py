"""Combining frames: the vote's rules, on readings built by hand."""

from __future__ import annotations

import pytest

from vision.geometry import ALL_SQUARES
from vision.reader import BoardReading, SquareReading, combine_readings


def _reading(letters: dict[str, tuple[str, bool]], occluded: bool = False) -> BoardReading:
    squares = {}
    for name in ALL_SQUARES:
        letter, uncertain = letters.get(name, (".", False))
        squares[name] = SquareReading(name, letter != ".", letter, 0.0 if uncertain else 0.9, uncertain)
    return BoardReading(squares, occluded=occluded, ms=10.0)


def test_agreeing_frames_are_trusted() -> None:
    combined = combine_readings([_reading({"H8": ("Q", False)}), _reading({"H8": ("Q", False)})])
    assert combined.squares["H8"].letter == "Q" and not combined.squares["H8"].uncertain
    assert combined.ms == 20.0 and not combined.occluded


def test_disagreement_stays_uncertain() -> None:
    combined = combine_readings([_reading({"H8": ("Q", False)}), _reading({"H8": ("O", False)})])
    assert combined.squares["H8"].uncertain
    assert combined.uncertain == ["H8"]


def test_a_minority_of_sure_frames_is_not_enough() -> None:
    frames = [
        _reading({"H8": ("Q", False)}),
        _reading({"H8": ("G", True)}, occluded=True),
        _reading({"H8": ("G", True)}, occluded=True),
    ]
    combined = combine_readings(frames)
    assert combined.squares["H8"].uncertain and combined.squares["H8"].letter == "Q"
    assert not combined.occluded  # one clear frame shows the board


def test_all_occluded_stays_occluded_and_nothing_is_refused() -> None:
    assert combine_readings([_reading({}, occluded=True)]).occluded
    with pytest.raises(ValueError, match="no readings"):
        combine_readings([])
