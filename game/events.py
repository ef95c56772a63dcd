"""What happened in a game, one value per event, for score sheets, journals and GCG.

`Game` appends an `Event` for everything that changes a score or the turn: a play, an
exchange, a pass, a phony withdrawn, a challenge (with its bonus), a lost turn, a time
penalty, the end-of-game rack adjustments, a director's adjustment of points. Each event
round-trips through a plain dict (`to_dict`/`from_dict`) so the service can journal it as JSON.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from game.play import Placement, placements_from_str
from game.squares import Position


class EventKind(enum.Enum):
    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"
    WITHDRAWN = "withdrawn"  # a phony taken back after a challenge: its score is removed
    CHALLENGE_BONUS = "challenge-bonus"  # a wrong challenge under the 5- or 10-point rule
    LOST_TURN = "lost-turn"  # a wrong challenger's lost turn (double challenge)
    TIME_PENALTY = "time-penalty"
    END_RACK = "end-rack"  # unplayed tiles at the end, gained (going out) or lost
    ADJUSTMENT = "adjustment"  # a director's ruling in points only (a penalty, a mis-scored play): not a turn


@dataclass(frozen=True)
class Event:
    """One line of the score sheet: who, what, how many points (`delta`), and the running total."""

    kind: EventKind
    player: int
    delta: int
    total: int
    move: str = ""  # a play in GCG form (`8D WO.D`), exchanged tiles (`ABC` or a count), a rack
    placements: tuple[Placement, ...] = ()
    rack: str = ""  # the rack before the turn when known (GCG's second field)
    words: tuple[str, ...] = field(default=())  # words formed, for plays
    note: str = ""  # why: the reason a director gave for an adjustment
    # A play's position as `move` writes it (where its main word starts, which way it reads), so a reader needs
    # not parse the move back; None for other events and for a forced play off one line.
    position: Position | None = None
    count: int = 0  # tiles a play laid down or an exchange returned (an exchange at the table names no tiles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "player": self.player,
            "delta": self.delta,
            "total": self.total,
            "move": self.move,
            "placements": " ".join(str(p) for p in self.placements),
            "rack": self.rack,
            "words": list(self.words),
            "note": self.note,
            "position": str(self.position) if self.position is not None else "",
            "count": self.count,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        return cls(
            EventKind(raw["kind"]),
            int(raw["player"]),
            int(raw["delta"]),
            int(raw["total"]),
            str(raw.get("move", "")),
            placements_from_str(str(raw.get("placements", ""))),
            str(raw.get("rack", "")),
            tuple(raw.get("words", ())),
            str(raw.get("note", "")),
            Position.from_str(str(raw["position"])) if raw.get("position") else None,
            int(raw.get("count", 0)),
        )
