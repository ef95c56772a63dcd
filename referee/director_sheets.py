"""The director's score sheets replayed through the table's own state machine (tournament/director/sheets.py).

`referee director` hands a `MachineReplayer` to the director, so a result is what the table's journaled events
make of the game, computed the way the table computed it: the journaled setup of the game's header, then every
event through `TableMachine.apply`, as `referee games export` replays a journal. A challenge is journaled with
its verdict, so no lexicon is needed, except for the "void" and "auto" rules, which judge every play at commit:
then the lexicon the header names must be installed on the director's machine, or the game has no result
(the director is told why) rather than one computed with some other word list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.table.api import ControlError
from referee.table.machine import TableMachine
from referee.table.records import gcg_pragmas, journaled_lexicon
from referee.table.setup import SetupError, TableSetup
from referee.table.state import Event

_SHEET_KEYS = ("players", "moves", "state", "result", "edition", "game")


class MachineSheet:
    """One game's `TableMachine`, fed the game's events in order."""

    def __init__(self, machine: TableMachine) -> None:
        self.machine = machine
        self.refused = 0  # events the machine refused (a journal from an older rule): skipped, as on resume

    def apply(self, kind: str, data: Mapping[str, Any], time_s: float) -> None:
        try:
            self.machine.apply(Event(kind, round(time_s * 1000), dict(data)))
        except ControlError:
            self.refused += 1
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
            self.refused += 1  # an event no table could have written changes nothing here either

    def mark(self) -> tuple[Any, ...]:
        # the state only for the end: a turn's steps (challenge window, turn) change no result
        return len(self.machine.game.events), tuple(self.machine.game.scores), self.machine.state == "ended"

    def sheet(self) -> dict[str, Any]:
        """The snapshot's keys the results are written from, and what the table's own record has beyond them, so
        the director's record writes the lines the table's export writes: `pragmas`, the table's GCG pragmas for
        this game (`referee.table.records.gcg_pragmas`), and on a move whose rack the engine knows (Scramble's
        rolled dice, the racks entered at the end) that `rack`. The snapshot leaves racks out; without them a
        Scramble play's rack field would be its tiles alone, which `referee gcg check` refuses (the player rolls
        seven dice)."""
        snap = self.machine.snapshot()
        out = {k: snap.get(k) for k in _SHEET_KEYS}
        moves = snap.get("moves") or []
        events = self.machine.game.events  # the score sheet's rows, one for one (referee/table/view.py)
        if len(moves) == len(events):
            out["moves"] = [{**m, "rack": ev.rack} if ev.rack else m for m, ev in zip(moves, events, strict=True)]
        out["pragmas"] = gcg_pragmas(self.machine.setup)
        return out


class MachineReplayer:
    """Starts a `MachineSheet` from a game's header (`{"players", "setup", ...}` as the table publishes it)."""

    def start(self, header: Mapping[str, Any]) -> MachineSheet:
        from referee.table.rules import table_rules

        raw = header.get("setup")
        if not isinstance(raw, Mapping):
            raise ValueError("the game's header carries no setup")
        try:
            setup = TableSetup.from_journal(raw)
        except SetupError as exc:
            raise ValueError(f"the game's setup is damaged: {exc}") from None
        except TypeError as exc:
            raise ValueError(f"the game's setup is damaged: {exc}") from None
        from game.errors import RefereeError

        try:
            lexicon = journaled_lexicon(setup)
        except (RefereeError, OSError) as exc:
            raise ValueError(f"its {setup.challenge} challenge rule needs the lexicon {setup.lexicon or '?'}, "
                             f"which is not installed here ({exc})") from None
        return MachineSheet(TableMachine(setup, table_rules(setup, lexicon)))
