"""Magnet codes of coded tiles: which 6-bit code under a square means which letter.

The firmware reports raw codes and knows no letters, so a German set or a new tile batch needs a new
data file (`firmware_bridge/data/tile_codes.json`), not new firmware. Players set tiles down upright or
upside down; the table maps both readings to the letter (see `reverse_bits`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path

from firmware_bridge.errors import TileCodeError

UPSIDE_DOWN_MODES = ("reverse", "none")


def reverse_bits(code: int, bits: int) -> int:
    """The code a tile turned 180 degrees shows: switch p sees the magnet meant for switch bits - 1 - p."""
    out = 0
    for p in range(bits):
        if code & (1 << p):
            out |= 1 << (bits - 1 - p)
    return out


class TileCodes:
    """A two-way table letter <-> magnet code; `?` is the blank.

    With `upside_down="reverse"` a code and its bit-reversal (the tile turned 180 degrees) both mean the
    letter, and the table is refused if one letter's reversed code is another letter's code.
    """

    def __init__(self, codes: Mapping[str, int], bits: int = 6, upside_down: str = "reverse") -> None:
        if upside_down not in UPSIDE_DOWN_MODES:
            raise TileCodeError(f"upside_down {upside_down!r}: write one of {', '.join(UPSIDE_DOWN_MODES)}")
        limit = (1 << bits) - 1
        by_code: dict[int, str] = {}
        for letter, code in codes.items():
            if not isinstance(code, int) or not (1 <= code <= limit):
                raise TileCodeError(f"tile code for {letter!r} is {code!r}: it must be 1..{limit} ({bits} magnets)")
            readings = [code]
            if upside_down == "reverse" and reverse_bits(code, bits) != code:
                readings.append(reverse_bits(code, bits))
            for reading in readings:
                other = by_code.get(reading)
                if other is not None and other != letter:
                    if codes[other] == code:
                        raise TileCodeError(f"tile code {code} is given to both {other!r} and {letter!r}")
                    raise TileCodeError(
                        f"tile codes of {other!r} ({codes[other]}) and {letter!r} ({code}) read the same "
                        "when one tile lies upside down"
                    )
                by_code[reading] = letter
        self.bits = bits
        self.upside_down = upside_down
        self._by_letter = dict(codes)
        self._by_code = by_code

    @classmethod
    def from_file(cls, path: Path) -> TileCodes:
        """A table from a JSON file like the shipped one; TileCodeError saying what is wrong."""
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(doc["codes"], int(doc.get("bits", 6)), str(doc.get("upside_down", "reverse")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, TileCodeError):
                raise
            raise TileCodeError(f"{path}: not a tile-code table ({exc})") from exc

    def letter(self, code: int) -> str | None:
        """The letter a code stands for; None for a code no tile carries (a misread, counted by the link)."""
        return self._by_code.get(code)

    def code(self, letter: str) -> int:
        """The magnet code to put into a tile for `letter` (upright)."""
        try:
            return self._by_letter[letter.upper() if letter != "?" else letter]
        except KeyError:
            raise TileCodeError(f"{letter!r} has no magnet code in this tile set") from None

    def letters(self) -> list[str]:
        """Every letter the table has a code for, the blank `?` included."""
        return list(self._by_letter)


@cache
def default_tile_codes() -> TileCodes:
    """The table shipped in the package data."""
    ref = resources.files("firmware_bridge") / "data" / "tile_codes.json"
    doc = json.loads(ref.read_text(encoding="utf-8"))
    return TileCodes(doc["codes"], int(doc.get("bits", 6)), str(doc.get("upside_down", "reverse")))
