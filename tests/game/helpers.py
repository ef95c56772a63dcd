"""Small builders shared by the game tests (placements and boards from text)."""

from __future__ import annotations

import random

from game.board import Board
from game.errors import IllegalPlayError
from game.game import Game
from game.play import Placement, Play
from game.rules import RuleSet
from game.scoring import ScoredPlay, score
from game.squares import Square
from game.tiles import Tile
from game.validation import validate


def apply_moves(board: Board, rules: RuleSet, *moves: str) -> list[ScoredPlay]:
    """Play GCG moves (`8D WORD`) on a board in order, returning each scored play."""
    out = []
    for move in moves:
        placements = Play.from_str(move).placements(board)
        scored = score(validate(board, placements, rules), rules)
        board.place((p.square, p.tile) for p in placements)
        out.append(scored)
    return out


def pl(text: str) -> list[Placement]:
    """`H8=A H9=B` -> placements."""
    return [Placement.from_str(p) for p in text.split()]


def one_tile_play(game: Game, rng: random.Random) -> list[Placement] | None:
    """A legal play of one tile (two on the empty board), or None when the rack has none."""
    rack = game.rack(game.to_move) or ""
    letters = [("E" if ch == "?" else ch, ch == "?") for ch in rack]
    if game.board.is_empty:
        (a, ab), (b, bb) = letters[0], letters[1]
        return [Placement(Square(7, 7), Tile(a, ab)), Placement(Square(7, 8), Tile(b, bb))]
    squares = [Square(r, c) for r in range(15) for c in range(15) if game.board.get(Square(r, c)) is None]
    rng.shuffle(squares)
    for sq in squares:
        for letter, blank in letters:
            try:
                game.evaluate([Placement(sq, Tile(letter, blank))])
            except IllegalPlayError:
                continue
            return [Placement(sq, Tile(letter, blank))]
    return None
