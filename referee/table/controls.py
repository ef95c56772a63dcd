"""The players' control actions at a table: what each does to the table machine, and why one is refused.

The page, the buttons and a director's table commands (`_as_control`) send them; `TRANSITIONS` in
referee/table/machine.py gives each state the actions it takes, and `REFUSALS` here says why an action is
refused in a state that does not take it. Pure, as the machine is; what an action needs of the machine is
`Controlled`. A parameter is checked as the action schema says (referee/table/actions.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from game.clock import GameClock, TurnTimer
from game.errors import CorrectionError, NotationError, RefereeError
from game.game import Game
from game.scramble import ScrambleGame
from game.scramble.dice import Face
from game.squares import Square
from game.tiles import rack_counter
from referee.table import actions
from referee.table.api import ControlError
from referee.table.picture import Cell, squares_text
from referee.table.rules import TableRules, check_letter
from referee.table.setup import TableSetup
from referee.table.state import LastPlay, TableState, TableTime


class Controlled(Protocol):
    """What a control action reads and changes of a table machine (`TableMachine` is one)."""

    setup: TableSetup
    rules: TableRules
    n: int
    time: TableTime
    game: Game
    clock: GameClock | None
    timer: TurnTimer | None
    state: TableState
    paused_from: TableState | None
    mover: int
    last: LastPlay | None
    last_verdict: bool | None
    observed: dict[str, Cell]
    pending: dict[str, str | None]
    pending_blank: set[str]
    by_hand: set[str]
    racks: dict[int, str]
    racks_needed: list[int]
    _journaled_verdict: bool | None

    @property
    def committed(self) -> dict[str, str]: ...

    def _check_board(self) -> None: ...

    def _maybe_judge(self) -> None: ...

    def _new_tiles(self) -> dict[str, Cell]: ...

    def _verdicts_done(self) -> None: ...

    def _end_turn_clock(self) -> None: ...

    def _next_turn(self) -> None: ...

    def _commit(self, by_time: bool = False) -> None: ...

    def _notice(self, level: str, code: str, squares: list[str] | None = None, /, **fields: Any) -> None: ...

    def _start_takeback(self, squares: set[str], same_mover: bool) -> None: ...

    def _accept(self) -> None: ...

    def _finish(self) -> None: ...

    def _scramble(self) -> ScrambleGame: ...


def start(m: Controlled, params: dict[str, Any]) -> None:
    if m.observed:
        raise ControlError("start_board_not_clear", squares=squares_text(set(m.observed)))
    m.mover = m.game.to_move
    if m.clock is not None:
        m.clock.start(m.mover)
    if m.setup.scramble:
        m.state = TableState.ROLL
    else:
        m.state = TableState.TURN
        if m.timer is not None:
            m.timer.start_turn()


def pause(m: Controlled, params: dict[str, Any]) -> None:
    m.paused_from = m.state
    m.state = TableState.PAUSED  # the clocks and the turn timer stop in _sync_clocks
    if m.last is not None and m.last.deadline_ms is not None:
        m.last.deadline_ms -= m.time.ms  # kept as time left while paused


def resume(m: Controlled, params: dict[str, Any]) -> None:
    m.state = m.paused_from or TableState.TURN
    m.paused_from = None
    if m.last is not None and m.last.deadline_ms is not None:
        m.last.deadline_ms += m.time.ms
    m._check_board()


def blank(m: Controlled, params: dict[str, Any]) -> None:
    sq = square(params)
    if sq not in m.pending_blank:
        raise no_blank_there(m, sq)
    letter = letter_of(m, params, sq)
    m.pending[sq] = letter.lower()
    m.by_hand.add(sq)
    m._maybe_judge()


def no_blank_there(m: Controlled, sq: str) -> ControlError:
    if not m.pending_blank:
        return ControlError("no_blank_waiting", square=sq)
    return ControlError("no_blank_there", square=sq, asked=squares_text(m.pending_blank))


def not_correctable(sq: str) -> ControlError:
    return ControlError("not_correctable", square=sq)


def correct_read(m: Controlled, params: dict[str, Any]) -> None:
    """A letter of the play being read, given while the table asks."""
    sq = square(params)
    if sq not in m.pending:
        raise not_correctable(sq)
    letter = letter_of(m, params, sq)
    m.pending[sq] = letter.lower() if sq in m.pending_blank else letter
    m.by_hand.add(sq)
    m._maybe_judge()


def correct_last(m: Controlled, params: dict[str, Any]) -> None:
    """A letter of the last play, misread: the engine plays the game again with it (`Game.correct_tile`)."""
    sq = square(params)
    last = m.last
    if last is None or sq not in last.placed or sq not in m.committed:
        raise not_correctable(sq)
    letter = letter_of(m, params, sq)
    try:
        m.game.correct_tile(Square.from_str(sq), letter)
    except CorrectionError:
        raise not_correctable(sq) from None
    except RefereeError as exc:
        raise ControlError("correction_does_not_stand", square=sq, letter=letter, error=exc) from None
    m.by_hand.add(sq)
    last.placed = {**last.placed, sq: letter.lower() if last.placed[sq].islower() else letter}
    scored = m.game.last_play
    if scored is not None:
        last.words = tuple(w.word.text for w in scored.words)


def exchange(m: Controlled, params: dict[str, Any]) -> None:
    try:
        count = actions.whole(params.get("count"), "count", 1, actions.MAX_RACK, typed=False)
    except actions.BadParam:
        raise ControlError("exchange_count", count=params.get("count")) from None
    new = m._new_tiles()
    if new:
        raise ControlError("exchange_tiles_down", squares=squares_text(set(new)))
    m.game.exchange(count, m.mover)
    m._verdicts_done()
    m._end_turn_clock()
    m._next_turn()


def pass_turn(m: Controlled, params: dict[str, Any]) -> None:
    new = m._new_tiles()
    if new:
        raise ControlError("pass_tiles_down", squares=squares_text(set(new)))
    m._commit()


def seat_of(seats: int, player: Any) -> int | None:
    """`player` as a seat of a table of `seats`, as the schema reads it; None when it names none (the caller
    refuses it in its own words: the challenger's and a director's command's differ)."""
    try:
        return actions.seat(player, actions.TableShape(seats=seats), typed=False)
    except actions.BadParam:
        return None


def challenger(m: Controlled, params: dict[str, Any]) -> int:
    seat = seat_of(m.n, params.get("player"))
    if seat is None:
        raise ControlError("challenge_seat", last=m.n - 1, player=params.get("player"))
    return seat


def challenge(m: Controlled, params: dict[str, Any]) -> None:
    player = challenger(m, params)
    if m.last is None:
        raise ControlError("no_challenge")
    last = m.last
    if player == last.player:
        raise ControlError("own_play", player=m.setup.players[player])
    # How many of the play's words the challenger names: under the per-word bonus [WESPA A.i] a good
    # play earns the 5 or 10 points for each of them. One when not said (the challenge button).
    words = params.get("words", 1)
    try:
        actions.whole(words, "words", 1, max(1, len(last.words)), typed=False)
    except actions.BadParam:
        raise ControlError("challenge_words", count=len(last.words), most=max(1, len(last.words)),
                           words=words) from None
    result = m.game.challenge(player, valid=m._journaled_verdict, words=words)
    m.last_verdict = result.valid
    if not result.valid:
        m._notice("error", "not_in_lexicon", sorted(last.placed), words=", ".join(result.bad_words),
                     squares=squares_text(set(last.placed)))
        last.deadline_ms = None
        m._start_takeback(set(last.placed), same_mover=False)
        return
    m._notice("info", "challenge_good", words=", ".join(last.words))
    m._accept()


def accept(m: Controlled, params: dict[str, Any]) -> None:
    m._accept()


def enter_racks(m: Controlled, params: dict[str, Any]) -> None:
    player = params.get("player")
    tiles = params.get("tiles")
    if player not in m.racks_needed:
        names = ", ".join(f"{i} ({m.setup.players[i]})" for i in m.racks_needed)
        raise ControlError("racks_seat", seats=names, player=player)
    if not isinstance(tiles, str) or not all(ch == "?" or ch.isalpha() for ch in tiles.strip()):
        raise ControlError("racks_letters")
    assert isinstance(player, int)
    tiles = tiles.strip().upper()
    size = m.game.rack_sizes[player]
    if len(tiles) != size:
        raise ControlError("racks_count", player=m.setup.players[player], size=size, count=len(tiles))
    for ch in tiles:
        if ch != "?" and not m.rules.has_letter(ch):
            raise ControlError("racks_no_letter", letter=ch)
    entered = rack_counter("".join(m.racks.values()))
    if rack_counter(tiles) - (m.game.unseen() - entered):
        raise ControlError("racks_seen", tiles=tiles)
    m.racks[player] = tiles
    m.racks_needed.remove(player)
    if not m.racks_needed:
        m.game.finish_with_racks(m.racks)
        m._finish()


def roll(m: Controlled, params: dict[str, Any]) -> None:
    letters = params.get("letters")
    if not isinstance(letters, str) or not 1 <= len(letters.strip()) <= actions.MAX_ROLL:
        raise ControlError("roll_count", letters=letters)
    game = m._scramble()
    dice = game.dice_set
    faces = []
    for ch in letters.strip().upper():
        if ch != "?" and not m.rules.has_letter(ch):
            raise ControlError("roll_no_face", letter=ch)
        faces.append(Face(ch, dice.value(ch)))
    ids = params.get("dice")  # the tray's die numbers (0-based), when it reads them: the cup as it is
    known = (isinstance(ids, list) and len(ids) == len(faces)
             and all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(dice.dice) for i in ids))
    game.read_roll(faces, dice=ids if known else None)
    m.state = TableState.TURN
    if m.timer is not None:
        m.timer.start_turn()


def square(params: dict[str, Any]) -> str:
    """A square as the schema reads it (`actions.square`); a malformed one is refused in the engine's words."""
    try:
        return actions.square(params.get("square"))
    except actions.BadParam as bad:
        if isinstance(bad.__cause__, NotationError):
            raise ControlError("engine", error=bad.__cause__) from None
        raise ControlError("square_missing") from None


def letter_of(m: Controlled, params: dict[str, Any], sq: str) -> str:
    try:
        return check_letter(m.rules, params.get("letter"), sq)
    except RefereeError as exc:
        raise ControlError("engine", error=exc) from None


def _refuse_roll(m: Controlled, params: dict[str, Any]) -> ControlError:
    if not m.setup.scramble:
        return ControlError("not_scramble")
    return ControlError("roll_not_now", state=m.state)


def _refuse_challenge(m: Controlled, params: dict[str, Any]) -> ControlError:
    challenger(m, params)  # a malformed challenger is named first, in any state
    return ControlError("no_challenge")


# Why a control action is refused in a state `TRANSITIONS` does not give it; its keys are the control actions.
REFUSALS: dict[str, Callable[[Controlled, dict[str, Any]], ControlError]] = {
    "start": lambda m, p: ControlError("already_started", state=m.state),
    "pause": lambda m, p: ControlError("nothing_to_pause", state=m.state),
    "resume": lambda m, p: ControlError("not_paused"),
    "blank": lambda m, p: no_blank_there(m, square(p)),
    "exchange": lambda m, p: ControlError("exchange_not_now", state=m.state),
    "pass": lambda m, p: ControlError("pass_not_now", state=m.state),
    "challenge": _refuse_challenge,
    "accept": lambda m, p: ControlError("nothing_to_accept"),
    "racks": lambda m, p: ControlError("racks_not_now"),
    "correct": lambda m, p: not_correctable(square(p)),
    "roll": _refuse_roll,
}
