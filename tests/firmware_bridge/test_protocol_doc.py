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
