"""Errors of SCRABBLE Scramble that the standard game has no word for.

Everything the standard game already names (a play not in one line, a word not in the lexicon,
a malformed data file, a turn out of order) is raised with the engine's classes from
`game.errors`; only the dice have failure kinds of their own.
"""

from __future__ import annotations

from game.errors import RefereeError


class RollError(RefereeError, ValueError):
    """A roll the cup cannot produce: too many dice, or a face no die left in the cup shows."""


class TimeUpError(RefereeError, ValueError):
    """A play handed in after the turn's sand timer (60 seconds by default) has run out."""
