"""Play validation: are these new tiles a legal placement on this board? Which words do they form?

Parse, then check, then apply: `validate` only reads the board. It raises the precise
`IllegalPlayError` subclass, naming the squares, for the first rule broken, in the order a
player would look: blanks and letters, off the board, occupied, one line, no gap, first play
(start square, two letters), connected. It returns the words formed (the main word along the
line and every cross word of two letters or more), ready for `game.scoring`.

The lexicon is not consulted here: whether the words are good is a challenge matter, decided
by the game's challenge rule (`game.game`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.board import Board
from game.errors import (
    BlankWithoutLetterError,
    DuplicateSquareError,
    EmptyPlayError,
    FirstPlayTooShortError,
    GapError,
    NotConnectedError,
    NotInLineError,
    OccupiedSquareError,
    OffBoardError,
    StartSquareError,
    UnknownLetterError,
)
from game.play import Placement, Play
from game.rules import RuleSet
from game.squares import Direction, Position, Square
from game.tiles import Tile


@dataclass(frozen=True, slots=True)
class Word:
    """A word formed or modified by a play: its squares' flat indices, tiles, and which are new."""

    start: Square
    direction: Direction
    indices: tuple[int, ...]
    tiles: tuple[Tile, ...]
    new: tuple[bool, ...]

    @property
    def text(self) -> str:
        """The word's letters, uppercase (blanks read as the letter they stand for)."""
        return "".join(t.letter for t in self.tiles)

    @property
    def end(self) -> Square:
        return self.start.step(self.direction, len(self.tiles) - 1)

    def __str__(self) -> str:
        return f"{Position(self.start, self.direction)} {''.join(str(t) for t in self.tiles)}"


@dataclass(frozen=True, slots=True)
class CheckedPlay:
    """A placement that follows the rules of placing (not yet scored, words not yet judged)."""

    placements: tuple[Placement, ...]
    direction: Direction
    words: tuple[Word, ...]  # main word first, when it has two letters or more

    @property
    def main_word(self) -> Word:
        return self.words[0]

    def play(self) -> Play:
        """The play as a GCG score sheet writes it: main word, `.` for tiles already on the board."""
        main = self.words[0]
        return Play(Position(main.start, main.direction), "".join(
            str(t) if n else "." for t, n in zip(main.tiles, main.new, strict=True)
        ))


def _square_key(p: Placement) -> tuple[int, int]:
    return (p.square.row, p.square.col)


def _span(squares: Iterable[Square]) -> str:
    ordered = sorted(squares)
    return str(ordered[0]) if len(ordered) == 1 else f"{ordered[0]}-{ordered[-1]}"


def validate(
    board: Board, placements: Iterable[Placement], rules: RuleSet, first_play: bool | None = None
) -> CheckedPlay:
    """Check new tiles against the board and the rules; return the words they form.

    `first_play`: whether the first-play rules apply (start square, two letters, no connection needed);
    None means "when the board is empty". A variant's game decides it through `Game.is_first_play`.
    """
    placed = tuple(sorted(placements, key=_square_key))
    if not placed:
        raise EmptyPlayError("no tiles were placed")
    width, height = board.width, board.height
    cells = board.cells
    tiles_set = rules.tiles
    # One pass per rule, so the error reported does not depend on the order tiles were given.
    for p in placed:
        sq, tile = p.square, p.tile
        if not tile.letter.isalpha():
            if tile.blank or tile.letter == "?":
                raise BlankWithoutLetterError(f"{sq}: say which letter the blank stands for", square=str(sq))
            raise UnknownLetterError(f"{sq}: {tile.letter!r} is not a letter", form="not_letter", square=str(sq),
                                     letter=tile.letter)
        if not tiles_set.has_letter(tile.letter):
            raise UnknownLetterError(f"{sq}: the {tiles_set.name} tile set has no letter {tile.letter}",
                                     form="not_in_set",
                                     square=str(sq), tile_set=tiles_set.name, letter=tile.letter)
    off = [p.square for p in placed if not (0 <= p.square.row < height and 0 <= p.square.col < width)]
    if off:
        raise OffBoardError(f"{', '.join(map(str, off))}: off the board (the board is {width}x{height})",
                            form="squares", squares=", ".join(map(str, off)), width=width, height=height)
    new: dict[int, Tile] = {}
    for p in placed:
        idx = p.square.row * width + p.square.col
        if idx in new:
            raise DuplicateSquareError(f"{p.square}: two tiles placed on one square", square=str(p.square))
        new[idx] = p.tile
    for p in placed:
        there = cells[p.square.row * width + p.square.col]
        if there is not None:
            raise OccupiedSquareError(f"{p.square}: already holds {there}", square=str(p.square), tile=str(there))

    first, last = placed[0].square, placed[-1].square
    if all(p.square.row == first.row for p in placed):
        if len(placed) == 1:
            # One tile: the main word runs the way it touches a neighbour (across first).
            c = first.col
            left = c > 0 and cells[first.row * width + c - 1] is not None
            right = c + 1 < width and cells[first.row * width + c + 1] is not None
            direction = Direction.ACROSS if (left or right) else Direction.DOWN
        else:
            direction = Direction.ACROSS
    elif all(p.square.col == first.col for p in placed):
        direction = Direction.DOWN
    else:
        raise NotInLineError(f"{', '.join(str(p.square) for p in placed)}: tiles are not in one line",
                             squares=", ".join(str(p.square) for p in placed))

    step = 1 if direction is Direction.ACROSS else width
    lo = first.row * width + first.col
    hi = last.row * width + last.col
    for idx in range(lo, hi + 1, step):
        if idx not in new and cells[idx] is None:
            gap = Square(idx // width, idx % width)
            raise GapError(f"{_span([first, last])}: there is a gap at {gap}", span=_span([first, last]),
                           square=str(gap))

    if first_play is None:
        first_play = board.is_empty
    if first_play:
        if rules.first_play_covers_start:
            start = board.layout.start
            if (start.row * width + start.col) not in new:
                raise StartSquareError(f"{_span([first, last])}: the first play must cover the start square {start}",
                                       span=_span([first, last]), start=str(start))
        if len(placed) < rules.first_play_min_tiles:
            raise FirstPlayTooShortError(
                f"{_span([first, last])}: the first word needs at least {rules.first_play_min_tiles} letters",
                form="min_letters", span=_span([first, last]), count=rules.first_play_min_tiles,
            )

    words: list[Word] = []
    main = _word_through(cells, width, height, new, first, direction)
    if main is not None:
        words.append(main)
    for p in placed:
        cross = _word_through(cells, width, height, new, p.square, direction.other)
        if cross is not None:
            words.append(cross)
    if not first_play and not any(not all(w.new) for w in words):
        raise NotConnectedError(f"{_span([first, last])}: the play does not touch any tile on the board",
                                 span=_span([first, last]))
    if not words:
        raise FirstPlayTooShortError(f"{_span([first, last])}: a single tile forms no word", form="single_tile",
                                     span=_span([first, last]))
    return CheckedPlay(placed, direction, tuple(words))


def _word_through(
    cells: list[Tile | None], width: int, height: int, new: dict[int, Tile], square: Square, direction: Direction
) -> Word | None:
    """The longest run of tiles (board or new) through `square` along `direction`; None under 2 letters."""
    if direction is Direction.ACROSS:
        step, row_start = 1, square.row * width
        lo_bound, hi_bound = row_start, row_start + width - 1
    else:
        step = width
        lo_bound, hi_bound = square.col, square.col + (height - 1) * width
    idx = square.row * width + square.col
    start = idx
    while start - step >= lo_bound and (cells[start - step] is not None or (start - step) in new):
        start -= step
    end = idx
    while end + step <= hi_bound and (cells[end + step] is not None or (end + step) in new):
        end += step
    if start == end:
        return None
    indices = tuple(range(start, end + 1, step))
    tiles: list[Tile] = []
    fresh: list[bool] = []
    for i in indices:
        t = new.get(i)
        if t is None:
            board_tile = cells[i]
            assert board_tile is not None
            tiles.append(board_tile)
            fresh.append(False)
        else:
            tiles.append(t)
            fresh.append(True)
    return Word(Square(start // width, start % width), direction, indices, tuple(tiles), tuple(fresh))
