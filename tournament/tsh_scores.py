"""A round's results as tsh takes them at its `addscore` prompt, in the event's entry mode, byes included.

Written against tsh's own documentation of data entry (doc/entry.html, "Data Entry with tsh") and its
Addscore command: the command is `a ROUND DIVISION` (`a 3 d`; the division may be omitted in a one-division
event, and naming it is always accepted, numbers too); at its sub-prompt each game is one line whose fields
depend on `config entry`:

- `scores` (the default): `pn1 ps1 pn2 ps2`, player numbers and scores, first player first;
- `both`: `pn1 ps1 pn2 ps2 spread`, where tsh refuses a spread that is not `ps1 - ps2`;
- `spread`: `pn1 pn2 spread`;

and a bye or forfeit is the player's number and the spread it is worth (`12 50`; `-50` for a forfeit), in
every mode. An empty line leaves the sub-prompt, so each division's block ends with one and the next `a`
command follows. Nothing else is written into the text: a line tsh does not understand would end the
sub-prompt and the lines after it would land at tsh's main prompt. Games that cannot be typed (players with
no tsh numbers: pairings from a CSV) are returned as notes beside the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tournament.pairings import Tourney, display_name
from tournament.results import GameRecord, split_per_pairing

ENTRY_MODES = ("scores", "both", "spread")
BYE_SPREAD = 50  # tsh's default `config bye_spread`


class TshEntryError(ValueError):
    """An entry mode tsh does not have for two-player games."""


@dataclass(frozen=True)
class Bye:
    """A player with a bye in a round: tsh's pairing 0."""

    division: str
    id: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"division": self.division, "id": self.id, "name": self.name}


def round_byes(tourney: Tourney, round_: int) -> list[Bye]:
    """The players tsh gave a bye in round `round_` (1-based), by division and number."""
    r = round_ - 1
    return [Bye(division, number, display_name(player.name))
            for division, players in tourney.divisions.items()
            for number, player in sorted(players.items())
            if r >= 0 and r < len(player.pairings) and player.pairings[r] == 0]


def check_entry(entry: str) -> str:
    if entry not in ENTRY_MODES:
        raise TshEntryError(f"tsh entry mode {entry!r}: one of {', '.join(ENTRY_MODES)} (tsh's `config entry`)")
    return entry


def game_line(ids: Sequence[int], scores: Sequence[int], entry: str = "scores") -> str:
    """One game at the addscore prompt, first player first."""
    (a, b), (sa, sb) = ids, scores
    if check_entry(entry) == "both":
        return f"{a} {sa} {b} {sb} {sa - sb}"
    if entry == "spread":
        return f"{a} {b} {sa - sb}"
    return f"{a} {sa} {b} {sb}"


def tsh_score_text(records: Iterable[GameRecord], round_: int, *, byes: Iterable[Bye] = (), entry: str = "scores",
                   bye_spread: int = BYE_SPREAD) -> tuple[str, list[str]]:
    """The text to paste at tsh's main prompt for round `round_` (every ended game of the round, one per
    pairing, and the byes), and the notes on games it cannot carry."""
    check_entry(entry)
    lines: dict[str, list[str]] = {}
    notes: list[str] = []
    games = [r for r in split_per_pairing(r for r in records if r.round == round_)[0] if r.ended]
    for record in sorted(games, key=lambda r: (r.division, r.table)):
        a, b = record.ids[0], record.ids[1]
        if a is None or b is None:
            notes.append(f"round {round_} division {record.division} table {record.table}: {record.players[0]} "
                         f"{record.scores[0]} - {record.players[1]} {record.scores[1]}: no tsh player numbers "
                         "(the pairings did not come from tsh), enter it by hand")
            continue
        lines.setdefault(record.division, []).append(game_line((a, b), record.scores[:2], entry))
        if record.entered_by:  # tsh takes it as any result; the note says where it came from
            notes.append(f"round {round_} division {record.division} table {record.table}: {record.players[0]} "
                         f"{record.scores[0]} - {record.players[1]} {record.scores[1]}: entered by "
                         f"{record.entered_by}, not sent by the table")
    for bye in byes:
        lines.setdefault(bye.division, []).append(f"{bye.id} {bye_spread}")
    text = "".join(f"a {round_} {division}\n" + "".join(f"{ln}\n" for ln in rows) + "\n"
                   for division, rows in sorted(lines.items()))
    return text, notes
