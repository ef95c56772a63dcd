"""Countdowns and the turn timer that replaces the sand timer.

Every timer here keeps a *deadline* on an injected monotonic clock and computes the time left as
deadline minus now. Nothing counts ticks: a refresh loop that stalls for a second, or runs twice as
often, shows the same time, and a wall-clock jump (NTP setting a Pi without a real-time clock)
moves nothing, because the callable is `time.monotonic`-like and never the wall clock.

`Countdown` is the building block; `TurnTimer` is the sand timer (3 minutes in the standard game,
60 seconds in Scramble) and `game.clock.GameClock` builds the tournament chess clock from it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from game.errors import RefereeError

Monotonic = Callable[[], float]
"""A `time.monotonic`-style callable: seconds, never going backwards, unaffected by wall-clock changes."""


class ClockError(RefereeError, ValueError):
    """A timer or clock was asked something impossible (bad setting, wrong state, corrupt saved state)."""

    code = "clock"
    forms: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "adjustment": ("value",),
        "budget_zero": (),
        "cannot_pause": ("state",),
        "cannot_resume": ("state",),
        "cannot_start": ("state",),
        "cannot_switch": ("state",),
        "countdown": ("value",),
        "no_player": ("player", "last"),
        "on_max_overtime": ("value",),
        "overtime_ms": ("value",),
        "penalty_negative": ("points",),
        "penalty_setting": ("value",),
        "players": ("value",),
        "saved_config": ("detail",),
        "saved_field_bool": ("key", "value"),
        "saved_field_mapping": ("key", "value"),
        "saved_field_number": ("key", "value"),
        "saved_kind": ("kind", "found"),
        "saved_list": ("key", "length", "value"),
        "saved_loser": ("last", "value"),
        "saved_needs_mover": ("state",),
        "saved_not_mapping": ("kind", "type"),
        "saved_on_move": ("last", "value"),
        "saved_state": ("value",),
        "saved_timer_state": ("value",),
        "saved_version": ("kind", "version"),
        "setting": ("name", "value"),
        "timer_cannot_pause": ("state",),
        "timer_cannot_resume": ("state",),
        "turn_seconds": ("value",),
        "unknown_settings": ("names",),
    }


def to_ms(seconds: float) -> int:
    """Seconds to whole milliseconds, rounded toward minus infinity so that 0.0004 s left is 0 ms, not 1."""
    return math.floor(seconds * 1000.0 + 1e-6)


class Countdown:
    """Time left on one clock face: a stored remainder while stopped, a deadline while running.

    The countdown never clamps at zero: below zero is overtime, which the tournament rules score.
    """

    __slots__ = ("_clock", "_deadline", "_left")

    def __init__(self, seconds: float, clock: Monotonic) -> None:
        if not math.isfinite(seconds):
            raise ClockError(f"a countdown needs a finite number of seconds, not {seconds!r}", form="countdown",
                             value=seconds)
        self._clock = clock
        self._left = float(seconds)
        self._deadline: float | None = None

    @property
    def running(self) -> bool:
        return self._deadline is not None

    def remaining(self) -> float:
        """Seconds left (negative in overtime): deadline minus now while running."""
        if self._deadline is None:
            return self._left
        return self._deadline - self._clock()

    def start(self) -> None:
        """Run from now; starting a running countdown changes nothing."""
        if self._deadline is None:
            self._deadline = self._clock() + self._left

    def stop(self) -> float:
        """Freeze the time left and return it; stopping a stopped countdown changes nothing."""
        if self._deadline is not None:
            self._left = self._deadline - self._clock()
            self._deadline = None
        return self._left

    def add(self, seconds: float) -> None:
        """Give (or with a negative number, take) time: an increment, or a director's correction."""
        if self._deadline is None:
            self._left += seconds
        else:
            self._deadline += seconds

    def reset(self, seconds: float) -> None:
        """Stop and set the time left, e.g. to turn the sand timer over for the next turn."""
        self._deadline = None
        self._left = float(seconds)

    def deadline(self) -> float | None:
        """The monotonic instant the countdown reaches zero, or None while stopped."""
        return self._deadline


@dataclass(frozen=True)
class TurnTimerConfig:
    """The sand-timer replacement.

    `ends_turn`: whether reaching zero ends the turn. In the standard game the sand timer only warns
    (the buzzer sounds, the player may finish), so the default is False; in Scramble a player with no
    word on the mat when time is up loses the turn, so its preset is True.
    """

    seconds: float = 180.0
    ends_turn: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ClockError(f"turn timer: the time per turn must be positive seconds, not {self.seconds!r}",
                             form="turn_seconds", value=self.seconds)

    @classmethod
    def standard(cls, seconds: float = 180.0) -> TurnTimerConfig:
        """The standard game's sand timer: about 3 minutes, the buzzer does not end the turn [ONYX]."""
        return cls(seconds=seconds, ends_turn=False)

    @classmethod
    def scramble(cls, seconds: float = 60.0) -> TurnTimerConfig:
        """SCRABBLE Scramble's 60-second timer; time up with no word on the mat loses the turn [SCRAMBLE]."""
        return cls(seconds=seconds, ends_turn=True)


@dataclass(frozen=True)
class TimerEvent:
    """Something a timer announces once: `kind` is "time_up" (sound the buzzer) or "turn_over"
    (the turn ends by time), for `player` (None for the turn timer, which belongs to the turn)."""

    kind: Literal["time_up", "turn_over", "max_overtime"]
    player: int | None
    at: float  # the monotonic instant it became due, not the instant it was noticed


TimerState = Literal["idle", "running", "paused", "expired"]


class TurnTimer:
    """The LED sand timer: one countdown per turn, restarted at every turn.

    States: "idle" (no turn running), "running", "paused" (by the director), "expired" (time ran out
    and the configuration ends the turn). `poll()` returns the events that became due since the last
    call, each once, so the service sounds the buzzer once however often it refreshes.
    """

    def __init__(self, config: TurnTimerConfig, clock: Monotonic) -> None:
        self.config = config
        self._clock = clock
        self._countdown = Countdown(config.seconds, clock)
        self._state: TimerState = "idle"
        self._announced = False

    @property
    def state(self) -> TimerState:
        return self._state

    def remaining(self) -> float:
        """Seconds left in the turn; negative once the buzzer has sounded and the player plays on."""
        return self._countdown.remaining()

    def start_turn(self) -> None:
        """Turn the sand timer over: a full turn's time, running from now."""
        self._countdown.reset(self.config.seconds)
        self._countdown.start()
        self._state = "running"
        self._announced = False

    def end_turn(self) -> float:
        """Stop at the end of a turn and return the seconds that were left."""
        left = self._countdown.stop()
        self._state = "idle"
        return left

    def pause(self) -> None:
        if self._state != "running":
            raise ClockError(f"the turn timer cannot pause: it is {self._state}", form="timer_cannot_pause",
                             state=self._state)
        self._countdown.stop()
        self._state = "paused"

    def resume(self) -> None:
        if self._state != "paused":
            raise ClockError(f"the turn timer cannot resume: it is {self._state}, not paused",
                             form="timer_cannot_resume",
                             state=self._state)
        self._countdown.start()
        self._state = "running"

    def next_due(self) -> float | None:
        """The monotonic instant of the next event, so a loop can sleep exactly until it; None if none is due."""
        if self._state != "running" or self._announced:
            return None
        return self._countdown.deadline()

    def poll(self) -> list[TimerEvent]:
        """Events that became due since the last poll (each announced once)."""
        if self._state != "running" or self._announced:
            return []
        deadline = self._countdown.deadline()
        if deadline is None or self._clock() < deadline:
            return []
        self._announced = True
        events = [TimerEvent("time_up", None, deadline)]
        if self.config.ends_turn:
            self._countdown.stop()
            self._countdown.reset(0.0)
            self._state = "expired"
            events.append(TimerEvent("turn_over", None, deadline))
        return events

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot for the journal. Times are stored as seconds left, never as monotonic
        instants, which mean nothing after a reboot."""
        return {
            "kind": "turn_timer",
            "version": 1,
            "config": {"seconds": self.config.seconds, "ends_turn": self.config.ends_turn},
            "state": self._state,
            "remaining_s": self.remaining(),
            "announced": self._announced,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], clock: Monotonic, *, paused: bool = False) -> TurnTimer:
        """Restore a journalled timer. A running timer runs on from the journalled time left, so the
        time the service was down is not charged (it counts as a pause); `paused=True` restores it
        paused instead, for the director to resume."""
        _expect_kind(data, "turn_timer")
        cfg = _mapping(data, "config")
        config = TurnTimerConfig(seconds=_number(cfg, "seconds"), ends_turn=_bool(cfg, "ends_turn"))
        timer = cls(config, clock)
        state = data.get("state")
        if state not in ("idle", "running", "paused", "expired"):
            raise ClockError(f"saved turn timer: unknown state {state!r}", form="saved_timer_state", value=state)
        timer._countdown.reset(_number(data, "remaining_s"))
        timer._announced = _bool(data, "announced")
        timer._state = state
        if state == "running":
            if paused:
                timer._state = "paused"
            else:
                timer._countdown.start()
        return timer


# --- helpers for reading saved state: strict, with messages that say which field is wrong ---------


def _expect_kind(data: Mapping[str, Any], kind: str) -> None:
    if not isinstance(data, Mapping):
        raise ClockError(f"saved {kind}: expected a mapping, got {type(data).__name__}", form="saved_not_mapping",
                         kind=kind, type=type(data).__name__)
    if data.get("kind") != kind:
        raise ClockError(f"saved {kind}: the record is a {data.get('kind')!r}, not a {kind!r}", form="saved_kind",
                         kind=kind, found=data.get("kind"))
    if data.get("version") != 1:
        raise ClockError(f"saved {kind}: unsupported version {data.get('version')!r} (this build reads version 1)",
                         form="saved_version", kind=kind, version=data.get("version"))


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise ClockError(f"saved clock: field {key!r} must be a mapping, got {value!r}", form="saved_field_mapping",
                         key=key, value=value)
    return value


def _number(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ClockError(f"saved clock: field {key!r} must be a finite number, got {value!r}",
                         form="saved_field_number",
                         key=key, value=value)
    return float(value)


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise ClockError(f"saved clock: field {key!r} must be true or false, got {value!r}", form="saved_field_bool",
                         key=key, value=value)
    return value
