from __future__ import annotations

import pytest

from game.board import Board
from game.errors import (
    BlankWithoutLetterError,
    DuplicateSquareError,
    EmptyPlayError,
    FirstPlayTooShortError,
    GapError,
    NotConnectedError,
    NotInLineError,
    OccupiedSquareError,
    OffBoardError,
    RefereeError,
    StartSquareError,
    UnknownLetterError,
)
from game.play import Placement
from game.rules import classic_english, german
from game.squares import Direction, Square
from game.tiles import Tile
from game.validation import validate

from .helpers import apply_moves, pl

RULES = classic_english()


def opened() -> Board:
    board = Board(RULES.layout)
    apply_moves(board, RULES, "8H CAT")
    return board


@pytest.mark.parametrize(
    ("placements", "error", "message"),
    [
        ("", EmptyPlayError, "no tiles were placed"),
        ("P8=A", OffBoardError, "P8: off the board"),
        ("H16=A", OffBoardError, "H16: off the board"),
        ("H8=A H9=B", OccupiedSquareError, "H8: already holds C"),
        ("H7=A H7=B", DuplicateSquareError, "H7: two tiles placed on one square"),
        ("G7=A H9=B", NotInLineError, "G7, H9: tiles are not in one line"),
        ("G9=A G11=B", GapError, "G9-G11: there is a gap at G10"),
        ("A1=A A2=B", NotConnectedError, "A1-A2: the play does not touch any tile on the board"),
        ("K10=A", NotConnectedError, "K10: the play does not touch"),
    ],
)
def test_each_illegal_placement(placements: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as exc:
        validate(opened(), pl(placements), RULES)
    assert isinstance(exc.value, RefereeError) and isinstance(exc.value, ValueError)


def test_first_play_must_cover_centre() -> None:
    with pytest.raises(StartSquareError, match="D4-G4: the first play must cover the start square H8"):
        validate(Board(RULES.layout), pl("D4=W G4=D F4=R E4=O"), RULES)


def test_first_play_needs_two_letters() -> None:
    with pytest.raises(FirstPlayTooShortError, match="H8: the first word needs at least 2 letters"):
        validate(Board(RULES.layout), pl("H8=A"), RULES)


def test_blank_without_letter() -> None:
    with pytest.raises(BlankWithoutLetterError, match="H7: say which letter the blank stands for"):
        validate(opened(), [Placement(Square.from_str("H7"), Tile("?", blank=True))], RULES)


def test_letter_not_in_tile_set() -> None:
    with pytest.raises(UnknownLetterError, match="H7: the english tile set has no letter Ä"):
        validate(opened(), pl("H7=Ä"), RULES)
    assert validate(Board(german().layout), pl("H8=Ä H9=S"), german()).main_word.text == "ÄS"


def test_gap_filled_by_board_tiles_is_fine_and_words_are_found() -> None:
    board = opened()
    checked = validate(board, pl("G8=S K8=S"), RULES)
    assert checked.direction is Direction.ACROSS
    assert [w.text for w in checked.words] == ["SCATS"]
    assert str(checked.play()) == "8G S...S"


def test_single_tile_direction_and_cross_words() -> None:
    board = opened()
    down = validate(board, pl("H9=O"), RULES)
    assert down.direction is Direction.DOWN and [w.text for w in down.words] == ["CO"]
    across = validate(board, pl("K8=S"), RULES)
    assert across.direction is Direction.ACROSS and [w.text for w in across.words] == ["CATS"]


def test_parallel_play_forms_cross_words() -> None:
    board = opened()
    checked = validate(board, pl("H9=O I9=X"), RULES)
    assert [w.text for w in checked.words] == ["OX", "CO", "AX"]


def test_first_play_rules_can_be_decided_by_the_game() -> None:
    board = opened()
    # a variant that starts a new word on a board with tiles: the start-square rule applies again
    with pytest.raises(StartSquareError, match="the first play must cover the start square H8"):
        validate(board, pl("A1=A A2=B"), RULES, first_play=True)
    with pytest.raises(NotConnectedError, match="A1-A2: the play does not touch any tile on the board"):
        validate(Board(RULES.layout), pl("A1=A A2=B"), RULES, first_play=False)


def test_remaining_messages() -> None:
    with pytest.raises(UnknownLetterError, match="H7: '1' is not a letter"):
        validate(opened(), [Placement(Square.from_str("H7"), Tile("1"))], RULES)
    one_tile_rules = RULES.with_options(first_play_min_tiles=1)
    with pytest.raises(FirstPlayTooShortError, match="H8: a single tile forms no word"):
        validate(Board(RULES.layout), pl("H8=A"), one_tile_rules)
