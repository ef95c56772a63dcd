"""Fixtures for the hardware tests: a fake monotonic clock and gpiozero's global pin factory.

gpiozero keeps its pin factory in a class attribute (`Device.pin_factory`), global state shared by
every test; `mock_pins` installs a fresh `MockFactory` and puts back whatever was there after the
test, closing the devices it made. The project's own code never needs the global (the factory passes
its own `MockFactory` to each device); only the tests of the "real" backend path go through it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from referee.sim.clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    factory = MockFactory()  # plain MockPin: no device here uses PWM (the bar is on/off, the buzzer active)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.close()
        factory.reset()
        Device.pin_factory = saved
