"""Building the devices: the mock backend, the real backend's code path on fakes, clean failure."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.config import DeviceOpenError, parse_hardware_config
from hardware.factory import build_devices
from hardware.ws2812 import FakeSpiDev
from referee.sim.clock import ManualClock

CONFIG: dict[str, Any] = {
    "ring": {"leds": 8},
    "bar": {"pins": [5, 6]},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12}],
    "buzzer": {"pin": 18},
    "buttons": {"clock": [17, 27], "pause": 4},
}


def test_mock_backend_builds_everything_on_a_private_factory(clock: ManualClock) -> None:
    from gpiozero import Device

    before = Device.pin_factory
    devices = build_devices(parse_hardware_config(CONFIG), "mock", clock)
    try:
        assert devices.ring is not None and devices.bar is not None and devices.buzzer is not None
        assert len(devices.displays) == 2 and sorted(devices.buttons.keys) == ["clock0", "clock1", "pause"]
        assert devices.sim is not None and isinstance(devices.sim.pin_factory, MockFactory)
        assert Device.pin_factory is before  # the global factory is left alone
    finally:
        devices.close()
        devices.close()  # twice is harmless


def test_real_backend_path_uses_the_default_factory_and_spidev(
    mock_pins: MockFactory, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[FakeSpiDev] = []
    module = types.ModuleType("spidev")
    module.SpiDev = lambda: made.append(FakeSpiDev()) or made[-1]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", module)
    config = parse_hardware_config({k: v for k, v in CONFIG.items() if k != "displays"})
    devices = build_devices(config, "real", clock)
    try:
        assert devices.sim is None
        assert made and made[0].opened == (0, 0)
        mock_pins.pin(4).drive_low()  # the buttons sit on the global (here mock) factory
        assert devices.buttons.keys["pause"].down
    finally:
        devices.close()


def test_a_busy_pin_fails_cleanly_and_closes_what_was_opened(mock_pins: MockFactory, clock: ManualClock) -> None:
    from gpiozero import LED

    squatter = LED(18)  # something else holds the buzzer's pin
    config = parse_hardware_config({k: v for k, v in CONFIG.items() if k not in ("displays", "ring")})
    with pytest.raises(DeviceOpenError, match="buzzer: could not be opened"):
        build_devices(config, "real", clock)
    squatter.close()
    devices = build_devices(config, "real", clock)  # the buttons and bar were released
    devices.close()


def test_unknown_backend() -> None:
    with pytest.raises(ValueError, match="'mock' or 'real'"):
        build_devices(parse_hardware_config({}), "pigpio")  # type: ignore[arg-type]


def test_real_backend_off_a_pi_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_driver() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "ensure_pin_factory", staticmethod(no_driver))
    with pytest.raises(DeviceOpenError, match=r"GPIO: no pin driver could be loaded .*mock backend"):
        build_devices(parse_hardware_config({}), "real")


def test_real_backend_off_a_pi_folds_gpiozeros_fallback_warnings_into_the_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero warns once per driver it falls back from; the user sees one message, not four warnings."""
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    def no_driver() -> None:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "ensure_pin_factory", staticmethod(no_driver))
    with pytest.raises(DeviceOpenError, match=r"Falling back from lgpio: No module named 'lgpio'\); on a Pi"):
        build_devices(parse_hardware_config({}), "real")


def test_lgpio_in_a_directory_it_cannot_write_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    """lgpio opens its notification pipe in the working directory at import; the user is told where to run."""
    from gpiozero import Device

    import hardware.factory as factory

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(factory.os, "getcwd", lambda: "/opt/referee")
    monkeypatch.setattr(factory.os, "access", lambda path, mode: path != "/opt/referee")
    with pytest.raises(DeviceOpenError, match=r"/opt/referee is not writable .*cd /var/lib/referee"):
        build_devices(parse_hardware_config({}), "real")


def test_lgpio_workdir_check_steps_aside_when_it_does_not_apply() -> None:
    from hardware.factory import lgpio_workdir_problem

    def read_only(path: str) -> bool:
        return False

    def here() -> str:
        return "/"

    assert lgpio_workdir_problem({}, here, read_only) is not None
    assert lgpio_workdir_problem({"LG_WD": "/tmp"}, here, read_only) is None  # lgpio uses that directory
    assert lgpio_workdir_problem({"GPIOZERO_PIN_FACTORY": "rpigpio"}, here, read_only) is None
    assert lgpio_workdir_problem({}, here, lambda path: True) is None
