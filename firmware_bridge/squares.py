"""Squares of the sensor board by wire index, named by the engine's one vocabulary (`game.squares.Square`).

The board numbers its squares row-major from A1 (index = (row - 1) * width + column); names are what
logs, events and tests use, indexes are what travels on the wire. A name is `str(Square(row, col))`
and is read with `Square.from_str`, so the link, the referee and the engine can never spell a square
differently; this module adds only what the engine cannot know: the board's size and the wire order.
(The firmware in `firmware/` runs on the Pico under MicroPython with nothing but its own folder, so it
cannot import `game`; it never names a square anyway, only indexes.)
"""

from __future__ import annotations

from functools import cache

from firmware_bridge.errors import SquareNameError
from game.errors import NotationError
from game.squares import COLUMNS, Direction, Square

__all__ = ["COLUMNS", "line_of_squares", "square_index", "square_name", "square_names"]


def square_name(index: int, width: int) -> str:
    """`square_name(112, 15)` is `H8`."""
    return str(Square(*divmod(index, width)))


@cache
def square_names(width: int, height: int) -> tuple[str, ...]:
    """Every square's name in wire order."""
    if not (1 <= width <= len(COLUMNS)) or height < 1:
        raise SquareNameError(f"{width}x{height}: a board has 1 to 26 columns and at least one row")
    return tuple(square_name(i, width) for i in range(width * height))


def _square(name: str, width: int, height: int) -> Square:
    try:
        square = Square.from_str(name)
    except NotationError as exc:
        raise SquareNameError(str(exc)) from None
    if square.col >= width or not (0 <= square.row < height):
        raise SquareNameError(
            f"{square} is off the board: it has columns A-{COLUMNS[width - 1]} and rows 1-{height}"
        )
    return square


def square_index(name: str, width: int, height: int) -> int:
    """`square_index("H8", 15, 15)` is 112; a name off the board raises SquareNameError saying so."""
    square = _square(name, width, height)
    return square.row * width + square.col


def line_of_squares(start: str, direction: str, length: int, width: int, height: int) -> list[str]:
    """The squares a word of `length` letters covers from `start`, `across` or `down`."""
    first = _square(start, width, height)
    try:
        way = Direction(direction.strip().lower())
    except ValueError:
        raise SquareNameError(f"{direction!r} is not a direction: write across or down") from None
    names = []
    for k in range(length):
        square = first.step(way, k)
        if square.col >= width or square.row >= height:
            raise SquareNameError(f"{start} {way.value}: a word of {length} letters runs off the board")
        names.append(str(square))
    return names
