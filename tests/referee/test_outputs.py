from __future__ import annotations

from hardware.config import parse_hardware_config
from hardware.factory import build_devices
from referee.outputs import TROUBLE, Outputs
from referee.sim_table import SimulatedTable, default_setup


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
