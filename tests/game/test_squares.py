from __future__ import annotations

import pytest

from game.errors import NotationError, RefereeError
from game.squares import Direction, Position, Square


@pytest.mark.parametrize(("text", "row", "col"), [("H8", 7, 7), ("A1", 0, 0), ("o15", 14, 14), ("I9", 8, 8)])
def test_square_round_trip(text: str, row: int, col: int) -> None:
    sq = Square.from_str(text)
    assert (sq.row, sq.col) == (row, col)
    assert str(sq) == text.upper()


@pytest.mark.parametrize("text", ["8", "HH", "H0", "", "H8x", "8H8"])
def test_bad_square_names_the_text(text: str) -> None:
    with pytest.raises(NotationError, match="is not a square") as exc:
        Square.from_str(text)
    assert isinstance(exc.value, ValueError) and isinstance(exc.value, RefereeError)


@pytest.mark.parametrize(
    ("text", "start", "direction"),
    [("8D", "D8", Direction.ACROSS), ("D8", "D8", Direction.DOWN), ("8g", "G8", Direction.ACROSS),
     ("h6", "H6", Direction.DOWN), ("15A", "A15", Direction.ACROSS)],
)
def test_position_row_first_is_across(text: str, start: str, direction: Direction) -> None:
    pos = Position.from_str(text)
    assert str(pos.start) == start
    assert pos.direction is direction
    assert str(pos) == text.upper()


def test_position_transpose_swaps_notation() -> None:
    assert str(Position.from_str("8D").transpose()) == "H4"


@pytest.mark.parametrize("text", ["88", "DD", "0D", "D0", "8-D"])
def test_bad_position(text: str) -> None:
    with pytest.raises(NotationError, match="is not a position"):
        Position.from_str(text)


def test_step_walks_along_direction() -> None:
    assert str(Square.from_str("H8").step(Direction.ACROSS, 2)) == "J8"
    assert str(Square.from_str("H8").step(Direction.DOWN, -1)) == "H7"
