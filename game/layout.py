"""Board layouts as data: size, premium squares, start square.

A layout file `game/data/layouts/<name>.json` is {"name": str, "rows": [str, ...]}, one
character per square: `.` plain, `d` double letter, `t` triple letter, `D` double word,
`T` triple word, `*` the start square (a double word square the first play must cover).
Any rectangular size works: the standard 15x15 board and the 9x9 Scramble mat are both data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache

from game.errors import DataError
from game.shipped import load_shipped_json
from game.squares import Square

# character -> (letter multiplier, word multiplier)
PREMIUMS: dict[str, tuple[int, int]] = {
    ".": (1, 1),
    "d": (2, 1),
    "t": (3, 1),
    "D": (1, 2),
    "T": (1, 3),
    "*": (1, 2),
}


@dataclass(frozen=True)
class Layout:
    """A board's squares: `rows[r][c]` is the premium character of row r, column c.

    `start` is the square the first play must cover; `letter_mult`/`word_mult` are flat
    premium tables indexed `row * width + col`, for the scorer's inner loop.
    """

    name: str
    rows: tuple[str, ...]
    letter_mult: tuple[int, ...] = field(init=False, repr=False, compare=False)
    word_mult: tuple[int, ...] = field(init=False, repr=False, compare=False)
    start: Square = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.rows or not self.rows[0]:
            raise DataError(f"layout {self.name!r}: no squares", form="layout_empty", name=self.name)
        width = len(self.rows[0])
        for r, row in enumerate(self.rows):
            if len(row) != width:
                raise DataError(f"layout {self.name!r}: row {r + 1} has {len(row)} squares, row 1 has {width}",
                                form="layout_row_width", name=self.name, row=r + 1, count=len(row), width=width)
            bad = set(row) - PREMIUMS.keys()
            if bad:
                raise DataError(f"layout {self.name!r}: row {r + 1} has unknown square kinds {sorted(bad)}",
                                form="layout_kinds", name=self.name, row=r + 1, kinds=sorted(bad))
        if width > 26:
            raise DataError(f"layout {self.name!r}: more than 26 columns cannot be named", form="layout_too_wide",
                            name=self.name)
        starts = [Square(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == "*"]
        if len(starts) != 1:
            raise DataError(f"layout {self.name!r}: needs exactly one start square '*', has {len(starts)}",
                            form="layout_start", name=self.name, count=len(starts))
        object.__setattr__(self, "start", starts[0])
        # flat premium tables, indexed row * width + col, for the scorer's inner loop
        object.__setattr__(self, "letter_mult", tuple(PREMIUMS[ch][0] for row in self.rows for ch in row))
        object.__setattr__(self, "word_mult", tuple(PREMIUMS[ch][1] for row in self.rows for ch in row))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def contains(self, square: Square) -> bool:
        return 0 <= square.row < self.height and 0 <= square.col < self.width

    def premium(self, square: Square) -> str:
        """The square's kind: one of `. d t D T *`."""
        return self.rows[square.row][square.col]

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "<layout>") -> Layout:
        try:
            raw = json.loads(text)
            return cls(str(raw["name"]), tuple(str(r) for r in raw["rows"]))
        except DataError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{source}: not a layout file ({exc})", form="layout_file", source=source,
                            detail=str(exc)) from exc


@cache
def load_layout(name: str) -> Layout:
    """The layout `game/data/layouts/<name>.json` shipped with the package."""
    text = load_shipped_json("layouts", name)
    if text is None:
        raise DataError(f"no layout named {name!r}", form="no_layout", name=name)
    return Layout.from_json(text, f"layouts/{name}.json")
