"""Control parameters: anything a client sends is either cleaned or refused with a named field, never a crash."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.web.validation import ACTIONS, MAX_WORDS, InvalidInput, parse_control

SNAPSHOT: Any = {"board": ["." * 15] * 15, "players": [{"name": "A"}, {"name": "B"}]}
SCRAMBLE: Any = {"board": ["." * 9] * 9, "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@given(action=st.sampled_from(sorted(ACTIONS)),
       params=st.dictionaries(st.sampled_from(["square", "letter", "count", "player", "tiles", "letters", "words",
                                               "x"]),
                              json_values, max_size=4) | json_values)
def test_any_input_is_cleaned_or_refused_with_a_named_field(action: str, params: Any) -> None:
    try:
        clean = parse_control(action, params, SNAPSHOT)
    except InvalidInput as exc:
        assert str(exc) and (exc.field == "" or str(exc).startswith(f"{exc.field}: "))
        return
    fields = set(ACTIONS[action].fields)
    assert fields - set(ACTIONS[action].optional) <= set(clean) <= fields
    if "words" in clean:
        assert 1 <= clean["words"] <= MAX_WORDS
    if "letter" in clean:
        assert len(clean["letter"]) == 1 and clean["letter"].isupper()
    if "square" in clean:
        assert clean["square"][0] in "ABCDEFGHIJKLMNO" and 1 <= int(clean["square"][1:]) <= 15
    if "player" in clean:
        assert clean["player"] in (0, 1)
    if "letters" in clean:
        assert 1 <= len(clean["letters"]) <= 7
        assert all(ch == "?" or (ch.isalpha() and ch == ch.upper()) for ch in clean["letters"])


@given(col=st.integers(0, 14), row=st.integers(1, 15), letter=st.sampled_from("abcxyzÄÖÜäöü"))
def test_every_square_and_letter_of_the_board_is_accepted(col: int, row: int, letter: str) -> None:
    square = f"{chr(ord('a') + col)}{row}"
    assert parse_control("blank", {"square": f" {square} ", "letter": letter}, SNAPSHOT) == {
        "square": square.upper(), "letter": letter.upper()}


def test_the_board_size_and_players_come_from_the_table() -> None:
    with pytest.raises(InvalidInput, match="J1 is off the board \\(A1 to I9\\)"):
        parse_control("correct", {"square": "J1", "letter": "E"}, SCRAMBLE)
    assert parse_control("challenge", {"player": "2"}, SCRAMBLE) == {"player": 2}
    with pytest.raises(InvalidInput, match="letter: type one letter"):
        parse_control("blank", {"square": "A1", "letter": "ß"}, SNAPSHOT)  # upper-cases to two letters


def rolling(dice: int | None) -> Any:
    """A Scramble snapshot; `dice`: how many dice the table asks for (`pending.roll`), None when it does not say."""
    return {**SCRAMBLE, "pending": {} if dice is None else {"roll": dice}}


@given(faces=st.lists(st.sampled_from("AEIOUQZXäöüÄÖÜ?"), min_size=1, max_size=7), spaces=st.booleans())
def test_a_roll_of_letters_and_blank_faces_is_cleaned(faces: list[str], spaces: bool) -> None:
    typed = " ".join(faces) if spaces else "".join(faces)
    expected = "".join(faces).upper()
    assert parse_control("roll", {"letters": typed}, rolling(len(faces))) == {"letters": expected}
    assert parse_control("roll", {"letters": typed}, rolling(None)) == {"letters": expected}


@pytest.mark.parametrize(
    ("letters", "dice", "needle"),
    [
        ("AEQ", 4, "the table asks for 4 dice: type 4 letters, not 3"),
        ("AEQZX", 4, "the table asks for 4 dice: type 4 letters, not 5"),
        ("AE", 1, "the table asks for 1 die: type 1 letter, not 2"),
        ("AEIOUQZX", None, "a roll is at most 7 dice, not 8"),
        ("AEIOUQZX", 7, "the table asks for 7 dice: type 7 letters, not 8"),
        ("", 3, "type the letters the 3 dice show, ? for a blank face, e.g. AEI"),
        ("   ", None, "type the letters the dice show"),
        (None, 3, "type the letters the 3 dice show"),
        (7, None, "type the letters the dice show"),
        (["A", "E"], 2, "type the letters the 2 dice show"),
        ("A1E", 3, "only the letters the dice show and ? for a blank face, not 1"),
        ("A*-", 3, "not * -"),
        ("Aß", 2, "not ß"),  # no die shows ß, and upper case would make it two letters
    ],
)
def test_a_malformed_roll_is_refused_naming_the_field(letters: Any, dice: int | None, needle: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_control("roll", {"letters": letters}, rolling(dice))
    assert caught.value.field == "letters"
    assert str(caught.value).startswith("letters: ") and needle in str(caught.value)


def test_a_roll_takes_only_its_letters_and_a_new_game_nothing() -> None:
    with pytest.raises(InvalidInput, match=r"^faces: roll takes no parameter 'faces' \(its parameters: letters\)"):
        parse_control("roll", {"letters": "AEQ", "faces": "AEQ"}, rolling(3))
    assert parse_control("new_game", {}, SNAPSHOT) == {}
    with pytest.raises(InvalidInput, match=r"^same_players: new_game takes no parameter .* \(its parameters: none\)"):
        parse_control("new_game", {"same_players": True}, SNAPSHOT)


def test_a_challenge_may_name_how_many_words_it_challenges() -> None:
    assert parse_control("challenge", {"player": 1}, SNAPSHOT) == {"player": 1}  # words left out: the table's 1
    assert parse_control("challenge", {"player": 1, "words": "2"}, SNAPSHOT) == {"player": 1, "words": 2}
    window: Any = {**SNAPSHOT, "pending": {"challenge": {"player": 0, "remaining_ms": 9000, "words": 3}}}
    assert parse_control("challenge", {"player": 1, "words": 3}, window) == {"player": 1, "words": 3}
    with pytest.raises(InvalidInput, match="words: 4 is out of range: the number of words challenged is 1 to 3"):
        parse_control("challenge", {"player": 1, "words": 4}, window)
    for bad in (0, -1, True, "two", 1.5, None):
        with pytest.raises(InvalidInput, match=r"^words: "):
            parse_control("challenge", {"player": 1, "words": bad}, SNAPSHOT)
