"""Results out: tsh score lines, CSV/JSON, standings, GCG with the event's pragmas, a round in one zip."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from game.gcg import parse_gcg
from game.gcg_check import check_record
from game.rules import naspa
from referee.cli import main as referee_main
from referee.sim.table import SimulatedTable
from tournament.pairings import parse_tourney_js, tsh_round
from tournament.results import (
    GameRecord,
    game_gcg,
    gcg_name,
    results_csv,
    results_json,
    round_zip,
    standings,
    tsh_lines,
)

from ..referee.gcg_strict import check_strictly

FIXTURES = Path(__file__).with_name("fixtures")


@pytest.fixture(scope="module")
def table_moves() -> list[dict[str, Any]]:
    """A score sheet played by the real table (four plays, a pass, an exchange of three), as its snapshot
    lists it: exported GCG is checked against what a table really sends."""
    table = SimulatedTable()
    table.control("start", {})
    for move in ["8G QI", "7H AX", "9F JOE", "10E WE"]:
        table.play(move)
        table.advance(20)
    table.control("pass", {})
    table.advance(20)
    return [dict(m) for m in table.control("exchange", {"count": 3})["moves"]]


def record(table: int, players: list[str], scores: list[int], moves: list[dict[str, Any]], *, round_: int = 1,
           division: str = "A", ids: list[int | None] | None = None, ended: bool = True) -> GameRecord:
    return GameRecord(table, round_, division, players, scores, moves, ids or [None, None], ended=ended,
                      event="Spring Open 2026", game=f"t{table}-g1")


def test_gcg_carries_the_event_and_passes_the_engine(table_moves: list[dict[str, Any]]) -> None:
    text = game_gcg(record(7, ["Nigel Richards", "Joey Krafchick"], [48, 37], table_moves, ended=False))
    parsed = parse_gcg(text)
    # where it was played, in pragmas Macondo's reader takes (it refuses a file with one it does not know)
    assert parsed.pragmas["description"] == "Spring Open 2026, round 1, division A, table 7"
    assert parsed.pragmas["id"] == "referee t7-g1" and "incomplete" in parsed.pragmas
    assert not {"event", "round", "division", "table"} & set(parsed.pragmas)
    assert check_strictly(text).problems == []
    assert [p.name for p in parsed.players] == ["Nigel Richards", "Joey Krafchick"]
    assert [m.move for m in parsed.moves] == ["8G QI", "7H AX", "9F JOE", "10E WE", "-", "-3"]
    result = check_record(parsed, naspa())
    assert result.skipped is None and result.mismatches == [] and result.plays == 6


def test_a_wrong_total_is_caught_by_the_check(table_moves: list[dict[str, Any]]) -> None:
    moves = [dict(m) for m in table_moves]
    moves[2]["score"] += 1
    result = check_record(parse_gcg(game_gcg(record(1, ["A", "B"], [49, 37], moves))), naspa())
    assert [m.line for m in result.mismatches]


def test_tsh_lines_are_what_is_typed_after_a() -> None:
    games, _ = tsh_round(parse_tourney_js((FIXTURES / "tourney.js").read_text(encoding="utf-8")), 1,
                         table_offsets={"B": 10})
    records = [record(g.table, list(g.players), [400 + g.table, 350], [], division=g.division, ids=list(g.ids))
               for g in games]
    records.append(record(30, ["Eva Braun", "Frank Roth"], [300, 310], [], division="B"))
    records.append(record(31, ["Not", "Finished"], [10, 0], [], division="B", ended=False))
    lines = tsh_lines(records)
    assert lines["A"] == ["1 401 2 350", "4 402 3 350"]
    assert lines["B"][:2] == ["1 411 4 350", "3 412 2 350"]
    assert lines["B"][2].startswith("# table 30: Eva Braun 300 - Frank Roth 310 (no tsh player numbers")
    assert len(lines["B"]) == 3


def test_standings_count_wins_then_spread_and_half_a_win_for_a_tie() -> None:
    records = [
        record(1, ["Ann", "Ben"], [400, 300], []),
        record(2, ["Cid", "Dan"], [350, 340], []),
        record(1, ["Ann", "Cid"], [380, 380], [], round_=2),
        record(2, ["Ben", "Dan"], [500, 300], [], round_=2),
        record(3, ["Ann", "Dan"], [1, 0], [], round_=3, ended=False),
    ]
    rows = [(s.name, s.wins, s.spread) for s in standings(records)]
    assert rows == [("Ann", 1.5, 100), ("Cid", 1.5, 10), ("Ben", 1.0, 100), ("Dan", 0.0, -210)]


def test_csv_and_json_hold_every_game() -> None:
    records = [record(2, ["Cid", "Dan"], [350, 340], [], ids=[3, 4]), record(1, ["Ann", "Ben"], [400, 300], [])]
    rows = list(csv.DictReader(io.StringIO(results_csv(records))))
    assert [(r["table"], r["player1"], r["score1"], r["tsh1"], r["winner"]) for r in rows] == [
        ("1", "Ann", "400", "", "Ann"), ("2", "Cid", "350", "3", "Cid")]
    assert [g["spread"] for g in json.loads(results_json(records))["games"]] == [100, 10]


def test_a_round_from_tourney_js_to_the_zip_and_every_game_passes_referee_gcg_check(
        table_moves: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games, _ = tsh_round(parse_tourney_js((FIXTURES / "tourney.js").read_text(encoding="utf-8")), 1,
                         table_offsets={"B": 10})
    records = [record(g.table, list(g.players), [48, 37], table_moves, division=g.division, ids=list(g.ids))
               for g in games]
    data = round_zip(records, 1)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = sorted(archive.namelist())
        archive.extractall(tmp_path)
    assert "round01/tsh-scores.txt" in names and "round01/standings.csv" in names
    assert len([n for n in names if n.endswith(".gcg")]) == 6
    tsh = (tmp_path / "round01/tsh-scores.txt").read_text(encoding="utf-8")
    assert "1 48 2 37\n4 48 3 37\n" in tsh and "1 48 4 37\n3 48 2 37\n" in tsh
    assert "# division 2: type these after tsh's 'a' command\n1 48 2 37\n4 48 3 37\n" in tsh
    assert referee_main(["gcg", "check", str(tmp_path / "round01/gcg")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "checked 6 games, 36 plays, 0 mismatches"


def test_one_game_per_pairing_an_empty_game_before_the_real_one_is_listed_as_abandoned(
        table_moves: list[dict[str, Any]]) -> None:
    """A table that started an empty game, then the real one, for the same pairing: the zip got the same file
    name twice and results.csv a second 0-0 row. Now the real game is the result, the empty one is listed
    as abandoned, never as a result, and every file name carries the game."""
    empty = GameRecord(3, 1, "A", ["Anna Müller", "Bernd Schmidt"], [0, 0], [], [1, 2], ended=False,
                       event="Spring Open 2026", game="3-1", number=1)
    real = GameRecord(3, 1, "A", ["Anna Müller", "Bernd Schmidt"], [48, 37], table_moves, [1, 2], ended=True,
                      event="Spring Open 2026", game="3-2", number=2)
    other = record(4, ["Clara Weber", "Dirk Fischer"], [300, 310], [], ids=[3, 4])
    records = [empty, real, other]
    rows = list(csv.DictReader(io.StringIO(results_csv(records))))
    assert [(r["table"], r["score1"], r["score2"], r["game"]) for r in rows] == [("3", "48", "37", "3-2"),
                                                                                ("4", "300", "310", "t4-g1")]
    assert tsh_lines(records)["A"] == ["1 48 2 37", "3 300 4 310"]
    assert {s.games for s in standings(records)} == {1}
    report = json.loads(results_json(records))
    assert [g["game"] for g in report["games"]] == ["3-2", "t4-g1"]
    assert [(g["game"], g["status"]) for g in report["abandoned"]] == [("3-1", "abandoned")]
    with zipfile.ZipFile(io.BytesIO(round_zip(records, 1))) as archive:
        names = archive.namelist()
        listing = archive.read("round01/abandoned.csv").decode()
    assert len(names) == len(set(names))
    assert "round01/gcg/round01-A-table003-game2-Anna_Mueller-Bernd_Schmidt.gcg" in names
    assert "round01/abandoned/round01-A-table003-game1-Anna_Mueller-Bernd_Schmidt.gcg" in names
    assert not any(n.startswith("round01/gcg/") and "game1-Anna" in n for n in names)
    assert "abandoned" in listing and ",3-1," in listing


def test_a_later_game_that_ended_replaces_an_earlier_one_that_ended_too() -> None:
    first = GameRecord(5, 2, "B", ["Ann", "Ben"], [400, 300], [], ended=True, game="5-7", number=7)
    again = GameRecord(5, 2, "B", ["Ann", "Ben"], [350, 360], [], ended=True, game="5-8", number=8)
    report = json.loads(results_json([first, again]))
    assert [(g["game"], g["winner"]) for g in report["games"]] == [("5-8", "Ben")]
    assert [(g["game"], g["status"]) for g in report["abandoned"]] == [("5-7", "replaced")]
    assert [(s.name, s.wins, s.games) for s in standings([first, again])] == [("Ben", 1.0, 1), ("Ann", 0.0, 1)]


@pytest.mark.parametrize(("names", "expected"), [
    (["Anna Müller", "Jürgen Groß"], "Anna_Mueller-Juergen_Gross"),
    (["Ayşe Özdemir", "Zoë Ångström"], "Ayse_Oezdemir-Zoe_Angstroem"),
    (["Søren Læssøe", "Łukasz Œuvre"], "Soeren_Laessoee-Lukasz_Oeuvre"),
    (["李", "!!"], "player-player"),
])
def test_file_names_transliterate_names_instead_of_dropping_letters(names: list[str], expected: str) -> None:
    name = gcg_name(GameRecord(1, 1, "A", names, [0, 0], [], number=1))
    assert name == f"round01-A-table001-game1-{expected}.gcg"


# Macondo's patterns for a play, a pass and an exchange (gcgio/gcg.go): the rack field is required
MACONDO_PLAY = re.compile(r"^>(\S+):\s+(\S+)\s+(\w+)\s+([\w\\.\(\)?]+)\s+\+(\d+)\s+(-?\d+)")


def test_the_directors_gcg_is_written_by_the_tables_writer_with_the_rack_field() -> None:
    """The director's live GCG had no rack field on play lines (100% refused by Macondo's patterns while the
    tables' own exports were fine): it now comes from the table's own writer and matches its lines."""
    table = SimulatedTable()
    table.control("start", {})
    for move in ["8G QI", "7H AX", "9F JOE", "10E WE"]:
        table.play(move)
        table.advance(20)
    snap = table.control("pass", {})
    own = [ln for ln in table.gcg().splitlines() if ln.startswith(">")]
    director = game_gcg(GameRecord(1, 1, "A", [p["name"] for p in snap["players"]], [48, 37],
                                   [dict(m) for m in snap["moves"]], ended=False, event="Spring Open 2026"))
    lines = [ln for ln in director.splitlines() if ln.startswith(">")]
    assert lines == own
    assert all(MACONDO_PLAY.match(ln) for ln in lines[:4]), lines
    assert "#description Spring Open 2026, round 1, division A, table 1" in director.splitlines()
    assert "#incomplete" in director.splitlines()
    assert check_strictly(director).problems == []


def test_a_play_through_tiles_and_a_blank_give_the_tiles_put_down() -> None:
    moves = [{"player": 0, "kind": "play", "notation": "8D WO.d", "score": 7, "total": 7, "words": []},
             {"player": 1, "kind": "play", "notation": "H4 QU(I)Z", "score": 30, "total": 30, "words": []}]
    lines = [ln for ln in game_gcg(GameRecord(1, 1, "A", ["A", "B"], [7, 30], moves)).splitlines()
             if ln.startswith(">")]
    assert lines == [">A: OW? 8D WO.d +7 7", ">B: QUZ H4 QU(I)Z +30 30"]
