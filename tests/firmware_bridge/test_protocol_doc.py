"""docs/protocol.md's hex examples are real frames: each decodes to the named message, seq and payload."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_bridge.firmware import wire

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
EXAMPLE = re.compile(r"^([A-Z_]+) seq (\d+): ((?:[0-9a-f]{2} ?)+)$")
PAYLOAD = re.compile(r"^  payload (.*)$")


def test_every_example_frame_decodes_as_documented() -> None:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    checked = set()
    current: tuple[str, int, bytes] | None = None
    for line in lines:
        if m := EXAMPLE.match(line):
            name, seq, hexes = m.group(1), int(m.group(2)), bytes.fromhex(m.group(3))
            assert hexes[0] == 0 and hexes[-1] == 0, f"{name}: a frame starts and ends with 0x00"
            msg_type, got_seq, payload = wire.decode_frame(hexes[1:-1])
            assert wire.NAMES[msg_type] == name and got_seq == seq, line
            current = (name, seq, payload)
        elif (m := PAYLOAD.match(line)) and current is not None:
            expected = b"" if m.group(1) == "(none)" else bytes.fromhex(m.group(1))
            assert current[2] == expected, f"{current[0]}: payload differs from the documented one"
            checked.add(current[0])
    assert checked == set(wire.NAMES.values()), (
        f"messages without a checked example: {set(wire.NAMES.values()) - checked}"
    )


CODE_ROW = re.compile(r"^\| (\S+)(?: \(blank\))? \| (\d+) \| (\d+) \| \| (\S+)(?: \(blank\))? \| (\d+) \| (\d+) \|$")
RANGE_ROW = re.compile(r"^\| ([a-z ,]+?) \| (\d+)(?: to (\d+))? \| ")


def test_the_letter_code_table_is_the_shipped_one_both_ways_up() -> None:
    """The table a host writer copies: every letter, its code, and its reading upside down."""
    from firmware_bridge.codes import default_tile_codes, reverse_bits

    codes = default_tile_codes()
    documented: dict[str, tuple[int, int]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if m := CODE_ROW.match(line):
            documented[m.group(1)] = (int(m.group(2)), int(m.group(3)))
            documented[m.group(4)] = (int(m.group(5)), int(m.group(6)))
    shipped = {letter: (codes.code(letter), reverse_bits(codes.code(letter), codes.bits)) for letter in codes.letters()}
    assert documented == shipped


def test_the_hello_ranges_are_the_ones_the_host_enforces() -> None:
    from firmware_bridge.limits import HELLO_FIELDS

    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### The range of every HELLO field") : text.index("The board time in SQUARE_CHANGED")]
    names = {"version": ["version"], "width, height": ["width", "height"], "buttons": ["buttons"],
             "tray slots": ["slots"], "debounce ms": ["debounce_ms"], "heartbeat ms": ["heartbeat_ms"]}
    seen = set()
    for line in section.splitlines():
        if (m := RANGE_ROW.match(line)) and m.group(1) in names:
            low, high = int(m.group(2)), int(m.group(3) or m.group(2))
            for field in names[m.group(1)]:
                assert (HELLO_FIELDS[field].low, HELLO_FIELDS[field].high) == (low, high), line
                seen.add(field)
    assert seen == set(HELLO_FIELDS)
