"""Every long-lived device is a context manager, and closing it again neither raises nor touches the pins."""

from __future__ import annotations

from typing import Any

import pytest

from hardware.config import parse_hardware_config
from hardware.factory import build_devices
from referee.sim.clock import ManualClock

CONFIG: dict[str, Any] = {
    "ring": {"leds": 8},
    "bar": {"pins": [5, 6]},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}],
    "buzzer": {"pin": 18},
    "buttons": {"clock": [17, 27], "pause": 4},
}


def test_the_device_set_closes_everything_on_leaving_its_with_block(clock: ManualClock) -> None:
    with build_devices(parse_hardware_config(CONFIG), "mock", clock) as devices:
        ring, displays, buttons = devices.ring, list(devices.displays), devices.buttons
        assert ring is not None and not devices.closed
    assert devices.closed and ring.closed and buttons.closed and all(d.closed for d in displays)
    assert devices.sim is not None and devices.sim.spi is not None and devices.sim.spi.closed
    devices.close()  # again: nothing left to do


def test_each_device_closes_once_however_often_it_is_closed(clock: ManualClock) -> None:
    """The displays and the ring used to send their "off" again on a second close, on pins already freed."""
    devices = build_devices(parse_hardware_config(CONFIG), "mock", clock)
    assert devices.ring is not None and devices.sim is not None and devices.sim.spi is not None
    parts = [devices.ring, devices.bar, devices.buzzer, devices.buttons, *devices.displays]
    writes_before = len(devices.sim.spi.transfers)
    for part in parts:
        assert part is not None
        with part:
            pass
        part.close()
        part.close()
        assert part.closed
    assert len(devices.sim.spi.transfers) == writes_before + 1  # the ring's one "off"
    devices.close()


def test_a_device_class_must_say_how_it_closes() -> None:
    from hardware.lifecycle import ClosingDevice

    with pytest.raises(NotImplementedError), ClosingDevice():
        pass
