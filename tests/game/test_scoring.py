from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from game.board import Board
from game.errors import IllegalPlayError, RefereeError
from game.play import Placement
from game.rules import classic_english, german
from game.scoring import score
from game.squares import Square
from game.tiles import Tile
from game.validation import validate

from .helpers import apply_moves, pl

RULES = classic_english()


def test_opening_double_word_and_bingo() -> None:
    board = Board(RULES.layout)
    [first] = apply_moves(board, RULES, "H7 OUTDUEL")
    assert first.score == 68 and first.bingo_bonus == 50 and first.is_bingo
    [second] = apply_moves(board, RULES, "11G J.ICE")
    assert second.score == 28


def test_premiums_only_under_new_tiles_and_cross_words_score() -> None:
    board = Board(RULES.layout)
    apply_moves(board, RULES, "H7 OUTDUEL", "11G J.ICE")
    [swamp] = apply_moves(board, RULES, "L11 SWAMP")
    assert [(w.word.text, w.score) for w in swamp.words] == [("SWAMP", 30), ("JUICES", 15)]
    assert swamp.score == 45


def test_blank_scores_zero_but_takes_word_premium() -> None:
    board = Board(RULES.layout)
    [play] = apply_moves(board, RULES, "8H Qi")
    assert play.score == 20  # Q on the centre (x2), blank I worth 0


def test_two_word_squares_multiply() -> None:
    board = Board(RULES.layout)
    # across row 8, then down column E from E5 (double word) to E11 (double word) through the C on E8
    apply_moves(board, RULES, "8E CATTLE")
    [play] = apply_moves(board, RULES, "E5 STACKED")
    letters = sum(RULES.tiles.values[c] for c in "STACKED")
    assert play.score == letters * 4


def test_bingo_bonus_not_multiplied_and_configurable() -> None:
    board = Board(RULES.layout)
    [play] = apply_moves(board, RULES, "8B RETAINS")
    base = play.score - 50
    plain = replace(RULES, bingo_bonus=35)
    assert score(validate(Board(RULES.layout), play.placements, plain), plain).score == base + 35
    assert base > 0


def test_german_values() -> None:
    rules = german()
    board = Board(rules.layout)
    [play] = apply_moves(board, rules, "8G DÜS")
    assert play.score == 16


ROWS = st.integers(-2, 16)
LETTERS = st.sampled_from("ABCEQZ?")


@st.composite
def placements(draw: st.DrawFn) -> list[Placement]:
    n = draw(st.integers(0, 8))
    out = []
    for _ in range(n):
        letter = draw(LETTERS)
        blank = draw(st.booleans())
        out.append(Placement(Square(draw(ROWS), draw(ROWS)), Tile(letter, blank=blank or letter == "?")))
    return out


@settings(max_examples=300, deadline=None)
@given(placements())
def test_validation_raises_only_project_errors(ps: list[Placement]) -> None:
    board = Board(RULES.layout)
    apply_moves(board, RULES, "8D ZEBRA", "F5 QUA.T")
    try:
        scored = score(validate(board, ps, RULES), RULES)
    except IllegalPlayError as exc:
        assert isinstance(exc, RefereeError) and isinstance(exc, ValueError)
        assert str(exc)
    else:
        assert scored.score >= 0
        assert all(len(w.word.tiles) >= 2 for w in scored.words)


def _transpose(ps: list[Placement]) -> list[Placement]:
    return [Placement(p.square.transpose(), p.tile) for p in ps]


@settings(max_examples=300, deadline=None)
@given(placements())
def test_a_play_and_its_transpose_score_the_same(ps: list[Placement]) -> None:
    board = Board(RULES.layout)
    moves = [pl("H8=Z I8=E J8=B K8=R L8=A"), pl("F6=Q F7=U F8=A F9=T")]
    tboard = Board(RULES.layout)
    for m in moves:
        board.place((p.square, p.tile) for p in m)
        tboard.place((p.square, p.tile) for p in _transpose(m))
    try:
        result = score(validate(board, ps, RULES), RULES)
    except IllegalPlayError as exc:
        try:
            validate(tboard, _transpose(ps), RULES)
        except IllegalPlayError as texc:
            assert type(texc) is type(exc)
        else:
            raise AssertionError(f"{exc} but the transpose was accepted") from None
    else:
        tresult = score(validate(tboard, _transpose(ps), RULES), RULES)
        assert tresult.score == result.score
        assert sorted(w.word.text for w in tresult.words) == sorted(w.word.text for w in result.words)


@st.composite
def wild_placements(draw: st.DrawFn) -> list[Placement]:
    """Anything a misread board diff could hand in: odd letters, empty strings, far squares, blanks."""
    n = draw(st.integers(0, 9))
    letter = st.one_of(st.sampled_from(list("AEQZÄß?1 ")), st.text(max_size=2))
    return [Placement(Square(draw(st.integers(-30, 40)), draw(st.integers(-30, 40))),
                      Tile(draw(letter), blank=draw(st.booleans()))) for _ in range(n)]


@settings(max_examples=300, deadline=None)
@given(wild_placements(), st.integers(0, 3))
def test_wild_input_raises_only_project_errors(ps: list[Placement], opening: int) -> None:
    board = Board(RULES.layout)
    apply_moves(board, RULES, *["8D ZEBRA", "F5 QUA.T", "9G OX", "H4 JIBE."][:opening])
    try:
        scored = score(validate(board, ps, RULES), RULES)
    except IllegalPlayError as exc:
        assert isinstance(exc, RefereeError) and str(exc)
    else:
        assert scored.score >= 0 and scored.words
