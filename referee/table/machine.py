"""The table state machine: from what the sensors see and what people press to a refereed game.

Pure: no I/O, no threads, no clock read. Every input is an `Event` (kind, table time in ms, data)
and `apply` is deterministic, so the journal of events *is* the game: replaying it rebuilds the
same board, scores, clocks and state after a crash (see `referee.journal`).

The states are `TableState` (referee/table/state.py); what each event does in each state is `TRANSITIONS`,
one table at the end of this module; the players' control actions it names, and `REFUSALS` (why an action is
refused where it is not listed), are in referee/table/controls.py. States and the way through a turn::

    waiting --start--> turn (the mover's clock runs; tiles go down)
    turn --mover's clock button--> read the board, diff against the committed board
        no new tiles ............................ pass -> next turn
        a blank or a doubtful letter ............ blank (asked on the page; lifting a tile of the
                                                  play returns the turn to the mover)
        letters known ........................... validate + score through the engine
            illegal placement ................... back to turn, the mover fixes the tiles
            "void" rule and a phony ............. takeback (same mover plays again)
            "auto" rule and a phony ............. withdrawn, takeback -> next turn
            otherwise ........................... challenge (window; the next player's clock runs)
    challenge --challenge--> phony: withdrawn, takeback -> next turn
                             good: penalty by the rule (lost turn, +5/+10), play stands
    challenge --accept / window over / next player lays a tile--> play stands: draw, next turn
    takeback --sensors see the tiles gone--> next turn (or the same mover after "void")
    Scramble: roll (dice tray, camera or page) -> turn (60 s timer; time-out commits what lies on
        the mat: no word there loses the turn and clears it) -> ... -> removal (the scrambled dice
        shown; the sensors must see them gone) -> roll; the first to the target score wins
    going out or too many scoreless turns -> racks (racks left entered, or read by the camera) ->
        ended (the engine's rack adjustments, then the clocks' time penalties)
    pause / resume (the director) from any state but waiting and ended; board changes made during
        a pause count on resume

Anomalies (a tile moved outside a turn, tiles added after the commit, the board unplugged, the
camera lost) are *derived* from the current picture and links each time (referee/table/anomalies.py), shown as
alerts, and block the commit; the game state never changes because of them, and play resumes as soon as the
picture is right again. A tournament director's commands are `DIRECTOR`, beside `TRANSITIONS`
(referee/table/director.py); the clocks follow the state (referee/table/clocks.py); a control action's
parameters are checked as the action schema says (referee/table/actions.py). The engine (`game.game.Game`)
validates, scores, takes back and corrects the plays.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from game.clock import GameClock, TurnTimer
from game.errors import (
    IllegalPlayError,
    IllegalTurnError,
    NotationError,
    NotInLexiconError,
    RefereeError,
)
from game.game import Game
from game.play import Placement
from game.scramble import ScrambleGame
from game.squares import Square
from game.tiles import Tile
from referee.table import actions, clocks, controls, director
from referee.table import view as table_view
from referee.table.anomalies import Anomaly, anomalies
from referee.table.api import ControlError
from referee.table.picture import Cell, picture_from_json, squares_text
from referee.table.rules import TableRules
from referee.table.setup import TableSetup
from referee.table.state import Alert, Event, LastPlay, TableState, TableTime
from referee.words import Phrase


class TableMachine:
    """One table's game. Feed it events with `apply`; read it with `snapshot` and `alerts`."""

    def __init__(self, setup: TableSetup, rules: TableRules) -> None:
        self.setup = setup
        self.rules = rules
        self.lang = setup.language
        self.n = len(setup.players)
        self.time = TableTime()
        self.game: Game = rules.new_game(setup.players)
        self.state = TableState.WAITING
        self.paused_from: TableState | None = None
        self.mover = 0
        self.observed: dict[str, Cell] = {}
        self.links: dict[str, bool] = {}
        self.by_hand: set[str] = set()  # squares whose letter a person gave (blanks, corrections)
        self.pending: dict[str, str | None] = {}  # the play being read: square -> letter, None while asked
        self.pending_blank: set[str] = set()
        self.last: LastPlay | None = None
        self.takeback: set[str] = set()
        self.takeback_then_same = False
        self.removal: set[str] = set()
        self.racks: dict[int, str] = {}
        self.racks_needed: list[int] = []
        self.notices: list[Alert] = []
        self.last_verdict: bool | None = None  # the outcome of the last challenge, journaled with it
        self.timed_out = False  # Scramble: this commit came from the 60-second timer running out
        self._journaled_verdict: bool | None = None
        self.held = False  # the director holds a challenge: the table is paused until it is released
        self.message_until_ms: int | None = None  # table time the director's message goes (`director.message`)
        self.clock: GameClock | None
        self.timer: TurnTimer | None
        self.clock, self.timer = clocks.table_clocks(setup, rules, self.time)

    # --- the one entry point --------------------------------------------------------------------

    def apply(self, ev: Event) -> None:
        """Apply one event. A refused control action raises `ControlError`; callers that must change
        nothing on refusal apply to a copy first (`LiveTable` does)."""
        self.time.ms = max(self.time.ms, int(ev.t))
        self._poll()
        try:
            self._dispatch(ev.kind, dict(ev.data))
        except ControlError:
            raise
        except RefereeError as exc:
            raise ControlError("engine", error=exc) from None
        self._poll()
        self._sync_clocks()

    def _dispatch(self, kind: str, data: dict[str, Any]) -> None:
        """One event through `TRANSITIONS`: what every state does with it first (`EVERY_STATE`), then what the
        current state does; a control action the state has no entry for is refused (`REFUSALS`)."""
        if kind == "control":
            action = str(data.get("action", ""))
            params = data.get("params") or {}
            if not isinstance(params, dict):
                raise ControlError("params_shape")
            if action not in REFUSALS:
                raise ControlError("unknown_action", action=action, actions=", ".join(actions.MACHINE_ACTIONS))
            # A replayed challenge carries the verdict the lexicon gave when it was made (see LiveTable._submit).
            self._journaled_verdict = data.get("verdict") if isinstance(data.get("verdict"), bool) else None
            kind, data = action, params
        elif kind == "director":  # a tournament director's command: not an action of the page
            self._on_director(data)
            return
        elif kind == "roll":  # Scramble: the faces rolled (from the dice tray, the camera, or typed in)
            data = {"letters": data.get("letters", ""), **({"dice": data["dice"]} if "dice" in data else {})}
        elif kind not in REPORTS:
            raise ControlError("unknown_event", kind=kind)
        first = EVERY_STATE.get(kind)
        if first is not None:
            first(self, data)
        handler = TRANSITIONS[self.state].get(kind)
        if handler is not None:
            handler(self, data)
        elif kind in REFUSALS:
            raise REFUSALS[kind](self, data)

    def next_due_ms(self) -> int | None:
        """The table time at which something is due (a timer, the end of the challenge window)."""
        dues = clocks.dues_ms(self.clock, self.timer)
        if self.state is TableState.CHALLENGE and self.last is not None and self.last.deadline_ms is not None \
                and not self.game_waits:
            dues.append(self.last.deadline_ms)
        if self.message_until_ms is not None:
            dues.append(self.message_until_ms)
        return math.ceil(min(dues)) if dues else None

    @property
    def on_turn(self) -> int:
        """Whose turn it is for the players: the player whose clock runs (or runs again once the game goes on).

        The mover while they play; from the press of their clock on, the next player: during the challenge
        window, while a phony or lost Scramble turn comes off (unless "void" gives the mover another go) and
        while scrambled dice come off. While paused, the player of the state the pause interrupted."""
        return self._turn_in(self.paused_from if self.state is TableState.PAUSED and self.paused_from else self.state)

    def _turn_in(self, state: TableState) -> int:
        if state in (TableState.CHALLENGE, TableState.REMOVAL):
            return self.game.to_move
        if state is TableState.TAKEBACK and not self.takeback_then_same:
            return self.game.to_move
        return self.mover

    @property
    def game_waits(self) -> bool:
        """A sensor the game cannot go on without is lost (the alerts say "the game waits"): the sensor board,
        or the camera when no sensor board is up to read the board without it."""
        if self.links.get("board") is False:
            return True
        return self.links.get("camera") is False and self.links.get("board") is not True

    def clock_holder(self) -> int | None:
        """The player whose time runs now, or None while the time is charged to nobody.

        Nobody's time runs before the start and after the end, while the director has paused the game,
        while the game waits for a lost sensor (a dispute the players did not cause stops the clocks, as
        a tournament stops them for a call to the director), and while the table asks for what only the
        machine needs (a blank's letter, a letter it could not read): the player has finished the turn, and
        the next player cannot start before the play is scored. Otherwise it is `on_turn`: the one clock that
        runs is always the marked player's."""
        if self.state in (TableState.WAITING, TableState.BLANK, TableState.PAUSED, TableState.RACKS,
                          TableState.ENDED) or self.game_waits:
            return None
        return self.on_turn

    def _sync_clocks(self) -> None:
        """Make the clocks agree with the state after every event (`clocks.follow`): `clock_holder`'s clock runs
        and no other; the turn timer and the challenge window stand still while the game is paused or waits.
        One place instead of a press or switch in each handler, so no path through a turn (a blank asked, a
        phony taken back, a play refused) can leave a clock running for a player the page does not mark."""
        clocks.follow(self.clock, self.timer, holder=self.clock_holder(),
                      hold=self.state is TableState.PAUSED or self.game_waits)

    @property
    def scramble_game(self) -> ScrambleGame | None:
        """The game as Scramble (its dice, its hand, its timer), or None in the standard game."""
        return self.game if isinstance(self.game, ScrambleGame) else None

    def _scramble(self) -> ScrambleGame:
        """The Scramble game, where only Scramble gets (a `roll`, a turn timed out)."""
        game = self.scramble_game
        if game is None:
            raise ControlError("not_scramble")
        return game

    @property
    def committed(self) -> dict[str, str]:
        """The board as the game has it: square -> letter, lowercase a blank."""
        return {str(sq): str(tile) for sq, tile in self.game.board.tiles()}

    # --- events from the table -----------------------------------------------------------------

    def _on_tick(self, data: dict[str, Any]) -> None:
        """Time passed; `_poll` does the work."""

    def _on_board(self, data: dict[str, Any]) -> None:
        """The picture changed (in every state); what it means for the state is the state's "board" entry."""
        before = self.observed
        self.observed = picture_from_json(data.get("cells", {}))
        if before != self.observed:
            self.notices = [a for a in self.notices if a.code not in ("illegal_play", "commit_refused")]

    def _check_board(self) -> None:
        """What the current picture means for the state, run on resume for what changed during a pause."""
        react = TRANSITIONS[self.state].get("board")
        if react is not None:
            react(self, {})

    def _on_board_in_challenge(self, data: dict[str, Any]) -> None:
        if self.last is None:
            return
        committed = self.committed
        started = [sq for sq in self.observed if sq not in committed and sq not in self.last.scrambled]
        if started:
            # The next player starts laying tiles: the play was not challenged in time [ONYX].
            self._accept()

    def _on_board_while_asked(self, data: dict[str, Any]) -> None:
        if any(sq not in self.observed for sq in self.pending) and self.links.get("board") is not False:
            # The player took a tile of the play back while letters were asked: the play is read again
            # at the next press of the clock, on the player's own time.
            self._back_to_mover(Alert("info", "commit_refused", fields={"why": Phrase("table", "play_lifted")}))

    def _on_board_in_takeback(self, data: dict[str, Any]) -> None:
        if not (self.takeback & self.observed.keys()):
            self._takeback_done()

    def _on_board_in_removal(self, data: dict[str, Any]) -> None:
        if not (self.removal & self.observed.keys()):
            self._removal_done()

    def _on_link(self, data: dict[str, Any]) -> None:
        self.links[str(data["source"])] = bool(data["up"])

    # A clock button. Like a chess clock, only the mover's press does anything; before the game, the press of a
    # player who does not start starts the game (the opponent's clock), as on a chess clock.

    def _on_clock_of_mover(self, data: dict[str, Any]) -> None:
        if int(data.get("player", self.mover)) == self.mover:
            self._commit()

    def _on_clock_to_start(self, data: dict[str, Any]) -> None:
        if int(data.get("player", self.mover)) == self.game.to_move:
            return
        if self.observed:
            self._notice("error", "commit_refused", why=Phrase("table", "board_not_clear"))
            return
        controls.start(self, {})

    def _on_director(self, data: dict[str, Any]) -> None:
        """A tournament director's command (referee/table/director.py, named by `DIRECTOR`). Its own event kind,
        so the page's control actions (the players' PIN) can never reach these; `by` and `id` stay in the
        journal."""
        cmd = str(data.get("cmd", ""))
        args = data.get("args") or {}
        if not isinstance(args, dict):
            raise ControlError("director_args")
        command = DIRECTOR.get(cmd)
        if command is None:
            raise ControlError("director_unknown", cmd=cmd)
        command(self, args)

    def _as_control(self, action: str, params: dict[str, Any] | None = None) -> None:
        """A director's command that is also the table's own action: through `TRANSITIONS`, refused as there."""
        self._dispatch("control", {"action": action, "params": params or {}})

    # --- timers ----------------------------------------------------------------------------------

    def _poll(self) -> None:
        if self.message_until_ms is not None and self.time.ms >= self.message_until_ms:
            self.message_until_ms = None
            self.notices = [a for a in self.notices if a.code != "director_message"]
        if self.clock is not None:
            for tev in self.clock.poll():
                assert tev.player is not None
                name = self.setup.players[tev.player]
                if tev.kind == "time_up":
                    self._notice("info", "time_up", player=name)
                elif tev.kind == "max_overtime" and self.clock.loser == tev.player:
                    self._notice("error", "lost_on_time", player=name)
                    self._lose_on_time(tev.player)
                elif tev.kind == "max_overtime":
                    self._notice("error", "max_overtime", player=name)
        if self.timer is not None:
            for tev in self.timer.poll():
                if tev.kind == "time_up" and not self.setup.scramble:
                    self._notice("info", "turn_timer")
                if tev.kind == "turn_over" and self.state is TableState.TURN:
                    self._commit(by_time=True)
        if self.state is TableState.CHALLENGE and self.last is not None and self.last.deadline_ms is not None \
                and self.time.ms >= self.last.deadline_ms and not self.game_waits:
            self._accept()  # not while the game waits: the window closes once the lost sensor is back

    # --- the turn --------------------------------------------------------------------------------

    def _new_tiles(self) -> dict[str, Cell]:
        committed = self.committed
        return {sq: c for sq, c in self.observed.items() if sq not in committed}

    # Notices that judge the last play ("ZAPS are good."): they hold while the next player thinks and go
    # once that player's turn ends, so a verdict never stands under a later play or the end of the game.
    VERDICTS = frozenset({"challenge_good"})

    def _verdicts_done(self) -> None:
        self.notices = [a for a in self.notices if a.code not in self.VERDICTS]

    def _commit(self, by_time: bool = False) -> None:
        self._verdicts_done()
        # A lost camera blocks the commit only when it is the table's one sensor (with nothing to see, a
        # play would read as a pass). With the sensor board up, the board still says where the new tiles
        # are: a coded board reads their letters, and a letter nobody read is asked, never guessed.
        passable = {"illegal_play", "commit_refused", "time_up", "max_overtime"}
        if self.links.get("board") is True:
            passable.add("camera_lost")
        wrong = [table_view.anomaly_alert(self, a) for a in self.anomalies() if a.level == "error"]
        blocking = [a for a in [*wrong, *self.notices] if a.level == "error" and a.code not in passable]
        if blocking:
            self._notice("error", "commit_refused", why=blocking[0].phrase)
            return
        new = self._new_tiles()
        if not new:
            if self.setup.scramble:
                self._scramble().time_up(self.mover)
            else:
                self.game.pass_turn(self.mover)
            self._end_turn_clock()
            self._next_turn()
            return
        self.timed_out = by_time and self.setup.scramble
        self._end_turn_clock()
        self.pending = {}
        self.pending_blank = set()
        for sq, cell in new.items():
            if cell.blank:
                self.pending[sq] = None
                self.pending_blank.add(sq)
            elif cell.sure:
                self.pending[sq] = cell.letter
            else:
                self.pending[sq] = None
        if any(v is None for v in self.pending.values()):
            self.state = TableState.BLANK
        else:
            self._judge()

    def _end_turn_clock(self) -> None:
        """The mover's turn timer stops; the tournament clock follows the new state (`_sync_clocks`)."""
        if self.timer is not None and self.timer.state in ("running", "expired"):
            self.timer.end_turn()

    def _back_to_mover(self, alert: Alert) -> None:
        """The commit did not stand (an illegal placement): the mover plays on, on their own clock."""
        self._notice(alert.level, alert.code, alert.squares, **alert.fields)
        self.pending = {}
        self.pending_blank = set()
        self.by_hand &= set(self.committed)  # letters given for tiles that did not stay
        self.state = TableState.TURN
        if self.timer is not None and self.timer.state == "idle":
            self.timer.start_turn()

    def _judge(self) -> None:
        placed = {sq: str(v) for sq, v in self.pending.items()}
        placements = [Placement(Square.from_str(sq), Tile.from_str(ch)) for sq, ch in placed.items()]
        p = self.mover
        try:
            scored = self.game.play(placements, p)
        except (NotInLexiconError, IllegalPlayError, IllegalTurnError, NotationError) as exc:
            why = exc.with_traceback(None)  # the engine's reason, said in the table's language when shown
            if self.timed_out:
                # Scramble: time is up and what lies on the mat is no word: the turn is lost [SCRAMBLE 4],
                # and the dice come off the mat.
                self.pending, self.pending_blank = {}, set()
                self._notice("error", "illegal_play", sorted(placed), why=why)
                self._scramble().time_up(p)
                self._start_takeback(set(placed), same_mover=False)
                return
            if not isinstance(exc, NotInLexiconError):
                self._back_to_mover(Alert("error", "illegal_play", sorted(placed), {"why": why}))
                return
            # Void: a phony is refused outright; the mover takes it back and plays again.
            self.pending, self.pending_blank = {}, set()
            phonies = ", ".join(exc.words) or str(exc)  # the words alone: the message says "not in the lexicon"
            self._notice("error", "not_in_lexicon", sorted(placed), words=phonies, squares=squares_text(set(placed)))
            self._start_takeback(set(placed), same_mover=True)
            return
        self.pending, self.pending_blank = {}, set()
        words = tuple(w.word.text for w in scored.words)
        scrambled: set[str] = set()
        last_scramble = self.scramble_game.last_scramble if self.scramble_game is not None else None
        if last_scramble is not None:
            scrambled = {str(sq) for sq in last_scramble.removed}
        self.last = LastPlay(p, placed, words, scrambled)
        invalid = self.rules.missing(words)
        if invalid and self.setup.challenge == "auto":
            # Auto challenge [PC]: the lexicon judges at once; the phony comes off and the turn is lost.
            self._notice("error", "not_in_lexicon", sorted(placed), words=", ".join(invalid),
                         squares=squares_text(set(placed)))
            self.game.challenge((p + 1) % self.n, valid=False)
            self._start_takeback(set(placed), same_mover=False)
            return
        if self.setup.challenge in ("void", "auto") or self.setup.challenge_window_ms <= 0:
            self._accept()
            return
        self.last.deadline_ms = self.time.ms + self.setup.challenge_window_ms
        self.state = TableState.CHALLENGE

    def _start_takeback(self, squares: set[str], same_mover: bool) -> None:
        self.takeback = squares
        self.takeback_then_same = same_mover
        self.state = TableState.TAKEBACK
        if not (self.takeback & self.observed.keys()):
            self._takeback_done()

    def _takeback_done(self) -> None:
        self.takeback = set()
        self.by_hand &= set(self.committed)
        self.notices = [a for a in self.notices if a.code != "not_in_lexicon"]
        if self.takeback_then_same:
            self.state = TableState.TURN
            if self.timer is not None and self.timer.state == "idle":
                self.timer.start_turn()
        else:
            self._next_turn()

    def _accept(self) -> None:
        """The play stands: Scramble removals, the end of the game, or the next turn."""
        assert self.last is not None
        self.last.deadline_ms = None
        if self.last.scrambled & self.observed.keys():
            self.removal = set(self.last.scrambled)
            self.state = TableState.REMOVAL
            return
        self._removal_done()

    def _removal_done(self) -> None:
        self.removal = set()
        self._next_turn()

    def _next_turn(self) -> None:
        if self.game.over:
            self._end()
            return
        self.mover = self.game.to_move
        if self.setup.scramble:
            self.state = TableState.ROLL
            return
        self.state = TableState.TURN
        if self.timer is not None:
            self.timer.start_turn()

    # --- end of game -----------------------------------------------------------------------------

    def _end(self) -> None:
        if self.timer is not None and self.timer.state != "idle":
            self.timer.end_turn()
        if self.clock is not None:
            self.clock.end()
        if self.game.awaiting_racks:
            out = self._out_player()
            self.racks_needed = [i for i, r in enumerate(self.game.racks) if r is None and i != out]
            self.state = TableState.RACKS
            return
        self._finish()

    def _lose_on_time(self, player: int) -> None:
        """The tournament clocks (set to "lose") stopped `player` at the overtime limit: the game ends at once.
        A play in its challenge window stands; a play still being read, tiles to take back, dice to remove and
        the racks are no longer asked for; the time penalties are taken as at any end."""
        self.game.lose_on_time(player)
        self.pending, self.pending_blank = {}, set()
        self.takeback, self.removal = set(), set()
        self.racks_needed = []
        if self.last is not None:
            self.last.deadline_ms = None
        self.paused_from = None
        self._end()

    def _out_player(self) -> int | None:
        last = self.last
        if last is not None and self.game.bag_count == 0 and self.game.rack_sizes[last.player] == 0:
            return last.player
        return None

    def _finish(self) -> None:
        if self.clock is not None:
            for i in range(self.n):
                over_ms = -self.clock.remaining_ms(i)
                if over_ms > 0:
                    self.game.apply_time_penalty(i, over_ms / 1000.0)
        self.state = TableState.ENDED

    # --- helpers ---------------------------------------------------------------------------------

    def _maybe_judge(self) -> None:
        if all(v is not None for v in self.pending.values()):
            self._judge()

    def _notice(self, level: str, code: str, squares: list[str] | None = None, /, **fields: Any) -> None:
        """Put up notice `code` (one of each): its fields, said in the table's language when a view shows it."""
        self.notices = [a for a in self.notices if a.code != code]
        self.notices.append(Alert(level, code, squares or [], fields))

    # --- reading (referee/table/view.py builds the views) ------------------------------------------

    def anomalies(self) -> list[Anomaly]:
        """What is wrong on the board now (referee/table/anomalies.py): a commit waits while one is an error."""
        scrambled = self.last.scrambled if self.last is not None else set()
        return anomalies(links=self.links, committed=self.committed, observed=self.observed, pending=self.pending,
                         by_hand=self.by_hand, expected=self.takeback | self.removal | scrambled,
                         outside_turn=self.state not in (TableState.TURN, TableState.WAITING))

    def alerts(self) -> list[Alert]:
        """What is wrong at the table now: derived from the picture and the links, plus notices."""
        return table_view.alerts(self)

    def board_rows(self) -> list[str]:
        return table_view.board_rows(self)

    def moves(self) -> list[dict[str, Any]]:
        return table_view.score_sheet(self)

    def snapshot(self) -> dict[str, Any]:
        """The `Snapshot` of referee/table/api.py, without `seq` (the live table numbers them)."""
        return {**table_view.snapshot(self), "actions": self.actions()}

    def actions(self) -> list[str]:
        """The control actions this state takes (`TRANSITIONS`' entries that are control actions, `REFUSALS`' keys:
        "roll" is both a report of the dice tray and the page's entry), so a page offers those and no others:
        Start before the game, Resume in a pause, New game (the live table's) once it is over. Scramble has no
        exchange and no racks to enter."""
        out = [a for a in TRANSITIONS[self.state] if a in REFUSALS]
        if self.setup.scramble:
            out = [a for a in out if a not in ("exchange", "racks")]
        if self.state is TableState.ENDED:
            out.append("new_game")
        return sorted(out)


Handler = Callable[[TableMachine, dict[str, Any]], None]
Refusal = Callable[[TableMachine, dict[str, Any]], ControlError]
M = TableMachine
C = controls
S = TableState

# Every path of a turn on one screen: in each state, the events that do something there and what they do.
# Events are what the table reports ("clock": a clock button; "board": the picture changed; "roll": the dice
# tray) and the control actions of the page, the buttons and the director (`TableControl` in api.py). A report
# a state does not list changes nothing there; a control action a state does not list is refused (`REFUSALS`).
TRANSITIONS: dict[TableState, dict[str, Handler]] = {
    S.WAITING: {"clock": M._on_clock_to_start, "start": C.start},
    S.ROLL: {"roll": C.roll, "correct": C.correct_last, "pause": C.pause},
    S.TURN: {"clock": M._on_clock_of_mover, "pass": C.pass_turn, "exchange": C.exchange,
             "correct": C.correct_last, "pause": C.pause},
    S.BLANK: {"board": M._on_board_while_asked, "blank": C.blank, "correct": C.correct_read,
              "pause": C.pause},
    S.CHALLENGE: {"board": M._on_board_in_challenge, "challenge": C.challenge, "accept": C.accept,
                  "correct": C.correct_last, "pause": C.pause},
    S.TAKEBACK: {"board": M._on_board_in_takeback, "pause": C.pause},
    S.REMOVAL: {"board": M._on_board_in_removal, "pause": C.pause},
    S.PAUSED: {"resume": C.resume},
    S.RACKS: {"racks": C.enter_racks, "pause": C.pause},
    S.ENDED: {},
}

# A tournament director's commands (referee/table/director.py): the journal's "director" events. Those that are
# also the table's own actions (pause, resume, start, a letter corrected) go through `TRANSITIONS` above.
DIRECTOR: dict[str, Handler] = {
    "pause": director.pause, "resume": director.resume, "start": director.start,
    "set_players": director.set_players, "message": director.message, "adjust_time": director.adjust_time,
    "correct_score": director.correct_score, "hold": director.hold, "undo": director.undo,
}

# What every state does first with the table's reports: take them in (the picture, a link, the time).
EVERY_STATE: dict[str, Handler] = {"tick": M._on_tick, "link": M._on_link, "board": M._on_board}
REPORTS = frozenset({"tick", "link", "board", "clock", "roll"})


REFUSALS = controls.REFUSALS
