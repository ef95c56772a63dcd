"""Squares and play positions in GCG notation.

A square is named column letter + row number, `H8` (the centre of the standard board).
A play's position says where its first letter goes and which way it reads: row first is
across (`8D` = row 8 from column D rightwards), column first is down (`D8` = column D from
row 8 downwards). Lowercase is accepted (Quackle writes `8g`). Nothing here knows the board
size, so the 9x9 Scramble mat (`1`-`9`, `A`-`I`) uses the same names; the board checks bounds.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from game.errors import NotationError

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SQUARE_RE = re.compile(r"^([A-Za-z])(\d{1,2})$")
_POSITION_RE = re.compile(r"^(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))$")


class Direction(enum.Enum):
    """Which way a word reads."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(row, column) increment to the next square of a word."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        """The crossing direction."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A square by 0-based row and column; its text form is GCG's `H8` (column letter, row number)."""

    row: int
    col: int

    @classmethod
    def from_str(cls, text: str) -> Square:
        m = _SQUARE_RE.match(text.strip())
        if not m:
            raise NotationError(f"{text!r} is not a square: write a column letter and a row number, like H8",
                                form="square", text=text)
        row = int(m.group(2)) - 1
        if row < 0:
            raise NotationError(f"{text!r} is not a square: rows count from 1", form="square_row", text=text)
        return cls(row, COLUMNS.index(m.group(1).upper()))

    def __str__(self) -> str:
        col = COLUMNS[self.col] if 0 <= self.col < len(COLUMNS) else f"[{self.col}]"
        return f"{col}{self.row + 1}"

    def step(self, direction: Direction, n: int = 1) -> Square:
        """The square n steps further along `direction` (may be off the board)."""
        dr, dc = direction.step
        return Square(self.row + dr * n, self.col + dc * n)

    def transpose(self) -> Square:
        """The square mirrored in the main diagonal."""
        return Square(self.col, self.row)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a written move starts and which way it reads: `8D` across, `D8` down."""

    start: Square
    direction: Direction

    @classmethod
    def from_str(cls, text: str) -> Position:
        m = _POSITION_RE.match(text.strip())
        if not m:
            raise NotationError(
                f"{text!r} is not a position: write row then column for across (8D), column then row for down (D8)",
                form="position", text=text,
            )
        if m.group(1):
            row, col, direction = int(m.group(1)), m.group(2), Direction.ACROSS
        else:
            row, col, direction = int(m.group(4)), m.group(3), Direction.DOWN
        if row < 1:
            raise NotationError(f"{text!r} is not a position: rows count from 1", form="position_row", text=text)
        return cls(Square(row - 1, COLUMNS.index(col.upper())), direction)

    def __str__(self) -> str:
        name = str(self.start)
        col, row = name[0], name[1:]
        return f"{row}{col}" if self.direction is Direction.ACROSS else f"{col}{row}"

    def transpose(self) -> Position:
        return Position(self.start.transpose(), self.direction.other)
