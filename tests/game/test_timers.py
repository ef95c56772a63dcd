"""The countdown primitive and the turn timer that replaces the sand timer."""

from __future__ import annotations

import json

import pytest

from game.timers import ClockError, Countdown, TurnTimer, TurnTimerConfig, to_ms
from referee.sim.clock import ManualClock


def test_countdown_is_deadline_minus_now_not_ticks() -> None:
    clock = ManualClock(50.0)
    c = Countdown(10.0, clock)
    c.start()
    assert c.deadline() == pytest.approx(60.0)
    clock.advance(3.25)
    assert c.remaining() == pytest.approx(6.75)
    clock.advance(10)
    assert c.remaining() == pytest.approx(-3.25)  # overtime is not clamped
    assert c.stop() == pytest.approx(-3.25)
    clock.advance(100)
    assert c.remaining() == pytest.approx(-3.25)


def test_to_ms_floors_without_float_noise() -> None:
    assert to_ms(0.3) == 300
    assert to_ms(0.0004) == 0
    assert to_ms(-0.0004) == -1
    assert to_ms(184.0) == 184_000


def test_presets() -> None:
    assert TurnTimerConfig.standard() == TurnTimerConfig(180.0, ends_turn=False)
    assert TurnTimerConfig.scramble() == TurnTimerConfig(60.0, ends_turn=True)


def test_standard_buzzer_does_not_end_the_turn() -> None:
    clock = ManualClock(50.0)
    timer = TurnTimer(TurnTimerConfig.standard(), clock)
    timer.start_turn()
    clock.advance(179.9)
    assert timer.poll() == []
    clock.advance(0.2)
    assert [(e.kind, e.at) for e in timer.poll()] == [("time_up", pytest.approx(230.0))]
    assert timer.state == "running"
    clock.advance(5)
    assert timer.poll() == []
    assert timer.remaining() == pytest.approx(-5.1)
    assert timer.end_turn() == pytest.approx(-5.1)


def test_scramble_time_up_ends_the_turn() -> None:
    clock = ManualClock(50.0)
    timer = TurnTimer(TurnTimerConfig.scramble(), clock)
    timer.start_turn()
    assert timer.next_due() == pytest.approx(110.0)
    clock.advance(61)
    assert [e.kind for e in timer.poll()] == ["time_up", "turn_over"]
    assert timer.state == "expired"
    assert timer.remaining() == 0.0
    assert timer.next_due() is None
    timer.start_turn()
    assert timer.remaining() == pytest.approx(60.0)


def test_pause_and_resume() -> None:
    clock = ManualClock(50.0)
    timer = TurnTimer(TurnTimerConfig(30.0), clock)
    timer.start_turn()
    clock.advance(10)
    timer.pause()
    clock.advance(500)
    assert timer.poll() == []
    timer.resume()
    clock.advance(5)
    assert timer.remaining() == pytest.approx(15.0)
    with pytest.raises(ClockError, match="cannot resume: it is running"):
        timer.resume()


def test_bad_duration_is_refused() -> None:
    with pytest.raises(ClockError, match="positive seconds"):
        TurnTimerConfig(0)


def test_journal_round_trip_counts_downtime_as_a_pause() -> None:
    clock = ManualClock(50.0)
    timer = TurnTimer(TurnTimerConfig.scramble(), clock)
    timer.start_turn()
    clock.advance(20)
    saved = json.loads(json.dumps(timer.to_dict()))
    other = ManualClock(start=1.0)
    restored = TurnTimer.from_dict(saved, other)
    other.advance(1)
    assert restored.state == "running"
    assert restored.remaining() == pytest.approx(39.0)
    assert TurnTimer.from_dict(saved, other, paused=True).state == "paused"


def test_corrupt_journal_is_refused() -> None:
    timer = TurnTimer(TurnTimerConfig(), ManualClock(50.0))
    data = timer.to_dict()
    data["remaining_s"] = "soon"
    with pytest.raises(ClockError, match="'remaining_s' must be a finite number"):
        TurnTimer.from_dict(data, ManualClock(50.0))
