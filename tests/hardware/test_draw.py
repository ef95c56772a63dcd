"""The table's clocks drawn on the mock backend (`TableDevices.draw`): whoever keeps the clock (the table's
journaled machine) hands its faces over, and the ring, bar and digits show the expected frames at chosen
instants of a fake clock; a failing output is counted and the others go on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.clock import ClockConfig, GameClock
from game.timers import TurnTimer, TurnTimerConfig
from hardware.config import parse_hardware_config
from hardware.factory import TableDevices, build_devices
from hardware.frames import OFF, Reading, RingStyle, readings
from hardware.ws2812 import decode_ws2812
from referee.sim.clock import ManualClock

CONFIG: dict[str, Any] = {
    "ring": {"leds": 20, "brightness": 1.0},
    "bar": {"pins": [5, 6, 13, 19, 26]},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}],
    "buzzer": {"pin": 18},
    "buttons": {"clock": [17, 27], "pause": 4, "challenge": 22, "confirm": 16},
}
STYLE = RingStyle()
DIM_OK = (0, round(160 * STYLE.idle_dim), 0)


@pytest.fixture
def table(clock: ManualClock) -> Iterator[TableDevices]:
    devices = build_devices(parse_hardware_config(CONFIG), "mock", clock)
    yield devices
    devices.close()


def ring(devices: TableDevices) -> list[tuple[int, int, int]]:
    assert devices.sim is not None and devices.sim.spi is not None
    return decode_ws2812(devices.sim.spi.transfers[-1])


def digits(devices: TableDevices) -> list[str]:
    assert devices.sim is not None
    return [chip.text() for chip in devices.sim.chips]


def test_every_output_shows_the_game_clocks(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    game.start(0)
    table.draw(readings(game))
    assert digits(table) == ["1:40", "1:40"]
    clock.advance(60)  # Ann has used 60 s of 100
    table.draw(readings(game))
    assert digits(table) == ["0:40", "1:40"]
    assert ring(table)[:10] == [STYLE.ok] * 4 + [OFF] * 6
    assert table.bar is not None and table.bar.states == (True, True, False, False, False)
    game.switch_to(1)  # Ben's clock runs
    table.draw(readings(game))
    assert ring(table)[10:] == [STYLE.ok] * 10
    assert table.bar.states == (True,) * 5  # the bar follows the player on move
    clock.advance(99.95)  # Ben: 0.05 s left
    table.draw(readings(game))
    assert digits(table) == ["0:40", "0:01"]
    assert ring(table)[10:] == [STYLE.low] + [OFF] * 9


def test_overtime_blinks_and_a_pause_shows(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=10.0), clock)
    game.start(0)
    clock.advance(10.1)
    table.draw(readings(game))
    assert digits(table) == ["-0:00", "0:10"]
    assert ring(table)[:10] == [STYLE.overtime] * 10
    clock.advance(0.5)  # 0.6 s over: the off beat of the blink
    table.draw(readings(game))
    assert digits(table) == ["", "0:10"] and ring(table)[:10] == [OFF] * 10
    game.switch_to(1)
    game.pause()
    table.draw(readings(game))
    assert ring(table)[10] == STYLE.paused


def test_a_turn_timer_is_on_every_display(table: TableDevices, clock: ManualClock) -> None:
    timer = TurnTimer(TurnTimerConfig.scramble(), clock)
    timer.start_turn()
    clock.advance(30)
    table.draw(readings(timer))
    assert digits(table) == ["0:30", "0:30"]
    assert ring(table) == [STYLE.ok] * 10 + [OFF] * 10


def test_nothing_to_show_leaves_the_outputs_and_one_face_is_on_every_display(table: TableDevices) -> None:
    table.draw([])
    assert table.sim is not None and table.sim.spi is not None and table.sim.spi.transfers == []
    table.draw([Reading(remaining_ms=-125_000, total_ms=1_500_000, active=False)])
    assert digits(table) == ["-2:05", "-2:05"]
    assert ring(table) == [tuple(round(255 * STYLE.idle_dim) if i == 0 else 0 for i in range(3))] * 20


def test_a_failing_output_is_counted_and_the_rest_go_on(
    table: TableDevices, clock: ManualClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    game.start(0)

    def unplugged(segments: bytes, brightness: int | None = None) -> bool:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(table.displays[0], "show", unplugged)
    for _ in range(3):
        clock.advance(1)
        table.draw(readings(game))
    assert table.faults == {"display 0": 3}
    assert caplog.text.count("display 0: write failed") == 1  # logged once, then counted
    assert digits(table)[1] == "1:40" and ring(table)[0] == STYLE.ok  # the other outputs still draw


def test_ring_offset_and_direction_from_the_configuration(clock: ManualClock) -> None:
    config = dict(CONFIG, ring={"leds": 20, "brightness": 1.0, "offset": 5, "reverse": True})
    devices = build_devices(parse_hardware_config(config), "mock", clock)
    try:
        game = GameClock(ClockConfig(budget_s=100.0), clock)
        game.start(0)
        clock.advance(90)  # Ann: one LED of sand left, drawn at logical 0 = wired 5
        devices.draw(readings(game))
        wired = ring(devices)
        assert wired[5] == STYLE.low
        # Backwards from there: Ann's drained LEDs at wired 4, 3, ...; Ben's segment ends at wired 6.
        assert wired[4] == OFF and wired[6] == DIM_OK
        assert wired.count(DIM_OK) == 10
    finally:
        devices.close()


def test_the_idle_players_digits_are_dimmed(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    game.start(0)
    table.draw(readings(game))
    assert table.sim is not None
    assert [chip.brightness for chip in table.sim.chips] == [3, 0]  # configured 3; idle 3 - 3
    game.switch_to(1)
    table.draw(readings(game))
    assert [chip.brightness for chip in table.sim.chips] == [0, 3]


def test_no_wall_clock_reads_in_the_clock_path() -> None:
    """A Pi without a real-time clock has its date set by NTP, a year at a time: nothing on the clock's path
    (the clocks, their frames, the devices) reads the wall clock."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [*(root / "hardware").glob("*.py"), root / "game" / "clock.py", root / "game" / "timers.py"]
    wall = re.compile(r"time\.time\(|time\.time_ns\(|datetime\.now\(|datetime\.utcnow\(|time\.localtime\(")
    offenders = [str(p.relative_to(root)) for p in sources if wall.search(p.read_text())]
    assert len(sources) >= 10 and offenders == []
