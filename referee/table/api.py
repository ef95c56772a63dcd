"""The contract between the table service and its views: the scoreboard page, the terminal, MQTT.

The service owns the game; a view only reads snapshots and asks for control actions. Keeping this
contract in one small module lets the web page, the terminal view and the tournament reporter be
built and tested against a fake table, and lets the service change inside without breaking them.

A snapshot is a JSON-ready dict (schema below, `Snapshot`). Squares are named column letter then
row number, as on the board's edges: `H8` is the centre of the 15x15 board. Board rows are strings
of the board's width: `.` an empty square, an uppercase letter a tile, a lowercase letter a blank
tile standing for that letter, `?` a tile whose letter is not known yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, Protocol, TypedDict

from game.errors import RefereeError
from referee.words import say


class ControlError(RefereeError, ValueError):
    """A control action was refused: unknown action, malformed or out-of-place parameters, wrong state.

    `code` names the refusal and `fields` hold its particulars (`REFUSAL_TEXTS` in referee/words/table.py);
    `text(language)` says it in English or German, and `str()` is the English."""

    def __init__(self, code: str, /, **fields: object) -> None:
        super().__init__(say("refusals", code, "en", **fields))
        self.fields = fields
        self.code = code  # type: ignore[misc]  # a refusal's own code: one class, many kinds of refusal

    def text(self, language: str = "en") -> str:
        return say("refusals", self.code, language, **self.fields)


class ClockView(TypedDict):
    remaining_ms: int  # negative in overtime
    running: bool


class PlayerView(TypedDict):
    name: str
    score: int
    on_turn: bool
    clock: ClockView | None  # None when the table plays without game clocks
    rack_count: int | None  # tiles on the rack when known (simulated table), else None
    lost_on_time: bool  # the game ended with this player past the overtime limit (clocks set to "lose")


class MoveView(TypedDict):
    player: int  # index into players
    kind: Literal["play", "exchange", "pass", "withdrawn", "challenge", "penalty", "end", "lost_turn", "adjustment"]
    notation: str  # score-sheet notation, e.g. "8D QUIZ", "-ABC", "-", "(time)", "(adjustment)"
    words: list[str]
    score: int
    total: int
    note: NotRequired[str]  # only on a director's adjustment: the reason given
    square: NotRequired[str]  # a play: the square its main word starts on ("D8"), as `notation` writes it
    across: NotRequired[bool]  # a play: whether its main word reads across (else down)
    tiles: NotRequired[int]  # a play: the tiles laid down; an exchange: the tiles exchanged


class AlertView(TypedDict):
    level: Literal["info", "warning", "error"]
    code: str  # stable machine code, e.g. "doubtful_letter", "tile_moved", "board_lost", "camera_lost"
    text: str  # words a player understands, naming the squares, in the snapshot's language
    squares: list[str]
    # the values the words name (referee/words/table.py, the alert's code), for a client that says them itself; a
    # value that is words too is {"catalogue", "code", "fields"}
    fields: NotRequired[dict[str, Any]]


class ResultView(TypedDict):
    winners: list[int]  # indices into players: one, or several sharing the win
    # how the engine decided: "score" (the highest final score), "tie_break" (tied final scores, decided by the
    # score before the unplayed tiles [PC]), "shared" (a tie the rules leave shared), "lost_on_time" (a player
    # passed the overtime limit and lost: the others are ranked by score)
    reason: Literal["score", "tie_break", "shared", "lost_on_time"]


class Snapshot(TypedDict):
    version: int  # schema version, 1
    table: str  # the table's name from the configuration
    game: Literal["standard", "scramble", "scramble-advanced"]
    edition: Literal["english", "german"]
    language: Literal["en", "de"]  # language of the text fields
    # the table state machine's state: "waiting", "turn", "blank", "challenge", "takeback", "paused", "ended", ...
    state: str
    board: list[str]
    # same shape as board: "." none, "d" double letter, "t" triple letter, "D" double word, "T" triple word
    premiums: list[str]
    start: str  # the square the first play must cover: "H8" on the standard board, "E5" on Scramble's mat
    last_play: list[str]  # squares of the last committed play
    players: list[PlayerView]
    turn_timer: ClockView | None  # the sand-timer replacement, when in use
    moves: list[MoveView]
    unseen: str  # tiles not yet seen on the board, from the mover's opponents' view; "?" for blanks
    bag: int  # tiles left in the bag (dice left in the cup in Scramble)
    cup: NotRequired[list[int]]  # Scramble: which dice are in the cup, 1-12 as `referee dice show` numbers them
    alerts: list[AlertView]
    pending: dict[str, Any]  # what the table waits for from people: {"blanks": [squares]}, {"racks": [players]}, ...
    # the engine's verdict once the game has ended (state "ended"), else None; a view shows it, never computes it
    result: ResultView | None
    # the control actions the table takes in its state now ("start" while waiting, "resume" while paused,
    # "new_game" once ended, ...): the page offers these and no others (TableMachine.actions)
    actions: NotRequired[list[str]]
    judges_words: NotRequired[bool]  # False: no word list, so challenges cannot be judged (every word stands)
    seq: int  # increases by one with every snapshot the table publishes


Listener = Callable[[Snapshot], None]


class TableView(Protocol):
    """What a view may read. `subscribe` calls the listener with every new snapshot, from the table's own
    thread; a listener must be quick and must not raise (a view that needs its own loop hands over with
    `loop.call_soon_threadsafe`). The returned callable unsubscribes."""

    def snapshot(self) -> Snapshot: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...


class TableControl(Protocol):
    """What a view may ask: a control action and its parameters, as `ACTIONS` in referee/table/actions.py names
    them (each with `what` it does and the check of its parameters; docs/api.md lists them).

    `control` returns the snapshot after the action, or raises `ControlError` with a clear message and
    changes nothing. The PIN is checked by the view (the web layer), not here.
    """

    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot: ...


# --- What the table service's snapshots and controls hold beyond the base contract above (kept apart so a view
# --- built on the base contract alone still works) ---------------------------------------------------------

PENDING_KEYS: dict[str, str] = {
    "blanks": "squares whose blank tile waits for its letter (action `blank`)",
    "letters": "squares whose letter the sensors could not read for sure (action `correct`)",
    "remove": "squares whose tiles must come off: a phony taken back, or Scramble's scrambled dice",
    "racks": "seats whose tiles left at the end are still to be entered (action `racks`)",
    "challenge": "{player, remaining_ms, words}: the last play, open to challenge for that long; words: how "
                 "many words it formed (the most a challenge can name)",
    "roll": "Scramble: the number of dice to roll now (action `roll` {\"letters\": \"AEQ...\"}, or the tray)",
    "rolled": "Scramble: the letters rolled this turn",
}

ALERT_CODES: dict[str, str] = {
    "board_lost": "the sensor board does not answer", "camera_lost": "the camera sends no pictures",
    "tile_moved": "a tile moved or lifted outside a turn", "tile_changed": "another letter lies on a square",
    "tiles_added": "tiles put down outside a turn", "doubtful_letter": "a letter to confirm",
    "blank_letter": "a blank's letter to give", "illegal_play": "the placement breaks a rule",
    "commit_refused": "a clock press not taken, and why", "not_in_lexicon": "a phony: take it off",
    "take_back": "tiles to take off", "remove_dice": "Scramble: dice to take off the mat",
    "challenge_good": "a challenged play stands", "time_up": "a player's time ran out",
    "max_overtime": "a player passed the overtime limit",
    "lost_on_time": "a player passed the overtime limit and lost: the game is over",
    "turn_timer": "the turn timer ran out",
    "racks_needed": "racks to enter at the end", "journal_failed": "the game cannot be saved",
    "speech_failed": "the table's voice cannot speak (no sound device): the game goes on silent",
    "settings_kept": "a resumed game keeps the settings it started with, not the configuration's new ones",
    "journal_behind": "the board holds tiles the saved game does not know: the journal may have lost moves",
    "journal_damaged": "the saved game has unreadable events: they were skipped",
    "journal_waiting": "the SD card has not answered for a while: the last change waits for it",
    "journal_malformed": "the saved game is damaged (the SD card lost part of the journal)",
    "journal_held": "another program reads the journal: the last turns stay in the write-ahead log",
    "board_unfit": "the sensor board cannot play this game (its size or dice tray)",
    "camera_blind": "the camera cannot see the board clearly: the play was not read",
    "director_message": "the tournament director's message",
    "challenge_held": "the director holds the challenge: the clocks are stopped",
    "play_undone": "the director undid the last play", "score_adjusted": "the director adjusted a score",
    "pin_guessing": "someone is guessing the table PIN",
}
