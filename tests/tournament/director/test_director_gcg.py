"""The director's GCG is the table's own record (issue 24 row 7). Every line of `/gcg/N.gcg`, during play and after
the end, and of the round's zip is one Macondo's reader takes (`gcg_strict`: its patterns, anchored to the whole
line). Its pragmas are the table's export's, then the event's `#description` and `#id` (and `#incomplete` while
the game is played); its event lines are the table's, line for line.

Before, the director wrote `#event`, `#round`, `#division` and `#table`, and Macondo refuses a file with a pragma
it does not know; and a Scramble play's rack field held only the dice played, which `referee gcg check` refuses
(a Scramble player rolls seven dice)."""

from __future__ import annotations

import asyncio
import io
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.cli import main as referee_main
from referee.director_sheets import MachineReplayer
from referee.journal import Journal
from referee.sim.table import SimulatedTable, default_setup
from referee.table.records import export_gcg
from referee.table.setup import TableSetup
from referee.tournament_link import JournalOutbox
from tournament.broadcast.delay import Delay
from tournament.director import app as director_app
from tournament.director.access import DirectorGuard
from tournament.director.core import Director
from tournament.director.store import Store
from tournament.outbox import Cursor
from tournament.payloads import SnapshotMessage

from ...referee.gcg_strict import check_strictly

TABLE = 4
EVENT_NAME = "Spring Open 2026"


class Hall:
    """One real table with a journal, and a director (replaying the table's events through its state machine, as
    `referee director` does) that has been handed every event the table has published so far."""

    def __init__(self, tmp_path: Path, setup: TableSetup, words: list[str]) -> None:
        self.journal = Journal(tmp_path / "table.sqlite3", writer=True)
        self.table = SimulatedTable(setup, words=words, journal=self.journal)
        self.director = Director("spring-open", Store(tmp_path / "director.sqlite3"), name=EVENT_NAME,
                                 replayer=MachineReplayer())
        self._handed = 0

    def publish(self) -> None:
        """Hand the director the events journaled since the last call and then the table's snapshot, as the
        broker would."""
        events = [p.message for p in JournalOutbox(self.journal, TABLE).pending(Cursor(), 10_000)]
        for message in events[self._handed:]:
            self.director.on_event(message)
        self._handed = len(events)
        last = events[-1]
        self.director.on_snapshot(SnapshotMessage(TABLE, last.game, last.seq, dict(self.table.snapshot())))

    def own_record(self) -> str:
        """The table's own export of its game (`referee games export --gcg`)."""
        assert self.table.game_id is not None
        return export_gcg(self.journal, self.table.game_id)

    def fetch(self, *paths: str, delay: Delay | None = None) -> list[bytes]:
        """GET each path of the director's web app (on a loop of its own, in a worker thread), with the
        spectators' `delay`."""
        from aiohttp.test_utils import TestClient, TestServer

        async def run() -> list[bytes]:
            app = director_app.create_app(self.director, DirectorGuard(None), delay=delay)
            async with TestClient(TestServer(app)) as client:
                bodies = []
                for path in paths:
                    response = await client.get(path)
                    assert response.status == 200, (path, await response.text())
                    bodies.append(await response.read())
                return bodies

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(lambda: asyncio.run(run())).result(timeout=60)

    def close(self) -> None:
        self.director.store.close()
        self.journal.close()


def _split(text: str) -> tuple[list[str], list[str]]:
    """(the header: every line before the first move line, the rest)."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(">"))
    return lines[:first], lines[first:]


def assert_the_tables_record(director: str, own: str, *, ended: bool) -> None:
    """`director` checks strictly, line by line, and is `own` with the event's pragmas after the table's."""
    report = check_strictly(director)
    assert report.problems == []
    assert report.event_lines == report.matched > 0
    header, body = _split(director)
    own_header, own_body = _split(own)
    event = [f"#description {EVENT_NAME}, table {TABLE}", f"#id referee {TABLE}-1"]
    assert header == own_header + event + ([] if ended else ["#incomplete"])
    assert body == own_body


def assert_checks_clean(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "director.gcg"
    path.write_text(text, encoding="utf-8")
    assert referee_main(["gcg", "check", str(path)]) == 0
    assert " 0 mismatches" in capsys.readouterr().out


def test_the_directors_gcg_during_play_and_at_the_end_is_the_tables_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game with every kind of line the table writes during play (a play, an adjustment, a phony withdrawn, a
    lost turn, an exchange, passes) and at its end (the racks): the live GCG while it is played, then the live GCG
    and the round's zip once it has ended."""
    hall = Hall(tmp_path, default_setup(), ["QUIZ", "ZA", "ZAP"])
    table = hall.table
    table.control("start", {})
    table.play("8E QUIZ")
    table.director("correct_score", {"player": 1, "points": -15, "reason": "a ruling"}, by="td", command_id="a1")
    table.control("accept", {})
    table.place_word("H8 .X")  # a phony, challenged off
    table.press()
    table.control("challenge", {"player": 0})
    table.lift("H9")
    table.play("H8 .AP")
    table.control("challenge", {"player": 1})  # a good play challenged in vain: Ben loses his turn
    table.control("exchange", {"count": 7})
    hall.publish()
    (live,) = hall.fetch(f"/gcg/{TABLE}.gcg")
    assert_the_tables_record(live.decode("utf-8"), hall.own_record(), ended=False)

    for _ in range(5):  # six scoreless turns in a row end the game
        table.control("pass", {})
    table.control("racks", {"player": 0, "tiles": "AEINRST"})
    table.control("racks", {"player": 1, "tiles": "DEELOOU"})
    assert table.snapshot()["state"] == "ended"
    hall.publish()
    live, archive = hall.fetch(f"/gcg/{TABLE}.gcg", "/results/round/0.zip")  # round 0: outside the pairings
    own = hall.own_record()
    assert_the_tables_record(live.decode("utf-8"), own, ended=True)
    with zipfile.ZipFile(io.BytesIO(archive)) as files:
        (name,) = [n for n in files.namelist() if n.endswith(".gcg")]
        zipped = files.read(name).decode("utf-8")
    assert zipped == live.decode("utf-8")
    assert_checks_clean(zipped, tmp_path, capsys)
    hall.close()


def test_a_scramble_games_gcg_at_the_director_carries_the_rolled_dice_as_the_table_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The snapshot has no racks; the director's sheet takes them from the table's engine, so a play's rack field
    is the seven dice rolled, as in the table's own record, and the record replays clean; through the spectators'
    delay too, where the moves shown are the snapshot's."""
    hall = Hall(tmp_path, default_setup(kind="scramble", clock_mode="none"), ["OAT", "ZA", "OATS"])
    table = hall.table
    table.control("start", {})
    table.roll("OATZEEE")
    table.play("5D OAT")
    table.advance(15)
    table.roll("ZEEEEEE")
    table.play("E4 Z.")
    table.advance(15)
    hall.publish()
    (live,) = hall.fetch(f"/gcg/{TABLE}.gcg")
    text = live.decode("utf-8")
    assert ">Anna: AEEEOTZ 5D OAT +6 6" in text.splitlines()
    assert_the_tables_record(text, hall.own_record(), ended=False)
    assert_checks_clean(text, tmp_path, capsys)
    (delayed,) = hall.fetch(f"/gcg/{TABLE}.gcg", delay=Delay(moves=1))  # the game as spectators see it
    _, body = _split(delayed.decode("utf-8"))
    assert body == [">Anna: AEEEOTZ 5D OAT +6 6"]
    assert check_strictly(delayed.decode("utf-8")).problems == []
    hall.close()
