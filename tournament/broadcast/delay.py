"""The spectators' delay: each table's recent pictures, so the public sees the game as it was a while ago.

A player in the hall must not read the board of a game still being played from a screen or a stream. The
delay is set per event, in moves (the position N moves ago, its clocks stopped as they were) or in seconds
(the picture of S seconds ago). Only the spectators' pages, the overlays and the live GCG go through it; the
director's own pages read the hall directly and are never delayed.

Pure and clocked from outside (`now`), so a test steps the time instead of waiting for it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from tournament.broadcast.view import rewound, waiting_view


class DelayError(ValueError):
    """A delay that cannot be used: says which value and why."""


@dataclass(frozen=True)
class Delay:
    """`moves` or `seconds` (one of them, or neither: no delay)."""

    moves: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.moves, bool) or not isinstance(self.moves, int) or not 0 <= self.moves <= 50:
            raise DelayError(f"delay moves: a whole number from 0 to 50, not {self.moves!r}")
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float) or \
                not 0 <= self.seconds <= 3600:
            raise DelayError(f"delay seconds: a number from 0 to 3600, not {self.seconds!r}")
        if self.moves and self.seconds:
            raise DelayError("delay: moves or seconds, not both")

    @property
    def active(self) -> bool:
        return bool(self.moves or self.seconds)

    def to_dict(self) -> dict[str, Any]:
        return {"moves": self.moves, "seconds": self.seconds}


def _count(view: dict[str, Any]) -> int:
    return len(view.get("moves") or [])


class DelayLine:
    """One table's pictures since the oldest one the delay may still show.

    `add(view, now)` on every change; `shown(now)` is the picture due now. A new game starts a new line."""

    def __init__(self) -> None:
        self._entries: deque[tuple[float, dict[str, Any]]] = deque()
        self._game: Any = None

    def add(self, view: dict[str, Any], now: float, delay: Delay) -> None:
        if view.get("game") != self._game:
            self._entries.clear()
            self._game = view.get("game")
        self._entries.append((now, view))
        self._prune(now, delay)

    def latest(self) -> dict[str, Any] | None:
        return self._entries[-1][1] if self._entries else None

    def _due_index(self, now: float, delay: Delay) -> int | None:
        """The index of the picture to show, None when none is old enough yet."""
        entries = self._entries
        if not entries:
            return None
        if not delay.active:
            return len(entries) - 1
        if delay.seconds:
            due = None
            for i, (at, _) in enumerate(entries):
                if at <= now - delay.seconds:
                    due = i
                else:
                    break
            return due
        latest = entries[-1][1]
        if latest.get("state") == "ended":
            return len(entries) - 1  # nothing more will be played: the last moves need not wait
        limit = _count(latest) - delay.moves
        due = None
        for i, (_, view) in enumerate(entries):
            if _count(view) <= limit:
                due = i
        return due

    def _prune(self, now: float, delay: Delay) -> None:
        due = self._due_index(now, delay)
        for _ in range(due or 0):
            self._entries.popleft()

    def shown(self, now: float, delay: Delay) -> dict[str, Any] | None:
        """The picture spectators see at `now` (None: the table has no picture at all)."""
        latest = self.latest()
        if latest is None:
            return None
        due = self._due_index(now, delay)
        if not delay.active:
            return latest
        if due is None and delay.moves:
            # no picture of then is kept (the delay set during the game, the director started again): the
            # position is worked out from the latest one, when it can be exactly
            earlier = rewound(latest, delay.moves)
            if earlier is not None:
                return {**earlier, "delay": {**delay.to_dict(), "rewound": True}}
        if due is None:
            return waiting_view(latest, delay.to_dict())
        view = dict(self._entries[due][1])
        view["delay"] = delay.to_dict()
        if delay.moves and view.get("state") != "ended":
            # the position of N moves ago: the clocks as they were then, stopped (they would run from an old time)
            view["players"] = [{**p, "clock": None if p.get("clock") is None else {**p["clock"], "running": False}}
                               for p in view["players"]]
        return view
