"""The small values a table machine holds: its state, an alert, the last play, its notion of now, and the
event that is its one input.

Apart from the machine (referee/table/machine.py) so that the views (referee/table/view.py) read them
without importing the machine: the machine imports the views, never the other way round. `Event` is here, not
in the journal that stores it (referee/journal.py imports it), so the machine needs nothing outside the table
and the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from referee.words import Phrase, plain_fields, say


class TableState(StrEnum):
    """Where the table is in the game. A `StrEnum`, so a snapshot, a log line and the journal read the plain
    word ("turn"); the transitions between them are `TRANSITIONS` in referee/table/machine.py."""

    WAITING = "waiting"  # before the start: the board must be clear
    ROLL = "roll"  # Scramble: the mover rolls the dice
    TURN = "turn"  # the mover's clock runs; tiles go down
    BLANK = "blank"  # the play is read, but a blank's letter or a doubtful letter is asked on the page
    CHALLENGE = "challenge"  # the play stands unless challenged; the next player's clock runs
    TAKEBACK = "takeback"  # a phony or a lost Scramble turn: its tiles must come off
    REMOVAL = "removal"  # Scramble: the scrambled dice must come off
    PAUSED = "paused"  # the director stopped the clocks
    RACKS = "racks"  # the game is over: the tiles left on the racks are entered
    ENDED = "ended"


@dataclass(frozen=True)
class Event:
    """One input to the table state machine: what happened (`kind`), when in table time (`t` ms), details.
    The journal stores each one before it takes effect, so the events of a game are the game."""

    kind: str
    t: int
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(self.data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


class TableTime:
    """The machine's notion of now: the table time of the event being applied, in seconds.

    An object (not a lambda) so that `copy.deepcopy` of a machine gives the copy its own time."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> float:
        return self.ms / 1000.0


@dataclass
class Alert:
    """Something wrong at the table, or a notice: its code (referee/table/api.py `ALERT_CODES`) and the fields its
    words name, said in the table's language only when a view shows it (referee/words/table.py)."""

    level: str
    code: str
    squares: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def phrase(self) -> Phrase:
        return Phrase("table", self.code, self.fields)

    def text(self, lang: str) -> str:
        return say("table", self.code, lang, **self.fields)

    def view(self, lang: str) -> dict[str, Any]:
        """The alert of a snapshot (`AlertView`): its words in `lang`, and its code and fields for a client that
        says them in a language of its own."""
        return {"level": self.level, "code": self.code, "text": self.text(lang), "squares": list(self.squares),
                "fields": plain_fields(self.fields)}


@dataclass
class LastPlay:
    """The play just committed, while it can still be challenged or corrected."""

    player: int
    placed: dict[str, str]  # square -> letter, lowercase a blank
    words: tuple[str, ...]
    scrambled: set[str] = field(default_factory=set)  # Scramble: dice that must come off once it stands
    deadline_ms: int | None = None  # end of the challenge window
