"""Tournament clocks and the overtime penalty, pure and with time injected.

A chess clock for 2 to 4 players: a budget each (25 minutes by default [NASPA]), an optional
increment, pause and resume by the director, and overtime scored at the end of the game at
10 points for each minute or part of a minute over [NASPA]. Past a maximum overtime (10 minutes by
default) the player is flagged (the director is told and decides) or loses on time (the game
ends), as configured; Woogles ends the game as lost.

Remaining time is always a deadline minus now on the injected monotonic clock (see
`game.timers`). The rules engine takes `GameClock.penalties()` (or `overtime_penalty`) at the end
of the game; the table service journals `to_dict()` and restores with `from_dict()` after a crash,
the downtime counting as a pause.

The turn timer (the sand-timer replacement) lives in `game.timers` and is re-exported here, so
`from game.clock import TurnTimer, TurnTimerConfig` works too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from game.timers import (
    ClockError,
    Countdown,
    Monotonic,
    TimerEvent,
    TurnTimer,
    TurnTimerConfig,
    _bool,
    _expect_kind,
    _mapping,
    _number,
    to_ms,
)

__all__ = [
    "ClockConfig",
    "ClockError",
    "ClockState",
    "GameClock",
    "Monotonic",
    "TimerEvent",
    "TurnTimer",
    "TurnTimerConfig",
    "overtime_penalty",
    "to_ms",
]

MS_PER_MINUTE = 60_000


def overtime_penalty(overtime_ms: int, points_per_minute: int = 10) -> int:
    """Points lost for running `overtime_ms` milliseconds over: `points_per_minute` for each minute
    or part of a minute [NASPA]. 3:04 over costs 40 points, 2:05 over costs 30, 3:00 exactly costs 30,
    and no overtime (zero or negative) costs nothing.

    Whole milliseconds, not float seconds, so a clock that stopped at exactly 3:00.000 over is not
    charged a fourth minute by a rounding error."""
    if isinstance(overtime_ms, bool) or not isinstance(overtime_ms, int):
        raise ClockError(f"overtime must be whole milliseconds, not {overtime_ms!r}", form="overtime_ms",
                         value=overtime_ms)
    if points_per_minute < 0:
        raise ClockError(f"the overtime penalty must not be negative, not {points_per_minute} points a minute",
                         form="penalty_negative", points=points_per_minute)
    if overtime_ms <= 0:
        return 0
    started_minutes = -(-overtime_ms // MS_PER_MINUTE)
    return started_minutes * points_per_minute


@dataclass(frozen=True)
class ClockConfig:
    """The tournament clock's settings. Defaults follow NASPA: 25 minutes, 10 points a started minute,
    10 minutes of overtime at most. `on_max_overtime` is "flag" (tell the director, the clock runs on)
    or "lose" (the player loses on time and the game ends, as on Woogles)."""

    players: int = 2
    budget_s: float = 25 * 60.0
    increment_s: float = 0.0
    max_overtime_s: float = 10 * 60.0
    on_max_overtime: Literal["flag", "lose"] = "flag"
    penalty_points_per_minute: int = 10

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise ClockError(f"game clock: a game has 2 to 4 players, not {self.players!r}", form="players",
                             value=self.players)
        for name in ("budget_s", "increment_s", "max_overtime_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
                raise ClockError(f"game clock: {name} must be a number of seconds, 0 or more, not {value!r}",
                                 form="setting", name=name, value=value)
        if self.budget_s == 0:
            raise ClockError("game clock: the budget per player must be more than 0 seconds", form="budget_zero")
        if self.on_max_overtime not in ("flag", "lose"):
            raise ClockError(f"game clock: on_max_overtime must be 'flag' or 'lose', not {self.on_max_overtime!r}",
                             form="on_max_overtime", value=self.on_max_overtime)
        ppm = self.penalty_points_per_minute
        if isinstance(ppm, bool) or not isinstance(ppm, int) or ppm < 0:
            raise ClockError(f"game clock: penalty_points_per_minute must be a whole number, 0 or more, not {ppm!r}",
                             form="penalty_setting", value=ppm)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "budget_s": self.budget_s,
            "increment_s": self.increment_s,
            "max_overtime_s": self.max_overtime_s,
            "on_max_overtime": self.on_max_overtime,
            "penalty_points_per_minute": self.penalty_points_per_minute,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockConfig:
        unknown = set(data) - set(cls().to_dict())
        if unknown:
            raise ClockError(f"game clock: unknown setting(s) {', '.join(sorted(unknown))}", form="unknown_settings",
                             names=", ".join(sorted(unknown)))
        return cls(**dict(data))


ClockState = Literal["ready", "running", "paused", "ended"]


class GameClock:
    """The tournament chess clock.

    States: "ready" (set, nobody's clock runs), "running" (the player on move's clock runs),
    "paused" (by the director; nobody's clock runs), "ended". A player ends a turn with
    `press(player)`: the increment is added and the next player's clock starts. A press by a player
    whose clock is not running is ignored (returns False), like a real chess clock's idle button.
    """

    def __init__(self, config: ClockConfig, clock: Monotonic) -> None:
        self.config = config
        self._clock = clock
        self._faces = [Countdown(config.budget_s, clock) for _ in range(config.players)]
        self._state: ClockState = "ready"
        self._on_move: int | None = None
        self._time_up = [False] * config.players  # buzzer announced for this player
        self._flagged = [False] * config.players  # max overtime passed
        self._loser: int | None = None
        self._pending: list[TimerEvent] = []  # noticed inside an action, handed out by the next poll

    # --- reading --------------------------------------------------------------------------------

    @property
    def state(self) -> ClockState:
        return self._state

    @property
    def on_move(self) -> int | None:
        """The player whose clock runs (or would run, while paused); None before the start."""
        return self._on_move

    @property
    def loser(self) -> int | None:
        """The player who lost on time, when `on_max_overtime` is "lose"."""
        return self._loser

    def flagged(self, player: int) -> bool:
        return self._flagged[self._check_player(player)]

    def remaining(self, player: int) -> float:
        """Seconds left on the player's clock; negative in overtime."""
        return self._faces[self._check_player(player)].remaining()

    def remaining_ms(self, player: int) -> int:
        return to_ms(self.remaining(player))

    def overtime_ms(self, player: int) -> int:
        """Milliseconds over the budget (0 while time is left)."""
        return max(0, -self.remaining_ms(player))

    def penalty(self, player: int) -> int:
        """The points this player's overtime costs so far."""
        return overtime_penalty(self.overtime_ms(player), self.config.penalty_points_per_minute)

    def penalties(self) -> tuple[int, ...]:
        """Each player's overtime penalty in points, in seat order: what the rules engine deducts at the end."""
        return tuple(self.penalty(p) for p in range(self.config.players))

    # --- acting ---------------------------------------------------------------------------------

    def start(self, player: int = 0) -> None:
        """Start the game: `player`'s clock runs."""
        if self._state != "ready":
            raise ClockError(f"the game clock cannot start: it is already {self._state}", form="cannot_start",
                             state=self._state)
        self._on_move = self._check_player(player)
        self._faces[player].start()
        self._state = "running"

    def press(self, player: int) -> bool:
        """`player` presses their clock button to end their turn. Returns True if the clock switched.

        Only the player on move can switch the clock, and only while it runs; any other press
        (the opponent's, a press while paused or before the start) changes nothing."""
        self._check_player(player)
        self._check_events()
        if self._state != "running" or player != self._on_move:
            return False
        self.switch_to((player + 1) % self.config.players)
        return True

    def switch_to(self, player: int) -> None:
        """End the turn of the player on move (adding the increment) and run `player`'s clock.

        For the service when turns do not go round in seat order (a lost turn after a challenge)."""
        self._check_player(player)
        if self._state != "running":
            raise ClockError(f"the game clock cannot switch: it is {self._state}", form="cannot_switch",
                             state=self._state)
        assert self._on_move is not None
        self._check_events()
        if self._state != "running":  # the mover just lost on time
            return
        if player == self._on_move:  # already running: no increment for a turn that did not end
            return
        mover = self._faces[self._on_move]
        mover.stop()
        if self.config.increment_s:
            mover.add(self.config.increment_s)
        self._on_move = player
        self._faces[player].start()

    def pause(self) -> None:
        """The director stops the clocks (a dispute, a broken tile rack, a call to the judge)."""
        if self._state != "running":
            raise ClockError(f"the game clock cannot pause: it is {self._state}", form="cannot_pause",
                             state=self._state)
        self._check_events()
        if self._state != "running":
            return
        assert self._on_move is not None
        self._faces[self._on_move].stop()
        self._state = "paused"

    def resume(self) -> None:
        if self._state != "paused":
            raise ClockError(f"the game clock cannot resume: it is {self._state}, not paused", form="cannot_resume",
                             state=self._state)
        assert self._on_move is not None
        self._faces[self._on_move].start()
        self._state = "running"

    def adjust(self, player: int, seconds: float) -> None:
        """The director gives (positive) or takes (negative) time, e.g. after a clock was not pressed."""
        if not math.isfinite(seconds):
            raise ClockError(f"a clock adjustment must be a finite number of seconds, not {seconds!r}",
                             form="adjustment",
                             value=seconds)
        self._faces[self._check_player(player)].add(seconds)
        if self.remaining(player) > 0:
            self._time_up[player] = False
        if self.remaining(player) > -self.config.max_overtime_s:
            self._flagged[player] = False

    def end(self) -> tuple[int, ...]:
        """End the game: all clocks stop. Returns the penalties, as `penalties()` does."""
        if self._state != "ended":
            for face in self._faces:
                face.stop()
            self._state = "ended"
        return self.penalties()

    # --- timed events ---------------------------------------------------------------------------

    def next_due(self) -> float | None:
        """The monotonic instant of the next timed event (time up, max overtime), or None."""
        if self._state != "running" or self._on_move is None:
            return None
        p = self._on_move
        deadline = self._faces[p].deadline()
        if deadline is None:
            return None
        if not self._time_up[p]:
            return deadline
        if not self._flagged[p]:
            return deadline + self.config.max_overtime_s
        return None

    def poll(self) -> list[TimerEvent]:
        """Events due since the last poll, each once: "time_up" when a clock reaches zero (sound the
        buzzer; the game goes on in overtime), "max_overtime" past the maximum overtime (the player
        is flagged, or loses and the game ends, as configured)."""
        self._check_events()
        events, self._pending = self._pending, []
        return events

    def _check_events(self) -> None:
        """Notice events due on the running clock; actions call this first, so a press just after the
        buzzer time still announces it and a loss on time is not undone by a late press."""
        if self._state != "running" or self._on_move is None:
            return
        p = self._on_move
        deadline = self._faces[p].deadline()
        if deadline is None:
            return
        now = self._clock()
        events = self._pending
        if not self._time_up[p] and now >= deadline:
            self._time_up[p] = True
            events.append(TimerEvent("time_up", p, deadline))
        flag_at = deadline + self.config.max_overtime_s
        if self._time_up[p] and not self._flagged[p] and now >= flag_at:
            self._flagged[p] = True
            events.append(TimerEvent("max_overtime", p, flag_at))
            if self.config.on_max_overtime == "lose":
                self._loser = p
                # The clock stops at the limit, not at the moment the poll noticed it.
                for face in self._faces:
                    face.stop()
                self._faces[p].reset(-self.config.max_overtime_s)
                self._state = "ended"

    # --- journal --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot: seconds left per player, never monotonic instants (they mean nothing
        after a reboot)."""
        return {
            "kind": "game_clock",
            "version": 1,
            "config": self.config.to_dict(),
            "state": self._state,
            "on_move": self._on_move,
            "remaining_s": [face.remaining() for face in self._faces],
            "time_up": list(self._time_up),
            "flagged": list(self._flagged),
            "loser": self._loser,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], clock: Monotonic, *, paused: bool = False) -> GameClock:
        """Restore a journalled clock. A running clock runs on from the journalled time left, so the
        downtime is not charged to anyone (it counts as a pause); `paused=True` restores it paused,
        for the director to resume when the players are back at the table."""
        _expect_kind(data, "game_clock")
        try:
            config = ClockConfig.from_dict(_mapping(data, "config"))
        except TypeError as exc:
            raise ClockError(f"saved game clock: bad config ({exc})", form="saved_config", detail=str(exc)) from exc
        game = cls(config, clock)
        n = config.players
        state = data.get("state")
        if state not in ("ready", "running", "paused", "ended"):
            raise ClockError(f"saved game clock: unknown state {state!r}", form="saved_state", value=state)
        on_move = data.get("on_move")
        if on_move is not None and (isinstance(on_move, bool) or not isinstance(on_move, int) or not 0 <= on_move < n):
            raise ClockError(f"saved game clock: on_move must be a seat from 0 to {n - 1} or null, not {on_move!r}",
                             form="saved_on_move", last=n - 1, value=on_move)
        if state in ("running", "paused") and on_move is None:
            raise ClockError(f"saved game clock: a {state} clock needs the player on move", form="saved_needs_mover",
                             state=state)
        remaining = _list(data, "remaining_s", n)
        time_up = _list(data, "time_up", n)
        flagged = _list(data, "flagged", n)
        for i in range(n):
            game._faces[i].reset(_number({"remaining_s": remaining[i]}, "remaining_s"))
            game._time_up[i] = _bool({"time_up": time_up[i]}, "time_up")
            game._flagged[i] = _bool({"flagged": flagged[i]}, "flagged")
        loser = data.get("loser")
        if loser is not None and (isinstance(loser, bool) or not isinstance(loser, int) or not 0 <= loser < n):
            raise ClockError(f"saved game clock: loser must be a seat from 0 to {n - 1} or null, not {loser!r}",
                             form="saved_loser", last=n - 1, value=loser)
        game._loser = loser
        game._on_move = on_move
        game._state = state
        if state == "running":
            assert on_move is not None
            if paused:
                game._state = "paused"
            else:
                game._faces[on_move].start()
        return game

    def _check_player(self, player: int) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.config.players:
            raise ClockError(f"there is no player {player!r} at this table (seats 0 to {self.config.players - 1})",
                             form="no_player", player=player, last=self.config.players - 1)
        return player


def _list(data: Mapping[str, Any], key: str, length: int) -> Sequence[Any]:
    value = data.get(key)
    if not isinstance(value, list | tuple) or len(value) != length:
        raise ClockError(f"saved game clock: {key!r} must be a list of {length} values, got {value!r}",
                         form="saved_list", key=key, length=length, value=value)
    return value
