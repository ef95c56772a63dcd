"""Results out: a finished game as a tsh score line, CSV and JSON rows, standings and GCG, a round as one zip.

The director keeps, per table and game, what the broker carried: the players, their scores, the score sheet
(the table snapshot's `moves`) and the engine's verdict (`result`). This module turns those into what a
tournament needs, without knowing where they came from:

- tsh's score entry: after tsh's `a` command (add scores) the director types `pn1 ps1 pn2 ps2`, player
  numbers and scores; `tsh_lines` writes exactly those lines, one per game, per division;
- a results CSV and JSON per round, and standings (wins, a tie counting half, then spread) for an event
  run without tsh;
- every game as GCG, the table's own record (the engine's GCG writer, the table's pragmas) with the event's
  `#description` and `#id`, all of a round in one zip.

One game per pairing: a table may hold several games of one round's pairing (an empty game started, then the
real one; a game replayed on the director's word). The result is the last game that ended, else the last
game; the others are set aside (`abandoned` when they never ended, `replaced` when a later one ended too),
listed as such and never counted: no second row, no second tsh line, no second file of the same name.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.events import Event, EventKind
from game.gcg import write_gcg
from tournament.broadcast.stats import game_stats, stats_csv

# MoveView kinds of the table snapshot -> the engine's score-sheet events, for the engine's GCG writer
_KINDS = {"play": EventKind.PLAY, "exchange": EventKind.EXCHANGE, "pass": EventKind.PASS,
          "withdrawn": EventKind.WITHDRAWN, "challenge": EventKind.CHALLENGE_BONUS, "penalty": EventKind.TIME_PENALTY,
          "end": EventKind.END_RACK, "lost_turn": EventKind.LOST_TURN, "adjustment": EventKind.ADJUSTMENT}


@dataclass
class GameRecord:
    """One game as the director saw it. `moves` are the table snapshot's MoveView dicts, in order."""

    table: int
    round: int  # 0: a game not in the pairings
    division: str  # "" outside a division (a game not in the pairings)
    players: list[str]
    scores: list[int]
    moves: list[dict[str, Any]] = field(default_factory=list)
    ids: list[int | None] = field(default_factory=lambda: [None, None])
    edition: str = "english"
    kind: str = "standard"
    ended: bool = False
    winners: list[int] = field(default_factory=list)
    event: str = ""
    game: str = ""  # the game's id in the director's exports ("table-game")
    number: int | None = None  # the table's own number of the game (its journal's game id)
    entered_by: str = ""  # who entered this result by hand (tournament/director/entered.py); "" for a table's
    pragmas: dict[str, str] = field(default_factory=dict)  # the table's own GCG pragmas (its sheet's), if known

    @property
    def spread(self) -> int:
        """First player's score minus the second's."""
        return self.scores[0] - self.scores[1] if len(self.scores) == 2 else 0


def _played_tiles(notation: str) -> str:
    """The rack letters a play put down, from its notation (`8D WO.D`, `8D W(O)D`): the letters not played
    through, a blank (lower case) as `?`, sorted as GCG writers sort a rack (blanks last)."""
    word = notation.split()[-1] if notation.split() else ""
    word = re.sub(r"\([^)]*\)", "", word).replace(".", "")
    letters = ["?" if ch.islower() else ch for ch in word if ch.isalpha()]
    return "".join(sorted(letters, key=lambda c: (c == "?", c)))


def score_sheet_events(moves: Sequence[dict[str, Any]]) -> list[Event]:
    """The snapshot's score sheet (MoveView dicts) as the engine's events, as the table's own record has them.

    The snapshot carries no placements; a play's rack field is then the tiles its notation puts down (what the
    table's writer writes when it knows no rack), or the rack itself when the move carries one (`rack`: the
    director's sheet replayed through the table's engine gives it, referee/director_sheets.py)."""
    events = []
    for move in moves:
        kind = _KINDS.get(str(move.get("kind", "")))
        if kind is None:
            continue
        notation = str(move.get("notation", "")).strip()
        rack = str(move.get("rack", "") or "")
        if kind is EventKind.PLAY and not rack:
            rack = _played_tiles(notation)
        if kind is EventKind.END_RACK and not notation.startswith("("):
            notation = f"({notation})"
        events.append(Event(kind, int(move.get("player", 0)), int(move.get("score", 0)), int(move.get("total", 0)),
                            notation, rack=rack, words=tuple(str(w) for w in move.get("words") or ()),
                            note=str(move.get("note", "") or "")))
    return events


def game_gcg(record: GameRecord) -> str:
    """The game as GCG text (UTF-8): the table's own record, written as the table's export writes it (the engine's
    GCG writer, `game.gcg.write_gcg`, with the table's pragmas: `referee.table.records.gcg_pragmas`, carried by
    the game's sheet), and the event's lines after them: `#description` (event, round, division, table) and
    `#id referee TABLE-GAME`, and `#incomplete` for a game not ended.

    Every line is one Macondo's reader takes (docs/gcg.md, "The director's records"): a play with its rack
    field, a director's adjustment as a note of its own, `#note adjustment NICK +N: REASON`, with the totals the
    board's; the results beside it carry the adjusted scores."""
    pragmas = dict(record.pragmas) or _table_pragmas(record)
    pragmas["description"] = game_description(record)
    if record.game:
        pragmas["id"] = f"referee {record.game}"
    if not record.ended:
        pragmas["incomplete"] = ""
    return write_gcg(list(record.players), score_sheet_events(record.moves), pragmas)


def game_description(record: GameRecord) -> str:
    """Where the game was played, for its record's `#description`: "Spring Open 2026, round 3, division A, table
    12" (the event's name, then what the game has of round, division and table)."""
    parts = [record.event] if record.event else []
    if record.round:
        parts.append(f"round {record.round}")
    if record.division:
        parts.append(f"division {record.division}")
    parts.append(f"table {record.table}")
    return ", ".join(parts)


def _table_pragmas(record: GameRecord) -> dict[str, str]:
    """The table's pragmas as far as a record without them knows (a result entered by hand, a director without
    the table's replay): the tiles and the variant, as the table writes them."""
    pragmas = {"tile-distribution": record.edition}
    if record.kind != "standard":
        pragmas["variant"] = record.kind
    return pragmas


def split_per_pairing(records: Iterable[GameRecord]) -> tuple[list[GameRecord], list[tuple[GameRecord, str]]]:
    """The games that count, one per pairing (round, division, table), and the others with why they are set
    aside: "abandoned" (it never ended) or "replaced" (a later game of the pairing ended too).

    The game that counts is a result the director entered, else the last that ended, else the last one (by
    the table's game number, else in the order given). Games outside the pairings (round 0) are each their
    own."""
    counted: list[GameRecord] = []
    aside: list[tuple[GameRecord, str]] = []
    groups: dict[tuple[int, str, int], list[tuple[int, GameRecord]]] = {}
    for index, record in enumerate(records):
        if record.round <= 0:
            counted.append(record)
            continue
        groups.setdefault((record.round, record.division, record.table), []).append((index, record))
    for games in groups.values():
        ordered = [r for _, r in sorted(games, key=lambda g: (g[1].number if g[1].number is not None else -1,
                                                              g[0]))]
        ended = [r for r in ordered if r.ended]
        entered = [r for r in ordered if r.entered_by]
        result = entered[-1] if entered else ended[-1] if ended else ordered[-1]
        counted.append(result)
        aside += [(r, "replaced" if r.ended else "abandoned") for r in ordered if r is not result]
    return counted, aside


def tsh_lines(records: Iterable[GameRecord]) -> dict[str, list[str]]:
    """Per division, the lines to type after tsh's `a` command: `pn1 ps1 pn2 ps2` for every ended game.

    A game whose players have no tsh numbers (pairings from a CSV) gets a `#` line saying so instead, so
    nothing is dropped without a word.
    """
    out: dict[str, list[str]] = {}
    for record in sorted(split_per_pairing(records)[0], key=lambda r: (r.division, r.table)):
        if not record.ended:
            continue
        lines = out.setdefault(record.division, [])
        a, b = record.ids[0], record.ids[1]
        if record.entered_by:
            lines.append(f"# table {record.table}: entered by {record.entered_by}, not sent by the table")
        if a is None or b is None:
            lines.append(f"# table {record.table}: {record.players[0]} {record.scores[0]} - {record.players[1]} "
                         f"{record.scores[1]} (no tsh player numbers: the pairings did not come from tsh)")
        else:
            lines.append(f"{a} {record.scores[0]} {b} {record.scores[1]}")
    return out


def _row(record: GameRecord) -> dict[str, Any]:
    won = winners_of(record) if record.ended else []
    return {"round": record.round, "division": record.division, "table": record.table,
            "player1": record.players[0], "score1": record.scores[0],
            "player2": record.players[1], "score2": record.scores[1],
            "tsh1": record.ids[0], "tsh2": record.ids[1], "spread": record.spread,
            "winner": "tie" if len(won) > 1 else record.players[won[0]] if won else "",
            "ended": record.ended, "game": record.game, "entered_by": record.entered_by}


def results_csv(records: Iterable[GameRecord]) -> str:
    """One line per pairing's game: round, division, table, both players and scores, tsh numbers, spread,
    winner (games set aside are in `abandoned_csv`, never here)."""
    rows = [_row(r) for r in sorted(split_per_pairing(records)[0], key=lambda r: (r.round, r.division, r.table))]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["round", "division", "table", "player1", "score1", "player2",
                                                "score2", "tsh1", "tsh2", "spread", "winner", "ended", "game",
                                                "entered_by"],
                            lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buffer.getvalue()


def results_json(records: Iterable[GameRecord]) -> str:
    """`games`: one per pairing, as in the CSV, each with its `stats` (bingos, highest play, spread:
    tournament/broadcast/stats.py); `abandoned`: the games set aside, each with its `status`."""
    counted, aside = split_per_pairing(records)
    rows = [{**_row(r), "stats": game_stats(r.moves, r.scores)}
            for r in sorted(counted, key=lambda r: (r.round, r.division, r.table))]
    set_aside = [{**_row(r), "winner": "", "status": why} for r, why in aside]
    return json.dumps({"games": rows, "abandoned": set_aside}, ensure_ascii=False, indent=1) + "\n"


def abandoned_csv(aside: Sequence[tuple[GameRecord, str]]) -> str:
    """The games set aside: which pairing, which game, how far it went, and why it does not count."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["round", "division", "table", "game", "player1", "score1", "player2", "score2", "moves",
                     "status"])
    for record, why in sorted(aside, key=lambda a: (a[0].round, a[0].division, a[0].table, a[0].number or 0)):
        writer.writerow([record.round, record.division, record.table, record.game, record.players[0],
                         record.scores[0], record.players[1], record.scores[1], len(record.moves), why])
    return buffer.getvalue()


@dataclass
class Standing:
    division: str
    name: str
    wins: float = 0.0
    losses: float = 0.0
    spread: int = 0
    games: int = 0


def winners_of(record: GameRecord) -> list[int]:
    """The engine's verdict when the table sent one, else the higher score (both on a tie)."""
    if record.winners:
        return record.winners
    best = max(record.scores)
    return [i for i, s in enumerate(record.scores) if s == best]


def standings(records: Iterable[GameRecord]) -> list[Standing]:
    """Standings over ended games: wins (a shared win counts half), then spread, per division."""
    table: dict[tuple[str, str], Standing] = {}
    for record in split_per_pairing(records)[0]:
        if not record.ended or len(record.players) != 2:
            continue
        won = winners_of(record)
        for i, name in enumerate(record.players):
            row = table.setdefault((record.division, name), Standing(record.division, name))
            row.games += 1
            row.spread += record.scores[i] - record.scores[1 - i]
            share = 1.0 / len(won) if i in won else 0.0
            row.wins += share
            row.losses += 1.0 - share
    return sorted(table.values(), key=lambda s: (s.division, -s.wins, -s.spread, s.name))


def standings_csv(rows: Sequence[Standing]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["division", "rank", "name", "wins", "losses", "spread", "games"])
    rank = 0
    last = ""
    for row in rows:
        rank = 1 if row.division != last else rank + 1
        last = row.division
        writer.writerow([row.division, rank, row.name, f"{row.wins:g}", f"{row.losses:g}", f"{row.spread:+d}",
                         row.games])
    return buffer.getvalue()


# letters that do not decompose into a base letter and a mark, written as German and Nordic readers write them
_TRANSLITERATION = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss",
                                  "ẞ": "SS", "æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe", "œ": "oe", "Œ": "Oe",
                                  "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th",
                                  "Þ": "Th", "ı": "i"})


def file_word(text: str) -> str:
    """`text` as ASCII for a file name: umlauts and ß transliterated (Müller -> Mueller, Groß -> Gross),
    other accents dropped (Ayşe -> Ayse), anything else between words one `_`."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(_TRANSLITERATION)).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "_", ascii_text).strip("_")


def gcg_name(record: GameRecord) -> str:
    """`round01-A-table003-game7-Anna_Mueller-Bernd_Schmidt.gcg`: unique per game, as ASCII."""
    names = "-".join(file_word(p) or "player" for p in record.players)
    game = str(record.number) if record.number is not None else file_word(record.game) or "0"
    division = file_word(record.division) or "X"
    return f"round{record.round:02d}-{division}-table{record.table:03d}-game{game}-{names}.gcg"


def round_zip(records: Sequence[GameRecord], round_: int, everything: Sequence[GameRecord] | None = None, *,
              tsh: tuple[str, list[str]] | None = None) -> bytes:
    """Round `round_` in one zip: every pairing's game as GCG, results CSV and JSON, each game's statistics
    (`stats.csv`), tsh lines, standings so far, and the games set aside (`abandoned/` and `abandoned.csv`).

    `everything` (default: `records`) are the games the standings count: all ended games up to this round.
    `tsh`: the text for tsh's addscore prompt and its notes (tournament/tsh_scores.py), as `tsh-scores.txt`
    and `tsh-notes.txt`; without it, the plain `pn1 ps1 pn2 ps2` lines per division.
    """
    games = [r for r in records if r.round == round_]
    results, aside = split_per_pairing(games)
    counted = [r for r in (everything if everything is not None else records)
               if r.round <= round_ and (r.round > 0 or round_ == 0)]  # round 0: games outside the pairings
    buffer = io.BytesIO()
    folder = f"round{round_:02d}"
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for record in sorted(results, key=lambda r: (r.division, r.table)):
            if not record.entered_by:  # a result entered by hand has no score sheet: results.csv holds it
                archive.writestr(f"{folder}/gcg/{gcg_name(record)}", game_gcg(record))
        for record, _ in aside:
            archive.writestr(f"{folder}/abandoned/{gcg_name(record)}", game_gcg(record))
        if aside:
            archive.writestr(f"{folder}/abandoned.csv", abandoned_csv(aside))
        archive.writestr(f"{folder}/results.csv", results_csv(games))
        archive.writestr(f"{folder}/results.json", results_json(games))
        archive.writestr(f"{folder}/stats.csv", stats_csv(
            [(r.round, r.division, r.table, r.players, r.scores, r.moves)
             for r in sorted(results, key=lambda r: (r.division, r.table))]))
        if tsh is not None:
            archive.writestr(f"{folder}/tsh-scores.txt", tsh[0])
            if tsh[1]:
                archive.writestr(f"{folder}/tsh-notes.txt", "".join(f"{note}\n" for note in tsh[1]))
        else:
            lines = tsh_lines(games)
            text = "".join(f"# division {div}: type these after tsh's 'a' command\n" +
                           "".join(f"{ln}\n" for ln in rows) for div, rows in sorted(lines.items()))
            archive.writestr(f"{folder}/tsh-scores.txt", text)
        archive.writestr(f"{folder}/standings.csv", standings_csv(standings(counted)))
    return buffer.getvalue()
