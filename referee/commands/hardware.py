"""`referee hardware`: check a table's wiring (LED ring, bar, displays, buzzer, buttons).

`referee hardware check CONFIG` validates the `[hardware]` table and lists the pins in use.
`referee hardware test CONFIG` lights every configured output in turn (so a wrong colour order, a
swapped display or a dead LED shows at once), then prints each button press and long press for a
while, so the person wiring a table can press every button and read back which one it was.
With `--simulated` it runs on the mock backend and prints what the devices received instead.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("hardware", help="check and test the LED timer, displays and buttons")
    hsub = p.add_subparsers(dest="hardware_command", metavar="ACTION", required=True)

    check = hsub.add_parser("check", help="validate the [hardware] table of a configuration file and list its pins")
    check.add_argument("config", type=Path, help="the referee's TOML configuration file")
    check.set_defaults(handler=handle_check)

    test = hsub.add_parser("test", help="cycle the configured outputs, then report button presses")
    test.add_argument("config", type=Path, help="the referee's TOML configuration file")
    test.add_argument("--simulated", action="store_true", help="use the mock backend instead of the Pi's pins")
    test.add_argument(
        "--buttons-seconds", type=float, default=20.0, help="how long to report button presses (default 20)"
    )
    test.add_argument("--step", type=float, default=0.4, help="seconds per output step (default 0.4)")
    test.set_defaults(handler=handle_test)


def _load(path: Path) -> Any:
    import tomllib

    from hardware.config import parse_hardware_config

    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8-sig"))  # a byte-order mark (Notepad) is skipped
    except OSError as exc:
        raise SystemExit(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SystemExit(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SystemExit(f"{path}: is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except RecursionError:
        raise SystemExit(f"{path}: is nested too deeply to be a configuration") from None
    if "hardware" not in data:
        raise SystemExit(f"{path}: no [hardware] table; see docs/hardware-timer.md")
    from hardware.config import HardwareConfigError

    try:
        return parse_hardware_config(data["hardware"])
    except HardwareConfigError as exc:
        raise SystemExit(f"{path}: hardware.{exc}") from None


def handle_check(args: argparse.Namespace) -> int:
    config = _load(args.config)
    pins = config.gpio_pins()
    print(f"{args.config}: [hardware] is valid for {config.players} players")
    if config.ring is not None:
        r = config.ring
        where = f"/dev/spidev{r.spi_bus}.{r.spi_device}"
        print(f"  LED ring: {r.leds} LEDs on {where} ({r.order}, brightness {r.brightness})")
    for pin in sorted(pins):
        print(f"  GPIO{pin:<2}  {pins[pin]}")
    return 0


def handle_test(args: argparse.Namespace) -> int:
    from hardware.config import DeviceOpenError
    from hardware.factory import build_devices
    from hardware.frames import PRESS_PATTERN, TIME_UP_PATTERN, tm1637_bytes
    from hardware.ws2812 import decode_ws2812

    config = _load(args.config)
    try:
        devices = build_devices(config, "mock" if args.simulated else "real", time.monotonic)
    except DeviceOpenError as exc:
        raise SystemExit(f"{args.config}: {exc}") from None
    sim = devices.sim

    def pause() -> None:
        if not args.simulated:
            time.sleep(args.step)

    try:
        if devices.ring is not None:
            n = devices.ring.leds
            for name, colour in (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255))):
                devices.ring.show([colour] * n)
                print(f"ring: all {name}")
                if sim is not None and sim.spi is not None:
                    print(f"  wire: {decode_ws2812(sim.spi.transfers[-1])[:3]} ...")
                pause()
            for i in range(n):  # one LED at a time: a gap or a jump shows a dead or misplaced LED
                devices.ring.show([(255, 255, 255) if j == i else (0, 0, 0) for j in range(n)])
                if not args.simulated:
                    time.sleep(min(args.step, 2.0 / n))
            devices.ring.show([(0, 0, 0)] * n)
            print(f"ring: walked a white dot over {n} LEDs")
        if devices.bar is not None:
            for lit in range(devices.bar.leds + 1):
                devices.bar.show(lit)
                pause()
            print(f"bar: lit 0 to {devices.bar.leds} LEDs; now {devices.bar.states}")
            devices.bar.show(0)
        for i, display in enumerate(devices.displays):
            for text in ("88:88", f"P{i + 1}", ""):
                display.show(tm1637_bytes(text))
                if sim is not None:
                    print(f"display {i}: sent {text!r}, the chip shows {sim.chips[i].text()!r}")
                pause()
            if sim is None:
                lost, sent = display.missing_acks, display.bytes_sent
                verdict = "answered" if lost == 0 else "check CLK/DIO and 3.3 V power"
                print(f"display {i}: showed 88:88 then P{i + 1}; {lost} of {sent} bytes not acknowledged ({verdict})")
        if devices.buzzer is not None:
            start = time.monotonic()
            devices.buzzer.play(TIME_UP_PATTERN, start)
            while (due := devices.buzzer.next_change(time.monotonic())) is not None and not args.simulated:
                time.sleep(max(0.0, due - time.monotonic()))
                devices.buzzer.update(time.monotonic())
            devices.buzzer.update(start + 10.0)
            print("buzzer: played the time-up pattern")
        _report_buttons(devices, args, PRESS_PATTERN)
    finally:
        devices.close()
    return 0


def _report_buttons(devices: Any, args: argparse.Namespace, click: Any) -> None:
    if not devices.buttons.keys:
        print("buttons: none configured")
        return
    if args.simulated:
        print(f"buttons: {', '.join(sorted(devices.buttons.keys))} (simulated: nothing to press)")
        return
    print(f"buttons: press each one (and hold it for a long press); listening {args.buttons_seconds:g} s")

    def show(event: Any) -> None:
        who = f" of player {event.player + 1}" if event.player is not None else ""
        print(f"  {event.kind}: {event.button}{who} -> {event.action}")
        if devices.buzzer is not None:
            devices.buzzer.play(click, time.monotonic())

    devices.buttons.subscribe(show)
    end = time.monotonic() + args.buttons_seconds
    while time.monotonic() < end:
        devices.buttons.poll()
        if devices.buzzer is not None:
            devices.buzzer.update(time.monotonic())
        time.sleep(0.02)
