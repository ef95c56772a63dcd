"""The input checks' words: every check is a code of the catalogue, said in English as before and in German
without an English word, and the code a check raises is the one its words are for."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import Any

import pytest

from referee.web.validation import ACTIONS, InvalidInput, parse_control
from referee.words import say
from referee.words.checks import CHECKS, FIELDS, catalogue, check_phrase

ROOT = Path(__file__).resolve().parents[3]
SNAPSHOT: Any = {"board": ["." * 15] * 15, "players": [{"name": "A"}, {"name": "B"}]}
NOBODY: Any = {"board": ["." * 15] * 15, "players": []}


def rolling(dice: int | None) -> Any:
    return {**SNAPSHOT, "pending": {} if dice is None else {"roll": dice}}


# English words that must not be in a German check. "die" is left out: it is German's article too.
ENGLISH = re.compile(r"\b(the|a|an|is|of|to|and|for|as|at|on|e\.g|type|give|send|write|name|only|not|none|nothing|"
                     r"letters?|squares?|tiles?|players?|rack|blank|face|dice|board|table|number|whole|range|"
                     r"out|off|most|holds|asks|show|takes|its|request|body|valid|unknown|actions?|yet|row|"
                     r"column|count|words?|challenged|parameters)\b", re.IGNORECASE)


def test_the_english_words_are_found_in_the_german_of_before() -> None:
    """The German page said this before (issue 25): the list must catch it."""
    assert ENGLISH.findall(_data_stripped("Eingabe prüfen: letter: type one letter, e.g. E")) == [
        "letter", "type", "letter", "e.g"]


def _data_stripped(said: str) -> str:
    """`said` without what is data, not words: JSON in double quotes (the API's own names, as in the example
    {"square": "H8"}), the header Content-Type: application/json, and upper-case letters (H8, AEQ?)."""
    said = re.sub(r'"[^"]*"', "", said).replace("Content-Type: application/json", "")
    return re.sub(r"\b[A-Z0-9?]+\b", "", said)


def check_text(check: str, lang: str, field: str = "", fields: dict[str, object] | None = None) -> str:
    p = check_phrase(check, field, **(fields or {}))
    return say(p.catalogue, p.code, lang, **p.fields)


def _names(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _sample(check: str) -> dict[str, object]:
    # Neutral values: the test is about the catalogue's words, not about what a client typed.
    return {name: "X" if name in ("value", "action", "actions", "allowed", "name", "bad", "content_type",
                                  "reason", "example", "square", "last") else 3
            for name in _names(CHECKS[check]["en"])}


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("field", ["", *sorted(FIELDS)])
def test_every_check_is_said_in_english_and_in_german_without_english(check: str, field: str) -> None:
    entry = CHECKS[check]
    assert set(entry) == {"en", "de"}, f"{check}: {sorted(entry)}"
    assert _names(entry["de"]) <= _names(entry["en"]), f"{check}: the German names a field the English lacks"
    fields = _sample(check)
    english, german = check_text(check, "en", field, fields), check_text(check, "de", field, fields)
    assert english.strip() and german.strip() and german != english
    assert english.startswith(f"{field}: ") if field else ": " not in english[:12]
    found = ENGLISH.findall(_data_stripped(german))
    assert not found, f"{check}: English in the German {german!r}: {found}"
    assert catalogue()["de"]["checks"][check] == entry["de"] and catalogue()["en"]["checks"][check] == entry["en"]


def test_the_field_names_are_the_german_forms_names() -> None:
    assert {name: FIELDS[name]["de"] for name in ("letter", "square", "player", "tiles")} == {
        "letter": "Buchstabe", "square": "Feld", "player": "Spieler", "tiles": "Steine"}
    assert all(entry["en"] == name for name, entry in FIELDS.items())  # the English names the parameter


# Real inputs that reach every check of validation.py, with the English the page and the API gave before.
CASES: list[tuple[str, Any, Any, str, str]] = [
    ("blank", {"square": "", "letter": "E"}, SNAPSHOT, "square_missing",
     "square: name a square, column letter then row number, e.g. H8"),
    ("blank", {"square": "8H", "letter": "E"}, SNAPSHOT, "square_malformed",
     "square: '8H' is not a square; write column letter then row number, e.g. H8"),
    ("blank", {"square": "Z9", "letter": "E"}, SNAPSHOT, "square_off_board", "square: Z9 is off the board (A1 to O15)"),
    ("blank", {"square": "H8", "letter": "12"}, SNAPSHOT, "letter_one", "letter: type one letter, e.g. E"),
    ("exchange", {"count": "three"}, SNAPSHOT, "count_whole",
     "count: give the number of tiles as a whole number from 1 to 7"),
    ("exchange", {"count": 8}, SNAPSHOT, "count_range", "count: 8 is out of range: the number of tiles is 1 to 7"),
    ("challenge", {"player": "x"}, SNAPSHOT, "player_whole",
     "player: give the player number as a whole number from 0 to 1"),
    ("challenge", {"player": 2}, SNAPSHOT, "player_range", "player: 2 is out of range: the player number is 0 to 1"),
    ("challenge", {"player": 1, "words": 1.5}, SNAPSHOT, "words_whole",
     "words: give the number of words challenged as a whole number from 1 to 8"),
    ("challenge", {"player": 1, "words": 9}, SNAPSHOT, "words_range",
     "words: 9 is out of range: the number of words challenged is 1 to 8"),
    ("racks", {"player": 0, "tiles": "AB"}, NOBODY, "no_players", "player: the table has no players yet"),
    ("racks", {"player": 0, "tiles": 5}, SNAPSHOT, "tiles_missing",
     "tiles: type the letters left on the rack, ? for a blank, e.g. AEQ?"),
    ("racks", {"player": 0, "tiles": "ABCDEFGH"}, SNAPSHOT, "tiles_too_many",
     "tiles: a rack holds at most 7 tiles, not 8"),
    ("racks", {"player": 0, "tiles": "A1-"}, SNAPSHOT, "tiles_bad", "tiles: only letters and ? for a blank, not - 1"),
    ("roll", {"letters": ""}, rolling(None), "letters_missing",
     "letters: type the letters the dice show, ? for a blank face, e.g. AEQ?"),
    ("roll", {"letters": ""}, rolling(3), "letters_missing_n",
     "letters: type the letters the 3 dice show, ? for a blank face, e.g. AEI"),
    ("roll", {"letters": "A1"}, rolling(2), "letters_bad",
     "letters: only the letters the dice show and ? for a blank face, not 1"),
    ("roll", {"letters": "AEQ"}, rolling(4), "letters_count",
     "letters: the table asks for 4 dice: type 4 letters, not 3"),
    ("roll", {"letters": "AE"}, rolling(1), "letters_count_one",
     "letters: the table asks for 1 die: type 1 letter, not 2"),
    ("roll", {"letters": "AEIOUQZX"}, rolling(None), "letters_too_many", "letters: a roll is at most 7 dice, not 8"),
    ("fly", {}, SNAPSHOT, "unknown_action", f"unknown action 'fly'; the actions are {', '.join(ACTIONS)}"),
    ("blank", ["H8"], SNAPSHOT, "not_an_object",
     'send the parameters as a JSON object, e.g. {"square": "H8", "letter": "E"}'),
    ("roll", {"letters": "AEQ", "faces": "AEQ"}, rolling(3), "unknown_parameter",
     "faces: roll takes no parameter 'faces' (its parameters: letters)"),
    ("start", {"now": True}, SNAPSHOT, "no_parameters", "now: start takes no parameter 'now' (its parameters: none)"),
]
# Raised by the web app while it reads the body (tests/referee/web/test_app.py sends those bodies).
IN_APP = {"body_content_type", "body_content_type_missing", "body_too_deep", "body_not_json"}


@pytest.mark.parametrize(("action", "params", "snapshot", "check", "english"), CASES)
def test_each_check_raises_its_code_and_says_what_it_said_before(action: str, params: Any, snapshot: Any,
                                                                 check: str, english: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_control(action, params, snapshot)
    exc = caught.value
    assert (exc.check, str(exc)) == (check, english)
    assert exc.text("en") == english and exc.text("de") == check_text(check, "de", exc.field, exc.fields)
    assert str(exc).startswith(f"{exc.field}: ") if exc.field else True


def test_the_cases_and_the_app_reach_every_check_of_the_catalogue() -> None:
    assert {case[3] for case in CASES} | IN_APP == set(CHECKS)


def test_every_check_raised_in_the_code_is_in_the_catalogue() -> None:
    """Every `InvalidInput(field, "code", ...)` written in referee/web, and every `BadParam` of the action schema
    (referee/table/actions.py) the page words, names a code with words."""
    raised: list[tuple[str, str]] = []
    schema = ROOT / "referee" / "table" / "actions.py"
    for path in [*sorted((ROOT / "referee" / "web").glob("*.py")), schema]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("InvalidInput", "BadParam")):
                code = node.args[1]
                where = f"{path.name}:{node.lineno}"
                if isinstance(code, ast.Attribute):  # validation.py passes on the schema's code (`bad.check`)
                    continue
                if isinstance(code, ast.Constant):
                    raised.append((str(code.value), where))
                else:  # whole()'s f"{name}_whole" and f"{name}_range": its names are count, player and words
                    assert isinstance(code, ast.JoinedStr), where
                    raised += [(f"{name}_{kind}", where) for name in ("count", "player", "words")
                               for kind in ("whole", "range")]
    assert len(raised) > 20
    assert {code for code, _ in raised} >= IN_APP
    unknown = [f"{where}: {code}" for code, where in raised if code not in CHECKS]
    assert unknown == [], "InvalidInput takes a code of referee/words/checks.py CHECKS:\n" + "\n".join(unknown)


def test_a_german_letter_check_reads_german() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_control("blank", {"square": "H8", "letter": "12"}, SNAPSHOT)
    assert caught.value.text("de") == "Buchstabe: genau einen Buchstaben eingeben, z. B. E"
    assert caught.value.fields == {} and caught.value.code == "invalid_input"
    with pytest.raises(InvalidInput) as caught:
        parse_control("blank", {"square": "99z", "letter": "E"}, SNAPSHOT)
    assert caught.value.text("de") == ("Feld: „99z“ ist kein Feld; Spaltenbuchstabe und dann Zeilennummer schreiben, "
                                       "z. B. H8")
    assert caught.value.fields == {"value": "99z"}
