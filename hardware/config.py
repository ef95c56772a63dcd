"""The `[hardware]` configuration: which devices a table has and on which BCM pins.

The service parses the TOML file and hands over a plain mapping; this module checks it strictly
(a wiring mistake found at start-up is cheap, one found mid-game is not): unknown keys, pins outside
the header, a pin used twice, and GPIO devices on the pins of the SPI bus the LED ring uses are all
refused with a message naming the key. Schema and examples: `docs/hardware-timer.md`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.errors import RefereeError


class HardwareConfigError(RefereeError, ValueError):
    """The hardware configuration is wrong: the message names the key and what is wrong with it."""


class DeviceOpenError(RefereeError, ValueError):
    """A configured device could not be opened (pin busy, SPI not enabled, no permission): the message
    names the device and carries the driver's reason."""


# The pins the kernel's SPI driver claims once the bus is enabled (dtparam=spi=on, dtoverlay=spi1-Ncs).
SPI_PINS: dict[int, dict[int, str]] = {
    0: {10: "SPI0 MOSI", 9: "SPI0 MISO", 11: "SPI0 SCLK", 8: "SPI0 CE0", 7: "SPI0 CE1"},
    1: {20: "SPI1 MOSI", 19: "SPI1 MISO", 21: "SPI1 SCLK", 18: "SPI1 CE0", 17: "SPI1 CE1", 16: "SPI1 CE2"},
}
BUTTON_NAMES = ("challenge", "pause", "confirm")
COLOUR_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")


@dataclass(frozen=True)
class RingConfig:
    """A WS2812 (NeoPixel) ring or strip, its data line on the SPI bus's MOSI pin."""

    leds: int = 24
    spi_bus: int = 0
    spi_device: int = 0
    order: str = "GRB"
    brightness: float = 0.25  # WS2812s at full white draw 60 mA each and dazzle across a table
    speed_hz: int = 6_400_000
    offset: int = 0  # the wired index of the LED where the sand starts (e.g. the one at 12 o'clock)
    reverse: bool = False  # drain the other way round (a ring mounted face down, a strip fed from the right)


@dataclass(frozen=True)
class BarConfig:
    """A plain LED bar graph on GPIO pins (gpiozero `LEDBarGraph`), first pin = first LED to light."""

    pins: tuple[int, ...]
    active_high: bool = True


@dataclass(frozen=True)
class DisplayConfig:
    """A TM1637 4-digit display: two GPIO lines, bit-banged."""

    clk: int
    dio: int
    brightness: int = 3  # 0-7
    bit_delay_us: float = 0.0  # raise (to ~50) for modules with large capacitors on CLK/DIO that garble digits


@dataclass(frozen=True)
class BuzzerConfig:
    pin: int
    active_high: bool = True


@dataclass(frozen=True)
class ButtonsConfig:
    """Push buttons wired from the pin to ground (internal pull-up) unless `pull_up` is False."""

    clock: tuple[int, ...] = ()  # one per player, in seat order
    named: Mapping[str, int] = field(default_factory=dict)  # "challenge", "pause", "confirm" -> pin
    pull_up: bool = True
    bounce_ms: float = 30.0
    hold_s: float = 1.5
    hold_actions: Mapping[str, str] = field(default_factory=lambda: {"confirm": "undo"})


@dataclass(frozen=True)
class HardwareConfig:
    players: int = 2
    ring: RingConfig | None = None
    bar: BarConfig | None = None
    displays: tuple[DisplayConfig, ...] = ()
    buzzer: BuzzerConfig | None = None
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)

    def gpio_pins(self) -> dict[int, str]:
        """Every GPIO pin in use, with the key that uses it."""
        return dict(_collect_pins(self))


def parse_hardware_config(data: Mapping[str, Any]) -> HardwareConfig:
    """Check the `[hardware]` mapping and build the configuration, or raise `HardwareConfigError`."""
    _mapping(data, "hardware")
    _no_unknown(data, "hardware", {"players", "ring", "bar", "displays", "buzzer", "buttons"})
    players = _int(data.get("players", 2), "hardware.players", 2, 4)
    ring = _ring(data["ring"]) if data.get("ring") is not None else None
    bar = _bar(data["bar"]) if data.get("bar") is not None else None
    displays_raw = data.get("displays", [])
    if not isinstance(displays_raw, list | tuple):
        raise HardwareConfigError(f"displays: expected a list of displays (one per player), got {displays_raw!r}")
    displays = tuple(_display(d, f"displays[{i}]") for i, d in enumerate(displays_raw))
    if displays and len(displays) != players:
        raise HardwareConfigError(f"displays: {len(displays)} display(s) for {players} players; give one per player")
    buzzer = _buzzer(data["buzzer"]) if data.get("buzzer") is not None else None
    buttons = _buttons(data.get("buttons", {}), players)
    config = HardwareConfig(players, ring, bar, displays, buzzer, buttons)
    _collect_pins(config)  # raises on conflicts
    return config


# --- sections ----------------------------------------------------------------------------------


def _ring(data: Any) -> RingConfig:
    _mapping(data, "ring")
    _no_unknown(data, "ring", {"leds", "spi_bus", "spi_device", "order", "brightness", "speed_hz", "offset", "reverse"})
    d = RingConfig()
    bus = _int(data.get("spi_bus", d.spi_bus), "ring.spi_bus", 0, 1)
    device = _int(data.get("spi_device", d.spi_device), "ring.spi_device", 0, 2 if bus == 1 else 1)
    order = data.get("order", d.order)
    if order not in COLOUR_ORDERS:
        raise HardwareConfigError(f"ring.order: {order!r} is not a colour order; use one of {', '.join(COLOUR_ORDERS)}")
    brightness = _float(data.get("brightness", d.brightness), "ring.brightness", 0.0, 1.0)
    # With one SPI byte per LED bit, 5.6-7.2 MHz keeps both pulse widths inside the WS2812B timing.
    speed = _int(data.get("speed_hz", d.speed_hz), "ring.speed_hz", 5_600_000, 7_200_000)
    leds = _int(data.get("leds", d.leds), "ring.leds", 1, 1000)
    offset = _int(data.get("offset", d.offset), "ring.offset", 0, leds - 1)
    reverse = _bool(data.get("reverse", d.reverse), "ring.reverse")
    return RingConfig(leds, bus, device, order, brightness, speed, offset, reverse)


def _bar(data: Any) -> BarConfig:
    _mapping(data, "bar")
    _no_unknown(data, "bar", {"pins", "active_high"})
    pins = data.get("pins")
    if not isinstance(pins, list | tuple) or not pins:
        raise HardwareConfigError(f"bar.pins: expected a list of BCM pin numbers, got {pins!r}")
    return BarConfig(
        tuple(_pin(p, f"bar.pins[{i}]") for i, p in enumerate(pins)),
        _bool(data.get("active_high", True), "bar.active_high"),
    )


def _display(data: Any, key: str) -> DisplayConfig:
    _mapping(data, key)
    _no_unknown(data, key, {"clk", "dio", "brightness", "bit_delay_us"})
    for needed in ("clk", "dio"):
        if needed not in data:
            raise HardwareConfigError(f"{key}: the {needed} pin is missing")
    return DisplayConfig(
        _pin(data["clk"], f"{key}.clk"),
        _pin(data["dio"], f"{key}.dio"),
        _int(data.get("brightness", 3), f"{key}.brightness", 0, 7),
        _float(data.get("bit_delay_us", 0.0), f"{key}.bit_delay_us", 0.0, 1000.0),
    )


def _buzzer(data: Any) -> BuzzerConfig:
    _mapping(data, "buzzer")
    _no_unknown(data, "buzzer", {"pin", "active_high"})
    if "pin" not in data:
        raise HardwareConfigError("buzzer: the pin is missing")
    return BuzzerConfig(_pin(data["pin"], "buzzer.pin"), _bool(data.get("active_high", True), "buzzer.active_high"))


def _buttons(data: Any, players: int) -> ButtonsConfig:
    _mapping(data, "buttons")
    _no_unknown(data, "buttons", {"clock", *BUTTON_NAMES, "pull_up", "bounce_ms", "hold_s", "hold_actions"})
    d = ButtonsConfig()
    clock_raw = data.get("clock", [])
    if not isinstance(clock_raw, list | tuple):
        raise HardwareConfigError(f"buttons.clock: expected a list of pins, one per player, got {clock_raw!r}")
    clock = tuple(_pin(p, f"buttons.clock[{i}]") for i, p in enumerate(clock_raw))
    if clock and len(clock) != players:
        raise HardwareConfigError(f"buttons.clock: {len(clock)} clock button(s) for {players} players; give one each")
    named = {name: _pin(data[name], f"buttons.{name}") for name in BUTTON_NAMES if data.get(name) is not None}
    holds_raw = data.get("hold_actions", d.hold_actions)
    _mapping(holds_raw, "buttons.hold_actions")
    holds: dict[str, str] = {}
    for name, action in holds_raw.items():
        if name not in (*BUTTON_NAMES, "clock"):
            raise HardwareConfigError(f"buttons.hold_actions: no button called {name!r}")
        if not isinstance(action, str) or not action.isidentifier():
            raise HardwareConfigError(f"buttons.hold_actions.{name}: an action is a plain name, not {action!r}")
        holds[name] = action
    return ButtonsConfig(
        clock,
        named,
        _bool(data.get("pull_up", d.pull_up), "buttons.pull_up"),
        _float(data.get("bounce_ms", d.bounce_ms), "buttons.bounce_ms", 0.0, 500.0),
        _float(data.get("hold_s", d.hold_s), "buttons.hold_s", 0.2, 30.0),
        holds,
    )


def _spi_reserved(ring: RingConfig) -> dict[int, str]:
    """SPI0 (dtparam=spi=on) claims both chip selects; SPI1 (dtoverlay=spi1-Ncs) claims CE0 to CE(N-1)."""
    pins = dict(SPI_PINS[ring.spi_bus])
    if ring.spi_bus == 1:
        for device, pin in enumerate((18, 17, 16)):
            if device > ring.spi_device:
                del pins[pin]
    return pins


def _collect_pins(config: HardwareConfig) -> dict[int, str]:
    """Map every pin to its user, refusing a pin used twice or one the LED ring's SPI bus claims."""
    reserved = _spi_reserved(config.ring) if config.ring is not None else {}
    used: dict[int, str] = {}

    def claim(pin: int, key: str) -> None:
        if pin in reserved:
            raise HardwareConfigError(
                f"{key}: pin {pin} is {reserved[pin]}, taken by the LED ring's SPI bus; choose another pin"
            )
        if pin in used:
            raise HardwareConfigError(f"{key}: pin {pin} is already used by {used[pin]}")
        used[pin] = key

    if config.bar is not None:
        for i, pin in enumerate(config.bar.pins):
            claim(pin, f"bar.pins[{i}]")
    for i, disp in enumerate(config.displays):
        claim(disp.clk, f"displays[{i}].clk")
        claim(disp.dio, f"displays[{i}].dio")
    if config.buzzer is not None:
        claim(config.buzzer.pin, "buzzer.pin")
    for i, pin in enumerate(config.buttons.clock):
        claim(pin, f"buttons.clock[{i}]")
    for name, pin in config.buttons.named.items():
        claim(pin, f"buttons.{name}")
    return used


# --- value checks ------------------------------------------------------------------------------


def _mapping(value: Any, key: str) -> None:
    if not isinstance(value, Mapping):
        raise HardwareConfigError(f"{key}: expected a table of settings, got {value!r}")


def _no_unknown(data: Mapping[str, Any], key: str, known: set[str]) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise HardwareConfigError(
            f"{key}: unknown setting(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}"
        )


def _pin(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HardwareConfigError(f"{key}: a pin is a BCM GPIO number (2-27), not {value!r}")
    if value in (0, 1):
        raise HardwareConfigError(f"{key}: GPIO {value} is reserved for the HAT ID EEPROM; choose a pin from 2 to 27")
    if not 2 <= value <= 27:
        raise HardwareConfigError(f"{key}: GPIO {value} is not on the 40-pin header; BCM numbers run from 2 to 27")
    return value


def _int(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HardwareConfigError(f"{key}: expected a whole number from {low} to {high}, got {value!r}")
    return value


def _float(value: Any, key: str, low: float, high: float) -> float:
    ok = not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
    if not ok or not low <= value <= high:
        raise HardwareConfigError(f"{key}: expected a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise HardwareConfigError(f"{key}: expected true or false, got {value!r}")
    return value
