"""The project's base error, and the rules engine's errors.

Every failure a player or a user can cause has its own class, a subclass of both
`RefereeError` and `ValueError`, so callers can catch one kind precisely or all of them
at once, and code written against `ValueError` keeps working.

The rules engine's messages name the squares in GCG notation (`H8-H12: tiles are not in one
line`) so that the scoreboard, a log and a tournament director all read the same words.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error the project raises on purpose."""


# --- data and notation -------------------------------------------------------------------


class DataError(RefereeError, ValueError):
    """A layout, tile set or rule-set file is malformed (says which file and what)."""


class NotationError(RefereeError, ValueError):
    """A square, position, tile or move written in text cannot be read."""


# --- placing tiles ------------------------------------------------------------------------


class IllegalPlayError(RefereeError, ValueError):
    """Base of every reason a placement of tiles is refused by the rules."""


class EmptyPlayError(IllegalPlayError):
    """A play that places no tile."""


class OffBoardError(IllegalPlayError):
    """A tile lies outside the board."""


class OccupiedSquareError(IllegalPlayError):
    """A new tile is put on a square that already holds a tile."""


class DuplicateSquareError(IllegalPlayError):
    """Two new tiles on the same square in one play."""


class NotInLineError(IllegalPlayError):
    """The new tiles are not all in one row or one column."""


class GapError(IllegalPlayError):
    """The new tiles and the tiles they touch do not form one unbroken word."""


class NotConnectedError(IllegalPlayError):
    """After the first play, a play that touches no tile on the board."""


class StartSquareError(IllegalPlayError):
    """The first play does not cover the start square."""


class FirstPlayTooShortError(IllegalPlayError):
    """The first play is a single tile (the first word needs two letters or more)."""


class BlankWithoutLetterError(IllegalPlayError):
    """A blank is played without saying which letter it stands for."""


class UnknownLetterError(IllegalPlayError):
    """A letter that the tile set of the game does not have."""


class PlayThroughMismatchError(IllegalPlayError):
    """A written move names a letter for a square that holds a different tile."""


class NotOnRackError(IllegalPlayError):
    """The player's rack (when known) does not hold the tiles played or exchanged."""


class NotInBagError(IllegalPlayError):
    """Tile tracking: more of a letter is played than remain unseen."""


class NotInLexiconError(IllegalPlayError):
    """A word of the play is not in the lexicon (the message lists them)."""

    def __init__(self, message: str, words: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.words = words


# --- turns --------------------------------------------------------------------------------


class IllegalTurnError(RefereeError, ValueError):
    """Base of the errors of whole turns: whose turn, exchange, challenge, game over."""


class NotYourTurnError(IllegalTurnError):
    """A player acts out of turn."""


class ExchangeNotAllowedError(IllegalTurnError):
    """An exchange the rules refuse (too few tiles in the bag, too many tiles, none)."""


class ChallengeError(IllegalTurnError):
    """A challenge the rules refuse (nothing to challenge, void rule, own play)."""


class GameOverError(IllegalTurnError):
    """A turn after the end of the game."""


class PlayerError(IllegalTurnError):
    """A wrong number of players or an unknown player."""


# --- lexicons and records -----------------------------------------------------------------


class LexiconError(RefereeError, ValueError):
    """A word list that cannot be used (empty, undecodable, wrong compiled format)."""


class GCGError(RefereeError, ValueError):
    """A GCG record that cannot be read; the message names the line."""


class UnknownVariantError(RefereeError, ValueError):
    """A `#variant`, layout or tile set name that no rule set is registered for."""
