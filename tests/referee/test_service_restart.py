"""What a restart shows: a finished game stays on the page, a journal behind the board is an alert, and a
second referee cannot write into the live game."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.events import BoardDump, BoardReading
from referee.journal import JournalError
from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord


def _service(state: Path, **config: Any) -> TableService:
    cfg = sim_config(state_dir=state, web=False, fusion="sensors", clock_mode="none", **config)
    return TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False))


def _sensors_see(service: TableService, squares: dict[str, str]) -> None:
    """The board's picture as the sensor board reports it, in a dump (the link is not started in these tests)."""
    service.link = SimpleNamespace(stop=lambda: None)
    service._on_board_event(BoardDump(BoardReading(15, 15, dict(squares), connected=True)))


def _end(service: TableService) -> dict[str, Any]:
    t = service.table
    t.control("start", {})
    for turn in range(6):
        t.press_clock(turn % 2)  # six scoreless turns end the game
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    snap = t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    assert snap["state"] == "ended"
    return snap


def test_a_finished_game_stays_on_the_page_across_restarts(tmp_path: Path) -> None:
    first = _service(tmp_path)
    try:
        ended = _end(first)
        game = first.table.game_id
    finally:
        first.close()
    again = _service(tmp_path)
    try:
        snap = again.table.snapshot()
        assert again.table.game_id == game and snap["state"] == "ended"
        assert [p["score"] for p in snap["players"]] == [p["score"] for p in ended["players"]] != [0, 0]
        assert snap["moves"] == ended["moves"] and snap["result"] == ended["result"]
        fresh = again.table.control("new_game", {})  # the next game starts from the page, as before
        assert fresh["state"] == "waiting" and again.table.game_id != game
    finally:
        again.close()
    with_others = _service(tmp_path, players=("Cleo", "Dan"))  # the next round's players: a new game at once
    try:
        assert with_others.table.snapshot()["state"] == "waiting"
    finally:
        with_others.close()


def test_a_journal_behind_the_board_is_an_alert_until_they_agree(tmp_path: Path) -> None:
    first = _service(tmp_path)
    try:
        _sensors_see(first, {})  # the board's first picture: empty, as the journal (new) knows it
        first.table.control("start", {})
        _sensors_see(first, {"H8": "Q", "H9": "I"})
        first.table.press_clock(0)
        assert first.table.snapshot()["players"][0]["score"] > 0
    finally:
        first.close()
    for name in ("games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)  # the journal lost (a truncated log, an old backup put back)
    again = _service(tmp_path)
    try:
        _sensors_see(again, {"H8": "Q", "H9": "I"})
        alert = again.table.snapshot()["alerts"][0]
        assert alert["code"] == "journal_behind" and "2 square(s)" in alert["text"] and "H8, H9" in alert["text"]
        _sensors_see(again, {})  # the director clears the board for a new game
        assert not any(a["code"] == "journal_behind" for a in again.table.snapshot()["alerts"])
    finally:
        again.close()


def test_a_resumed_game_that_matches_the_board_raises_no_alert(tmp_path: Path) -> None:
    first = _service(tmp_path)
    try:
        _sensors_see(first, {})  # the board's first picture: empty, as the journal (new) knows it
        first.table.control("start", {})
        _sensors_see(first, {"H8": "Q", "H9": "I"})
        first.table.press_clock(0)
        _sensors_see(first, {"H8": "Q", "H9": "I", "G10": "A"})  # the next play being laid
    finally:
        first.close()
    again = _service(tmp_path)
    try:
        _sensors_see(again, {"H8": "Q", "H9": "I", "G10": "A"})
        assert not any(a["code"] == "journal_behind" for a in again.table.snapshot()["alerts"])
    finally:
        again.close()


def test_the_journals_own_lock_keeps_a_second_referee_out_and_goes_with_the_first(tmp_path: Path) -> None:
    """One lock, on the database file: nothing beside it in the state folder to delete or to go stale."""
    first = _service(tmp_path)
    try:
        assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("games.sqlite3")) == []
        with pytest.raises(JournalError, match="another referee is writing this journal"):
            _service(tmp_path)
    finally:
        first.close()
    _service(tmp_path).close()


def test_the_watchdog_is_spared_while_the_journal_waits_for_the_disk_but_not_when_the_table_hangs(
        tmp_path: Path) -> None:
    service = _service(tmp_path)
    pings: list[float] = []
    service.watchdog.ping = lambda: pings.append(service.mono())  # type: ignore[method-assign]
    try:
        service.table_step()
        service.loop_step()
        assert len(pings) == 1  # the table's loop went round lately
        service._table_round_at = service.mono() - 60  # the table's loop has not come round for a minute
        with service.journal._lock:  # the heartbeat table_step handed to the journal's thread is written (or waits)
            service.loop_step()
        assert len(pings) == 1  # a hang: systemd's watchdog restarts the referee
        service.journal._busy_since = service.journal.clock() - 40  # ... because the SD card has stalled 40 s
        service.loop_step()
        assert len(pings) == 2  # a stall is not a hang: a restart would not make the card answer
    finally:
        service.journal._busy_since = None
        service.close()
