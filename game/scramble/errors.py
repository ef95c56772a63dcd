"""Errors of SCRABBLE Scramble that the standard game has no word for.

Everything the standard game already names (a play not in one line, a word not in the lexicon,
a malformed data file, a turn out of order) is raised with the engine's classes from
`game.errors`; only the dice have failure kinds of their own, both turn errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from game.errors import IllegalTurnError


class RollError(IllegalTurnError):
    """A roll the cup cannot produce: too many dice, or a face no die left in the cup shows.

    A turn error: a record checker reports it against the line like a refused play."""

    code = "roll"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "cup_cannot_show": ("wanted",),
        "dice_count": ("count", "per_set"),
        "die_twice": ("cup", "out"),
        "no_face": ("dice_set", "face"),
        "nobody_rolled": (),
        "not_in_alphabet": ("letter", "alphabet"),
        "rack_empty_hand": ("rack", "hand"),
        "rack_not_hand": ("rack", "hand"),
        "roll_count": ("read", "to_draw", "hand", "cup", "max"),
    }


class RollOrderError(IllegalTurnError):
    """A turn step out of order: a play before the dice are rolled, or a second roll in one turn."""

    code = "roll_order"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "not_rolled": ("player",),
        "rolled_twice": ("player",),
    }
