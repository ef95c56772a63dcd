"""The "scrambled" rule on squares and words, one test per rule and per case the manual leaves open."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import EmptyPlayError
from game.scramble.rule import is_one_word, scramble
from game.squares import Square


def sq(names: str) -> frozenset[Square]:
    return frozenset(Square.from_str(n) for n in names.split())


CAT = sq("E5 F5 G5")  # CAT across on row 5


def test_first_play_of_a_round_stays() -> None:
    result = scramble(frozenset(), sq("D5 E5 F5"))
    assert result.kept == sq("D5 E5 F5") and not result.removed and not result.cleared


def test_crossing_word_keeps_the_shared_letter_only() -> None:
    """CAT; ARE played down through the A (F5-F7): C and T go back, ARE stays."""
    result = scramble(CAT, sq("F5 F6 F7"))
    assert result.removed == sq("E5 G5")
    assert result.kept == sq("F5 F6 F7")
    assert not result.cleared


def test_hook_with_one_die_keeps_the_two_letter_word() -> None:
    """CAT; O on F4 above the A makes OA down (a single die): OA stays, C and T go."""
    result = scramble(CAT, sq("F4 F5"))
    assert result.kept == sq("F4 F5") and result.removed == sq("E5 G5")


def test_extension_returns_every_die() -> None:
    """CAT -> CATS (no second word): everything back, the next word starts on the centre square."""
    result = scramble(CAT, sq("E5 F5 G5 H5"))
    assert result.cleared
    assert result.removed == sq("E5 F5 G5 H5") and not result.kept


def test_extension_at_both_ends_is_still_an_extension() -> None:
    result = scramble(CAT, sq("D5 E5 F5 G5 H5"))  # SCATS
    assert result.cleared and not result.kept


def test_several_new_words_keep_the_main_word_only() -> None:
    """Open case 1. WRAP on the mat (B3-E3); SIZES down from F3 makes WRAPS (crossing) and SIZES (main).
    The manual's own example: both score, SIZES stays, WRAP goes back."""
    wrap = sq("B3 C3 D3 E3")
    result = scramble(wrap, main=sq("F3 F4 F5 F6 F7"), others=[sq("B3 C3 D3 E3 F3")])
    assert result.kept == sq("F3 F4 F5 F6 F7")
    assert result.removed == wrap
    assert not result.cleared


def test_extension_that_also_forms_a_second_word_is_not_cleared() -> None:
    """The play extends CAT but a second word is formed: not the extension case, the main word stays."""
    result = scramble(CAT, main=sq("H4 H5"), others=[sq("E5 F5 G5 H5")])
    assert not result.cleared
    assert result.kept == sq("H4 H5") and result.removed == CAT


def test_play_using_two_old_letters_in_crossing_words_keeps_neither() -> None:
    """Open case 2. CAT; ON on F4-G4 forms ON, OA and NT: A and T are used, but only ON stays.
    Keeping them would leave four words on the mat."""
    result = scramble(CAT, main=sq("F4 G4"), others=[sq("F4 F5"), sq("G4 G5")])
    assert result.kept == sq("F4 G4")
    assert result.removed == CAT
    assert is_one_word(result.kept)


def test_result_reads_like_a_score_sheet() -> None:
    assert str(scramble(CAT, sq("F5 F6 F7"))) == "remove E5 G5; keep F5 F6 F7"
    assert str(scramble(CAT, sq("E5 F5 G5 H5"))).endswith("extension: new word on the start square")


def test_a_play_has_a_main_word() -> None:
    with pytest.raises(EmptyPlayError):
        scramble(CAT, frozenset())


@pytest.mark.parametrize(
    ("names", "one"),
    [("", True), ("E5 F5", True), ("E4 E5 E6", True), ("E5", False), ("E5 G5", False), ("E5 F6", False)],
)
def test_is_one_word(names: str, one: bool) -> None:
    assert is_one_word(sq(names)) is one


lines = st.builds(
    lambda across, fixed, lo, n: frozenset(Square(fixed, c) if across else Square(c, fixed) for c in range(lo, lo + n)),
    st.booleans(),
    st.integers(0, 8),
    st.integers(0, 6),
    st.integers(2, 3),
)


@settings(max_examples=100)
@given(old=lines, main=lines, others=st.lists(lines, max_size=3))
def test_the_mat_afterwards_holds_at_most_one_word(
    old: frozenset[Square], main: frozenset[Square], others: list[frozenset[Square]]
) -> None:
    result = scramble(old, main, others)
    assert is_one_word(result.kept)
    assert result.kept | result.removed == old | main
    assert not (result.kept & result.removed)
