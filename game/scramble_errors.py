"""Errors of SCRABBLE Scramble that the standard game has no word for.

Everything the standard game already names (a play not in one line, a word not in the lexicon,
a malformed data file, a turn out of order) is raised with the engine's classes from
`game.errors`; only the dice have failure kinds of their own, both turn errors.
"""

from __future__ import annotations

from game.errors import IllegalTurnError


class RollError(IllegalTurnError):
    """A roll the cup cannot produce: too many dice, or a face no die left in the cup shows.

    A turn error: a record checker reports it against the line like a refused play."""


class RollOrderError(IllegalTurnError):
    """A turn step out of order: a play before the dice are rolled, or a second roll in one turn."""
