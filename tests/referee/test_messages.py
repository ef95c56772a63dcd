from __future__ import annotations

import re

import pytest

from referee import messages


@pytest.mark.parametrize("key", sorted(messages._TEXT))
def test_every_message_has_english_and_german_with_the_same_fields(key: str) -> None:
    entry = messages._TEXT[key]
    assert set(entry) == {"en", "de"}
    fields = {lang: set(re.findall(r"{(\w+)}", t)) for lang, t in entry.items()}
    assert fields["en"] == fields["de"]
    args = {f: "X" for f in fields["en"]}
    assert messages.text(key, "de", **args) != messages.text(key, "en", **args)


def _reasons_from_the_engine() -> list[str]:
    """One real reason of each kind the validator gives, raised by the engine itself."""
    from game.board import Board
    from game.errors import IllegalPlayError
    from game.play import Placement
    from game.rules import naspa
    from game.squares import Square
    from game.tiles import Tile
    from game.validation import validate

    rules = naspa()
    board = Board(rules.layout)

    def at(square: str, letter: str) -> Placement:
        return Placement(Square.from_str(square), Tile(letter, blank=letter == "?"))

    tries = [[], [at("H8", "?")], [at("H8", "Ä")], [at("P8", "A")], [at("H8", "A"), at("H8", "B")],
             [at("G7", "A"), at("H9", "B")], [at("H8", "A"), at("H10", "B")], [at("A1", "A"), at("A2", "B")],
             [at("H8", "A")], [at("H8", "1")]]
    reasons = []
    for t in tries:
        with pytest.raises(IllegalPlayError) as exc:
            validate(board, t, rules)
        reasons.append(str(exc.value))
    return reasons


def test_the_engines_reasons_are_shown_in_german_squares_kept() -> None:
    reasons = _reasons_from_the_engine()
    german = [messages.rule_reason(r, "de") for r in reasons]
    assert german[5] == "G7, H9: die Steine liegen nicht in einer Reihe"
    assert german[2] == "H8: der Steinsatz »english« hat keinen Buchstaben Ä"
    for en, de in zip(reasons, german, strict=True):
        assert de != en, f"no German for {en!r}"
        assert de.split(": ")[0] == en.split(": ")[0] or ": " not in en  # the squares are kept
    assert [messages.rule_reason(r, "en") for r in reasons] == reasons


def test_a_reason_without_a_translation_stays_as_it_is() -> None:
    assert messages.rule_reason("H8: something new", "de") == "H8: something new"
