"""Control parameters: anything a client sends is either cleaned or refused with a named field, never a crash."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.web.validation import ACTIONS, InvalidInput, parse_control

SNAPSHOT: Any = {"board": ["." * 15] * 15, "players": [{"name": "A"}, {"name": "B"}]}
SCRAMBLE: Any = {"board": ["." * 9] * 9, "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@given(action=st.sampled_from(sorted(ACTIONS)),
       params=st.dictionaries(st.sampled_from(["square", "letter", "count", "player", "tiles", "x"]), json_values,
                              max_size=4) | json_values)
def test_any_input_is_cleaned_or_refused_with_a_named_field(action: str, params: Any) -> None:
    try:
        clean = parse_control(action, params, SNAPSHOT)
    except InvalidInput as exc:
        assert str(exc) and (exc.field == "" or str(exc).startswith(f"{exc.field}: "))
        return
    assert set(clean) == set(ACTIONS[action][0])
    if "letter" in clean:
        assert len(clean["letter"]) == 1 and clean["letter"].isupper()
    if "square" in clean:
        assert clean["square"][0] in "ABCDEFGHIJKLMNO" and 1 <= int(clean["square"][1:]) <= 15
    if "player" in clean:
        assert clean["player"] in (0, 1)


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
