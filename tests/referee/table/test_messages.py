from __future__ import annotations

import re

import pytest

from game.errors import IllegalPlayError
from referee.table import messages
from referee.table.api import ControlError


@pytest.mark.parametrize("key", sorted(messages._TEXT))
def test_every_message_has_english_and_german_with_the_same_fields(key: str) -> None:
    entry = messages._TEXT[key]
    assert set(entry) == {"en", "de"}
    fields = {lang: set(re.findall(r"{(\w+)}", t)) for lang, t in entry.items()}
    assert fields["en"] == fields["de"]
    args = {f: "X" for f in fields["en"]}
    assert messages.text(key, "de", **args) != messages.text(key, "en", **args)


def _reasons_from_the_engine() -> list[IllegalPlayError]:
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
        reasons.append(exc.value)
    return reasons


def test_the_engines_reasons_are_shown_in_german_squares_kept() -> None:
    errors = _reasons_from_the_engine()
    reasons = [str(e) for e in errors]
    german = [messages.engine_error_text(e, "de") for e in errors]
    assert german[5] == "G7, H9: die Steine liegen nicht in einer Reihe"
    assert german[2] == "H8: der Steinsatz »english« hat keinen Buchstaben Ä"
    for en, de in zip(reasons, german, strict=True):
        assert de != en, f"no German for {en!r}"
        assert de.split(": ")[0] == en.split(": ")[0] or ": " not in en  # the squares are kept
    assert [messages.engine_error_text(e, "en") for e in errors] == reasons


def test_an_error_that_is_not_the_engines_keeps_its_own_message() -> None:
    assert messages.engine_error_text(OSError("H8: something new"), "de") == "H8: something new"


def _rack_reasons_from_the_engine() -> list[IllegalPlayError]:
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
        reasons.append(exc.value)
    return reasons


def test_the_engines_rack_and_unseen_reasons_are_shown_in_german_the_play_kept() -> None:
    errors = _rack_reasons_from_the_engine()
    reasons = [str(e) for e in errors]
    german = [messages.engine_error_text(e, "de") for e in errors]
    assert german[1] == "8H ZZ: nur noch 1 Z ungesehen"
    assert german[2] == "8G QZQZ: nur noch 1 Q, nur noch 1 Z ungesehen"
    assert german[3] == "8B AAAAAAAA: 8 Steine gelegt, aber ann hat nur 7"
    assert " nicht auf dem Bänkchen " in german[0]
    for en, de in zip(reasons, german, strict=True):
        assert de != en, f"no German for {en!r}"
        assert de.split(": ")[0] == en.split(": ")[0]  # the play is kept


# --- refusals: every ControlError has a code, and every code a text in both languages --------------------------


def _codes_raised() -> list[tuple[str, str]]:
    """(code, where) of every `ControlError("code", ...)` written in referee/."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    found = []
    for path in sorted((root / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ControlError":
                first = node.args[0] if node.args else None
                code = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
                found.append((str(code), f"{path.relative_to(root)}:{node.lineno}"))
    return found


def _notices_put_up() -> list[tuple[str, str, bool]]:
    """(code, where, worded by `text(...)`) of every `self._notice(level, "code", message, ...)` in referee/."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    found = []
    for path in sorted((root / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_notice"
                    and len(node.args) >= 3 and isinstance(node.args[1], ast.Constant)):  # not a pass-through
                code = node.args[1].value
                said = node.args[2]
                worded = isinstance(said, ast.Call) and isinstance(said.func, ast.Name) and said.func.id == "text"
                found.append((str(code), f"{path.relative_to(root)}:{node.lineno}", worded))
    return found


def test_every_notice_the_table_puts_up_is_worded_by_code_in_both_languages() -> None:
    """A notice written as an English literal stays English at a German table: each is said through `text`."""
    found = _notices_put_up()
    assert len(found) > 10, "the walk must see the table's notices"
    assert {c for c, _, _ in found} >= set(messages.DIRECTOR_NOTICES)
    # the director's own message is shown in the director's words, as sent
    wrong = [f"{where}: {code}" for code, where, worded in found
             if code != "director_message" and (not worded or code not in messages._TEXT)]
    assert wrong == [], "notices not said through messages.text(code, ...):\n" + "\n".join(wrong)


def test_every_refusal_is_raised_by_a_code_the_messages_know() -> None:
    raised = _codes_raised()
    assert len(raised) > 30, "the walk must see the table's refusals"
    unknown = [f"{where}: {code}" for code, where in raised if code not in messages.REFUSALS]
    assert unknown == [], "ControlError takes a code of referee/table/messages.py REFUSALS:\n" + "\n".join(unknown)


@pytest.mark.parametrize("code", sorted(messages.REFUSALS))
def test_every_refusal_code_is_said_in_english_and_german(code: str) -> None:
    import string

    from referee.table.state import TableState

    entry = messages.REFUSALS[code]
    assert set(entry) == {"en", "de"}, f"{code}: {sorted(entry)}"
    names = {f for lang in ("en", "de") for _, f, _, _ in string.Formatter().parse(entry[lang]) if f}
    assert names == {f for _, f, _, _ in string.Formatter().parse(entry["en"]) if f}, "both take the same fields"
    fields: dict[str, object] = {name: "X" for name in names}
    if "state" in fields:
        fields["state"] = TableState.CHALLENGE
    en = ControlError(code, **fields)
    assert str(en) == en.text("en") and en.text("en").strip()
    if code not in ("engine",):  # the engine's reason is translated by engine_error_text
        assert en.text("de") != en.text("en"), f"{code}: the German text is the English one"


def test_a_refusal_names_the_state_in_the_tables_language() -> None:
    from referee.table.state import TableState

    exc = ControlError("already_started", state=TableState.TURN)
    assert str(exc) == "the game has already started (the table is turn)"
    assert exc.text("de") == "das Spiel hat schon begonnen (der Tisch ist im Zug)"
    assert exc.code == "already_started" and exc.fields == {"state": TableState.TURN}


def test_an_engine_reason_in_a_refusal_is_said_in_german() -> None:
    from game.errors import NotInLineError

    exc = ControlError("correction_does_not_stand", square="H8", letter="Q",
                       error=NotInLineError("G7, H9: tiles are not in one line", squares="G7, H9"))
    assert str(exc) == "H8: with Q there the play does not stand: G7, H9: tiles are not in one line"
    assert exc.text("de") == "H8: mit Q dort gilt der Zug nicht: G7, H9: die Steine liegen nicht in einer Reihe"
