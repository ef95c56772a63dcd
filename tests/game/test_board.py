from __future__ import annotations

import pytest

from game.board import Board
from game.errors import OccupiedSquareError, OffBoardError
from game.layout import load_layout
from game.squares import Square
from game.tiles import Tile


def test_place_get_remove_copy() -> None:
    board = Board(load_layout("standard"))
    assert board.is_empty
    board.place([(Square.from_str("H8"), Tile("A")), (Square.from_str("I8"), Tile("B", blank=True))])
    assert board[Square.from_str("H8")] == Tile("A")
    assert board.tile_count == 2
    assert board.rack_letters() == {"A": 1, "?": 1}
    copy = board.copy()
    assert board.remove([Square.from_str("H8")]) == [Tile("A")]
    assert copy[Square.from_str("H8")] == Tile("A")
    assert [str(s) for s, _ in copy.tiles()] == ["H8", "I8"]
    assert "  8 . . . . . . . A b" in str(copy)


def test_board_errors_name_the_square() -> None:
    board = Board(load_layout("standard"))
    board.place([(Square.from_str("H8"), Tile("A"))])
    with pytest.raises(OccupiedSquareError, match="H8: already holds A"):
        board.place([(Square.from_str("H8"), Tile("B"))])
    with pytest.raises(OffBoardError, match="P1: off the board"):
        _ = board[Square.from_str("P1")]
    with pytest.raises(OffBoardError, match="A1: no tile"):
        board.remove([Square.from_str("A1")])
    assert board.get(Square(20, 20)) is None
