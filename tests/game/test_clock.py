"""The tournament clock: budgets, switching, overtime penalties [NASPA], max overtime, pause, journal."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.clock import ClockConfig, ClockError, GameClock, overtime_penalty
from game.errors import RefereeError
from referee.sim.clock import ManualClock


def ms(minutes: int, seconds: int, millis: int = 0) -> int:
    return (minutes * 60 + seconds) * 1000 + millis


# --- the penalty -------------------------------------------------------------------------------


def test_naspa_examples() -> None:
    assert overtime_penalty(ms(3, 4)) == 40
    assert overtime_penalty(ms(2, 5)) == 30


@pytest.mark.parametrize(
    ("over_ms", "points"),
    [(0, 0), (-5000, 0), (1, 10), (ms(1, 0), 10), (ms(1, 0, 1), 20), (ms(3, 0), 30), (ms(9, 59, 999), 100)],
)
def test_every_started_minute_costs_ten(over_ms: int, points: int) -> None:
    assert overtime_penalty(over_ms) == points


def test_penalty_rate_is_configurable() -> None:
    assert overtime_penalty(ms(3, 4), points_per_minute=5) == 20


def test_penalty_refuses_float_seconds() -> None:
    with pytest.raises(ClockError, match="whole milliseconds"):
        overtime_penalty(184.0)  # type: ignore[arg-type]


def test_clock_error_is_a_referee_error_and_a_value_error() -> None:
    assert issubclass(ClockError, RefereeError)
    assert issubclass(ClockError, ValueError)


# --- the clock ---------------------------------------------------------------------------------


def two_player(clock: ManualClock, **kw: object) -> GameClock:
    return GameClock(ClockConfig(**kw), clock)  # type: ignore[arg-type]


def test_defaults_are_naspa() -> None:
    cfg = ClockConfig()
    assert (cfg.budget_s, cfg.max_overtime_s, cfg.penalty_points_per_minute) == (1500.0, 600.0, 10)


def test_press_switches_and_only_the_mover_can_press() -> None:
    clock = ManualClock()
    game = two_player(clock)
    game.start(0)
    clock.advance(30)
    assert game.press(1) is False  # the idle player's button does nothing
    assert game.on_move == 0
    assert game.press(0) is True
    assert game.on_move == 1
    clock.advance(12.5)
    assert game.remaining(0) == pytest.approx(1470.0)
    assert game.remaining(1) == pytest.approx(1487.5)


def test_presses_before_start_and_while_paused_are_ignored() -> None:
    clock = ManualClock()
    game = two_player(clock)
    assert game.press(0) is False
    game.start(0)
    game.pause()
    assert game.press(0) is False
    assert game.on_move == 0


def test_naspa_overtime_from_a_running_game() -> None:
    clock = ManualClock()
    game = two_player(clock)
    game.start(0)
    clock.advance(1500 + 184)  # 3:04 over
    game.press(0)
    clock.advance(1500 + 125)  # 2:05 over
    assert game.end() == (40, 30)
    assert game.overtime_ms(0) == ms(3, 4)


def test_increment_is_added_at_the_end_of_the_turn() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0, increment_s=5.0)
    game.start(0)
    clock.advance(10)
    game.press(0)
    assert game.remaining(0) == pytest.approx(55.0)


def test_three_players_go_round() -> None:
    clock = ManualClock()
    game = GameClock(ClockConfig(players=3), clock)
    game.start(1)
    assert game.press(1)
    assert game.on_move == 2
    assert game.press(2)
    assert game.on_move == 0


def test_pause_freezes_and_resume_runs_on() -> None:
    clock = ManualClock()
    game = two_player(clock)
    game.start(0)
    clock.advance(100)
    game.pause()
    clock.advance(3600)
    assert game.remaining(0) == pytest.approx(1400.0)
    game.resume()
    clock.advance(1)
    assert game.remaining(0) == pytest.approx(1399.0)


def test_time_up_is_announced_once_at_the_deadline_and_the_game_goes_on() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0)
    game.start(0)
    assert game.next_due() == pytest.approx(1060.0)
    clock.advance(59.999)
    assert game.poll() == []
    clock.advance(0.5)
    events = game.poll()
    assert [(e.kind, e.player, e.at) for e in events] == [("time_up", 0, pytest.approx(1060.0))]
    assert game.poll() == []
    assert game.state == "running"
    assert game.remaining_ms(0) == -499


def test_time_up_noticed_at_the_press_is_not_lost() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0)
    game.start(0)
    clock.advance(61)
    game.press(0)  # no poll while the clock ran out
    assert [e.kind for e in game.poll()] == ["time_up"]


def test_max_overtime_flags_and_the_clock_runs_on() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0, max_overtime_s=600.0, on_max_overtime="flag")
    game.start(0)
    clock.advance(60 + 600 + 2)
    events = game.poll()
    assert [e.kind for e in events] == ["time_up", "max_overtime"]
    assert events[1].at == pytest.approx(1660.0)
    assert game.flagged(0)
    assert game.state == "running"
    assert game.loser is None


def test_max_overtime_loses_and_stops_at_the_limit() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0, on_max_overtime="lose")
    game.start(0)
    clock.advance(60 + 600 + 30)  # the poll comes late; the clock still stops at 10:00 over
    game.poll()
    assert game.state == "ended"
    assert game.loser == 0
    assert game.overtime_ms(0) == ms(10, 0)
    assert game.penalties() == (100, 0)
    assert game.press(0) is False


def test_a_late_press_does_not_undo_a_loss_on_time() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0, on_max_overtime="lose")
    game.start(0)
    clock.advance(60 + 601)
    assert game.press(0) is False
    assert game.loser == 0


def test_wall_clock_jump_does_not_move_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    clock = ManualClock()
    game = two_player(clock)
    game.start(0)
    clock.advance(10)
    before = game.remaining(0)
    # NTP sets the Pi's date an hour forward: the wall clock jumps, the monotonic one does not.
    monkeypatch.setattr(time, "time", lambda: 1e10)
    monkeypatch.setattr(time, "time_ns", lambda: 10**19)
    assert game.remaining(0) == before
    assert game.poll() == []


def test_director_adjustment_clears_the_time_up_mark() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=60.0)
    game.start(0)
    clock.advance(61)
    game.poll()
    game.adjust(0, 30)
    assert game.remaining(0) == pytest.approx(29.0)
    clock.advance(30)
    assert [e.kind for e in game.poll()] == ["time_up"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"players": 1}, "2 to 4 players"),
        ({"players": 5}, "2 to 4 players"),
        ({"budget_s": 0}, "more than 0"),
        ({"increment_s": -1}, "increment_s"),
        ({"max_overtime_s": float("inf")}, "max_overtime_s"),
        ({"on_max_overtime": "explode"}, "flag' or 'lose"),
        ({"penalty_points_per_minute": 2.5}, "whole number"),
    ],
)
def test_bad_settings_are_refused_clearly(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ClockError, match=match):
        ClockConfig(**kwargs)  # type: ignore[arg-type]


def test_wrong_state_actions_are_refused() -> None:
    game = two_player(ManualClock())
    with pytest.raises(ClockError, match="cannot pause: it is ready"):
        game.pause()
    with pytest.raises(ClockError, match="no player 2"):
        game.press(2)
    game.start(0)
    with pytest.raises(ClockError, match="already running"):
        game.start(1)


# --- journal -----------------------------------------------------------------------------------


def test_round_trip_through_json_counts_the_downtime_as_a_pause() -> None:
    clock = ManualClock()
    game = two_player(clock, increment_s=2.0)
    game.start(0)
    clock.advance(100)
    game.press(0)
    clock.advance(40)
    saved = json.loads(json.dumps(game.to_dict()))

    later = ManualClock(start=5.0)  # after a reboot the monotonic clock starts again near zero
    later.advance(300)  # the service was down five minutes
    restored = GameClock.from_dict(saved, later)
    assert restored.state == "running"
    assert restored.on_move == 1
    assert restored.remaining(0) == pytest.approx(1402.0)
    assert restored.remaining(1) == pytest.approx(1460.0)
    later.advance(10)
    assert restored.remaining(1) == pytest.approx(1450.0)
    assert restored.press(1)
    assert restored.on_move == 0


def test_restore_paused_for_the_director() -> None:
    clock = ManualClock()
    game = two_player(clock)
    game.start(1)
    clock.advance(5)
    restored = GameClock.from_dict(game.to_dict(), clock, paused=True)
    assert restored.state == "paused"
    clock.advance(60)
    assert restored.remaining(1) == pytest.approx(1495.0)
    restored.resume()
    clock.advance(1)
    assert restored.remaining(1) == pytest.approx(1494.0)


def test_restored_clock_keeps_marks_so_the_buzzer_does_not_sound_twice() -> None:
    clock = ManualClock()
    game = two_player(clock, budget_s=10.0)
    game.start(0)
    clock.advance(11)
    assert [e.kind for e in game.poll()] == ["time_up"]
    restored = GameClock.from_dict(game.to_dict(), clock)
    clock.advance(1)
    assert restored.poll() == []
    assert restored.overtime_ms(0) == 2000


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: d.update(kind="turn_timer"), "not a 'game_clock'"),
        (lambda d: d.update(version=7), "unsupported version 7"),
        (lambda d: d.update(state="sleeping"), "unknown state 'sleeping'"),
        (lambda d: d.update(on_move=5), "on_move must be a seat"),
        (lambda d: d.update(remaining_s=[1.0]), "list of 2 values"),
        (lambda d: d.update(remaining_s=[1.0, "x"]), "finite number"),
        (lambda d: d["config"].update(colour="red"), "unknown setting"),
        (lambda d: d.update(on_move=None), "needs the player on move"),
    ],
)
def test_corrupt_saved_state_is_refused_clearly(mutate, match: str) -> None:  # type: ignore[no-untyped-def]
    clock = ManualClock()
    game = two_player(clock)
    game.start(0)
    data = json.loads(json.dumps(game.to_dict()))
    mutate(data)
    with pytest.raises(ClockError, match=match):
        GameClock.from_dict(data, clock)


# --- property: the clock is the sum of the time each player had the move -----------------------

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("advance"), st.integers(0, 200_000)),
        st.tuples(st.just("press"), st.integers(0, 2)),
        st.tuples(st.just("pause"), st.just(0)),
        st.tuples(st.just("resume"), st.just(0)),
        st.tuples(st.just("restart"), st.integers(0, 10**9)),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(ops=OPS, base=st.floats(0, 3e7), first=st.integers(0, 2))
def test_any_sequence_of_presses_pauses_and_restarts_keeps_exact_time(
    ops: list[tuple[str, int]], base: float, first: int
) -> None:
    """Whatever happens, each clock equals its budget minus the milliseconds it ran, to the millisecond;
    pauses and crash-restarts (downtime counted as a pause) cost nobody anything."""
    clock = ManualClock(base)
    config = ClockConfig(players=3, budget_s=600.0, increment_s=2.0, max_overtime_s=10**6)
    game = GameClock(config, clock)
    game.start(first)
    expected = [600_000, 600_000, 600_000]
    on_move, paused = first, False
    for op, arg in ops:
        if op == "advance":
            clock.advance(arg / 1000.0)
            if not paused:
                expected[on_move] -= arg
        elif op == "press":
            switched = game.press(arg)
            assert switched == (not paused and arg == on_move)
            if switched:
                expected[on_move] += 2_000
                on_move = (on_move + 1) % 3
        elif op == "pause" and not paused:
            game.pause()
            paused = True
        elif op == "resume" and paused:
            game.resume()
            paused = False
        elif op == "restart":
            saved = json.loads(json.dumps(game.to_dict()))
            clock = ManualClock(arg / 1000.0)  # a new boot: the monotonic clock starts anywhere
            clock.advance(30.0)  # the downtime
            game = GameClock.from_dict(saved, clock)
        for p in range(3):
            assert abs(game.remaining_ms(p) - expected[p]) <= 1
        assert game.on_move == on_move
    game.end()
    for p in range(3):
        assert game.penalty(p) == overtime_penalty(max(0, -game.remaining_ms(p)))


def test_switch_to_the_player_already_on_move_changes_nothing() -> None:
    clock = ManualClock()
    game = two_player(clock, increment_s=5.0)
    game.start(0)
    clock.advance(10)
    game.switch_to(0)
    assert game.on_move == 0
    assert game.remaining(0) == pytest.approx(1490.0)
    game.switch_to(1)  # a lost turn after a challenge: the service picks who moves
    assert (game.on_move, game.remaining(0)) == (1, pytest.approx(1495.0))
