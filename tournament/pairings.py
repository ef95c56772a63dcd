"""Pairings in: who plays whom at which table in a round, read from tsh's `tourney.js` or a CSV.

tsh (John Chew's tournament software, the usual tool at NASPA and WESPA events) writes its whole event with its
`JSON` command, for the enhanced scoreboard: a file `tourney.js` holding `newt={...};` on one line. It is
JavaScript, not JSON: tsh writes an absent value as `undefined` (`"currency_symbol":undefined`, `players[0]`,
a player's `photomood`), which no JSON reader takes; this reader reads `undefined` as null and nothing else
beyond JSON. What the pairings need of it (docs/tournaments.md lists what a real file holds):

- `divisions[]`: `{name, players[]}`; the name may be a number (`"name":2`); `players[0]` is undefined, player
  N is `players[N]`
- a player: `{id, name, rating, pairings[], scores[], etc{}}`: `pairings[r]` is the opponent's number in round
  r+1 (0 a bye), `scores[r]` the player's score once entered; a player entered late has no pairings yet; a
  team's rating is a text like `"0+0+0"` (read as 0)
- `etc.p12[r]`: 1 the player goes first, 2 second, 0 a bye, 3 a draw decides, 4 not known yet
- `etc.board[r]`: the board tsh gave the pairing (shorter than `pairings` when the last rounds have none)
- `config.tables{DIV}`: the table number of each board of a division, when the hall's tables are not numbered
  as the boards are (tsh's `config tables`)

A round is paired when the players' `pairings` reach it; its games are the pairs seen once from each end.
The CSV is for events run without tsh: `round,table,player1,player2,first` (first: 1, 2 or empty for a draw),
an optional `division` column, a header line, `#` comments. It is read as spreadsheets save it: fields separated
by `,`, `;` (a German or French spreadsheet, whose decimal mark is the comma) or a tab, whichever splits the
header into its columns; lines ending in CR LF, LF or CR alone (an old Mac's); German column names too.

Parsing is strict: anything that does not fit raises `PairingsError` naming the file, the place and what.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any


class PairingsError(ValueError):
    """Pairings that cannot be read: says which file, where, and what is wrong."""


@dataclass(frozen=True)
class Pairing:
    """One game of a round: the table, the two players in seating order and who goes first.

    `first` is 0 or 1 (an index into `players`), or None when a draw of tiles decides at the table.
    `ids` are the players' numbers in tsh (None when the pairings came from a CSV without them).
    """

    round: int
    table: int
    division: str
    players: tuple[str, str]
    first: int | None
    ids: tuple[int | None, int | None] = (None, None)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "division": self.division, "players": list(self.players),
                "first": self.first, "ids": list(self.ids)}


@dataclass(frozen=True)
class TshPlayer:
    id: int
    name: str
    rating: int
    pairings: tuple[int, ...]
    scores: tuple[int, ...]
    p12: tuple[int, ...]
    boards: tuple[int, ...]


@dataclass
class Tourney:
    """A tsh event as read from `tourney.js`: its name, every division's players by number, and the table
    number of each board where tsh's `config tables` gives them."""

    event: str
    divisions: dict[str, dict[int, TshPlayer]] = field(default_factory=dict)
    tables: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def rounds_paired(self, division: str) -> int:
        """How many rounds of `division` are paired (the longest `pairings` list)."""
        return max((len(p.pairings) for p in self.divisions[division].values()), default=0)


def display_name(name: str) -> str:
    """tsh names are "Last, First" with an optional ":XT012345" rating id: the name as said aloud. A number
    after the comma is no first name ("Chang Ching Wei,1" in a real file, a name written in its own order with
    the number some events add): the name is said without it, as tsh's own pairings page shows it."""
    name = name.split(":", 1)[0].strip()
    last, sep, first = name.partition(",")
    if sep and first.strip().isdigit():
        return last.strip()
    return f"{first.strip()} {last.strip()}" if sep and first.strip() else name


def _int_list(value: Any, where: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all((isinstance(v, int) and not isinstance(v, bool)) or v is None
                                              for v in value):
        raise PairingsError(f"{where}: expected a list of numbers, found {json.dumps(value)[:60]}")
    return tuple(-1 if v is None else v for v in value)


# a JSON string (kept as it is) or tsh's bare `undefined` (read as null); nothing else of JavaScript is read
_JS_UNDEFINED = re.compile(r'"(?:[^"\\]|\\.)*"|\bundefined\b', re.DOTALL)
_PREFIX = re.compile(r"^\ufeff?\s*(?://[^\n]*\n\s*)*(?:var\s+)?(?:newt\s*=\s*)?")


def tourney_data(text: str, source: str = "tourney.js") -> dict[str, Any]:
    """tsh's `tourney.js` as a dict: the `newt=` prefix, comments before it and the final `;` taken off, each
    bare `undefined` read as null. The prefix and each `undefined` are blanked to the same width, so an error
    says the line and column of the file itself."""
    prefix = _PREFIX.match(text)
    end = prefix.end() if prefix else 0
    body = re.sub(r"[^\n]", " ", text[:end]) + text[end:]
    body = body.rstrip()
    if body.endswith(";"):
        body = body[:-1]
    body = _JS_UNDEFINED.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "null     ", body)
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise PairingsError(f"{source}: not tsh's tourney.js ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("divisions"), list):
        raise PairingsError(f"{source}: no 'divisions' list: is this the file tsh's JSON command writes?")
    return data


def _rating(value: Any) -> int:
    """A player's rating: a number; a team's `"0+0+0"` (or anything else) counts as 0, it seats nobody."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return 0


def _division_name(raw: Any, index: int) -> str:
    if isinstance(raw, bool) or raw is None or raw == "":
        return chr(ord("A") + index)
    if isinstance(raw, int | str):
        return str(raw).strip().upper()
    raise PairingsError(f"divisions[{index}]: the division's name must be a text or a number, not {raw!r}")


def _table_map(config: dict[str, Any], source: str) -> dict[str, tuple[int, ...]]:
    """tsh's `config tables`: per division, the table number of board 1, 2, ..."""
    raw = config.get("tables")
    if not isinstance(raw, dict):
        return {}
    out: dict[str, tuple[int, ...]] = {}
    for division, numbers in raw.items():
        if not isinstance(numbers, list):
            raise PairingsError(f"{source}: config.tables.{division}: expected a list of table numbers")
        tables: list[int] = []
        for i, number in enumerate(numbers):
            if isinstance(number, str) and number.strip().isdigit():
                number = int(number)
            if not isinstance(number, int) or isinstance(number, bool) or number < 1:
                raise PairingsError(f"{source}: config.tables.{division}[{i}] (board {i + 1}): the table must be a "
                                    f"number from 1, not {number!r}")
            tables.append(number)
        out[str(division).upper()] = tuple(tables)
    return out


def parse_tourney_js(text: str, source: str = "tourney.js") -> Tourney:
    """Read tsh's `tourney.js` (with or without the `newt =` prefix and the final `;`)."""
    data = tourney_data(text, source)
    config: dict[str, Any] = data["config"] if isinstance(data.get("config"), dict) else {}
    event = str(config.get("event_name") or config.get("event_date") or "").strip()
    tourney = Tourney(event, tables=_table_map(config, source))
    for d, division in enumerate(data["divisions"]):
        where = f"{source}: divisions[{d}]"
        if not isinstance(division, dict) or not isinstance(division.get("players"), list):
            raise PairingsError(f"{where}: a division needs a name and a 'players' list")
        try:
            name = _division_name(division.get("name"), d)
        except PairingsError as exc:
            raise PairingsError(f"{source}: {exc}") from None
        players: dict[int, TshPlayer] = {}
        for n, raw in enumerate(division["players"]):
            if raw is None:
                continue
            pwhere = f"{where} ({name}).players[{n}]"
            if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
                raise PairingsError(f"{pwhere}: a player needs a name")
            number = raw.get("id", n)
            if not isinstance(number, int) or number != n:
                raise PairingsError(f"{pwhere}: id {number!r} is not its place in the list ({n})")
            etc: dict[str, Any] = raw["etc"] if isinstance(raw.get("etc"), dict) else {}
            players[n] = TshPlayer(
                n, raw["name"], _rating(raw.get("rating")),
                _int_list(raw.get("pairings"), f"{pwhere}.pairings"),
                _int_list(raw.get("scores"), f"{pwhere}.scores"),
                _int_list(etc.get("p12"), f"{pwhere}.etc.p12"),
                _int_list(etc.get("board"), f"{pwhere}.etc.board"),
            )
        if name in tourney.divisions:
            raise PairingsError(f"{where}: division {name} appears twice")
        tourney.divisions[name] = players
    return tourney


def tsh_round(tourney: Tourney, round_: int, *, table_offsets: dict[str, int] | None = None,
              source: str = "tourney.js") -> tuple[list[Pairing], list[str]]:
    """The games of round `round_` (1-based) in every division, and the players with a bye.

    Tables: where tsh's `config tables` numbers a division's boards, the table it gives the board; else the
    board tsh assigned (`etc.board`) plus the division's offset (`table_offsets`, default 0, so divisions
    sharing a hall can number their boards from 1 each); without boards, tables are numbered in the order of
    the first player's number, after the offset. The players are seated first player first when tsh says who
    starts; `first` is then 0 (p12 3, a draw, and 4, not known yet, leave it to the table). A player with no
    pairing for the round yet (entered late, or `null`) plays no game and has no bye.
    """
    offsets = table_offsets or {}
    games: list[Pairing] = []
    byes: list[str] = []
    r = round_ - 1
    for division, players in tourney.divisions.items():
        if round_ < 1 or round_ > tourney.rounds_paired(division):
            continue
        seen: set[int] = set()
        numbered = 0
        offset = offsets.get(division, 0)
        table_of = tourney.tables.get(division)
        for number, player in sorted(players.items()):
            if number in seen or r >= len(player.pairings) or player.pairings[r] < 0:
                continue
            opponent = player.pairings[r]
            if opponent == 0:
                byes.append(f"{division} {display_name(player.name)}")
                continue
            other = players.get(opponent)
            where = f"{source}: division {division}, round {round_}"
            if other is None:
                raise PairingsError(f"{where}: player {number} is paired with {opponent}, who is not in the division")
            if r >= len(other.pairings) or other.pairings[r] != number:
                raise PairingsError(f"{where}: player {number} is paired with {opponent}, but {opponent} is not "
                                    f"paired with {number}")
            seen.update((number, opponent))
            numbered += 1
            p12 = player.p12[r] if r < len(player.p12) else 4
            if p12 == 2:
                seats, first = (other, player), 0
            elif p12 == 1:
                seats, first = (player, other), 0
            else:
                seats, first = (player, other), None
            board = player.boards[r] if r < len(player.boards) and player.boards[r] > 0 else numbered
            if table_of:
                if board > len(table_of):
                    raise PairingsError(f"{where}: board {board} has no table in config.tables.{division} "
                                        f"({len(table_of)} tables)")
                table = table_of[board - 1]
            else:
                table = board + offset
            games.append(Pairing(round_, table, division,
                                 (display_name(seats[0].name), display_name(seats[1].name)), first,
                                 (seats[0].id, seats[1].id)))
    _check_tables(games, source)
    return sorted(games, key=lambda g: g.table), byes


def _check_tables(games: list[Pairing], source: str) -> None:
    tables: dict[int, Pairing] = {}
    for game in games:
        clash = tables.get(game.table)
        if clash is not None:
            raise PairingsError(f"{source}: round {game.round}: table {game.table} is given to "
                                f"{' - '.join(clash.players)} and to {' - '.join(game.players)}; set a table "
                                f"offset per division")
        tables[game.table] = game


_REQUIRED = ("round", "table", "player1", "player2")
# a German spreadsheet's own column names, read as the English ones
_COLUMN_ALIASES = {"runde": "round", "tisch": "table", "brett": "table", "gruppe": "division",
                   "spieler1": "player1", "spieler2": "player2", "beginnt": "first", "erster": "first"}
_DELIMITERS = (",", ";", "\t")


def _column(cell: str) -> str:
    name = cell.strip().lower().replace(" ", "")
    return _COLUMN_ALIASES.get(name, name)


def csv_delimiter(text: str) -> str:
    """The field separator of a CSV, sniffed from its header (the first line that is neither empty nor a `#`
    comment): of `,`, `;` and tab, the one that splits it into the most of the columns a pairing needs (a
    German spreadsheet writes `;`, its decimal mark being the comma); `,` when none does."""
    for raw in re.split(r"\r\n|\r|\n", text):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            found = {d: sum(_column(c) in _REQUIRED for c in next(csv.reader([raw[:4096]], delimiter=d), []))
                     for d in _DELIMITERS}
        except csv.Error:  # not text a CSV reader takes: the reader proper says where
            return ","
        best = max(_DELIMITERS, key=lambda d: found[d])  # the first of equals: `,`
        return best if found[best] else ","
    return ","


def parse_pairings_csv(text: str, source: str = "pairings.csv") -> list[Pairing]:
    """Read a pairings CSV: `round,table,player1,player2,first[,division]` with a header line; `;` or tab for
    `,` as a spreadsheet saves it (`csv_delimiter`)."""
    text = text.lstrip("\ufeff")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise PairingsError(f"{source}:{line}: not a CSV text file (a NUL byte: a spreadsheet or another binary "
                            f"file? Save it as CSV)")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise PairingsError(f"{source}:{reader.line_num}: not a CSV text file ({exc})") from None
    out: list[Pairing] = []
    header: list[str] | None = None
    for line, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in row]
        bad = next((c for c in cells if "\ufffd" in c), None)
        if bad is not None:
            raise PairingsError(f"{source}:{line}: {bad!r} holds a character that is not text: the file is not "
                                f"UTF-8 (save it as \"CSV UTF-8\", or send it from the hall page, which also reads "
                                f"a Windows spreadsheet's own encoding)")
        if header is None:
            header = [_column(c) for c in cells]
            missing = [c for c in _REQUIRED if c not in header]
            if missing:
                single = f"; it is one field {cells[0]!r}: separate the fields with , or ;" if len(cells) == 1 else ""
                raise PairingsError(f"{source}:{line}: the header needs round, table, player1, player2 (and first, "
                                    f"division): {', '.join(missing)} missing{single}")
            continue
        if len(cells) != len(header):
            raise PairingsError(f"{source}:{line}: {len(cells)} fields, the header has {len(header)}")
        value = dict(zip(header, cells, strict=True))
        try:
            round_, table = int(value["round"]), int(value["table"])
        except ValueError:
            raise PairingsError(f"{source}:{line}: round and table must be numbers "
                                f"({value['round']!r}, {value['table']!r})") from None
        if round_ < 1 or table < 1:
            raise PairingsError(f"{source}:{line}: round and table start at 1")
        p1, p2 = value["player1"], value["player2"]
        if not p1 or not p2:
            raise PairingsError(f"{source}:{line}: both players need a name")
        first_raw = value.get("first", "")
        if first_raw in ("", "draw", "?"):
            first = None
        elif first_raw in ("1", "2"):
            first = int(first_raw) - 1
        elif first_raw in (p1, p2):
            first = 0 if first_raw == p1 else 1
        else:
            raise PairingsError(f"{source}:{line}: first must be 1, 2, a player's name or empty, not {first_raw!r}")
        out.append(Pairing(round_, table, value.get("division", "").upper() or "A", (p1, p2), first))
    for round_ in sorted({p.round for p in out}):
        _check_tables([p for p in out if p.round == round_], source)
    return out
