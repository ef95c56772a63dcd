"""Results the director enters by hand: a table whose Pi is dead, a result corrected on the director's word.

They are kept apart from what the tables sent: in the store's meta (`entered_results`), never in a table's
games, so a table's own record is never changed and the director's entry can be withdrawn again. Each one
is marked with who entered it, when, and why, and says how often it was corrected. In the results (CSV, JSON,
tsh lines, standings) it is the pairing's result, marked `entered_by`; the table's own games of the pairing,
if any reached the director, are set aside as "replaced" or "abandoned" (tournament/results.py), so nothing
vanishes without a word.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from tournament.director.store import Store
from tournament.results import GameRecord

META_KEY = "entered_results"
MIN_SCORE, MAX_SCORE = -1000, 2000
MAX_REASON = 200


class EntryError(ValueError):
    """A result the director cannot enter: says which and why."""


@dataclass(frozen=True)
class EnteredResult:
    round: int
    table: int
    division: str
    players: list[str]
    scores: list[int]
    ids: list[int | None]
    by: str
    at: str  # ISO time (UTC) of the entry
    reason: str = ""
    corrections: int = 0  # how often the director entered this pairing's result again

    def record(self, event: str) -> GameRecord:
        """As a result of the round: ended, no score sheet (there is none), marked as the director's."""
        return GameRecord(self.table, self.round, self.division, list(self.players), list(self.scores),
                          [], list(self.ids), ended=True, event=event, game=f"{self.table}-director",
                          entered_by=self.by)


def load(store: Store) -> list[EnteredResult]:
    return [EnteredResult(**row) for row in store.meta(META_KEY, [])]


def _save(store: Store, entries: list[EnteredResult]) -> None:
    store.set_meta(META_KEY, [asdict(e) for e in sorted(entries, key=lambda e: (e.round, e.table))])


def _score(value: Any, which: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SCORE <= value <= MAX_SCORE:
        raise EntryError(f"{which} must be a whole number from {MIN_SCORE} to {MAX_SCORE}, not {value!r}")
    return value


def enter(store: Store, round_: int, table: int, scores: Any, *, by: str, reason: str = "",
          now: str | None = None) -> EnteredResult:
    """Enter (or correct) the result of the pairing at `table` in `round_`, the scores in the pairing's order
    of players. Refused with the reason: a table not paired in that round, scores that are not two numbers."""
    pairing = next((p for p in store.pairings(round_) if p["table"] == table), None)
    if pairing is None:
        raise EntryError(f"table {table} has no pairing in round {round_}: a result is entered for a paired "
                         f"table")
    if not isinstance(scores, list) or len(scores) != 2:
        raise EntryError(f"'scores' must be the two players' scores, [{pairing['players'][0]}, "
                         f"{pairing['players'][1]}]")
    checked = [_score(scores[0], f"{pairing['players'][0]}'s score"),
               _score(scores[1], f"{pairing['players'][1]}'s score")]
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise EntryError(f"'reason' must be a text of at most {MAX_REASON} characters")
    entries = load(store)
    before = next((e for e in entries if (e.round, e.table) == (round_, table)), None)
    entry = EnteredResult(round_, table, str(pairing["division"]), [str(p) for p in pairing["players"]], checked,
                          list(pairing["ids"]), by, now or datetime.now(UTC).isoformat(timespec="seconds"),
                          reason.strip(), 0 if before is None else before.corrections + 1)
    _save(store, [e for e in entries if e is not before] + [entry])
    return entry


def withdraw(store: Store, round_: int, table: int) -> EnteredResult:
    """Take an entered result back: the table's own game counts again."""
    entries = load(store)
    entry = next((e for e in entries if (e.round, e.table) == (round_, table)), None)
    if entry is None:
        raise EntryError(f"no result entered by the director for table {table} in round {round_}")
    _save(store, [e for e in entries if e is not entry])
    return entry
