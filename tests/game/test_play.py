from __future__ import annotations

import pytest

from game.board import Board
from game.errors import NotationError, OffBoardError, PlayThroughMismatchError
from game.layout import load_layout
from game.play import Placement, Play, placements_from_str
from game.squares import Direction, Square
from game.tiles import Tile


def board_with_word() -> Board:
    board = Board(load_layout("standard"))
    board.place(p for p in ((Square.from_str(f"{c}8"), Tile(ch)) for c, ch in zip("HIJ", "CAT", strict=True)))
    return board


def test_placement_round_trip() -> None:
    p = Placement.from_str("h9=e")
    assert p == Placement(Square.from_str("H9"), Tile("E", blank=True))
    assert str(p) == "H9=e"
    assert placements_from_str("H8=A, H9=B") == (Placement.from_str("H8=A"), Placement.from_str("H9=B"))
    with pytest.raises(NotationError, match="is not a placement"):
        Placement.from_str("H8A")


def test_play_round_trip_and_through_tiles() -> None:
    board = board_with_word()
    for text in ("8H ...S", "8H CATS", "8H (CAT)S", "8H (C)ATS"):
        play = Play.from_str(text)
        assert str(play) == text
        assert play.placements(board) == (Placement.from_str("K8=S"),)


def test_blank_in_written_play() -> None:
    board = board_with_word()
    assert Play.from_str("H7 a.e").placements(board) == (Placement.from_str("H7=a"), Placement.from_str("H9=e"))


def test_play_errors() -> None:
    board = board_with_word()
    with pytest.raises(PlayThroughMismatchError, match="H8 holds C, not D"):
        Play.from_str("8H DATS").placements(board)
    with pytest.raises(PlayThroughMismatchError, match="G8 is empty"):
        Play.from_str("8G .CATS").placements(board)
    with pytest.raises(OffBoardError, match="P8 is off the board"):
        Play.from_str("8J .ABCDEF").placements(board)
    with pytest.raises(NotationError, match="is not a play"):
        Play.from_str("8H")
    with pytest.raises(NotationError, match="unbalanced"):
        Play.from_str("8H (CATS").cells()
    with pytest.raises(NotationError, match="is not a letter"):
        Play.from_str("8H CA1S").cells()


def test_from_placements_writes_dots_for_board_tiles() -> None:
    board = board_with_word()
    play = Play.from_placements(board, [Placement.from_str("G8=S"), Placement.from_str("K8=s")], Direction.ACROSS)
    assert str(play) == "8G S...s"
