"""The running clock and the "to play" marker agree, and time the table spends asking for what only the
machine needs (a blank's letter, a doubtful letter) or waiting for a lost sensor is charged to nobody."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.sim.table import ManualClock, SimulatedTable, default_setup
from referee.table.api import Snapshot

from .table_steps import WORDS, step
from .test_properties import _play

QUIZ = ["QUIZ", "ZAP", "ZA", "QI", "AS", "ZAS"]


def _table() -> SimulatedTable:
    t = SimulatedTable(default_setup(), words=QUIZ, clock=ManualClock())
    t.control("start", {})
    return t


def _running(snap: Snapshot) -> list[int]:
    return [i for i, p in enumerate(snap["players"]) if p["clock"] and p["clock"]["running"]]


def _marked(snap: Snapshot) -> list[int]:
    return [i for i, p in enumerate(snap["players"]) if p["on_turn"]]


def _left(snap: Snapshot) -> list[int]:
    return [p["clock"]["remaining_ms"] for p in snap["players"]]


def test_while_a_blanks_letter_is_asked_no_clock_runs_and_nobody_is_marked() -> None:
    t = _table()
    t.play("8E QUIZ")
    t.place_word("H8 .aP")
    snap = t.press(1)
    assert snap["state"] == "blank"
    assert _running(snap) == [] and _marked(snap) == []
    before = _left(snap)
    snap = t.advance(40.0)
    assert _left(snap) == before  # the 40 s spent giving the letter are charged to nobody
    snap = t.control("blank", {"square": "H9", "letter": "A"})
    assert snap["state"] == "challenge"
    assert _running(snap) == _marked(snap) == [0]  # the play is read: Anna's clock runs, Anna is marked


def test_a_phony_challenged_off_marks_the_player_whose_clock_runs() -> None:
    t = _table()
    t.place_word("8E QUIZ")
    t.press(0)
    t.control("accept", {})
    t.place_word("H8 .OO")  # ZOO is not in this word list
    snap = t.press(1)
    assert snap["state"] == "challenge" and _running(snap) == _marked(snap) == [0]
    snap = t.control("challenge", {"player": 0})
    assert snap["state"] == "takeback"
    assert _running(snap) == _marked(snap) == [0]  # Ben's turn is lost: Anna plays next, on her clock


def test_an_unplugged_board_stops_the_clocks_while_the_game_waits() -> None:
    t = _table()
    snap = t.advance(10.0)
    t.unplug()
    snap = t.snapshot()
    assert "board_lost" in [a["code"] for a in snap["alerts"]]
    before = _left(snap)
    assert _running(snap) == []
    snap = t.advance(120.0)
    assert _left(snap) == before
    t.replug()
    snap = t.advance(1.0)
    assert _running(snap) == _marked(snap) == [0]
    assert _left(snap)[0] == before[0] - 1000


def _agree(snap: Snapshot) -> None:
    running, marked = _running(snap), _marked(snap)
    assert len(running) <= 1 and len(marked) <= 1
    assert set(running) <= set(marked), f"{snap['state']}: clock runs for {running}, marked {marked}"
    waits = any(a["code"] in ("board_lost", "camera_lost") for a in snap["alerts"])
    if snap["state"] in ("blank", "waiting", "racks", "ended", "paused") or waits:
        assert running == [], f"{snap['state']}: a clock runs while the game waits"
    if snap["state"] == "blank":
        assert marked == []
    if snap["state"] in ("turn", "challenge", "takeback", "removal") and not waits:
        assert running == marked and marked, f"{snap['state']}: marker {marked}, clock {running}"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=40))
def test_marker_and_running_clock_agree_after_every_event(tmp_path: Path, steps: list[tuple[Any, ...]]) -> None:
    t = SimulatedTable(default_setup(), words=WORDS, clock=ManualClock())
    published: list[Snapshot] = []
    t.subscribe(published.append)  # every snapshot the table publishes, i.e. after every event
    _play(t, steps)
    for snap in [*published, t.snapshot()]:
        _agree(snap)
