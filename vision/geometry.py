"""Square names and the standard board layout.

Square names are column letter + row number as the camera sees the board: `A1` top left, `O15` bottom
right, `H8` the centre. Rows of a board picture are 15 strings, top row first (the labels.json layout).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"


def square_name(row: int, col: int) -> str:
    """`square_name(7, 7) == "H8"`: zero-based row and column to a square name."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"row {row}, column {col} is off the {SIZE}x{SIZE} board")
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """`parse_square("H8") == (7, 7)`: a square name to zero-based (row, column)."""
    text = name.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit() or not 1 <= int(text[1:]) <= SIZE:
        raise ValueError(f"{name!r} is not a square name (A1 to O15)")
    return int(text[1:]) - 1, COLUMNS.index(text[0])


ALL_SQUARES: tuple[str, ...] = tuple(square_name(r, c) for r in range(SIZE) for c in range(SIZE))


@cache
def premium_layout() -> tuple[str, ...]:
    """The standard premium squares (`data/premium.txt`): T triple word, D double word, t triple letter,
    d double letter, `.` plain; 15 strings, top row first."""
    text = resources.files("vision").joinpath("data/premium.txt").read_text(encoding="utf-8")
    return tuple(line for line in text.split() if line)
