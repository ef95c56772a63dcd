"""Checks the parameters of a control action before they reach the table.

The table checks the game (whose turn, which squares hold blanks); this module checks the shape of what
was typed, so a player gets a clear message naming the field ("letter: one letter, A to Z") and the
table is never asked anything malformed. It returns clean values (uppercase letters, ints) in the
shape `TableControl.control` documents. Each refusal is a check code and its fields (the words, in English and
German, are in referee/words/checks.py), so the page says it in the page's language, and the table's refusal
("ungültige Eingabe: ...") says it in the table's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from game.squares import COLUMNS
from referee.table.api import ControlError, Snapshot
from referee.words import say
from referee.words.checks import check_phrase


class InvalidInput(ControlError):
    """A control action's parameters are malformed; `field` names the parameter at fault, `check` the check
    that refused it (a code of `CHECKS` in referee/words/checks.py) and `fields` the values its words name.
    `str()` is the English ("letter: type one letter, e.g. E"), `text("de")` the German; as a refusal of the table
    (`invalid_input`) it is "ungültige Eingabe: Buchstabe: ..." at a German table."""

    def __init__(self, field: str, check: str, /, **fields: object) -> None:
        self.said = check_phrase(check, field, **fields)
        super().__init__("invalid_input", detail=self.said)
        self.field = field
        self.check = check
        self.fields = fields

    def text(self, language: str = "en") -> str:
        return say(self.said.catalogue, self.said.code, language, **self.said.fields)


_SQUARE = re.compile(r"^([A-Za-z])([1-9][0-9]?)$")
# A number typed as text: ASCII digits only ("²" and other scripts' digits pass str.isdigit but not int()),
# one optional minus, and short (int() refuses 5,000 digits with an error of its own).
_WHOLE = re.compile(r"-?[0-9]{1,9}")
MAX_RACK = 7
MAX_ROLL = 7  # a Scramble player rolls up to seven dice
MAX_WORDS = MAX_RACK + 1  # a play of seven tiles forms its main word and at most seven crosswords


def board_size(snapshot: Snapshot) -> tuple[int, int]:
    """Columns and rows of the board in the snapshot (15x15 for the standard game)."""
    board = snapshot.get("board") or []
    return (len(board[0]) if board else 15), (len(board) or 15)


def _square(params: Mapping[str, Any], snapshot: Snapshot) -> str:
    value = params.get("square")
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("square", "square_missing")
    match = _SQUARE.match(value.strip())
    cols, rows = board_size(snapshot)
    last_col = COLUMNS[cols - 1]
    if match is None:
        raise InvalidInput("square", "square_malformed", value=value)
    col, row = match.group(1).upper(), int(match.group(2))
    if not ("A" <= col <= last_col and 1 <= row <= rows):
        raise InvalidInput("square", "square_off_board", square=f"{col}{row}", last=f"{last_col}{rows}")
    return f"{col}{row}"


def _letter(params: Mapping[str, Any]) -> str:
    value = params.get("letter")
    letter = value.strip().upper() if isinstance(value, str) else ""
    if len(letter) != 1 or not letter.isalpha():
        raise InvalidInput("letter", "letter_one")
    return letter


def _int(params: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """The whole number `name` (count, player, words); its checks are `{name}_whole` and `{name}_range`."""
    value = params.get(name)
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(name, f"{name}_whole", low=low, high=high)
    if not low <= value <= high:
        raise InvalidInput(name, f"{name}_range", value=value, low=low, high=high)
    return value


def _player(params: Mapping[str, Any], snapshot: Snapshot) -> int:
    count = len(snapshot.get("players") or [])
    if count == 0:
        raise InvalidInput("player", "no_players")
    return _int(params, "player", 0, count - 1)


def _tiles(params: Mapping[str, Any]) -> str:
    value = params.get("tiles")
    if not isinstance(value, str):
        raise InvalidInput("tiles", "tiles_missing")
    tiles = "".join(value.split()).upper()
    if len(tiles) > MAX_RACK:
        raise InvalidInput("tiles", "tiles_too_many", most=MAX_RACK, count=len(tiles))
    bad = sorted({t for t in tiles if not (t.isalpha() or t == "?")})
    if bad:
        raise InvalidInput("tiles", "tiles_bad", bad=" ".join(bad))
    return tiles


def _roll(params: Mapping[str, Any], snapshot: Snapshot) -> str:
    """The faces of the dice just rolled: letters (any alphabet's: the German dice show Ä, Ö, Ü) or `?` for a
    blank face, as many as the table asks for (`pending.roll`) when it says."""
    pending = snapshot.get("pending") or {}
    asked = pending.get("roll") if isinstance(pending, Mapping) else None
    expected = asked if isinstance(asked, int) and not isinstance(asked, bool) and 1 <= asked <= MAX_ROLL else None
    example = "AEIRST?"[:expected] if expected is not None else "AEQ?"
    value = params.get("letters")
    if not isinstance(value, str) or not "".join(value.split()):
        if expected is None:
            raise InvalidInput("letters", "letters_missing", example=example)
        raise InvalidInput("letters", "letters_missing_n", dice=expected, example=example)
    faces = "".join(value.split())
    bad = sorted({ch for ch in faces if not (ch == "?" or (ch.isalpha() and len(ch.upper()) == 1))})
    if bad:
        raise InvalidInput("letters", "letters_bad", bad=" ".join(bad))
    letters = "".join(ch.upper() for ch in faces)
    if expected is not None and len(letters) != expected:
        if expected == 1:
            raise InvalidInput("letters", "letters_count_one", count=len(letters))
        raise InvalidInput("letters", "letters_count", dice=expected, count=len(letters))
    if len(letters) > MAX_ROLL:
        raise InvalidInput("letters", "letters_too_many", most=MAX_ROLL, count=len(letters))
    return letters


def _challenge(params: Mapping[str, Any], snapshot: Snapshot) -> dict[str, Any]:
    """`player`, and optionally `words`: how many of the play's words are challenged (the bonus per word wrongly
    challenged [WESPA A.i]), 1 to the number the play formed when the table says it (`pending.challenge.words`)."""
    clean: dict[str, Any] = {"player": _player(params, snapshot)}
    if "words" in params:
        pending = snapshot.get("pending") or {}
        window = pending.get("challenge") if isinstance(pending, Mapping) else None
        formed = window.get("words") if isinstance(window, Mapping) else None
        most = formed if isinstance(formed, int) and not isinstance(formed, bool) and 1 <= formed <= MAX_WORDS \
            else MAX_WORDS
        clean["words"] = _int(params, "words", 1, most)
    return clean


Parser = Callable[[Mapping[str, Any], Snapshot], dict[str, Any]]

# One parser per action: the documented actions of `TableControl.control` and the service's `EXTRA_ACTIONS`
# (referee/table/api.py), nothing else.
ACTIONS: dict[str, tuple[tuple[str, ...], Parser]] = {
    "start": ((), lambda p, s: {}),
    "pause": ((), lambda p, s: {}),
    "resume": ((), lambda p, s: {}),
    "pass": ((), lambda p, s: {}),
    "accept": ((), lambda p, s: {}),
    "blank": (("square", "letter"), lambda p, s: {"square": _square(p, s), "letter": _letter(p)}),
    "correct": (("square", "letter"), lambda p, s: {"square": _square(p, s), "letter": _letter(p)}),
    "exchange": (("count",), lambda p, s: {"count": _int(p, "count", 1, MAX_RACK)}),
    "challenge": (("player", "words"), _challenge),  # words: optional
    "racks": (("player", "tiles"), lambda p, s: {"player": _player(p, s), "tiles": _tiles(p)}),
    "roll": (("letters",), lambda p, s: {"letters": _roll(p, s)}),
    "new_game": ((), lambda p, s: {}),
}


# Parameters an action may leave out (every other parameter it names is required).
OPTIONAL: dict[str, tuple[str, ...]] = {"challenge": ("words",)}


def parse_control(action: str, params: Any, snapshot: Snapshot) -> dict[str, Any]:
    """Return the clean parameters of `action`, or raise `InvalidInput` (a `ControlError`) saying what is wrong."""
    if action not in ACTIONS:
        raise InvalidInput("", "unknown_action", action=action, actions=", ".join(ACTIONS))
    if not isinstance(params, Mapping):
        raise InvalidInput("", "not_an_object")
    fields, parser = ACTIONS[action]
    extra = sorted(set(params) - set(fields))
    if extra:
        name = str(extra[0])
        if not fields:
            raise InvalidInput(name, "no_parameters", action=action, name=name)
        raise InvalidInput(name, "unknown_parameter", action=action, name=name, allowed=", ".join(fields))
    return parser(params, snapshot)
