"""`/gcg/N.gcg` costs the asked game, not every stored game, and is written off the event loop (issue 24 row 6:
30 ms with 118 games, 2,093 ms with 5,900, on the loop); the standings, which read every game, read them off
the loop. Counted, not timed: the sheets read per request, and on which thread."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tournament.director import app as director_app
from tournament.director.access import DirectorGuard
from tournament.director.core import Director
from tournament.director.sheets import Sheets
from tournament.director.store import Store
from tournament.payloads import EventMessage
from tournament.testing.simhall import SimReplayer


def play(director: Director, table: int, game: int) -> None:
    header = {"name": f"Table {table}", "kind": "standard", "players": [f"A{table}", f"B{table}"],
              "setup": {"edition": "english"}}
    events = [("game", header), ("control", {"action": "play", "notation": "8D QUIZ", "score": 30 + game}),
              ("control", {"action": "end"})]
    for seq, (kind, data) in enumerate(events):
        director.on_event(EventMessage(table, game, seq, kind, data, float(seq), "t"))


def test_one_games_gcg_reads_one_sheet_off_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    director = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=SimReplayer())
    for table in range(1, 41):
        for game in range(1, 6):
            play(director, table, game)
    director.store.close()
    director = Director("ev", Store(tmp_path / "d.sqlite3"), replayer=SimReplayer())  # a restarted director
    read: list[tuple[int, int]] = []
    original = Sheets.sheet

    def counted(self: Sheets, table: int, game: int, *args: Any) -> Any:
        read.append((table, game))
        return original(self, table, game, *args)

    monkeypatch.setattr(Sheets, "sheet", counted)
    writers: list[str] = []
    gcg = director_app.game_gcg

    def written(record: Any) -> str:
        writers.append(threading.current_thread().name)
        return gcg(record)

    monkeypatch.setattr(director_app, "game_gcg", written)

    readers: list[str] = []
    records = director.records

    def every(*args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:
            readers.append(threading.current_thread().name)
        return records(*args, **kwargs)

    monkeypatch.setattr(director, "records", every)

    async def run() -> tuple[str, str]:
        async with TestClient(TestServer(director_app.create_app(director, DirectorGuard(None)))) as client:
            loop_thread = threading.current_thread().name
            text = await (await client.get("/gcg/17/3.gcg")).text()
            assert read == [(17, 3)]  # 200 games stored, one read
            standings = await (await client.get("/results/standings.csv")).text()
            assert standings.count("\n") == 81  # a header and 80 players
            return text, loop_thread

    with ThreadPoolExecutor(max_workers=1) as pool:
        text, loop_thread = pool.submit(lambda: asyncio.run(run())).result(timeout=60)
    assert "8D QUIZ +33" in text
    assert writers and writers[0] != loop_thread
    assert readers and all(name != loop_thread for name in readers)  # every game's records, off the loop too
    director.store.close()
