"""Clocks and their outputs: accuracy of the clocks, and the cost of drawing them on the table's devices.

Run from the project root: `.venv/bin/python benchmarks/clocks.py` (about 65 s: one part runs in
real time for 60 s). Prints one `figure: value unit` line per figure.

The clocks are the table's own (`game.clock.GameClock`, kept by the table's journaled machine) and they are
drawn as the service draws them: `TableDevices.draw(readings(clock))` (referee/outputs.py) on the mock backend.

1. A 25-minute two-player game driven by a fake monotonic clock (starting at 11 days of uptime, so
   float precision is tested where a Pi lives): the players press their clocks, the clocks are polled and
   drawn on the ring, bar and digits at 10 Hz. Each player's final clock is compared with the sum of the
   think times computed independently in integer milliseconds.
2. The same on `time.monotonic` for 60 s of real time, drawn at 20 Hz as the service would; the clock's
   final reading is compared with the monotonic reference taken around it.
3. The time one press takes to reach the outputs: the clock switched, then its frame drawn on the ring, bar
   and digits, over many presses. A press from a clock button reaches the clock through the table (the
   button's path to the score is benchmarks/referee.py); this is the drawing's share.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project's referee, not benchmarks/referee.py

from game.clock import ClockConfig, GameClock
from hardware.config import parse_hardware_config
from hardware.factory import build_devices
from hardware.frames import readings
from referee.sim.clock import ManualClock

CONFIG: dict[str, Any] = {
    "ring": {"leds": 24},
    "bar": {"pins": [5, 6, 13, 19, 26]},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}],
    "buzzer": {"pin": 18},
    "buttons": {"clock": [17, 27], "pause": 4, "challenge": 22, "confirm": 16},
}


def fake_clock_game() -> tuple[float, int, int]:
    """Returns (max error in ms over both clocks, turns played, refreshes)."""
    rng = random.Random(6)
    clock = ManualClock(start=11 * 86_400.0 + 0.123456)
    devices = build_devices(parse_hardware_config(CONFIG), "mock", clock)
    game = GameClock(ClockConfig(), clock)
    budget_ms = 25 * 60 * 1000
    used_ms = [0, 0]
    turns = refreshes = 0
    game.start(0)
    player = 0
    # Think times in whole milliseconds until both players are past their 25 minutes (into overtime).
    while min(used_ms) < budget_ms + 65_000:
        think_ms = rng.randint(5_000, 150_000)
        step_ms = 100  # refresh at 10 Hz of fake time
        done = 0
        while done < think_ms:
            step = min(step_ms, think_ms - done)
            clock.now += step / 1000.0
            done += step
            game.poll()
            devices.draw(readings(game))
            refreshes += 1
        used_ms[player] += think_ms
        game.press(player)
        devices.draw(readings(game))
        player = 1 - player
        turns += 1
    game.end()
    errors = [abs(game.remaining(p) * 1000.0 - (budget_ms - used_ms[p])) for p in (0, 1)]
    expected_penalty = tuple(-(-(u - budget_ms) // 60_000) * 10 if u > budget_ms else 0 for u in used_ms)
    if game.penalties() != expected_penalty:
        raise SystemExit(f"penalties {game.penalties()} != expected {expected_penalty}")
    devices.close()
    return max(errors), turns, refreshes


def real_time_run(seconds: float = 60.0, fps: float = 20.0) -> tuple[float, float, float, float, float]:
    """Returns (|clock - reference| ms, clock minus the reference's lower bound ms, reference bracket width ms,
    median refresh lateness ms, p99 refresh lateness ms)."""
    devices = build_devices(parse_hardware_config(CONFIG), "mock", time.monotonic)
    game = GameClock(ClockConfig(budget_s=25 * 60.0), time.monotonic)
    late: list[float] = []
    t0 = time.monotonic()
    game.start(0)
    t_start = time.monotonic()
    end = t0 + seconds
    due = t_start
    while True:
        due = min(due + 1.0 / fps, end)
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        late.append((time.monotonic() - due) * 1000.0)
        game.poll()
        devices.draw(readings(game))
        if due >= end:
            break
    before = time.monotonic()
    remaining = game.remaining(0)
    after = time.monotonic()
    devices.close()
    timer_elapsed = 25 * 60.0 - remaining
    # The reference elapsed time lies between (before - t_start) and (after - t0).
    low, high = before - t_start, after - t0
    error = 0.0 if low <= timer_elapsed <= high else min(abs(timer_elapsed - low), abs(timer_elapsed - high))
    late.sort()
    return (
        error * 1000.0,
        (timer_elapsed - low) * 1000.0,
        (high - low) * 1000.0,
        statistics.median(late),
        late[int(0.99 * (len(late) - 1))],
    )


def press_to_frame(presses: int = 5000) -> tuple[float, float, float, float]:
    """Returns (median, p99 to switch; median, p99 to frame drawn), all in ms."""
    devices = build_devices(parse_hardware_config(CONFIG), "mock", time.perf_counter)
    game = GameClock(ClockConfig(budget_s=10_000_000.0), time.perf_counter)
    game.start(0)
    to_switch: list[float] = []
    to_frame: list[float] = []
    for i in range(presses):
        mover = i % 2
        t0 = time.perf_counter()
        game.press(mover)
        t1 = time.perf_counter()
        devices.draw(readings(game))
        t2 = time.perf_counter()
        assert game.on_move == 1 - mover
        to_switch.append((t1 - t0) * 1000.0)
        to_frame.append((t2 - t0) * 1000.0)
    devices.close()
    to_switch.sort()
    to_frame.sort()
    q = int(0.99 * (presses - 1))
    return statistics.median(to_switch), to_switch[q], statistics.median(to_frame), to_frame[q]


def main() -> int:
    error_ms, turns, refreshes = fake_clock_game()
    print(f"fake_clock_game_turns: {turns} turns")
    print(f"fake_clock_game_refreshes: {refreshes} refreshes")
    print(f"fake_clock_game_max_clock_error: {error_ms:.6f} ms")
    median_switch, p99_switch, median_frame, p99_frame = press_to_frame()
    print(f"press_to_switch_median: {median_switch:.4f} ms")
    print(f"press_to_switch_p99: {p99_switch:.4f} ms")
    print(f"press_to_frame_median: {median_frame:.4f} ms")
    print(f"press_to_frame_p99: {p99_frame:.4f} ms")
    rt_error, offset, bracket, late_median, late_p99 = real_time_run()
    print(f"real_time_60s_final_reading_error: {rt_error:.4f} ms")
    print(f"real_time_60s_timer_minus_reference: {offset:.4f} ms")
    print(f"real_time_60s_reference_bracket: {bracket:.4f} ms")
    print(f"real_time_refresh_lateness_median: {late_median:.3f} ms")
    print(f"real_time_refresh_lateness_p99: {late_p99:.3f} ms")
    ok = error_ms < 1.0 and rt_error < 5.0 and median_switch < 2.0
    if not ok:
        print("goal missed: clock error >= 1 ms, real-time error >= 5 ms or median switch >= 2 ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
