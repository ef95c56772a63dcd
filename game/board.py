"""The board: which tile lies on which square of a layout.

Cells are a flat list indexed `row * width + col` because validation and scoring walk it on
every turn and must stay far below a millisecond on a Pi. The board does not know whose turn
it is or whether a play is legal; `game.validation` decides that, then `place` applies it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from game.errors import OccupiedSquareError, OffBoardError
from game.layout import Layout
from game.squares import COLUMNS, Square
from game.tiles import Tile


class Board:
    """A layout with tiles on it."""

    __slots__ = ("_count", "cells", "height", "layout", "width")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.width = layout.width
        self.height = layout.height
        self.cells: list[Tile | None] = [None] * (self.width * self.height)
        self._count = 0

    def copy(self) -> Board:
        other = Board(self.layout)
        other.cells = list(self.cells)
        other._count = self._count
        return other

    def contains(self, square: Square) -> bool:
        return 0 <= square.row < self.height and 0 <= square.col < self.width

    def __getitem__(self, square: Square) -> Tile | None:
        if not self.contains(square):
            raise OffBoardError(f"{square}: off the board", form="square", square=str(square))
        return self.cells[square.row * self.width + square.col]

    def get(self, square: Square) -> Tile | None:
        """The tile on a square, or None when the square is empty or off the board."""
        if not self.contains(square):
            return None
        return self.cells[square.row * self.width + square.col]

    @property
    def is_empty(self) -> bool:
        return self._count == 0

    @property
    def tile_count(self) -> int:
        return self._count

    def place(self, placements: Iterable[tuple[Square, Tile]]) -> None:
        """Put tiles on empty squares (no rules checked: validate first)."""
        for square, tile in placements:
            if self[square] is not None:
                raise OccupiedSquareError(f"{square}: already holds {self[square]}", square=str(square),
                                          tile=str(self[square]))
            self.cells[square.row * self.width + square.col] = tile
            self._count += 1

    def remove(self, squares: Iterable[Square]) -> list[Tile]:
        """Take tiles off (a phony withdrawn, Scramble's clearing of the mat); returns them."""
        taken = []
        for square in squares:
            tile = self[square]
            if tile is None:
                raise OffBoardError(f"{square}: no tile to take back", form="take_back", square=str(square))
            self.cells[square.row * self.width + square.col] = None
            self._count -= 1
            taken.append(tile)
        return taken

    def tiles(self) -> Iterator[tuple[Square, Tile]]:
        """Every (square, tile) on the board, row by row."""
        for i, tile in enumerate(self.cells):
            if tile is not None:
                yield Square(i // self.width, i % self.width), tile

    def rack_letters(self) -> Counter[str]:
        """The tiles on the board counted as they left the racks (`?` for blanks): for tile tracking."""
        return Counter(t.rack_letter for t in self.cells if t is not None)

    def __str__(self) -> str:
        """A fixed-width picture: `.` empty, letters, lowercase blanks, with GCG labels."""
        head = "    " + " ".join(COLUMNS[: self.width])
        lines = [head]
        for r in range(self.height):
            row = self.cells[r * self.width : (r + 1) * self.width]
            lines.append(f"{r + 1:>3} " + " ".join("." if t is None else str(t) for t in row))
        return "\n".join(lines)
