"""The table's words (referee/words/table.py): its alerts and notices, its refusals, and the engine's reasons
said inside them, in English and in German."""

from __future__ import annotations

import re

import pytest

from game.errors import IllegalPlayError
from referee.table.api import ControlError
from referee.words import say
from referee.words.table import DIRECTOR_NOTICES, REFUSAL_TEXTS, TABLE

# Words the German of a table's message may keep as they are: names, file names and the like.
SAME_IN_GERMAN = {"director_message", "game.scramble"}


def engine_said(err: BaseException, lang: str) -> str:
    """An engine error as the table says it (the `engine` refusal is the error's own words)."""
    return say("refusals", "engine", lang, error=err)


@pytest.mark.parametrize("key", sorted(TABLE))
def test_every_message_has_english_and_german_with_the_same_fields(key: str) -> None:
    entry = TABLE[key]
    assert set(entry) == {"en", "de"}
    fields = {lang: set(re.findall(r"{(\w+)}", t)) for lang, t in entry.items()}
    assert fields["en"] == fields["de"]
    args = {f: "X" for f in fields["en"]}
    if key not in SAME_IN_GERMAN:
        assert say("table", key, "de", **args) != say("table", key, "en", **args)


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
    german = [engine_said(e, "de") for e in errors]
    assert german[5] == "G7, H9: die Steine liegen nicht in einer Reihe"
    assert german[2] == "H8: der Steinsatz »english« hat keinen Buchstaben Ä"
    for en, de in zip(reasons, german, strict=True):
        assert de != en, f"no German for {en!r}"
        assert de.split(": ")[0] == en.split(": ")[0] or ": " not in en  # the squares are kept
    assert [engine_said(e, "en") for e in errors] == reasons


def test_an_error_that_is_not_the_engines_keeps_its_own_message() -> None:
    assert engine_said(OSError("H8: something new"), "de") == "H8: something new"


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
    german = [engine_said(e, "de") for e in errors]
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


def _alerts_put_up() -> list[tuple[str, str, bool]]:
    """(code, where, words given as a literal) of every `self._notice(level, "code", ...)`,
    `Alert(level, "code", ...)` and `set_alert("code", ...)` in referee/."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    found = []
    for path in sorted((root / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else ""
            at = {"_notice": 1, "Alert": 1, "set_alert": 0}.get(name)
            if at is None or len(node.args) <= at or not isinstance(node.args[at], ast.Constant):
                continue  # a pass-through (`_back_to_mover`'s)
            literal = any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[at + 1:])
            found.append((str(node.args[at].value), f"{path.relative_to(root)}:{node.lineno}", literal))
    return found


def test_every_alert_the_table_puts_up_is_a_code_with_words_in_both_languages() -> None:
    """An alert written as an English literal stays English at a German table: each is a code and its fields,
    said from referee/words/table.py where it is shown."""
    found = _alerts_put_up()
    assert len(found) > 30, "the walk must see the table's alerts"
    assert {c for c, _, _ in found} >= set(DIRECTOR_NOTICES) | {"journal_behind", "journal_damaged",
                                                                 "journal_waiting", "pin_guessing"}
    wrong = [f"{where}: {code}" for code, where, literal in found if literal or code not in TABLE]
    assert wrong == [], "alerts not said from referee/words/table.py:\n" + "\n".join(wrong)


def test_every_alert_code_of_the_api_has_its_words() -> None:
    from referee.table.api import ALERT_CODES

    assert {c for c, _, _ in _alerts_put_up()} <= set(ALERT_CODES), "an alert the API does not list"
    assert set(ALERT_CODES) <= set(TABLE)


def test_every_refusal_is_raised_by_a_code_with_words() -> None:
    raised = _codes_raised()
    assert len(raised) > 30, "the walk must see the table's refusals"
    unknown = [f"{where}: {code}" for code, where in raised if code not in REFUSAL_TEXTS]
    assert unknown == [], "ControlError takes a code of referee/words/table.py REFUSAL_TEXTS:\n" + "\n".join(unknown)


@pytest.mark.parametrize("code", sorted(REFUSAL_TEXTS))
def test_every_refusal_code_is_said_in_english_and_german(code: str) -> None:
    import string

    from referee.table.state import TableState

    entry = REFUSAL_TEXTS[code]
    assert set(entry) == {"en", "de"}, f"{code}: {sorted(entry)}"
    names = {f for lang in ("en", "de") for _, f, _, _ in string.Formatter().parse(entry[lang]) if f}
    assert names == {f for _, f, _, _ in string.Formatter().parse(entry["en"]) if f}, "both take the same fields"
    fields: dict[str, object] = {name: "X" for name in names}
    if "state" in fields:
        fields["state"] = TableState.CHALLENGE
    en = ControlError(code, **fields)
    assert str(en) == en.text("en") and en.text("en").strip()
    if code not in ("engine",):  # the engine's reason is said from its own code (referee/words/engine.py)
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
