"""Small builders shared by the game tests (placements and boards from text)."""

from __future__ import annotations

from game.board import Board
from game.play import Placement, Play
from game.rules import RuleSet
from game.scoring import ScoredPlay, score
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
