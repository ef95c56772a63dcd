"""The table's clock on the mock backend: button presses switch the clock, and the ring, bar,
digits and buzzer show the expected frames at chosen instants of a fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.clock import ClockConfig, GameClock
from game.timers import TimerEvent, TurnTimer, TurnTimerConfig
from hardware.buttons import ButtonEvent
from hardware.config import parse_hardware_config
from hardware.controller import ClockController
from hardware.factory import TableDevices, build_devices
from hardware.frames import OFF, RingStyle
from hardware.ws2812 import decode_ws2812
from referee.sim.clock import ManualClock

CONFIG: dict[str, Any] = {
    "ring": {"leds": 20, "brightness": 1.0},
    "bar": {"pins": [5, 6, 13, 19, 26]},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}],
    "buzzer": {"pin": 18},
    "buttons": {"clock": [17, 27], "pause": 4, "challenge": 22, "confirm": 16},
}
ANN, BEN, PAUSE, CHALLENGE = 17, 27, 4, 22
STYLE = RingStyle()
DIM_OK = (0, round(160 * STYLE.idle_dim), 0)


@pytest.fixture
def table(clock: ManualClock) -> Iterator[TableDevices]:
    devices = build_devices(parse_hardware_config(CONFIG), "mock", clock)
    yield devices
    devices.close()


def tap(devices: TableDevices, clock: ManualClock, pin: int) -> None:
    assert devices.sim is not None
    devices.sim.press(pin)
    clock.advance(0.05)
    devices.sim.release(pin)


def ring(devices: TableDevices) -> list[tuple[int, int, int]]:
    assert devices.sim is not None and devices.sim.spi is not None
    return decode_ws2812(devices.sim.spi.transfers[-1])


def digits(devices: TableDevices) -> list[str]:
    assert devices.sim is not None
    return [chip.text() for chip in devices.sim.chips]


def test_buttons_switch_the_game_clock_and_every_output_follows(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ctl = ClockController(table, game, clock)
    pressed: list[ButtonEvent] = []
    ctl.subscribe(pressed.append)
    game.start(0)
    ctl.refresh()
    assert digits(table) == ["1:40", "1:40"]

    clock.advance(60)  # Ann has used 60 s of 100
    ctl.refresh()
    assert digits(table) == ["0:40", "1:40"]
    assert ring(table)[:10] == [STYLE.ok] * 4 + [OFF] * 6
    assert table.bar is not None and table.bar.states == (True, True, False, False, False)

    tap(table, clock, BEN)  # the idle player's button does nothing
    assert game.on_move == 0
    tap(table, clock, ANN)  # Ann ends her turn: Ben's clock runs, at once, without a refresh
    assert game.on_move == 1
    assert digits(table) == ["0:40", "1:40"]
    assert ring(table)[10:] == [STYLE.ok] * 10
    assert table.bar.states == (True,) * 5  # the bar follows the player on move
    assert [(e.button, e.player) for e in pressed] == [("clock", 1), ("clock", 0)]

    clock.advance(99.9)  # Ben: 0.05 s left (the tap took 0.05)
    ctl.refresh()
    assert digits(table) == ["0:40", "0:01"]
    assert ring(table)[10:] == [STYLE.low] + [OFF] * 9


def test_time_up_sounds_the_buzzer_and_overtime_blinks(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=10.0), clock)
    ctl = ClockController(table, game, clock)
    heard: list[TimerEvent] = []
    ctl.subscribe_timer(heard.append)
    game.start(0)
    clock.advance(10.1)
    ctl.refresh()
    assert [e.kind for e in heard] == ["time_up"]
    assert table.buzzer is not None and table.buzzer.is_on
    assert digits(table) == ["-0:00", "0:10"]
    assert ring(table)[:10] == [STYLE.overtime] * 10
    clock.advance(0.3)  # 0.4 s over, 0.3 s into the buzzer's pattern: its first gap
    ctl.refresh()
    assert not table.buzzer.is_on
    assert digits(table) == ["-0:00", "0:10"]
    clock.advance(0.2)  # 0.6 s over: the off beat of the blink
    ctl.refresh()
    assert digits(table) == ["", "0:10"]
    assert ring(table)[:10] == [OFF] * 10
    clock.advance(184)  # 3:04.6 over
    ctl.refresh()
    assert not table.buzzer.is_on  # the pattern has ended; it sounds once, not every refresh
    clock.advance(0.5)
    ctl.refresh()
    assert digits(table) == ["-3:05", "0:10"]
    assert [e.kind for e in heard] == ["time_up"]


def test_pause_button_pauses_and_resumes(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ctl = ClockController(table, game, clock)
    game.start(1)
    clock.advance(10)
    tap(table, clock, PAUSE)
    assert game.state == "paused"
    clock.advance(600)
    ctl.refresh()
    assert digits(table) == ["1:40", "1:30"]
    assert ring(table)[10] == STYLE.paused
    tap(table, clock, ANN)  # clock buttons do nothing while paused
    assert game.on_move == 1
    tap(table, clock, PAUSE)
    assert game.state == "running"
    assert game.remaining(1) == pytest.approx(89.95)


def test_service_can_keep_the_clock_to_itself(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(), clock)
    ctl = ClockController(table, game, clock, buttons_drive_clock=False)
    pressed: list[ButtonEvent] = []
    ctl.subscribe(pressed.append)
    game.start(0)
    tap(table, clock, ANN)
    tap(table, clock, CHALLENGE)
    assert game.on_move == 0
    assert [e.action for e in pressed] == ["clock", "challenge"]


def test_turn_timer_on_every_display(table: TableDevices, clock: ManualClock) -> None:
    timer = TurnTimer(TurnTimerConfig.scramble(), clock)
    ctl = ClockController(table, timer, clock)
    tap(table, clock, BEN)  # a clock button starts the next turn's timer: Ann's turn
    assert timer.state == "running" and ctl.turn_player == 0
    clock.advance(30)
    ctl.refresh()
    assert digits(table) == ["0:30", "0:30"]
    assert ring(table) == [STYLE.ok] * 10 + [OFF] * 10
    clock.advance(31)
    events = ctl.refresh()
    assert [e.kind for e in events] == ["time_up", "turn_over"]
    assert digits(table) == ["0:00", "0:00"]
    assert ctl.clock_views() == [{"remaining_ms": 0, "running": False}]


def test_next_refresh_wakes_for_the_deadline(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=10.0), clock)
    ctl = ClockController(table, game, clock)
    game.start(0)
    assert ctl.next_refresh(fps=20) == pytest.approx(clock.now + 0.05)
    clock.advance(9.99)
    assert ctl.next_refresh(fps=20) == pytest.approx(clock.now + 0.01)


def test_terminal_line_matches_the_digits(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ctl = ClockController(table, game, clock)
    game.start(0)
    clock.advance(25)
    assert ctl.render_line(["Ann", "Ben"], width=4, ascii_only=True) == (
        "Ann [###.]   1:15 *  |  Ben [####]   1:40"
    )


def test_display_count_must_match_players(table: TableDevices, clock: ManualClock) -> None:
    with pytest.raises(ValueError, match="2 digit display"):
        ClockController(table, GameClock(ClockConfig(players=3), clock), clock)


def test_wall_clock_jump_moves_nothing_on_the_table(
    table: TableDevices, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time as time_module

    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ctl = ClockController(table, game, clock)
    game.start(0)
    clock.advance(12.3)
    ctl.refresh()
    before = (digits(table), ring(table), ctl.clock_views())
    # NTP sets the date of a Pi without a real-time clock: the wall clock leaps a year, twice.
    for leap in (365 * 86400.0, -2 * 365 * 86400.0):
        real = time_module.time()
        monkeypatch.setattr(time_module, "time", lambda leap=leap, real=real: real + leap)
        ctl.refresh()
        assert (digits(table), ring(table), ctl.clock_views()) == before


def test_no_wall_clock_reads_in_the_clock_path() -> None:
    """The guarantee behind the test above: nothing on the clock's path reads the wall clock."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [*(root / "hardware").glob("*.py"), root / "game" / "clock.py", root / "game" / "timers.py"]
    wall = re.compile(r"time\.time\(|time\.time_ns\(|datetime\.now\(|datetime\.utcnow\(|time\.localtime\(")
    offenders = [str(p.relative_to(root)) for p in sources if wall.search(p.read_text())]
    assert len(sources) >= 10 and offenders == []


def test_before_the_game_a_clock_button_starts_the_opponents_clock(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ClockController(table, game, clock)
    tap(table, clock, BEN)  # Ben does not begin: his press starts Ann's clock
    assert (game.state, game.on_move) == ("running", 0)
    assert digits(table) == ["1:40", "1:40"]


def test_draw_alone_for_a_caller_that_keeps_its_own_clock(table: TableDevices, clock: ManualClock) -> None:
    from hardware.controller import draw
    from hardware.frames import Reading

    draw(table, [])  # nothing to show: the outputs stay as they are
    assert table.sim is not None and table.sim.spi is not None and table.sim.spi.transfers == []
    draw(table, [Reading(remaining_ms=-125_000, total_ms=1_500_000, active=False)])
    assert digits(table) == ["-2:05", "-2:05"]  # one face: every display shows it
    assert ring(table) == [tuple(round(255 * STYLE.idle_dim) if i == 0 else 0 for i in range(3))] * 20


def test_a_failing_output_is_counted_and_the_rest_go_on(
    table: TableDevices, clock: ManualClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ctl = ClockController(table, game, clock)
    game.start(0)

    def unplugged(segments: bytes, brightness: int | None = None) -> bool:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(table.displays[0], "show", unplugged)
    for _ in range(3):
        clock.advance(1)
        ctl.refresh()
    assert table.faults == {"display 0": 3}
    assert caplog.text.count("display 0: write failed") == 1  # logged once, then counted
    assert digits(table)[1] == "1:40" and ring(table)[0] == STYLE.ok  # the other outputs still draw
    tap(table, clock, ANN)
    assert game.on_move == 1  # and the clock still switches


def test_ring_offset_and_direction_from_the_configuration(clock: ManualClock) -> None:
    config = dict(CONFIG, ring={"leds": 20, "brightness": 1.0, "offset": 5, "reverse": True})
    devices = build_devices(parse_hardware_config(config), "mock", clock)
    try:
        game = GameClock(ClockConfig(budget_s=100.0), clock)
        ctl = ClockController(devices, game, clock)
        game.start(0)
        clock.advance(90)  # Ann: one LED of sand left, drawn at logical 0 = wired 5
        ctl.refresh()
        wired = ring(devices)
        assert wired[5] == STYLE.low
        # Backwards from there: Ann's drained LEDs at wired 4, 3, ...; Ben's segment ends at wired 6.
        assert wired[4] == OFF and wired[6] == DIM_OK
        assert wired.count(DIM_OK) == 10
    finally:
        devices.close()


def test_turn_timer_only_the_player_on_turn_can_end_it(table: TableDevices, clock: ManualClock) -> None:
    timer = TurnTimer(TurnTimerConfig.standard(), clock)
    ctl = ClockController(table, timer, clock)
    tap(table, clock, BEN)  # Ann's turn starts
    clock.advance(100)
    tap(table, clock, BEN)  # Ben cannot restart Ann's timer
    assert timer.remaining() == pytest.approx(180.0 - 100.1)  # each tap holds the button 0.05 s
    tap(table, clock, ANN)  # Ann ends her turn: Ben's timer, full
    assert (ctl.turn_player, timer.remaining()) == (1, pytest.approx(180.0 - 0.05))


def test_the_idle_players_digits_are_dimmed(table: TableDevices, clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    ctl = ClockController(table, game, clock)
    game.start(0)
    ctl.refresh()
    assert table.sim is not None
    assert [chip.brightness for chip in table.sim.chips] == [3, 0]  # configured 3; idle 3 - 3
    tap(table, clock, ANN)
    assert [chip.brightness for chip in table.sim.chips] == [0, 3]
