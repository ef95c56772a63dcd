"""Square names on boards of any size: column letter + row number, `A1` top left, `H8` the centre of 15x15.

The board numbers its squares row-major from A1 (index = (row - 1) * width + column); names are what
logs, events and tests use, indexes are what travels on the wire.
"""

from __future__ import annotations

from functools import cache

from firmware_bridge.errors import SquareNameError

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def square_name(index: int, width: int) -> str:
    """`square_name(112, 15)` is `H8`."""
    row, col = divmod(index, width)
    return f"{COLUMNS[col]}{row + 1}"


@cache
def square_names(width: int, height: int) -> tuple[str, ...]:
    """Every square's name in wire order."""
    if not (1 <= width <= len(COLUMNS)) or height < 1:
        raise SquareNameError(f"{width}x{height}: a board has 1 to 26 columns and at least one row")
    return tuple(square_name(i, width) for i in range(width * height))


def square_index(name: str, width: int, height: int) -> int:
    """`square_index("H8", 15, 15)` is 112; a name off the board raises SquareNameError saying so."""
    text = name.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise SquareNameError(f"{name!r} is not a square: write a column letter and a row number, like H8")
    col = COLUMNS.index(text[0])
    row = int(text[1:])
    if col >= width or not (1 <= row <= height):
        raise SquareNameError(f"{text} is off the board: it has columns A-{COLUMNS[width - 1]} and rows 1-{height}")
    return (row - 1) * width + col


def line_of_squares(start: str, direction: str, length: int, width: int, height: int) -> list[str]:
    """The squares a word of `length` letters covers from `start`, `across` or `down`."""
    first = square_index(start, width, height)
    row, col = divmod(first, width)
    d = direction.strip().lower()
    if d not in ("across", "down"):
        raise SquareNameError(f"{direction!r} is not a direction: write across or down")
    names = []
    for k in range(length):
        r, c = (row, col + k) if d == "across" else (row + k, col)
        if c >= width or r >= height:
            raise SquareNameError(f"{start} {d}: a word of {length} letters runs off the board")
        names.append(square_name(r * width + c, width))
    return names
