"""Magnet codes of coded tiles: which 6-bit code under a square means which letter.

The firmware reports raw codes and knows no letters, so a German set or a new tile batch needs a new
data file (`firmware_bridge/data/tile_codes.json`), not new firmware.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path

from firmware_bridge.errors import TileCodeError

UNKNOWN_CODE_LETTER = None


class TileCodes:
    """A two-way table letter <-> magnet code; `?` is the blank."""

    def __init__(self, codes: Mapping[str, int], bits: int = 6) -> None:
        limit = (1 << bits) - 1
        by_code: dict[int, str] = {}
        for letter, code in codes.items():
            if not isinstance(code, int) or not (1 <= code <= limit):
                raise TileCodeError(f"tile code for {letter!r} is {code!r}: it must be 1..{limit} ({bits} magnets)")
            if code in by_code:
                raise TileCodeError(f"tile code {code} is given to both {by_code[code]!r} and {letter!r}")
            by_code[code] = letter
        self.bits = bits
        self._by_letter = dict(codes)
        self._by_code = by_code

    @classmethod
    def from_file(cls, path: Path) -> TileCodes:
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(doc["codes"], int(doc.get("bits", 6)))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, TileCodeError):
                raise
            raise TileCodeError(f"{path}: not a tile-code table ({exc})") from exc

    def letter(self, code: int) -> str | None:
        """The letter a code stands for; None for a code no tile carries (a misread, counted by the link)."""
        return self._by_code.get(code)

    def code(self, letter: str) -> int:
        try:
            return self._by_letter[letter.upper() if letter != "?" else letter]
        except KeyError:
            raise TileCodeError(f"{letter!r} has no magnet code in this tile set") from None

    def letters(self) -> list[str]:
        return list(self._by_letter)


@cache
def default_tile_codes() -> TileCodes:
    """The table shipped in the package data."""
    ref = resources.files("firmware_bridge") / "data" / "tile_codes.json"
    doc = json.loads(ref.read_text(encoding="utf-8"))
    return TileCodes(doc["codes"], int(doc.get("bits", 6)))
