"""Written plays and placed tiles: the two ways a play reaches the engine.

- `Placement`: one new tile on one square, `H8=A` (a blank in lowercase, `H9=e`). The real
  table reports a turn as a set of placements (the board diff); the service hands them in as is.
- `Play`: a move as a score sheet writes it, GCG style: position and word, `8D WO.D`, with `.`
  (or the letter itself, or the letter in parentheses, as Quackle and some records do) for tiles
  already on the board. `Play.placements(board)` turns it into placements against a board, and
  `Play.from_placements` writes placements back as a GCG move.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from game.board import Board
from game.errors import NotationError, OffBoardError, PlayThroughMismatchError
from game.squares import Direction, Position, Square
from game.tiles import Tile

_PLACEMENT_RE = re.compile(r"^\s*([A-Za-z]\d{1,2})\s*[=:]\s*(\S)\s*$")


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """A new tile on a square."""

    square: Square
    tile: Tile

    @classmethod
    def from_str(cls, text: str) -> Placement:
        """`H8=A`, or `H8=a` for a blank played as A."""
        m = _PLACEMENT_RE.match(text)
        if not m:
            raise NotationError(f"{text!r} is not a placement: write square=letter, like H8=A (lowercase for a blank)",
                                form="placement", text=text)
        return cls(Square.from_str(m.group(1)), Tile.from_str(m.group(2)))

    def __str__(self) -> str:
        return f"{self.square}={self.tile}"


def placements_from_diff(diff: Mapping[Square | str, Tile | str]) -> tuple[Placement, ...]:
    """A board diff as the table reports it, `{"H8": "A", "H9": "e"}` (lowercase: a blank), as placements."""
    out = []
    for square, tile in diff.items():
        sq = square if isinstance(square, Square) else Square.from_str(square)
        out.append(Placement(sq, tile if isinstance(tile, Tile) else Tile.from_str(tile)))
    return tuple(out)


def placements_from_str(text: str) -> tuple[Placement, ...]:
    """Read `H8=A H9=e ...` (spaces or commas between) into placements."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    return tuple(Placement.from_str(p) for p in parts)


@dataclass(frozen=True, slots=True)
class Play:
    """A written play: `8D WO.D` (`.` = a tile already on the board, lowercase = a blank)."""

    position: Position
    word: str

    @classmethod
    def from_str(cls, text: str) -> Play:
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(f"{text!r} is not a play: write position and word, like 8D WORD", form="play",
                                text=text)
        return cls(Position.from_str(parts[0]), parts[1])

    def __str__(self) -> str:
        return f"{self.position} {self.word}"

    def cells(self) -> list[tuple[Square, str, bool]]:
        """The word's squares, the letter written for each, and whether it is marked as played through.

        `.` and a letter in parentheses, `(A)`, mark a tile already on the board.
        """
        out: list[tuple[Square, str, bool]] = []
        square = self.position.start
        inside = False
        for ch in self.word:
            if ch in "()":
                if (ch == "(") == inside:
                    raise NotationError(f"{self}: unbalanced parentheses", form="parentheses", play=str(self))
                inside = ch == "("
                continue
            if ch != "." and not ch.isalpha():
                raise NotationError(f"{self}: {ch!r} is not a letter", form="play_letter", play=str(self), char=ch)
            out.append((square, ch, inside or ch == "."))
            square = square.step(self.position.direction)
        if inside:
            raise NotationError(f"{self}: unbalanced parentheses", form="parentheses", play=str(self))
        if not out:
            raise NotationError(f"{self}: no letters", form="no_letters", play=str(self))
        return out

    def placements(self, board: Board) -> tuple[Placement, ...]:
        """The new tiles this written play puts on `board`.

        A square that already holds a tile is played through whether the record writes `.`,
        `(X)` or the letter X; a written letter must match the tile there. A `.` on an empty
        square is an error: the record says a tile is there and none is.
        """
        new: list[Placement] = []
        for square, ch, through in self.cells():
            if not board.contains(square):
                raise OffBoardError(f"{self}: {square} is off the board", form="play", play=str(self),
                                    square=str(square))
            there = board.get(square)
            if there is not None:
                if ch != "." and ch.upper() != there.letter:
                    raise PlayThroughMismatchError(f"{self}: {square} holds {there}, not {ch}", form="holds",
                                                   play=str(self),
                                                   square=str(square), tile=str(there), letter=ch)
                continue
            if through:
                raise PlayThroughMismatchError(f"{self}: {square} is empty, but the play goes through a tile there",
                                               form="empty", play=str(self), square=str(square))
            new.append(Placement(square, Tile.from_str(ch)))
        return tuple(new)

    @classmethod
    def from_placements(cls, board: Board, placements: Iterable[Placement], direction: Direction) -> Play:
        """Write new tiles (not yet on `board`) as a GCG play of the main word, `.` for board tiles."""
        by_square = {p.square: p.tile for p in placements}
        first = min(by_square)
        last = max(by_square)
        start = first
        while True:
            prev = start.step(direction, -1)
            if board.get(prev) is None:
                break
            start = prev
        end = last
        while True:
            nxt = end.step(direction)
            if board.get(nxt) is None and nxt not in by_square:
                break
            end = nxt
        chars = []
        sq = start
        while True:
            tile = by_square.get(sq)
            chars.append(str(tile) if tile is not None else ".")
            if sq == end:
                break
            sq = sq.step(direction)
        return cls(Position(start, direction), "".join(chars))
