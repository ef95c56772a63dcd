"""Build a table's devices from its configuration, on real pins or on a simulated backend.

`backend="real"` uses gpiozero's default pin factory (lgpio on a Pi 5, RPi.GPIO or lgpio on the
older Pis, chosen by gpiozero or by GPIOZERO_PIN_FACTORY) and `/dev/spidevB.D` through `spidev`;
both are imported only here and only then. `backend="mock"` builds the same drivers on a private
gpiozero `MockFactory` (never the class-level global, so the simulated table cannot disturb other
code), with a fake TM1637 chip on each display's pins and a fake SPI device under the LED ring:
the simulated table and the tests see exactly what the wires would carry.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, TypeVar

from game.timers import Monotonic
from hardware.buttons import ButtonPanel
from hardware.config import DeviceOpenError, HardwareConfig
from hardware.frames import (
    Reading,
    RingStyle,
    bar_lit,
    digits_brightness,
    digits_text,
    focus,
    place,
    ring_frame,
    tm1637_bytes,
)
from hardware.lifecycle import Closable, ClosingDevice, log_once_then_count
from hardware.outputs import BarGraph, Buzzer
from hardware.pins import PinFactory
from hardware.tm1637 import TM1637, FakeTM1637
from hardware.ws2812 import FakeSpiDev, SpiDevLike, SpiLedStrip

Backend = Literal["mock", "real"]
T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass
class Simulation:
    """The far side of the mock wires: what the simulated table's devices received."""

    pin_factory: PinFactory  # the MockFactory: drive button pins with .pin(n).drive_low() / drive_high()
    spi: FakeSpiDev | None = None
    chips: list[FakeTM1637] = field(default_factory=list)

    def press(self, pin: int) -> None:
        """Close the button on `pin` (wired to ground, pulled up)."""
        self.pin_factory.pin(pin).drive_low()

    def release(self, pin: int) -> None:
        self.pin_factory.pin(pin).drive_high()


@dataclass
class TableDevices(ClosingDevice):
    config: HardwareConfig
    buttons: ButtonPanel
    ring: SpiLedStrip | None = None
    bar: BarGraph | None = None
    displays: list[TM1637] = field(default_factory=list)
    buzzer: Buzzer | None = None
    sim: Simulation | None = None  # only with the mock backend
    faults: dict[str, int] = field(default_factory=dict)  # failed writes per output, for the health page

    def guarded(self, name: str, write: Callable[[], object]) -> bool:
        """Run one output write; a failure (a display unplugged mid-game, an SPI error) is logged the
        first time, counted, and does not stop the other outputs or the clock. Returns success."""
        return log_once_then_count(self.faults, name, write, log,
                                   "%s: write failed; the clock runs on, further failures are only counted")

    def draw(self, faces: Sequence[Reading], style: RingStyle | None = None) -> None:
        """Push the clock `faces` (`hardware.frames.readings`) to every configured output; each driver skips the
        wire when its frame is unchanged. The ring gets one segment per face (turned by its configured offset
        and direction), the bar the face on move, each display its player's face (or, with a single turn-timer
        face, every display shows it), the idle players' digits dimmed. The service draws its journaled clocks
        with it (referee/outputs.py); whoever keeps the clock keeps the time, this only shows it."""
        if not faces:
            return
        ring, bar = self.ring, self.bar
        if ring is not None:
            rc = self.config.ring
            frame = ring_frame(faces, ring.leds, style)
            if rc is not None and (rc.offset or rc.reverse):
                frame = place(frame, rc.offset, rc.reverse)
            self.guarded("LED ring", lambda: ring.show(frame))
        if bar is not None:
            lit = bar_lit(focus(faces), bar.leds)
            self.guarded("bar graph", lambda: bar.show(lit))
        for i, display in enumerate(self.displays):
            face = faces[i] if len(faces) == len(self.displays) else focus(faces)
            segments = tm1637_bytes(digits_text(face))
            level = digits_brightness(face, display.brightness) if len(faces) > 1 else display.brightness
            self.guarded(f"display {i}", partial(display.show, segments, level))

    def _close(self) -> None:
        """Switch everything off and free the pins (each device closed even when another fails)."""
        for closer in (
            self.buttons.close,
            *(d.close for d in self.displays),
            *(x.close for x in (self.ring, self.bar, self.buzzer) if x is not None),
        ):
            try:
                closer()
            except Exception:  # closing the rest matters more than the first failure
                log.warning("closing a device failed", exc_info=True)
        self.displays = []
        self.ring = self.bar = self.buzzer = None


def build_devices(
    config: HardwareConfig,
    backend: Backend = "mock",
    clock: Monotonic = time.monotonic,
    *,
    spi_factory: Callable[[], SpiDevLike] | None = None,
) -> TableDevices:
    """Open every configured device. On failure, whatever was opened is closed again and the error
    (naming the device) propagates: a table with a half-built set of outputs is worse than none."""
    sim: Simulation | None = None
    if backend == "mock":
        from gpiozero.pins.mock import MockFactory

        pin_factory: PinFactory = MockFactory()
        sim = Simulation(pin_factory)
        if config.ring is not None:
            sim.spi = FakeSpiDev()
        sim.chips = [FakeTM1637(pin_factory, d.clk, d.dio) for d in config.displays]
        spi_factory = spi_factory or (lambda: _given(sim))
    elif backend == "real":
        from gpiozero import Device

        if Device.pin_factory is None and (problem := lgpio_workdir_problem(os.environ)):
            raise DeviceOpenError(problem)
        # gpiozero warns once per driver it falls back from; those reasons go into our one message instead
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always")
            try:
                Device.ensure_pin_factory()
            except Exception as exc:  # BadPinFactory: not a Pi, or no lgpio / RPi.GPIO installed
                failure: Exception | None = exc
            else:
                failure = None
        if failure is None:
            for w in fallbacks:  # a driver was found after all: the fallbacks are worth a log line
                log.info("GPIO: %s", w.message)
        else:
            tried = "; ".join(str(w.message) for w in fallbacks)
            raise DeviceOpenError(
                f"GPIO: no pin driver could be loaded ({failure}{': ' + tried if tried else ''}); "
                f"on a Pi install the `pi` extra (lgpio), "
                f"elsewhere use the mock backend (outputs.devices = \"mock\" in the configuration; --simulated for "
                f"`referee hardware test`)"
            ) from failure
        pin_factory = Device.pin_factory
    else:
        raise ValueError(f"hardware backend must be 'mock' or 'real', not {backend!r}")

    opened: list[Closable] = []
    try:
        buttons = _named("buttons", lambda: ButtonPanel(config.buttons, pin_factory, clock))
        opened.append(buttons)
        devices = TableDevices(config, buttons, sim=sim)
        if config.ring is not None:
            r = config.ring
            kwargs: dict[str, Any] = {"spi_factory": spi_factory} if spi_factory is not None else {}
            devices.ring = _named(
                "LED ring",
                lambda: SpiLedStrip(
                    r.leds,
                    bus=r.spi_bus,
                    device=r.spi_device,
                    order=r.order,
                    brightness=r.brightness,
                    speed_hz=r.speed_hz,
                    **kwargs,
                ),
            )
            opened.append(devices.ring)
        if config.bar is not None:
            bar_cfg = config.bar
            devices.bar = _named(
                "bar graph", lambda: BarGraph(bar_cfg.pins, pin_factory, active_high=bar_cfg.active_high)
            )
            opened.append(devices.bar)
        for i, d in enumerate(config.displays):
            display = _named(
                f"display {i}",
                partial(TM1637, d.clk, d.dio, pin_factory, brightness=d.brightness, bit_delay_us=d.bit_delay_us),
            )
            devices.displays.append(display)
            opened.append(display)
        if config.buzzer is not None:
            bz = config.buzzer
            devices.buzzer = _named("buzzer", lambda: Buzzer(bz.pin, pin_factory, active_high=bz.active_high))
            opened.append(devices.buzzer)
    except Exception:
        for device in reversed(opened):
            try:
                device.close()
            except Exception:
                log.warning("closing %r after a failed start failed", device, exc_info=True)
        raise
    return devices


def lgpio_workdir_problem(
    env: Mapping[str, str],
    cwd: Callable[[], str] | None = None,
    writable: Callable[[str], bool] | None = None,
) -> str | None:
    """Why lgpio could not start here, or None. On import, lgpio's Python module opens its notification
    pipe (`.lgd-nfy*`) in the working directory (or $LG_WD); in a directory the user cannot write it fails,
    and gpiozero falls back to drivers that do not work on a Pi 5 or inside the service's device policy,
    with an error that names none of this. The service runs in /var/lib/referee (WorkingDirectory=)."""
    if (env.get("GPIOZERO_PIN_FACTORY") or "lgpio") != "lgpio" or env.get("LG_WD"):
        return None
    try:
        here = (cwd or os.getcwd)()
    except OSError:
        return "GPIO: the working directory no longer exists; lgpio needs a writable one (cd /var/lib/referee)"
    if (writable or (lambda path: os.access(path, os.W_OK)))(here):
        return None
    return (
        f"GPIO: lgpio (gpiozero's pin driver) makes its notification pipe in the working directory, and {here} "
        f"is not writable for this user: run from a directory it can write (cd /var/lib/referee)"
    )


def _given(sim: Simulation) -> FakeSpiDev:
    assert sim.spi is not None
    return sim.spi


def _named(what: str, build: Callable[[], T]) -> T:
    """Build a device, wrapping any error in a `DeviceOpenError` that says which device it was."""
    try:
        return build()
    except Exception as exc:
        raise DeviceOpenError(f"{what}: could not be opened: {exc}") from exc
