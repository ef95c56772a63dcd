"""`ManualClock`: the one stand-in for `time.monotonic` in the simulator, the tests and the benchmarks.

Everything in the project that reads time takes a `Callable[[], float]` (seconds, monotonic), so a
simulated table, a game clock, a PIN guard or the LED timer runs on this clock and moves exactly when
the caller says: no test waits on the wall clock, and every timer falls due at a known instant.
"""

from __future__ import annotations


class ManualClock:
    """A monotonic clock that moves only when told: `advance(seconds)`; `now` may also be set directly
    (a test that models a reboot starts a new clock near zero)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a monotonic clock does not go back")
        self.now += seconds
