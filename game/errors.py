"""The project's base error, and the rules engine's errors.

Every failure a player or a user can cause has its own class, a subclass of both
`RefereeError` and `ValueError`, so callers can catch one kind precisely or all of them
at once, and code written against `ValueError` keeps working.

The rules engine's messages name the squares in GCG notation (`H8-H12: tiles are not in one
line`) so that the scoreboard, a log and a tournament director all read the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar


class RefereeError(Exception):
    """Base of every error the project raises on purpose.

    Besides its English message, an error carries what a translation needs, so that the service can
    say it in the players' language without reading the English text: `code` names the kind (one per
    class, stable: other programs and the translations key on it), `form` which of the class's
    messages it is (a class with one message has the form ""), and `fields` the values the message
    names (squares, words, letters, counts). `forms` declares, per form, the names of the fields a
    raise site must give; a test holds every raise site and every translation to it.
    """

    code: ClassVar[str] = "referee_error"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ()}

    def __init__(self, *args: object, form: str = "", **fields: object) -> None:
        super().__init__(*args)  # the message (any arguments an Exception takes, as before)
        self.form = form
        self.fields: Mapping[str, object] = fields  # a Mapping to readers; a plain dict so errors pickle

    @property
    def message_key(self) -> str:
        """`code` and `form` in one word (`not_on_rack.played`), the key of the error's translations."""
        return f"{self.code}.{self.form}" if self.form else self.code


# --- data and notation -------------------------------------------------------------------


class DataError(RefereeError, ValueError):
    """A layout, tile set or rule-set file is malformed (says which file and what)."""

    code = "data"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "dice_detail": ("source", "detail"),
        "dice_die": ("source", "number", "detail"),
        "dice_file": ("source",),
        "dice_key": ("source", "key"),
        "dice_provisional": ("source",),
        "dice_set_count": ("name", "count", "per_set"),
        "dice_set_value": ("name", "letter", "value", "first", "other", "number"),
        "dice_values": ("name", "letters", "dice"),
        "journal_entry": ("entry", "detail"),
        "layout_empty": ("name",),
        "layout_file": ("source", "detail"),
        "layout_kinds": ("name", "row", "kinds"),
        "layout_row_width": ("name", "row", "count", "width"),
        "layout_start": ("name", "count"),
        "layout_too_wide": ("name",),
        "no_dice": ("name",),
        "no_dice_set": ("name", "known"),
        "no_layout": ("name",),
        "no_tile_set": ("name", "known"),
        "not_scramble": ("name",),
        "rules_options": ("options",),
        "rules_value": ("detail", "raw"),
        "scramble_rules": ("detail",),
        "target": ("name", "target"),
        "tile_entry": ("source", "letter"),
        "tile_file": ("source", "detail"),
        "tile_letter": ("source", "letter"),
        "turn_seconds": ("name", "seconds"),
    }


class NotationError(RefereeError, ValueError):
    """A square, position, tile or move written in text cannot be read."""

    code = "notation"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "blank_face": ("value",),
        "die_face": ("text",),
        "die_faces": ("per_die", "count", "die"),
        "die_letter": ("letter",),
        "eszett": (),
        "face_item": ("item",),
        "face_negative": ("letter", "value"),
        "gcg_nick": ("line", "nick"),
        "no_letters": ("play",),
        "parentheses": ("play",),
        "placement": ("text",),
        "play": ("text",),
        "play_letter": ("play", "char"),
        "position": ("text",),
        "position_row": ("text",),
        "rack_char": ("char", "rack"),
        "square": ("text",),
        "square_row": ("text",),
        "tile": ("text",),
    }


# --- placing tiles ------------------------------------------------------------------------


class IllegalPlayError(RefereeError, ValueError):
    """Base of every reason a placement of tiles is refused by the rules."""

    code = "illegal_play"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ()}


class EmptyPlayError(IllegalPlayError):
    """A play that places no tile."""

    code = "empty_play"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "": (),
        "no_main_word": (),
    }


class OffBoardError(IllegalPlayError):
    """A tile lies outside the board."""

    code = "off_board"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "play": ("play", "square"),
        "square": ("square",),
        "squares": ("squares", "width", "height"),
        "take_back": ("square",),
    }


class OccupiedSquareError(IllegalPlayError):
    """A new tile is put on a square that already holds a tile."""

    code = "occupied_square"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("square", "tile")}


class DuplicateSquareError(IllegalPlayError):
    """Two new tiles on the same square in one play."""

    code = "duplicate_square"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("square",)}


class NotInLineError(IllegalPlayError):
    """The new tiles are not all in one row or one column."""

    code = "not_in_line"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("squares",)}


class GapError(IllegalPlayError):
    """The new tiles and the tiles they touch do not form one unbroken word."""

    code = "gap"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("span", "square")}


class NotConnectedError(IllegalPlayError):
    """After the first play, a play that touches no tile on the board."""

    code = "not_connected"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("span",)}


class StartSquareError(IllegalPlayError):
    """The first play does not cover the start square."""

    code = "start_square"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("span", "start")}


class FirstPlayTooShortError(IllegalPlayError):
    """The first play is a single tile (the first word needs two letters or more)."""

    code = "first_play_too_short"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "min_letters": ("span", "count"),
        "single_tile": ("span",),
    }


class BlankWithoutLetterError(IllegalPlayError):
    """A blank is played without saying which letter it stands for."""

    code = "blank_without_letter"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("square",)}


class UnknownLetterError(IllegalPlayError):
    """A letter that the tile set of the game does not have."""

    code = "unknown_letter"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "not_in_set": ("square", "tile_set", "letter"),
        "not_letter": ("square", "letter"),
    }


class PlayThroughMismatchError(IllegalPlayError):
    """A written move names a letter for a square that holds a different tile."""

    code = "play_through_mismatch"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "empty": ("play", "square"),
        "holds": ("play", "square", "tile", "letter"),
    }


class NotOnRackError(IllegalPlayError):
    """The player's rack (when known) does not hold the tiles played or exchanged."""

    code = "not_on_rack"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "exchange": ("exchanged", "tiles", "rack"),
        "face_not_in_hand": ("square", "face", "hand"),
        "passed_dice": ("rack", "passed", "tiles"),
        "played": ("play", "tiles", "rack"),
        "too_many": ("play", "count", "player", "held"),
    }


class NotInBagError(IllegalPlayError):
    """Tile tracking: more of a letter is played than remain unseen."""

    code = "not_in_bag"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "play": ("play", "unseen"),
        "rack": ("rack", "tiles"),
        "racks": ("racks", "tiles"),
    }


class NotInLexiconError(IllegalPlayError):
    """A word of the play is not in the lexicon (the message lists them)."""

    code = "not_in_lexicon"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "many": ("words",),
        "one": ("words",),
    }

    def __init__(self, message: str = "", words: tuple[str, ...] = (), /, *, form: str = "",
                 **fields: object) -> None:
        super().__init__(message, form=form, **fields)
        self.words = words


# --- turns --------------------------------------------------------------------------------


class IllegalTurnError(RefereeError, ValueError):
    """Base of the errors of whole turns: whose turn, exchange, challenge, game over."""

    code = "illegal_turn"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ()}


class NotYourTurnError(IllegalTurnError):
    """A player acts out of turn."""

    code = "not_your_turn"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("turn", "player")}


class ExchangeNotAllowedError(IllegalTurnError):
    """An exchange the rules refuse (too few tiles in the bag, too many tiles, none)."""

    code = "exchange_not_allowed"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "bag_too_small": ("bag", "needed"),
        "more_than_bag": ("count", "bag"),
        "no_tiles": (),
        "say_tiles": (),
        "scramble": (),
    }


class ChallengeError(IllegalTurnError):
    """A challenge the rules refuse (nothing to challenge, void rule, own play)."""

    code = "challenge"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "already": ("player",),
        "cannot_challenge": ("challenger", "player"),
        "forced_play": (),
        "no_lexicon": (),
        "nothing_pending": (),
        "void": (),
        "void_needs_lexicon": (),
        "word_count": ("words", "formed"),
        "word_count_none": ("words", "formed"),
    }


class GameOverError(IllegalTurnError):
    """A turn after the end of the game."""

    code = "game_over"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "end_racks": ("detail",),
        "lost_on_time": ("player",),
        "no_end_rack": ("player",),
        "not_ended": (),
        "not_waiting_racks": (),
        "over": ("why",),
    }


class AdjustmentError(IllegalTurnError):
    """A director's points-only score adjustment the engine refuses (no points, too many, no reason)."""

    code = "adjustment"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "points": ("points", "most"),
        "reason": ("most",),
    }


class CorrectionError(IllegalTurnError):
    """A director's correction of the last play the engine cannot make: no play to take back or correct, a turn
    played since, a square the play did not cover."""

    code = "correction"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "no_play": (),
        "not_in_play": ("square", "play"),
        "turn_since": ("play",),
    }


class PlayerError(IllegalTurnError):
    """A wrong number of players or an unknown player."""

    code = "player"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "count": ("count", "rules", "min", "max"),
        "draws": ("draws",),
        "no_player": ("player",),
        "racks_needed": ("players",),
        "unknown_action": ("action",),
    }


# --- lexicons and records -----------------------------------------------------------------


class LexiconError(RefereeError, ValueError):
    """A word list that cannot be used (empty, undecodable, not a word list at all, wrong compiled format)."""

    code = "lexicon"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "binary": ("name",),
        "compiled_empty": ("name",),
        "damaged": ("name", "kind", "detail"),
        "no_words": ("name", "words", "lines", "encoding", "duplicates", "comments", "rejected"),
        "not_a_list": ("name", "kind", "what"),
        "not_compiled": (),
        "rejects": ("name", "rejected", "content", "share", "summary"),
        "too_big": ("name", "limit"),
        "too_few": ("name", "words", "min_words", "summary"),
    }


class GCGError(RefereeError, ValueError):
    """A GCG record that cannot be read; the message names the line."""

    code = "gcg"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "move_nick": ("line", "text"),
        "no_score": ("line", "text"),
        "not_gcg": (),
        "not_move": ("line", "token"),
        "not_position": ("line", "token"),
        "player_nick": ("line", "key"),
        "rack_move": ("line", "text"),
        "score_digits": ("line", "token", "digits"),
        "too_long": ("lines", "limit"),
        "utf16": ("why", "at"),
    }


class UnknownVariantError(RefereeError, ValueError):
    """A `#variant`, layout or tile set name that no rule set is registered for."""

    code = "unknown_variant"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {"": ("name", "known")}
