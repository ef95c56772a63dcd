"""A tournament director's commands at a table: what each does to the table machine.

A command is its own event kind ("director", journaled with who sent it and its id: referee/tournament_link.py),
so the page's control actions (the players' PIN) never reach these. `DIRECTOR` in referee/table/machine.py names
them beside `TRANSITIONS`; the commands that are also the table's own actions (pause, resume, start, a misread
letter) go through `TRANSITIONS` like a button press (`_as_control`), so they are refused where the table refuses
them. Pure, as the machine is: what a command needs of it is `Directed`.
"""

from __future__ import annotations

from typing import Any, Protocol

from game.clock import GameClock
from game.errors import CorrectionError, RefereeError
from game.game import Game
from referee.table import controls
from referee.table.api import ControlError
from referee.table.picture import squares_text
from referee.table.setup import TableSetup
from referee.table.state import Alert, LastPlay, TableState, TableTime

DEFAULT_MESSAGE_MINUTES = 10  # how long a director's message stays when the director gave no minutes
MAX_MESSAGE_MINUTES = 24 * 60


class Directed(Protocol):
    """What a director's command reads and changes of a table machine (`TableMachine` is one)."""

    setup: TableSetup
    n: int
    time: TableTime
    game: Game
    clock: GameClock | None
    state: TableState
    mover: int
    last: LastPlay | None
    notices: list[Alert]
    held: bool
    message_until_ms: int | None

    def _as_control(self, action: str, params: dict[str, Any] | None = None) -> None: ...

    def _notice(self, level: str, code: str, squares: list[str] | None = None, /, **fields: Any) -> None: ...

    def _start_takeback(self, squares: set[str], same_mover: bool) -> None: ...


def pause(m: Directed, args: dict[str, Any]) -> None:
    m._as_control("pause")


def resume(m: Directed, args: dict[str, Any]) -> None:
    m._as_control("resume")
    m.held = False
    m.notices = [a for a in m.notices if a.code != "challenge_held"]


def start(m: Directed, args: dict[str, Any]) -> None:
    m._as_control("start")


def set_players(m: Directed, args: dict[str, Any]) -> None:
    """Recorded as the first event of a game the director seated (LiveTable.next_game made the game)."""
    if m.state is not TableState.WAITING:
        raise ControlError("seat_not_now", state=m.state)


def message(m: Directed, args: dict[str, Any]) -> None:
    """The director's words on every view, for `minutes` (default 10, at most a day) of table time: a message that
    stayed for the rest of the game was read as news hours later. The table's own tick falls due when it goes
    (`TableMachine.next_due_ms`), so a replay from the journal drops it at the same instant."""
    said = args.get("text")
    if not isinstance(said, str) or not said.strip():
        raise ControlError("message_empty")
    minutes = args.get("minutes", DEFAULT_MESSAGE_MINUTES)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MESSAGE_MINUTES:
        raise ControlError("message_minutes", minutes=minutes)
    m._notice("info", "director_message", text=said.strip()[:500])
    m.message_until_ms = m.time.ms + minutes * 60_000


def _seat(m: Directed, args: dict[str, Any]) -> int:
    seat = controls.seat_of(m.n, args.get("player"))
    if seat is None:
        raise ControlError("director_seat", last=m.n - 1, player=args.get("player"))
    return seat


def adjust_time(m: Directed, args: dict[str, Any]) -> None:
    player = _seat(m, args)
    seconds = args.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ControlError("adjust_seconds", seconds=seconds)
    if m.clock is None:
        raise ControlError("no_game_clocks")
    m.clock.adjust(player, float(seconds))


def correct_score(m: Directed, args: dict[str, Any]) -> None:
    """A score corrected by a letter (`square`, `letter`): a letter of the last play (or of the play being read)
    that the table read wrong; the engine scores the play again, so page, result and GCG agree.

    Or by points (`player`, `points`, `reason`): a director's ruling the engine cannot score itself (a penalty, a
    play of a paper-scored game entered with the wrong score). It is its own line of the score sheet, in the
    totals and the result, and in the GCG record; the turn and the clocks go on untouched."""
    if "square" in args:
        m._as_control("correct", {"square": args.get("square"), "letter": args.get("letter")})
        return
    if "points" not in args:
        raise ControlError("score_args", given=", ".join(sorted(args)) or "-")
    if m.state is TableState.WAITING:
        raise ControlError("adjust_not_now")
    player = _seat(m, args)
    reason = args.get("reason")
    if not isinstance(reason, str):
        raise ControlError("adjust_reason")
    m.game.adjust_score(player, args["points"], reason)  # the engine's refusal names what is wrong
    m._notice("info", "score_adjusted", player=m.setup.players[player], points=f"{args['points']:+d}",
              total=m.game.scores[player], reason=m.game.events[-1].note)


def hold(m: Directed, args: dict[str, Any]) -> None:
    if args.get("hold", True):
        if m.state is not TableState.CHALLENGE:
            raise ControlError("no_challenge_to_hold", state=m.state)
        m._as_control("pause")
        m.held = True
        m._notice("warning", "challenge_held")
        return
    if not (m.state is TableState.PAUSED and m.held):
        raise ControlError("no_challenge_held")
    resume(m, {})


def undo(m: Directed, args: dict[str, Any]) -> None:
    """Take the last play back as if it had not been made (the engine's `undo_last_play`): its player plays
    again, on their own clock, once its tiles are off the board."""
    last = m.last
    if last is None or m.setup.scramble or m.state not in (TableState.CHALLENGE, TableState.TURN):
        raise ControlError("undo_not_now", state=m.state)
    try:
        m.game.undo_last_play()
    except CorrectionError:  # a turn was played since (or the play was withdrawn): it is not the last play
        raise ControlError("undo_not_now", state=m.state) from None
    except RefereeError as exc:  # pragma: no cover - a prefix of a valid game replays
        raise ControlError("undo_failed", error=exc) from None
    m.last = None
    m.mover = last.player
    if m.clock is not None and m.clock.state == "running" and m.clock.on_move != m.mover:
        m.clock.switch_to(m.mover)
    m._notice("info", "play_undone", sorted(last.placed), squares=squares_text(set(last.placed)))
    m._start_takeback(set(last.placed), same_mover=True)
