"""Square names and the standard board layout, both the engine's (`game.squares`, `game/data/layouts`).

Square names are column letter + row number in the board's own coordinates: `A1` is the corner of the
triple-word square whose row holds the board's printed `A`-`O` letters, `H8` the centre, whatever way the
camera looks at the board (the reader turns what it sees into these). Rows of a board picture are 15
strings, top row first (the labels.json layout).
"""

from __future__ import annotations

from functools import cache

from game.errors import NotationError
from game.layout import load_layout
from game.squares import Square

SIZE = 15


def square_name(row: int, col: int) -> str:
    """`square_name(7, 7) == "H8"`: zero-based row and column to a square name."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"row {row}, column {col} is off the {SIZE}x{SIZE} board")
    return str(Square(row, col))


def parse_square(name: str) -> tuple[int, int]:
    """`parse_square("H8") == (7, 7)`: a square name to zero-based (row, column)."""
    try:
        square = Square.from_str(name)
    except NotationError:
        square = Square(-1, -1)
    if not (0 <= square.row < SIZE and 0 <= square.col < SIZE):
        raise ValueError(f"{name!r} is not a square name (A1 to O15)")
    return square.row, square.col


ALL_SQUARES: tuple[str, ...] = tuple(square_name(r, c) for r in range(SIZE) for c in range(SIZE))


@cache
def premium_layout() -> tuple[str, ...]:
    """The standard premium squares (the engine's `standard` layout): T triple word, D double word (the
    start square too: it looks like one), t triple letter, d double letter, `.` plain; 15 strings."""
    return tuple(row.replace("*", "D") for row in load_layout("standard").rows)


def move_camera_hint(edges: list[str]) -> str:
    """What the players do about a grid the frame cuts: "move the camera ...: the left edge is cut".

    `edges` are the frame's edges as the camera sees them ("top", "right", "bottom", "left"): the person
    moving the camera looks at its picture, not at the board's A-O and 1-15.
    """
    if not edges:
        return "move the camera so the whole board is in the frame"
    named = edges[0] if len(edges) == 1 else ", ".join(edges[:-1]) + " and " + edges[-1]
    which = "edge is" if len(edges) == 1 else "edges are"
    return f"move the camera so the whole board is in the frame: the {named} {which} cut"
