"""Delivery through a real Mosquitto: every journaled event arrives once and in order, whatever fails."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tournament.acl import table_user
from tournament.testing.broker import Broker

EVENT = "test-open"  # the conftest's
WAIT_S = 30.0
Director = Any  # conftest.Director
FakeTable = Any  # conftest.FakeTable


def password(user: str) -> str:
    return f"pw-{user}"

HERE = Path(__file__).parent


def expected(table: FakeTable) -> list[tuple[int, int]]:
    return [(table.game, s) for s in range(table.events() + 1)]


def test_events_arrive_once_in_order_with_the_header_first(director: Director, make_table: Callable[..., FakeTable],
                                                           tmp_path: Path) -> None:
    table = make_table()
    table.play(40)
    director.wait(lambda: len(director.applied) >= 41, "41 events")
    assert director.keys(1) == expected(table)
    assert director.events[0].kind == "game" and director.events[0].data["players"] == ["Ann", "Bob"]
    assert table.publisher.caught_up.wait(WAIT_S)
    table.stop()
    from referee.journal import Journal

    j = Journal(tmp_path / "table1.sqlite3")
    assert j.outbox_cursor("tournament")[1] == 40, "the acknowledged cursor is stored in the journal"
    j.close()


def test_broker_killed_mid_game_and_restarted(broker: Broker, director: Director,
                                              make_table: Callable[..., FakeTable]) -> None:
    table = make_table()
    table.play(20)
    director.wait(lambda: len(director.applied) >= 5, "the first events")
    broker.kill()
    table.play(30)  # the table plays on while the broker is gone
    broker.start()
    table.play(10)
    director.wait(lambda: len(director.applied) >= 61, "all 61 events after the restart")
    assert director.keys(1) == expected(table)


def test_broker_down_for_a_simulated_hour(broker: Broker, director: Director,
                                          make_table: Callable[..., FakeTable]) -> None:
    table = make_table()
    table.play(2)
    director.wait(lambda: len(director.applied) >= 3, "the first events")
    broker.stop()
    started = time.monotonic()
    table.play(720, step_ms=5000)  # an hour of table time, an event every 5 s, journaled as fast as it can
    journaling_s = time.monotonic() - started
    assert table.t_ms >= 3_600_000
    assert journaling_s < 30, f"the table was slowed down with the broker gone ({journaling_s:.1f} s for 720 events)"
    broker.start()
    director.wait(lambda: len(director.applied) >= 723, "the hour's 720 events", timeout=60)
    assert director.keys(1) == expected(table)


def test_table_killed_and_restarted_while_the_broker_is_down(broker: Broker, director: Director,
                                                            tmp_path: Path) -> None:
    journal = tmp_path / "t2.sqlite3"
    cmd = [sys.executable, str(HERE / "table_process.py"), str(journal), str(broker.port), EVENT, "2",
           password(table_user(2))]
    first = subprocess.Popen([*cmd, "15"], stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "caught-up"
        director.wait(lambda: len(director.keys(2)) >= 16, "table 2's first 16 events")
        broker.stop()
        os.kill(first.pid, signal.SIGCONT)  # go on: it journals 15 more with the broker gone, says so, and waits
        assert first.stdout.readline().strip() == "journaled"
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            os.kill(first.pid, signal.SIGKILL)
            first.wait(10)
        assert first.stdout is not None
        first.stdout.close()
    broker.start()
    second = subprocess.Popen([*cmd, "0"], stdout=subprocess.DEVNULL)
    try:
        director.wait(lambda: len(director.keys(2)) >= 31, "the 15 events journaled while the broker was down")
        assert director.keys(2) == [(1, s) for s in range(31)]
    finally:
        os.kill(second.pid, signal.SIGKILL)
        second.wait(10)


def test_director_restarted_misses_nothing(make_director: Callable[..., Director],
                                           make_table: Callable[..., FakeTable]) -> None:
    first = make_director("restarting-director")
    table = make_table(3)
    table.play(10)
    first.wait(lambda: len(first.applied) >= 11, "the first 11 events")
    first.stop()
    table.play(25)  # the director is away: its persistent session queues these
    second = make_director("restarting-director", start=False)
    for (t, g, s) in first.applied:  # what the first one stored
        second.link.receiver.restore(t, g, s + 1)
    second.start()
    table.play(5)
    second.wait(lambda: len(second.applied) >= 30, "the 30 events after the restart")
    assert first.keys(3) + second.keys(3) == expected(table)


def test_a_fresh_director_gets_the_whole_game_by_replay(make_director: Callable[..., Director],
                                                        make_table: Callable[..., FakeTable]) -> None:
    table = make_table()
    table.play(12)
    assert table.publisher.caught_up.wait(WAIT_S)
    late = make_director("late-director")  # a new session: it saw nothing of the game
    table.play(1)  # seq 13 shows it a game met midway: it asks for 0..12
    late.wait(lambda: len(late.applied) >= 14, "the replayed game")
    assert late.keys(1) == expected(table)
    assert all(e.replay for e in late.events[:13])


def test_status_is_online_then_offline_by_the_last_will(broker: Broker, director: Director, tmp_path: Path) -> None:
    journal = tmp_path / "t2.sqlite3"
    proc = subprocess.Popen([sys.executable, str(HERE / "table_process.py"), str(journal), str(broker.port), EVENT,
                             "2", password(table_user(2)), "1"], stdout=subprocess.DEVNULL)
    try:
        director.wait(lambda: director.status.get(2) == "online", "table 2 online")
        os.kill(proc.pid, signal.SIGCONT)
        os.kill(proc.pid, signal.SIGKILL)  # no clean "offline": the broker's last will says it
        proc.wait(10)
        director.wait(lambda: director.status.get(2) == "offline", "table 2 offline (last will)", timeout=40)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
