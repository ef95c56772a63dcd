"""Results from the journaled events, a snapshot only a view (issue 24 row 3): the real table's journal fed to
the director, which replays it through the table's state machine; a forged snapshot (a table's own login can
publish any) changes no result, and one whose seq runs ahead of the events is not shown until they are in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.director_sheets import MachineReplayer
from referee.journal import Journal
from referee.sim.table import SimulatedTable
from referee.tournament_link import JournalOutbox
from tournament.director.core import Director
from tournament.director.store import Store
from tournament.outbox import Cursor
from tournament.payloads import EventMessage, SnapshotMessage
from tournament.results import results_csv

TABLE = 4


def real_game(tmp_path: Path) -> tuple[list[EventMessage], dict[str, Any]]:
    """A game played by the real table with a journal: its events as the table publishes them, and its
    snapshot at the end."""
    journal = Journal(tmp_path / "table.sqlite3", writer=True)
    table = SimulatedTable(journal=journal)
    table.control("start", {})
    for move in ["8G QI", "7H AX", "9F JOE", "10E WE"]:
        table.play(move)
        table.advance(20)
    snap = dict(table.snapshot())
    events = [p.message for p in JournalOutbox(journal, TABLE).pending(Cursor(), 10_000)]
    journal.close()
    return events, snap


def forged(snap: dict[str, Any], seq: int, game: int) -> SnapshotMessage:
    fake = dict(snap, state="ended", result={"winners": [1], "reason": "score"})
    fake["players"] = [dict(snap["players"][0], score=1), dict(snap["players"][1], score=999)]
    return SnapshotMessage(TABLE, game, seq, fake)


def test_a_result_is_the_replayed_events_not_a_forged_snapshot(tmp_path: Path) -> None:
    events, real = real_game(tmp_path)
    director = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=MachineReplayer())
    for ev in events:
        director.on_event(ev)
    game, last = events[0].game, events[-1].seq
    director.on_snapshot(SnapshotMessage(TABLE, game, last, real))
    assert [p["score"] for p in director.tables[TABLE].tile()["players"]] == [p["score"] for p in real["players"]]
    # a snapshot at the table's own seq with other scores: the tile shows it (a view), no result changes
    director.on_snapshot(forged(real, last, game))
    # and one far ahead of the events: not even the view takes it, and the tile says so
    director.on_snapshot(forged(real, last + 900, game))
    assert [a["text"] for a in director.tables[TABLE].tile()["alerts"] if a["code"] == "snapshot_ahead"] == [
        f"a snapshot says game {game} is at event {last + 900}, the director has {last}: asked of the table, "
        "not shown"]
    (record,) = director.records()
    assert record.scores == [p["score"] for p in real["players"]] and record.scores != [1, 999]
    assert not record.ended and record.winners == []
    assert [m["notation"] for m in record.moves] == [m["notation"] for m in real["moves"]]
    assert "999" not in results_csv([record])
    director.store.close()
    # a restarted director: the same sheet, from its store alone
    again = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=MachineReplayer())
    assert again.records()[0].scores == [p["score"] for p in real["players"]]
    again.store.close()


def test_a_snapshot_ahead_of_its_events_waits_for_them(tmp_path: Path) -> None:
    events, real = real_game(tmp_path)
    director = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=MachineReplayer())
    for ev in events[:-3]:
        director.on_event(ev)
    game = events[0].game
    director.on_snapshot(SnapshotMessage(TABLE, game, events[-1].seq, real))
    assert director.tables[TABLE].seq < events[-1].seq  # not shown: its events are not in
    for ev in events[-3:]:
        director.on_event(ev)
    assert director.tables[TABLE].seq == events[-1].seq  # shown once they are
    assert director.tables[TABLE].tile()["players"][0]["score"] == real["players"][0]["score"]
    director.store.close()


def test_a_game_whose_setup_is_damaged_gives_no_result(tmp_path: Path) -> None:
    events, _ = real_game(tmp_path)
    header = events[0]
    broken = EventMessage(header.table, header.game, 0, header.kind,
                          dict(header.data, setup={"kind": "chess"}), header.time, header.at)
    director = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=MachineReplayer())
    for ev in [broken, *events[1:]]:
        director.on_event(ev)
    assert director.records() == []
    assert "setup" in director.sheets.error(TABLE, header.game)  # type: ignore[union-attr]
    director.store.close()


def test_a_directors_adjustment_is_in_every_result_and_the_gcg_replays_to_it(tmp_path: Path) -> None:
    """A director's adjustment is no turn: the GCG keeps the game as played on the board, with the adjustment
    as a note of its own that this project's reader applies (`referee gcg check` reaches the adjusted final),
    while the result, results.csv, the tsh line and the standings carry the adjusted scores."""
    from dataclasses import replace

    from game.gcg import parse_gcg
    from game.gcg_check import replay_record
    from game.rules import naspa
    from tournament.results import game_gcg, standings, tsh_lines

    journal = Journal(tmp_path / "table.sqlite3", writer=True)
    table = SimulatedTable(journal=journal)
    table.control("start", {})
    table.play("8E QUIZ")  # Anna 44
    table.director("correct_score", {"player": 0, "points": -10, "reason": "phone rang"}, by="td", command_id="a")
    table.advance(15)
    for _ in range(6):  # six scoreless turns end the game
        table.press()
    table.control("racks", {"player": 0, "tiles": "AEEIOUS"})  # -7
    table.control("racks", {"player": 1, "tiles": "BCDFGHL"})  # -19
    snap = table.director("correct_score", {"player": 1, "points": 70, "reason": "the sheet missed a bingo"},
                          by="td", command_id="b")
    assert [p["score"] for p in snap["players"]] == [44 - 10 - 7, -19 + 70]
    events = [p.message for p in JournalOutbox(journal, TABLE).pending(Cursor(), 10_000)]
    journal.close()
    director = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=MachineReplayer())
    for ev in events:
        director.on_event(ev)
    (record,) = director.records()
    record = replace(record, round=1, division="A", ids=[3, 7])  # as paired from tsh
    assert record.ended and record.scores == [27, 51] and record.winners == [1]
    row = results_csv([record]).splitlines()[1].split(",")
    assert (row[4], row[6]) == ("27", "51")
    assert tsh_lines([record])["A"] == ["3 27 7 51"]
    assert [(s.name, s.wins, s.spread) for s in standings([record])] == [("Ben", 1, 24), ("Anna", 0, -24)]
    text = game_gcg(record)
    assert "#note adjustment Anna -10: phone rang\n" in text
    assert text.endswith("#note adjustment Ben +70: the sheet missed a bingo\n")
    assert "(time)" not in text and "(challenge)" not in text  # no turn is made of it
    game, result = replay_record(parse_gcg(text), naspa())
    assert result.mismatches == [] and game is not None and game.scores == [27, 51]
    director.store.close()
