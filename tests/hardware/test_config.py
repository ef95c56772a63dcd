"""The hardware configuration: strict checks with messages that name the key."""

from __future__ import annotations

from typing import Any

import pytest

from game.errors import RefereeError
from hardware.config import HardwareConfigError, parse_hardware_config

FULL: dict[str, Any] = {
    "players": 2,
    "ring": {"leds": 24, "spi_bus": 0, "spi_device": 0, "order": "GRB", "brightness": 0.2},
    "bar": {"pins": [5, 6, 13, 19, 26]},
    "displays": [{"clk": 23, "dio": 24}, {"clk": 25, "dio": 12, "brightness": 7}],
    "buzzer": {"pin": 18},
    "buttons": {"clock": [17, 27], "challenge": 22, "pause": 4, "confirm": 16, "hold_actions": {"pause": "end"}},
}


def with_(path: str, value: Any) -> dict[str, Any]:
    """FULL with one key (dotted path) replaced."""
    import copy

    data = copy.deepcopy(FULL)
    *parents, last = path.split(".")
    node = data
    for p in parents:
        node = node[int(p)] if p.isdigit() else node[p]
    node[int(last) if last.isdigit() else last] = value
    return data


def test_full_config_parses() -> None:
    cfg = parse_hardware_config(FULL)
    assert cfg.ring is not None and cfg.ring.leds == 24
    assert cfg.bar is not None and cfg.bar.pins == (5, 6, 13, 19, 26)
    assert [d.brightness for d in cfg.displays] == [3, 7]
    assert cfg.buttons.clock == (17, 27)
    assert cfg.buttons.hold_actions == {"pause": "end"}
    assert cfg.gpio_pins()[17] == "buttons.clock[0]"


def test_empty_config_is_a_table_without_devices() -> None:
    cfg = parse_hardware_config({})
    assert (cfg.ring, cfg.bar, cfg.displays, cfg.buzzer, cfg.buttons.clock) == (None, None, (), None, ())
    assert cfg.buttons.hold_actions == {"confirm": "undo"}


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("buzzer.pin", 17, "buttons.clock[0]: pin 17 is already used by buzzer.pin"),
        ("buttons.pause", 10, "buttons.pause: pin 10 is SPI0 MOSI, taken by the LED ring's SPI bus"),
        ("displays.0.clk", 8, "displays[0].clk: pin 8 is SPI0 CE0"),
        ("bar.pins", [5, 5], "bar.pins[1]: pin 5 is already used by bar.pins[0]"),
        ("buzzer.pin", 28, "buzzer.pin: GPIO 28 is not on the 40-pin header"),
        ("buzzer.pin", 0, "reserved for the HAT ID EEPROM"),
        ("buzzer.pin", "18", "buzzer.pin: a pin is a BCM GPIO number"),
        ("buzzer.pin", True, "buzzer.pin: a pin is a BCM GPIO number"),
        ("ring.order", "XYZ", "ring.order: 'XYZ' is not a colour order"),
        ("ring.brightness", 2, "ring.brightness: expected a number from 0 to 1"),
        ("ring.colour", "red", "ring: unknown setting(s) 'colour'"),
        ("players", 5, "hardware.players: expected a whole number from 2 to 4"),
        ("displays", [{"clk": 23, "dio": 24}], "displays: 1 display(s) for 2 players"),
        ("buttons.clock", [17], "buttons.clock: 1 clock button(s) for 2 players"),
        ("buttons.hold_actions", {"start": "go"}, "no button called 'start'"),
        ("buttons.hold_actions", {"pause": "end game"}, "an action is a plain name"),
        ("displays.1", {"clk": 25}, "displays[1]: the dio pin is missing"),
        ("buttons.bounce_ms", -1, "buttons.bounce_ms: expected a number from 0 to 500"),
    ],
)
def test_mistakes_are_named(path: str, value: Any, message: str) -> None:
    with pytest.raises(HardwareConfigError) as info:
        parse_hardware_config(with_(path, value))
    assert message in str(info.value)


def test_spi1_reserves_its_own_pins() -> None:
    data = with_("ring.spi_bus", 1)
    data["bar"] = {"pins": [5, 6, 13, 26]}
    data["buzzer"] = {"pin": 14}
    parse_hardware_config(data)  # SPI1 with one chip select leaves GPIO 17 (CE1) to a clock button
    parse_hardware_config(with_("ring.spi_bus", 0) | {"buzzer": {"pin": 21}})  # free while the ring is on SPI0
    data["buzzer"] = {"pin": 21}
    with pytest.raises(HardwareConfigError, match=r"buzzer\.pin: pin 21 is SPI1 SCLK"):
        parse_hardware_config(data)
    data["buzzer"] = {"pin": 14}
    data["ring"]["spi_device"] = 1
    with pytest.raises(HardwareConfigError, match=r"buttons.clock\[0\]: pin 17 is SPI1 CE1"):
        parse_hardware_config(data)


def test_spi_pins_are_free_without_a_ring() -> None:
    data = with_("buttons.pause", 10)
    del data["ring"]
    assert parse_hardware_config(data).buttons.named["pause"] == 10


def test_error_kind() -> None:
    assert issubclass(HardwareConfigError, RefereeError) and issubclass(HardwareConfigError, ValueError)
    with pytest.raises(HardwareConfigError, match="expected a table of settings"):
        parse_hardware_config([])  # type: ignore[arg-type]
