"""The control actions a table takes, and their parameters: one schema for every place that names them.

`ACTIONS` holds each action the page, the buttons, the console and the director may ask of a table: the
parameters it takes (`fields`), those it may leave out (`optional`) and `parse`, which checks what was sent
against the shape of the table (its board, its seats, what it asks for now) and returns it clean. From it:

- the page's input checks (referee/web/validation.py, an adapter that words a refusal for the page);
- the page's list of actions and their parameters (`GET /api/session`);
- the list of actions a refusal of an unknown action names (the machine's and the page's);
- the machine's own checks of a parameter (referee/table/machine.py): what a square is, a seat, a count of tiles
  or of words. The machine words its refusals itself (`ControlError`), as it always has: a button or a director
  reaches it without the page's checks.

A parameter the schema refuses raises `BadParam(field, check, **fields)`: the check's code (its words are the
page's, referee/words/checks.py) and the values they name. Pure: no words, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.errors import NotationError
from game.squares import COLUMNS, Square

MAX_RACK = 7  # tiles on a rack: the most an exchange or a rack left at the end holds
MAX_ROLL = 7  # a Scramble player rolls up to seven dice
MAX_WORDS = MAX_RACK + 1  # a play of seven tiles forms its main word and at most seven crosswords

# A number typed as text: ASCII digits only ("²" and other scripts' digits pass str.isdigit but not int()),
# one optional minus, and short (int() refuses 5,000 digits with an error of its own).
_WHOLE = re.compile(r"-?[0-9]{1,9}")


class BadParam(Exception):
    """A parameter the schema refuses: `field` names it ("" for the action as a whole), `check` is the check that
    refused it (a code of referee/words/checks.py) and `fields` the values its words name."""

    def __init__(self, field: str, check: str, /, **fields: object) -> None:
        super().__init__(f"{field}: {check}")
        self.field = field
        self.check = check
        self.fields = fields


@dataclass(frozen=True)
class TableShape:
    """What the checks know of the table: the board's size, the seats, and what the table asks for now."""

    cols: int = 15
    rows: int = 15
    seats: int = 2
    roll: int | None = None  # Scramble: how many dice the table asks for, when it says (`pending.roll`)
    words: int | None = None  # how many words the play open to challenge formed (`pending.challenge.words`)

    @classmethod
    def of(cls, snapshot: Mapping[str, Any]) -> TableShape:
        """The shape of the table a snapshot shows (what a page knows of it)."""
        board = snapshot.get("board") or []
        pending = snapshot.get("pending") or {}
        pending = pending if isinstance(pending, Mapping) else {}
        window = pending.get("challenge")
        return cls(cols=len(board[0]) if board else 15, rows=len(board) or 15,
                   seats=len(snapshot.get("players") or []),
                   roll=_count(pending.get("roll"), MAX_ROLL),
                   words=_count(window.get("words") if isinstance(window, Mapping) else None, MAX_WORDS))


def _count(value: object, most: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most else None


# --- the parameters --------------------------------------------------------------------------------------------

def square(value: object, shape: TableShape | None = None) -> str:
    """A square as the board's edges name it ("H8"), read as the engine reads squares (`Square`): a column letter
    and a row number, either case, spaces around. On a board of `shape`, it must lie on it."""
    if not isinstance(value, str) or not value.strip():
        raise BadParam("square", "square_missing")
    try:
        sq = Square.from_str(value)
    except NotationError as exc:
        raise BadParam("square", "square_malformed", value=value) from exc
    if shape is not None and not (sq.col < shape.cols and sq.row < shape.rows):
        last_col = COLUMNS[shape.cols - 1]
        raise BadParam("square", "square_off_board", square=str(sq), last=f"{last_col}{shape.rows}")
    return str(sq)


def letter(value: object) -> str:
    """One letter, upper-cased (the machine then asks the tile set whether it has it)."""
    said = value.strip().upper() if isinstance(value, str) else ""
    if len(said) != 1 or not said.isalpha():
        raise BadParam("letter", "letter_one")
    return said


def whole(value: object, name: str, low: int, high: int, *, typed: bool = True) -> int:
    """The whole number `name` (count, player, words) from `low` to `high`; its checks are `{name}_whole` and
    `{name}_range`. `typed`: a number written as text ("3") is taken too, as a page's form sends it; the machine,
    which only programs reach, takes numbers alone."""
    if typed and isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadParam(name, f"{name}_whole", low=low, high=high)
    if not low <= value <= high:
        raise BadParam(name, f"{name}_range", value=value, low=low, high=high)
    return value


def seat(value: object, shape: TableShape, *, typed: bool = True) -> int:
    """A player by seat, 0 for the first."""
    if shape.seats == 0:
        raise BadParam("player", "no_players")
    return whole(value, "player", 0, shape.seats - 1, typed=typed)


def tiles(value: object) -> str:
    """The tiles left on a rack: letters, `?` a blank, at most a rack's worth, spaces dropped."""
    if not isinstance(value, str):
        raise BadParam("tiles", "tiles_missing")
    said = "".join(value.split()).upper()
    if len(said) > MAX_RACK:
        raise BadParam("tiles", "tiles_too_many", most=MAX_RACK, count=len(said))
    bad = sorted({t for t in said if not (t.isalpha() or t == "?")})
    if bad:
        raise BadParam("tiles", "tiles_bad", bad=" ".join(bad))
    return said


def faces(value: object, shape: TableShape) -> str:
    """The faces of the dice just rolled: letters (any alphabet's: the German dice show Ä, Ö, Ü) or `?` for a
    blank face, as many as the table asks for when it says."""
    expected = shape.roll
    example = "AEIRST?"[:expected] if expected is not None else "AEQ?"
    if not isinstance(value, str) or not "".join(value.split()):
        if expected is None:
            raise BadParam("letters", "letters_missing", example=example)
        raise BadParam("letters", "letters_missing_n", dice=expected, example=example)
    typed = "".join(value.split())
    bad = sorted({ch for ch in typed if not (ch == "?" or (ch.isalpha() and len(ch.upper()) == 1))})
    if bad:
        raise BadParam("letters", "letters_bad", bad=" ".join(bad))
    letters = "".join(ch.upper() for ch in typed)
    if expected is not None and len(letters) != expected:
        if expected == 1:
            raise BadParam("letters", "letters_count_one", count=len(letters))
        raise BadParam("letters", "letters_count", dice=expected, count=len(letters))
    if len(letters) > MAX_ROLL:
        raise BadParam("letters", "letters_too_many", most=MAX_ROLL, count=len(letters))
    return letters


def _challenge(params: Mapping[str, Any], shape: TableShape) -> dict[str, Any]:
    """`player`, and optionally `words`: how many of the play's words are challenged (the bonus per word wrongly
    challenged [WESPA A.i]), 1 to the number the play formed when the table says it."""
    clean: dict[str, Any] = {"player": seat(params.get("player"), shape)}
    if "words" in params:
        clean["words"] = whole(params.get("words"), "words", 1, shape.words or MAX_WORDS)
    return clean


def _placed_letter(params: Mapping[str, Any], shape: TableShape) -> dict[str, Any]:
    return {"square": square(params.get("square"), shape), "letter": letter(params.get("letter"))}


def _nothing(params: Mapping[str, Any], shape: TableShape) -> dict[str, Any]:
    return {}


Parser = Callable[[Mapping[str, Any], TableShape], dict[str, Any]]


@dataclass(frozen=True)
class Action:
    """A control action: the parameters it takes, those it may leave out, and the check of what was sent.
    `machine`: the table machine takes it (its `TRANSITIONS`); `new_game` is the live table's own."""

    fields: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    parse: Parser = _nothing
    machine: bool = True
    what: str = ""  # what it does, for a program's author (`TableControl`, docs/api.md)


# In the order a refusal lists them. Each machine action is an entry of `TRANSITIONS` somewhere and of `REFUSALS`
# (referee/table/controls.py); docs/api.md documents them.
ACTIONS: dict[str, Action] = {
    "start": Action(what="{}: the game starts (the first mover's clock runs)"),
    "pause": Action(what="{}: the clocks stop"),
    "resume": Action(what="{}: the game goes on where it paused"),
    "blank": Action(("square", "letter"), parse=_placed_letter,
                    what='{"square": "H8", "letter": "E"}: the letter a blank tile stands for'),
    "exchange": Action(("count",), parse=lambda p, s: {"count": whole(p.get("count"), "count", 1, MAX_RACK)},
                       what='{"count": 3}: the mover exchanges this many tiles'),
    "pass": Action(what="{}: the mover passes"),
    "challenge": Action(("player", "words"), ("words",), _challenge,
                        what='{"player": 1}: that player challenges the last play; {"player": 1, "words": 2}: '
                             "naming how many of its words (1 when left out), for the bonus per word wrongly "
                             "challenged [WESPA A.i]"),
    "accept": Action(what="{}: the challenge window closes, the play stands"),
    "racks": Action(("player", "tiles"), parse=lambda p, s: {"player": seat(p.get("player"), s),
                                                               "tiles": tiles(p.get("tiles"))},
                    what='{"player": 0, "tiles": "AEQ"}: the tiles left on a rack at the end'),
    "correct": Action(("square", "letter"), parse=_placed_letter,
                      what='{"square": "H8", "letter": "E"}: a misread letter corrected; the score is recomputed'),
    "roll": Action(("letters",), parse=lambda p, s: {"letters": faces(p.get("letters"), s)},
                   what='Scramble: {"letters": "AEQ..."} the faces rolled (when the tray or camera cannot read them)'),
    "new_game": Action(machine=False, what="{} once a game has ended: the next game at this table (LiveTable)"),
}

MACHINE_ACTIONS = tuple(name for name, action in ACTIONS.items() if action.machine)


def parse(name: str, params: object, shape: TableShape) -> dict[str, Any]:
    """The clean parameters of action `name`, or BadParam saying what is wrong with what was sent."""
    action = ACTIONS.get(name)
    if action is None:
        raise BadParam("", "unknown_action", action=name, actions=", ".join(ACTIONS))
    if not isinstance(params, Mapping):
        raise BadParam("", "not_an_object")
    extra = sorted(set(params) - set(action.fields))
    if extra:
        field = str(extra[0])
        if not action.fields:
            raise BadParam(field, "no_parameters", action=name, name=field)
        raise BadParam(field, "unknown_parameter", action=name, name=field, allowed=", ".join(action.fields))
    return action.parse(params, shape)
