"""Control while the SD card is frozen (issue 26): `pause` during a freeze answered after the freeze (40 s) and
then took effect. Now it answers at once that the table is waiting for its storage, and applies nothing.

The freeze is injected (the journal's writes wait on an event, tests/referee/stalls.py) and time is a
`ManualClock`: nothing here sleeps on the wall clock. Two freezes: a change of the table's own (a clock press)
waiting for the card while it holds the table, and the heartbeat's write waiting while it holds the journal."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from referee.journal import Journal
from referee.sim.table import ManualClock, SimulatedTable, default_setup
from referee.table.api import ControlError
from referee.web import create_app

from ..stalls import BOUND_S, StalledWrites
from ..stalls import returns as _returns

PIN = "390217"


class Frozen:
    """A started game on a journal whose card is about to freeze."""

    def __init__(self, tmp_path: Path) -> None:
        self.clock = ManualClock()
        self.journal = Journal(tmp_path / "games.sqlite3")
        self.journal.clock = self.clock
        self.table = SimulatedTable(default_setup(), journal=self.journal, clock=self.clock)
        self.table.control("start", {})
        self.stalled = StalledWrites(self.journal._db, threading.Event())

    def freeze_during_a_press(self) -> threading.Thread:
        """Anna's clock press: its event is written before it takes effect, and the card does not answer."""
        self.journal._db = self.stalled
        press = threading.Thread(target=self.table.press_clock, args=(0,), daemon=True)
        press.start()
        assert self.stalled.waiting.wait(BOUND_S)
        return press

    def freeze_during_the_heartbeat(self) -> None:
        """The journal's heartbeat thread writes, and the card does not answer: the table itself is free."""
        self.journal._db = self.stalled
        assert self.table.game_id is not None
        self.journal.heartbeat(self.table.game_id, 1000, wait=False)
        assert self.stalled.waiting.wait(BOUND_S)

    def thaw(self) -> None:
        self.stalled.gate.set()

    def kinds(self) -> list[str]:
        assert self.table.game_id is not None
        return [f"{e.kind}:{e.data.get('action', '')}" for e in self.journal.events(self.table.game_id)]

    def close(self) -> None:
        self.stalled.gate.set()
        self.journal._db = self.stalled._db
        self.journal.close()


@pytest.fixture
def frozen(tmp_path: Path) -> Iterator[Frozen]:
    f = Frozen(tmp_path)
    yield f
    f.close()


def _refused(call: Any) -> ControlError:
    def attempt() -> ControlError | None:
        try:
            call()
        except ControlError as exc:
            return exc
        return None

    exc = _returns(attempt)  # within BOUND_S, not after the freeze
    assert isinstance(exc, ControlError), "the action was not refused"
    return exc


def test_pause_while_a_press_waits_for_the_card_is_refused_at_once_and_applies_nothing(frozen: Frozen) -> None:
    before = frozen.kinds()
    press = frozen.freeze_during_a_press()
    frozen.clock.advance(40.0)  # the card has not answered for 40 s
    exc = _refused(lambda: frozen.table.control("pause", {}))
    assert exc.code == "storage_waiting"
    assert str(exc) == ("the table is waiting for its storage: the SD card has not answered for 40 s, so nothing "
                        "was done; try again once it answers")
    assert exc.text("de").startswith("der Tisch wartet auf seinen Speicher: die SD-Karte antwortet seit 40 s nicht")
    frozen.thaw()  # the card answers: the press is taken, and the pause never was
    press.join(BOUND_S)
    assert not press.is_alive()
    assert frozen.kinds() == [*before, "clock:"]
    snap = frozen.table.snapshot()
    assert snap["state"] != "paused" and [p["on_turn"] for p in snap["players"]] == [False, True]
    frozen.table.control("pause", {})  # and once it answers, a pause is a pause
    assert frozen.table.snapshot()["state"] == "paused"


def test_pause_while_the_heartbeat_waits_for_the_card_is_refused_at_once(frozen: Frozen) -> None:
    before = frozen.kinds()
    frozen.freeze_during_the_heartbeat()
    exc = _refused(lambda: frozen.table.control("pause", {}))
    assert exc.code == "storage_waiting"
    assert frozen.table.snapshot()["state"] != "paused"  # the table's own state was free: still not applied
    director = _refused(lambda: frozen.table.director("pause", {}, by="td", command_id="c1"))
    assert director.code == "storage_waiting"
    frozen.thaw()
    assert frozen.kinds() == before  # nothing was journaled for either
    frozen.table.control("pause", {})
    assert frozen.kinds() == [*before, "control:pause"]


def test_the_page_answers_503_storage_waiting_at_once(frozen: Frozen, run_async: Any) -> None:
    press = frozen.freeze_during_a_press()
    frozen.clock.advance(12.0)

    async def page() -> tuple[int, dict[str, Any], str | None]:
        async with TestClient(TestServer(create_app(frozen.table, PIN))) as client:
            session = await client.get("/api/session")
            token = str((await session.json())["token"])
            response = await client.post("/api/control/pause", data=json.dumps({}),
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": token,
                                                  "X-Table-PIN": PIN})
            return response.status, await response.json(), response.headers.get("Retry-After")

    status, body, retry = _returns(lambda: run_async(page()))
    assert (status, body["code"], body["reason"], retry) == (503, "storage_waiting", "storage_waiting", "5")
    assert body["error"].startswith("the table is waiting for its storage: the SD card has not answered for 12 s")
    frozen.thaw()
    press.join(BOUND_S)
    assert frozen.table.snapshot()["state"] != "paused"


def test_a_new_game_asked_during_a_freeze_is_refused_at_once_and_opens_none(tmp_path: Path) -> None:
    clock = ManualClock()
    journal = Journal(tmp_path / "games.sqlite3")
    journal.clock = clock
    table = SimulatedTable(default_setup(clock_mode="none"), journal=journal, clock=clock)
    table.control("start", {})
    for _ in range(6):  # six scoreless turns, then the racks: the game ends [NASPA]
        table.press()
    table.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    table.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    assert table.snapshot()["state"] == "ended" and table.game_id is not None
    game = table.game_id
    stalled = StalledWrites(journal._db, threading.Event())
    journal._db = stalled
    try:
        journal.heartbeat(game, 1000, wait=False)  # the heartbeat's write holds the journal; the card is frozen
        assert stalled.waiting.wait(BOUND_S)
        exc = _refused(lambda: table.control("new_game", {}))
        assert exc.code == "storage_waiting"
        assert table.game_id == game and table.snapshot()["state"] == "ended"
        stalled.gate.set()
        assert [g.id for g in journal.games()] == [game]  # no game row was opened
        assert table.control("new_game", {})["state"] == "waiting" and table.game_id != game
    finally:
        stalled.gate.set()
        journal._db = stalled._db
        journal.close()


def test_a_table_held_by_work_not_by_the_card_is_waited_for_as_before(frozen: Frozen) -> None:
    """Only the card is a reason to refuse: a table busy with other work (a reading, a busy machine) past the
    wait is waited for, and the action is taken."""
    frozen.table.control_wait_s = 0.05
    done = threading.Event()
    result: list[Any] = []

    def pause() -> None:
        result.append(frozen.table.control("pause", {}))
        done.set()

    with frozen.table.reading():
        worker = threading.Thread(target=pause, daemon=True)
        worker.start()
        assert not done.wait(0.3)  # past its wait, still waiting: no write waits for the card
    assert done.wait(BOUND_S)
    worker.join(BOUND_S)
    assert result[0]["state"] == "paused"
