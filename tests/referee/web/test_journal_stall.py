"""A journal whose writes block (an SD card that stalls): the page, the clocks and the heartbeat go on, the
table says it cannot save, and the change waiting for the disk is taken once it answers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from referee.journal import Journal
from referee.sim.table import ManualClock, SimulatedTable, default_setup
from referee.web import create_app

from ..stalls import BOUND_S, StalledWrites
from ..stalls import returns as _returns


def test_a_stalled_journal_stalls_neither_the_page_nor_the_clocks(tmp_path: Path, run_async: Any) -> None:
    clock = ManualClock()
    journal = Journal(tmp_path / "games.sqlite3")
    journal.clock = clock
    table = SimulatedTable(default_setup(), journal=journal, clock=clock)
    table.control("start", {})
    before = table.snapshot()["players"][0]["clock"]["remaining_ms"]
    seen: list[Any] = []
    table.subscribe(seen.append)  # a page's event stream (it subscribes when the page's server starts)

    gate = threading.Event()
    stalled = StalledWrites(journal._db, gate)
    journal._db = stalled
    layer = threading.Thread(target=table.place, args=("H8", "Q"), daemon=True)  # the board's link thread
    layer.start()
    assert stalled.waiting.wait(BOUND_S)  # its event is being written: it holds the table while it waits

    clock.advance(3.0)
    _returns(table.poll)  # the service loop: timers, and the heartbeat handed to the journal's thread
    snap = _returns(table.snapshot)
    assert snap["players"][0]["clock"]["remaining_ms"] == before - 3000  # Anna's clock runs on
    assert snap["alerts"][0]["code"] == "journal_waiting" and "cannot save" in snap["alerts"][0]["text"]
    _returns(table.publish)  # the pages' event streams get it too
    assert seen and seen[-1]["alerts"][0]["code"] == "journal_waiting"

    async def page() -> None:
        async with TestClient(TestServer(create_app(table, "390217"))) as client:
            response = await client.get("/api/snapshot")
            assert response.status == 200
            body = await response.json()
            assert body["alerts"][0]["code"] == "journal_waiting"

    _returns(lambda: run_async(page()))

    gate.set()  # the card answers: the tile is taken, the alert goes
    layer.join(BOUND_S)
    assert not layer.is_alive()
    snap = table.snapshot()
    assert not any(a["code"] == "journal_waiting" for a in snap["alerts"])
    assert table.machine.observed.get("H8") is not None
    journal._db = stalled._db
    journal.close()
