"""Every HELLO field's valid range, in one place.

The host refuses a board whose HELLO falls outside them (`core.LinkCore`), the emulator refuses to build
one (`emulator.EmulatedBoard`), `referee board emulate` refuses such options before it starts, and
docs/protocol.md lists them. The debounce and heartbeat limits are the firmware's own (it NAKs a SET_CONFIG
outside them), imported from it so the two ends cannot drift apart; the firmware cannot import this module,
as it runs under MicroPython on the Pico with only its own folder.

Why these bounds:
- width and height 1-26: squares are named column letter + row number (`game.squares`), 26 letters;
- buttons 0-16: the dump carries the buttons as a 16-bit mask;
- tray slots 0-21: a tray holds each die once, and a slot's 7 switches name dice 0 to 20 only (its code
  is 1 + die x 6 + face, below 128): a 22nd slot could never hold a die of its own (`--slots 100` once
  started a board no game could fill). The dump (9 + width x height + slots bytes) must also fit one frame's
  512-byte payload;
- debounce 1-1000 ms and heartbeat 20-60000 ms: what the firmware accepts in SET_CONFIG. A heartbeat of
  0 would make the host declare every board silent at once; one above a minute would hide a hung board.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from firmware_bridge.firmware import wire
from firmware_bridge.firmware.scanner import MAX_DEBOUNCE_MS, MAX_HEARTBEAT_MS, MIN_DEBOUNCE_MS, MIN_HEARTBEAT_MS

DUMP_OVERHEAD = 9  # board time u32, width u8, height u8, buttons u16, slots u8
MAX_TRAY_SLOTS = 21  # dice 0 to 20: a slot's code 1 + die x 6 + face stays below 2**7 (firmware_bridge.emulator)


@dataclass(frozen=True, slots=True)
class FieldRange:
    """The whole numbers `low` to `high` (both included) a HELLO field may hold; `unit` for messages."""

    low: int
    high: int
    unit: str = ""
    why: str = ""  # the reason for the bound, said with a refusal ("" when the range says it)

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    def __str__(self) -> str:
        return f"{self.low} to {self.high}{' ' + self.unit if self.unit else ''}"


HELLO_FIELDS = MappingProxyType(
    {
        "version": FieldRange(wire.PROTOCOL_VERSION, wire.PROTOCOL_VERSION),
        "width": FieldRange(1, 26, "columns"),
        "height": FieldRange(1, 26, "rows"),
        "buttons": FieldRange(0, 16),
        "slots": FieldRange(0, MAX_TRAY_SLOTS, why=f"a tray holds each die once and a slot's 7 switches name dice "
                                                   f"0 to {MAX_TRAY_SLOTS - 1} only"),
        "debounce_ms": FieldRange(MIN_DEBOUNCE_MS, MAX_DEBOUNCE_MS, "ms"),
        "heartbeat_ms": FieldRange(MIN_HEARTBEAT_MS, MAX_HEARTBEAT_MS, "ms"),
    }
)
"""Each HELLO field's valid range, by the field's name in `events.Hello`."""


def hello_problem(**fields: int) -> str | None:
    """Why a board with these HELLO fields cannot be served, in words; None when it can.

    Takes any of the fields of `HELLO_FIELDS` by name (the others are not checked), and checks that a
    dump of the board fits one frame when width, height and slots are all given."""
    for name, value in fields.items():
        limits = HELLO_FIELDS[name]
        if name == "version" and value not in limits:
            return f"the board speaks protocol v{value}, this host v{wire.PROTOCOL_VERSION}"
        if value not in limits:
            why = f" ({limits.why})" if limits.why else ""
            return f"{name.replace('_ms', '')} {value}{' ms' if name.endswith('_ms') else ''} is outside {limits}{why}"
    if {"width", "height", "slots"} <= fields.keys():
        size = DUMP_OVERHEAD + fields["width"] * fields["height"] + fields["slots"]
        if size > wire.MAX_PAYLOAD:
            return (
                f"a {fields['width']}x{fields['height']} board with {fields['slots']} tray slots needs a "
                f"{size}-byte dump; a frame holds {wire.MAX_PAYLOAD} (15x15 and 9x9 fit)"
            )
    return None
