"""Real tsh files against the reader: every `*.js` in the given folders read as the director reads it.

For directors (try the event's own `tourney.js` before the day) and for us (the reader against the files
events publish). Each file is read with `tournament.pairings.parse_tourney_js`, every paired round of it with
`tsh_round`, and each game is checked against a second reading of the file that shares no code with the
reader: its own parser of tsh's `newt={...};` (JSON plus the bare `undefined`) and tsh's own meaning of the
fields (`pairings[r]` the opponent, 0 a bye; `etc.p12[r]` 1 first, 2 second; `etc.board[r]` the board;
`config.tables` the table of each board). Divisions without `config.tables` are given table offsets one
after the other (their boards all start at 1), as a director would. Then the broadcast feed's round trip:
`filled_scores(text, [])` written back with `write_tourney_js` must read as the same event.

    .venv/bin/python benchmarks/tsh_files.py DIR [DIR ...]

Prints one `figure: value unit` line per figure; why a file or a game failed goes to stderr. No real file is
kept in the project (their licences do not allow it): point it at a folder of your own.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament.broadcast.feed import filled_scores, write_tourney_js  # noqa: E402
from tournament.pairings import Pairing, PairingsError, parse_tourney_js, tsh_round  # noqa: E402


class NotTsh(ValueError):
    """The independent parser could not read the file."""


# ---- the independent reading: a recursive-descent parser of JSON values plus JavaScript's bare `undefined`

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_SPACE = re.compile(r"\s*")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def fail(self, what: str) -> NotTsh:
        line = self.text.count("\n", 0, self.at) + 1
        return NotTsh(f"{what} at line {line}, character {self.at - (self.text.rfind(chr(10), 0, self.at) + 1) + 1}")

    def space(self) -> None:
        self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]

    def take(self, literal: str) -> bool:
        self.space()
        if self.text.startswith(literal, self.at):
            self.at += len(literal)
            return True
        return False

    def value(self) -> Any:
        self.space()
        char = self.text[self.at:self.at + 1]
        if char == "{":
            self.at += 1
            out: dict[str, Any] = {}
            if self.take("}"):
                return out
            while True:
                self.space()
                match = _STRING.match(self.text, self.at)
                if not match:
                    raise self.fail("a key expected")
                self.at = match.end()
                if not self.take(":"):
                    raise self.fail("':' expected")
                out[json.loads(match.group(0))] = self.value()
                if self.take("}"):
                    return out
                if not self.take(","):
                    raise self.fail("',' or '}' expected")
        if char == "[":
            self.at += 1
            items: list[Any] = []
            if self.take("]"):
                return items
            while True:
                items.append(self.value())
                if self.take("]"):
                    return items
                if not self.take(","):
                    raise self.fail("',' or ']' expected")
        if char == '"':
            match = _STRING.match(self.text, self.at)
            if not match:
                raise self.fail("a broken string")
            self.at = match.end()
            return json.loads(match.group(0))
        for word, meaning in (("undefined", None), ("null", None), ("true", True), ("false", False)):
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return meaning
        match = _NUMBER.match(self.text, self.at)
        if match:
            self.at = match.end()
            number = match.group(0)
            return float(number) if any(c in number for c in ".eE") else int(number)
        raise self.fail("a value expected")


def read_newt(text: str) -> Any:
    """tsh's file as values: `newt=` (optionally `var`, comment lines before it), one value, an optional `;`."""
    body = text.lstrip("\ufeff")
    while body.lstrip().startswith("//"):
        body = body.lstrip().split("\n", 1)[1] if "\n" in body.lstrip() else ""
    head = re.match(r"\s*(?:var\s+)?newt\s*=", body)
    parser = _Parser(body)
    parser.at = head.end() if head else 0
    data = parser.value()
    parser.take(";")
    parser.space()
    if parser.at != len(body):
        raise parser.fail("text after the value")
    return data


# ---- what tsh's fields mean, from the values


@dataclass(frozen=True)
class Expected:
    division: str
    round: int
    ids: frozenset[int]
    table: int | None  # None: the file gives no board
    starter: int | None  # the player who starts, None: a draw decides or not known
    names: dict[int, str] = field(hash=False, compare=False)


def _at(values: Any, r: int) -> Any:
    return values[r] if isinstance(values, list) and r < len(values) else None


Round = tuple[list[Expected], list[str], list[str]]  # the games, the byes ("DIV id"), the file's own inconsistencies


def expected_rounds(data: dict[str, Any]) -> tuple[dict[str, int], dict[tuple[str, int], Round]]:
    """Per (division, round): the games, the byes ("DIV id") and what is inconsistent in the file itself."""
    config = data.get("config") or {}
    tables = {str(k).upper(): v for k, v in (config.get("tables") or {}).items()}
    out: dict[tuple[str, int], Round] = {}
    offsets: dict[str, int] = {}
    next_offset = 0
    for index, division in enumerate(data["divisions"]):
        raw_name = division.get("name")
        name = chr(ord("A") + index) if raw_name in (None, "") else str(raw_name).strip().upper()
        players = {p["id"]: p for p in division["players"] if isinstance(p, dict)}
        if name not in tables:
            offsets[name] = next_offset
        top_board = 0
        rounds = max((len(p.get("pairings") or []) for p in players.values()), default=0)
        for r in range(rounds):
            games: list[Expected] = []
            byes: list[str] = []
            trouble: list[str] = []
            for number in sorted(players):
                me = players[number]
                opponent = _at(me.get("pairings"), r)
                if opponent is None:
                    continue
                if opponent == 0:
                    byes.append(f"{name} {number}")
                    continue
                if opponent < number:
                    continue  # seen from the other end
                other = players.get(opponent)
                if other is None or _at(other.get("pairings"), r) != number:
                    trouble.append(f"{name} round {r + 1}: {number} paired with {opponent}, not the other way")
                    continue
                etc_a, etc_b = me.get("etc") or {}, other.get("etc") or {}
                board_a, board_b = _at(etc_a.get("board"), r), _at(etc_b.get("board"), r)
                board = board_a or board_b
                if board_a and board_b and board_a != board_b:
                    trouble.append(f"{name} round {r + 1}: {number} on board {board_a}, {opponent} on {board_b}")
                top_board = max(top_board, board or 0)
                table = None
                if board:
                    table = tables[name][board - 1] if name in tables else board + offsets[name]
                    table = int(table)
                first_a, first_b = _at(etc_a.get("p12"), r), _at(etc_b.get("p12"), r)
                starter = {(1, 2): number, (2, 1): opponent}.get((first_a, first_b))
                if starter is None and (first_a in (1, 2) or first_b in (1, 2)):
                    trouble.append(f"{name} round {r + 1}: p12 {first_a} for {number} and {first_b} for {opponent}")
                games.append(Expected(name, r + 1, frozenset((number, opponent)), table, starter,
                                      {number: me["name"], opponent: other["name"]}))
            out[(name, r + 1)] = (games, byes, trouble)
        next_offset += top_board if name not in tables else 0
    return offsets, out


def _words(name: str) -> list[str]:
    """A name's words, without tsh's ":XT012345" rating id and without a bare number after the comma ("Chang
    Ching Wei,1": no first name); the reader says "Last, First" first name first."""
    name = re.sub(r",\s*\d+\s*$", "", name.split(":", 1)[0])
    return sorted(re.findall(r"[^\s,]+", name))


def _same_person(shown: str, raw: str) -> bool:
    return _words(shown) == _words(raw)


def agrees(game: Pairing, want: Expected) -> str:
    """'' when the reader's game is the file's, else what differs."""
    ids = [i for i in game.ids if i is not None]
    if frozenset(ids) != want.ids:
        return f"players {game.ids}, the file pairs {sorted(want.ids)}"
    if want.table is not None and game.table != want.table:
        return f"table {game.table}, the file's board gives {want.table}"
    if want.starter is None and game.first is not None:
        return f"{game.ids[game.first]} starts, the file leaves it to a draw"
    if want.starter is not None and (game.first is None or game.ids[game.first] != want.starter):
        return f"{None if game.first is None else game.ids[game.first]} starts, the file says {want.starter}"
    for shown, number in zip(game.players, game.ids, strict=True):
        if number is None or not _same_person(shown, want.names[number]):
            return f"player {number} is said {shown!r}, the file names {want.names.get(number or 0)!r}"
    return ""


@dataclass
class Figures:
    files: int = 0
    refused: int = 0
    divisions: int = 0
    rounds: int = 0
    games: int = 0
    agreeing: int = 0
    byes: int = 0
    byes_agreeing: int = 0
    inconsistent: int = 0
    round_trips: int = 0
    round_trips_equal: int = 0


def check_file(path: Path, figures: Figures) -> None:
    figures.files += 1
    text = path.read_text(encoding="utf-8-sig")
    try:
        tourney = parse_tourney_js(text, path.name)
    except PairingsError as exc:
        figures.refused += 1
        print(f"{path}: refused: {exc}", file=sys.stderr)
        return
    try:
        data = read_newt(text)
        offsets, rounds = expected_rounds(data)
    except (NotTsh, KeyError, TypeError, IndexError, AttributeError) as exc:
        print(f"{path}: the independent reading failed ({exc}); its games count as not agreeing", file=sys.stderr)
        data, offsets, rounds = None, {}, {}
    figures.divisions += len(tourney.divisions)
    for division in tourney.divisions:
        for r in range(1, tourney.rounds_paired(division) + 1):
            figures.rounds += 1
            want, want_byes, trouble = rounds.get((division, r), ([], [], []))
            figures.games += len(want)
            figures.byes += len(want_byes)
            figures.inconsistent += len(trouble)
            for line in trouble:
                print(f"{path}: the file itself: {line}", file=sys.stderr)
            try:
                games, byes = tsh_round(tourney, r, table_offsets=offsets, source=path.name)
            except PairingsError as exc:
                print(f"{path}: division {division} round {r}: the reader refused: {exc}", file=sys.stderr)
                continue
            mine = {frozenset(i for i in g.ids if i is not None): g for g in games if g.division == division}
            for expected in want:
                game = mine.pop(expected.ids, None)
                why = "the reader has no such game" if game is None else agrees(game, expected)
                if why:
                    print(f"{path}: division {division} round {r} {sorted(expected.ids)}: {why}", file=sys.stderr)
                else:
                    figures.agreeing += 1
            for extra in mine.values():
                print(f"{path}: division {division} round {r}: the reader has {extra.ids}, the file does not",
                      file=sys.stderr)
            said = sorted(_words(b.split(" ", 1)[1]) for b in byes if b.startswith(f"{division} "))
            players = tourney.divisions[division]
            from_file = sorted(_words(players[int(b.split()[1])].name) for b in want_byes)
            if said == from_file:
                figures.byes_agreeing += len(want_byes)
            else:
                print(f"{path}: division {division} round {r}: byes {said}, the file {from_file}", file=sys.stderr)
    figures.round_trips += 1
    try:
        written = write_tourney_js(filled_scores(text, [], path.name))
        again = parse_tourney_js(written, path.name)
        same_rounds = all(
            tsh_round(again, r, table_offsets=offsets, source=path.name)
            == tsh_round(tourney, r, table_offsets=offsets, source=path.name)
            for r in range(1, max((tourney.rounds_paired(d) for d in tourney.divisions), default=0) + 1))
    except PairingsError as exc:
        print(f"{path}: the feed's round trip failed: {exc}", file=sys.stderr)
        return
    same_values = data is None or read_newt(written) == data
    if again == tourney and same_rounds and same_values:
        figures.round_trips_equal += 1
    else:
        print(f"{path}: the feed's round trip reads differently (event {again == tourney}, rounds {same_rounds}, "
              f"values {same_values})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/tsh_files.py", description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, metavar="DIR", help="folders of tsh tourney.js files")
    args = parser.parse_args(argv)
    if not args.folders:
        print("skipped: no folder given")
        return 0
    figures = Figures()
    for folder in args.folders:
        if not folder.is_dir():
            print(f"{folder}: not a folder", file=sys.stderr)
            continue
        for path in sorted(folder.glob("*.js")):
            check_file(path, figures)
    print(f"files read: {figures.files} files")
    print(f"files refused: {figures.refused} files")
    print(f"divisions: {figures.divisions} divisions")
    print(f"rounds paired: {figures.rounds} division-rounds")
    print(f"games paired: {figures.games} games")
    print(f"pairings agreeing with the independent check: {figures.agreeing} games")
    print(f"byes: {figures.byes} byes")
    print(f"byes agreeing with the independent check: {figures.byes_agreeing} byes")
    print(f"inconsistencies in the files themselves: {figures.inconsistent} pairings")
    print(f"feed round-trips equal: {figures.round_trips_equal} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
