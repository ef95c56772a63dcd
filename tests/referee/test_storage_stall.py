"""The SD card stalls in the middle of a game: the LED clocks, the digit displays, the terminal line and the
page's event stream keep running from the timer's own state, and the stall is an alert, never a frozen clock.

The stall is injected (the journal's writes wait on an event) and time is the test's `ManualClock`: nothing
here sleeps on the wall clock."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest

from hardware.config import parse_hardware_config
from hardware.factory import build_devices
from referee.service import ServiceParts, TableService
from referee.sim import ManualClock
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord

from .stalls import BOUND_S, StalledWrites, returns

HARDWARE = {"players": 2, "ring": {"leds": 12, "brightness": 1.0},
            "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}], "buttons": {"clock": [5, 6]}}


def test_the_clocks_and_the_page_run_on_while_a_journal_write_waits_for_the_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)
    clock = ManualClock()
    devices: Any = build_devices(parse_hardware_config(HARDWARE), "mock", clock=clock)
    terminal = io.StringIO()
    config = sim_config(state_dir=tmp_path, web=False, fusion="sensors", clock_mode="tournament")
    service = TableService(ServiceParts(config=config, lexicon=EveryWord(), board_url=None, devices=devices,
                                        terminal=terminal, web=False, monotonic=clock))
    journal = service.journal
    journal.clock = clock
    seen: list[Any] = []
    service.table.subscribe(seen.append)  # a page's event stream
    stalled = StalledWrites(journal._db, threading.Event())
    try:
        service.table.control("start", {})
        clock.advance(1.0)
        service.step()
        assert devices.sim.chips[0].text() == "24:59"

        journal._db = stalled
        # Anna's clock button: its event is written before it takes effect, and the card does not answer.
        press = threading.Thread(target=service.table.press_clock, args=(0,), daemon=True)
        press.start()
        assert stalled.waiting.wait(BOUND_S)

        before = len(seen)
        for _ in range(20):  # 20 s of the stall, one service round a second
            clock.advance(1.0)
            returns(service.table_step)
        # Anna's clock ran on, on the digits and on the page, every second.
        assert devices.sim.chips[0].text() == "24:39"
        assert len(seen) - before == 20
        assert seen[-1]["players"][0]["clock"]["remaining_ms"] == 1_500_000 - 21_000
        assert seen[-1]["alerts"][0]["code"] == "journal_waiting"
        assert "24:39" in terminal.getvalue().rsplit("\r", 1)[-1]
        assert "cannot save" in terminal.getvalue().rsplit("\r", 1)[-1]  # the stall is said on the terminal too

        stalled.gate.set()  # the card answers: the press is taken, Ben's clock runs
        press.join(BOUND_S)
        assert not press.is_alive()
        clock.advance(1.0)
        service.step()
        players = service.table.snapshot()["players"]
        assert [p["on_turn"] for p in players] == [False, True]
        assert not any(a["code"] == "journal_waiting" for a in service.table.snapshot()["alerts"])
        assert "cannot save" not in terminal.getvalue().rsplit("\r", 1)[-1]
    finally:
        stalled.gate.set()
        journal._db = stalled._db
        service.close()
