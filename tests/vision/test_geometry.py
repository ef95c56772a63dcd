from __future__ import annotations

import pytest

from vision.geometry import ALL_SQUARES, parse_square, square_name


def test_centre_and_corners() -> None:
    assert square_name(7, 7) == "H8"
    assert square_name(0, 0) == "A1"
    assert square_name(14, 14) == "O15"
    assert parse_square("h8") == (7, 7)
    assert len(ALL_SQUARES) == 225 and ALL_SQUARES[1] == "B1"


@pytest.mark.parametrize("bad", ["P1", "A0", "A16", "", "8H"])
def test_bad_square_names_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a square name"):
        parse_square(bad)


def test_the_layout_and_the_names_are_the_engines() -> None:
    from game.layout import load_layout
    from game.squares import Square
    from vision.geometry import premium_layout

    engine = load_layout("standard")
    assert premium_layout()[7][7] == "D" and engine.rows[7][7] == "*"
    assert all(
        premium_layout()[r][c] == engine.rows[r][c].replace("*", "D") for r in range(15) for c in range(15)
    )
    assert all(name == str(Square(*parse_square(name))) for name in ALL_SQUARES)
