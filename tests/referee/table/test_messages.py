from __future__ import annotations

import re

import pytest

from referee.table import messages


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


def _rack_reasons_from_the_engine() -> list[str]:
    """The engine's own reasons a play's tiles are not on the rack, or not among the unseen tiles."""
    from game.errors import IllegalPlayError
    from game.game import Game
    from game.play import Placement
    from game.rules import naspa
    from game.squares import Square
    from game.tiles import Tile

    def at(square: str, letter: str) -> Placement:
        return Placement(Square.from_str(square), Tile(letter))

    reasons = []
    known = Game(naspa(), ["ann", "bob"], seed=7)
    rack = known.rack(0) or ""
    missing = next(ch for ch in "QZXJKV" if ch not in rack)
    unknown = Game(naspa(), ["ann", "bob"])
    tries = [(known, [at("H8", missing), at("I8", missing)]),
             (unknown, [at("H8", "Z"), at("I8", "Z")]),
             (unknown, [at("G8", "Q"), at("H8", "Z"), at("I8", "Q"), at("J8", "Z")]),
             (unknown, [at(f"{c}8", "A") for c in "BCDEFGHI"])]
    for game, placements in tries:
        with pytest.raises(IllegalPlayError) as exc:
            game.play(placements)
        reasons.append(str(exc.value))
    return reasons


def test_the_engines_rack_and_unseen_reasons_are_shown_in_german_the_play_kept() -> None:
    reasons = _rack_reasons_from_the_engine()
    german = [messages.rule_reason(r, "de") for r in reasons]
    assert german[1] == "8H ZZ: nur noch 1 Z ungesehen"
    assert german[2] == "8G QZQZ: nur noch 1 Q, nur noch 1 Z ungesehen"
    assert german[3] == "8B AAAAAAAA: 8 Steine gelegt, aber ann hat nur 7"
    assert " nicht auf dem Bänkchen " in german[0]
    for en, de in zip(reasons, german, strict=True):
        assert de != en, f"no German for {en!r}"
        assert de.split(": ")[0] == en.split(": ")[0]  # the play is kept
