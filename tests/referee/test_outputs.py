"""The LED ring, digits, buzzer and terminal line of the service: drawn with the devices' own `draw`, and a
failing output never stops the clock or the service loop."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from hardware.config import parse_hardware_config
from hardware.factory import build_devices
from hardware.frames import clock_text, readings, ring_frame
from hardware.ws2812 import decode_ws2812
from referee.outputs import TROUBLE, Outputs
from referee.service import ServiceParts, TableService
from referee.sim import ManualClock, SimulatedTable, default_setup
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord


def _devices(clock: object) -> object:
    cfg = parse_hardware_config({"players": 2, "ring": {"leds": 12, "brightness": 1.0}, "buzzer": {"pin": 13},
                                 "buttons": {"clock": [5, 6]}})
    return build_devices(cfg, "mock", clock=clock)  # type: ignore[arg-type]


def test_ring_shows_the_clocks_then_blinks_red_while_a_tile_is_out_of_place() -> None:
    table = SimulatedTable(default_setup(), words=["QUIZ"])
    clock = table.manual_clock
    devices = _devices(clock)
    out = Outputs(table, devices, clock)
    table.control("start", {})
    out.refresh()
    ring = devices.ring  # type: ignore[attr-defined]
    assert ring.frame and any(px != (0, 0, 0) for px in ring.frame) and (200, 0, 0) not in ring.frame
    table.play("8E QUIZ")
    table.advance(15)
    table.lift("F8")  # a tile lifted outside a turn
    seen = set()
    for _ in range(4):
        clock.advance(0.125)
        out.refresh()
        seen.add(ring.frame[0])
    assert seen == {TROUBLE, (0, 0, 0)}
    table.place("F8", "U")
    out.refresh()
    assert TROUBLE not in ring.frame
    out.close()


def test_buzzer_sounds_the_long_tone_when_a_player_loses_on_time() -> None:
    from hardware.frames import FLAG_PATTERN

    setup = default_setup(minutes_per_player=1.0, overtime_limit_minutes=1.0, on_max_overtime="lose")
    table = SimulatedTable(setup, words=["QUIZ"])
    clock = table.manual_clock
    devices = _devices(clock)
    out = Outputs(table, devices, clock)
    table.control("start", {})
    buzzer = devices.buzzer  # type: ignore[attr-defined]
    plays: list[object] = []
    original = buzzer.play
    buzzer.play = lambda pattern, now: (plays.append(pattern), original(pattern, now))
    table.advance(61)
    out.refresh()
    table.advance(60)
    out.refresh()
    out.refresh()
    assert table.snapshot()["state"] == "ended" and plays[1:] == [FLAG_PATTERN]
    out.close()


def test_buzzer_sounds_once_when_a_clock_runs_out() -> None:
    table = SimulatedTable(default_setup(minutes_per_player=1.0), words=["QUIZ"])
    clock = table.manual_clock
    devices = _devices(clock)
    out = Outputs(table, devices, clock)
    table.control("start", {})
    buzzer = devices.buzzer  # type: ignore[attr-defined]
    plays: list[object] = []
    original = buzzer.play
    buzzer.play = lambda pattern, now: (plays.append(pattern), original(pattern, now))
    table.advance(61)
    out.refresh()
    out.refresh()
    assert len(plays) == 1
    out.close()


HARDWARE: dict[str, Any] = {
    "players": 2, "ring": {"leds": 12, "brightness": 1.0, "offset": 5, "reverse": True}, "buzzer": {"pin": 13},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}], "buttons": {"clock": [5, 6]},
}


def _full_devices(clock: Any) -> Any:
    return build_devices(parse_hardware_config(HARDWARE), "mock", clock=clock)


def _ring(devices: Any) -> list[tuple[int, int, int]]:
    return decode_ws2812(devices.sim.spi.transfers[-1])


def _digits(devices: Any) -> list[tuple[str, int]]:
    return [(chip.text(), chip.brightness) for chip in devices.sim.chips]


def test_the_clocks_are_drawn_by_the_hardware_packages_draw() -> None:
    """The same picture as `TableDevices.draw` gives: the ring turned by its configured offset and
    direction, each display its player's clock, the one not on move dimmed."""
    table = SimulatedTable(default_setup(), words=["QUIZ"])
    clock = table.manual_clock
    ours, theirs = _full_devices(clock), _full_devices(clock)
    out = Outputs(table, ours, clock)
    table.control("start", {})
    for seconds in (0.0, 42.0, 300.0):
        table.advance(seconds)
        out.refresh()
        faces = readings(table.machine.clock)
        theirs.draw(faces)
        assert _ring(ours) == _ring(theirs) and _digits(ours) == _digits(theirs)
        assert _digits(ours)[0][1] > _digits(ours)[1][1]  # Anna's clock runs: Ben's display is dimmer
    assert _ring(ours) != ring_frame(faces, 12)  # the ring's offset and direction are applied
    assert _digits(ours)[0][0] == "19:18"  # 25 minutes less 342 s
    out.close()
    theirs.close()


def test_a_failing_output_device_does_not_stop_the_service_or_the_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)
    clock = ManualClock()
    devices = _full_devices(clock)
    config = sim_config(state_dir=tmp_path, web=False, fusion="sensors", clock_mode="tournament")
    service = TableService(ServiceParts(config=config, lexicon=EveryWord(), board_url=None, devices=devices,
                                        web=False, monotonic=clock))

    def unplugged(*args: Any) -> bool:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(devices.ring, "show", unplugged)  # the LED ring's SPI fails
    monkeypatch.setattr(devices.displays[0], "show", unplugged)  # Anna's display is pulled out
    try:
        service.table.control("start", {})
        steps = 0
        for _ in range(5):
            clock.advance(1.0)
            service.step()  # the service loop's round: timers, outputs, watchdog, page
            steps += 1
        anna = service.table.snapshot()["players"][0]["clock"]
        assert anna == {"remaining_ms": 1_500_000 - 5_000, "running": True}  # the clock ran on
        assert service.outputs.faults == {"LED ring": steps, "display 0": steps}  # every failure counted
        for name in ("LED ring", "display 0"):
            assert caplog.text.count(f"{name}: write failed") == 1  # and logged once
        assert devices.sim.chips[1].text() == "25:00"  # Ben's display still shows his clock

        # Anna's clock button still ends her turn, and the outputs follow on the next round.
        service.table.press_clock(0)
        clock.advance(2.0)
        service.step()
        players = service.table.snapshot()["players"]
        assert [p["on_turn"] for p in players] == [False, True]
        assert players[1]["clock"] == {"remaining_ms": 1_500_000 - 2_000, "running": True}
        assert devices.sim.chips[1].text() == "24:58"
        assert service.outputs.faults == {"LED ring": steps + 1, "display 0": steps + 1}
    finally:
        service.close()


class BrokenTerminal(io.StringIO):
    """A terminal that went away (the SSH session closed): every write fails."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_failing_terminal_or_buzzer_is_counted_and_the_rest_still_draws(caplog: pytest.LogCaptureFixture) -> None:
    table = SimulatedTable(default_setup(minutes_per_player=1.0), words=["QUIZ"])
    clock = table.manual_clock
    devices = _full_devices(clock)
    out = Outputs(table, devices, clock, BrokenTerminal())

    def jammed(*args: Any) -> None:
        raise RuntimeError("PWM busy")

    devices.buzzer.play = jammed
    table.control("start", {})
    for _ in range(4):
        table.advance(20)  # Anna's minute runs out after the third round: the buzzer would sound
        out.refresh()
    assert out.faults["terminal"] == 4 and out.faults["buzzer"] == 1
    assert caplog.text.count("terminal failed") == 1 and caplog.text.count("buzzer: write failed") == 1
    assert devices.sim.chips[0].text() == "-0:20"  # the displays still show the clocks, overtime included
    out.close()  # the last newline fails too, quietly
    assert out.faults["terminal"] == 5


def test_while_the_ring_blinks_red_the_digits_still_show_the_clocks() -> None:
    table = SimulatedTable(default_setup(), words=["QUIZ"])
    clock = table.manual_clock
    devices = _full_devices(clock)
    out = Outputs(table, devices, clock)
    table.control("start", {})
    table.play("8E QUIZ")
    table.advance(15)  # Ben's turn, his clock runs
    table.lift("F8")  # a tile lifted outside a turn: an error alert
    clock.advance(0.125)
    table.advance(10)
    out.refresh()
    assert out.trouble and set(_ring(devices)) <= {TROUBLE, (0, 0, 0)}
    ben = table.snapshot()["players"][1]["clock"]["remaining_ms"]
    assert devices.sim.chips[1].text() == clock_text(ben) == "24:35"  # 25 minutes less 10.125 s, rounded up
    assert out.faults == {}
    out.close()
