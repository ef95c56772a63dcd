"""A simulated reed-switch matrix: what the scan reads at a given millisecond, contact bounce included.

Placing or lifting a tile makes every reed switch that changes chatter for a few milliseconds (seeded
random, as a magnet approaching by hand closes and opens a reed several times), and a tile slid into place
may brush an empty neighbour's switch for a moment, shorter than the debounce time. The firmware's
debounce must hide all of it; `tests/firmware_bridge/test_emulator.py` checks that it does, and that
without it the bounce would leak.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from firmware_bridge.firmware import wire

# on_change(input, steps): what that input reads from now on, as (time_ms, code) steps, the last for good
ChangeListener = Callable[[int, list[tuple[float, int]]], None]


class SwitchMatrix:
    """Every input's code as the scan would read it at time `now_ms`, contact bounce included."""

    def __init__(
        self,
        inputs: int,
        squares: int,
        width: int,
        bits: int = 1,
        rng: random.Random | None = None,
        bounce_ms: float = 12.0,
        glitch: float = 0.2,
        glitch_ms: float = 8.0,
    ) -> None:
        self.settled = bytearray(inputs)
        self.squares = squares
        self.width = width
        self.bits = bits
        self.rng = rng or random.Random(0)
        self.bounce_ms = bounce_ms
        self.glitch = glitch
        self.glitch_ms = glitch_ms
        # input -> list of (time_ms, code): the reading from that time on, until the next entry
        self._bouncing: dict[int, list[tuple[float, int]]] = {}
        # Told every change with its bounce written out: a board that reads the matrix in another process
        # (the firmware on MicroPython, `firmware_bridge.micropython_board`) replays the same steps there.
        self.on_change: ChangeListener | None = None

    def quiet_after(self) -> float:
        """The time after which nothing bounces any more (-inf when nothing does)."""
        return max((steps[-1][0] for steps in self._bouncing.values()), default=float("-inf"))

    def set(self, index: int, code: int, now_ms: float, bits: int | None = None, neighbours: bool = True) -> None:
        """Change an input's settled code at `now_ms`; each changing bit chatters until it settles."""
        old = self._reading(index, now_ms)
        self._forget_past(index, now_ms)
        width_bits = bits if bits is not None else (self.bits if index < self.squares else 8)
        flips: list[tuple[float, int]] = []
        for b in range(width_bits):
            if (old ^ code) & (1 << b):
                n = self.rng.choice((1, 3, 3, 5, 7))  # odd: it ends in the new state
                times = sorted(now_ms + self.rng.uniform(0.0, self.bounce_ms) for _ in range(n))
                flips.extend((t, 1 << b) for t in times)
        flips.sort()
        steps = [(now_ms, old)]
        value = old
        for t, bit in flips:
            value ^= bit
            steps.append((t, value))
        steps.append((steps[-1][0], code))
        self.settled[index] = code
        if len(steps) > 2:
            self._bouncing[index] = steps
        if self.on_change is not None:
            self.on_change(index, steps[1:] if len(steps) > 2 else [(now_ms, code)])
        if neighbours and index < self.squares and self.rng.random() < self.glitch:
            self._brush_neighbour(index, now_ms)

    def _brush_neighbour(self, index: int, now_ms: float) -> None:
        """A magnet passing over an empty neighbour closes one of its switches for a moment."""
        row, col = divmod(index, self.width)
        rows = self.squares // self.width
        options = [
            r * self.width + c
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < rows and 0 <= c < self.width
        ]
        target = self.rng.choice(options)
        if self.settled[target] != wire.EMPTY or target in self._bouncing:
            return
        start = now_ms + self.rng.uniform(0.0, self.bounce_ms)
        pulse = 1 << self.rng.randrange(self.bits)
        self._bouncing[target] = [(now_ms, 0), (start, pulse), (start + self.rng.uniform(0.5, self.glitch_ms), 0)]
        if self.on_change is not None:
            self.on_change(target, self._bouncing[target][1:])

    def _forget_past(self, index: int, now_ms: float) -> None:
        steps = self._bouncing.get(index)
        if steps is not None and steps[-1][0] <= now_ms:
            del self._bouncing[index]

    def _reading(self, index: int, now_ms: float) -> int:
        steps = self._bouncing.get(index)
        if steps is None:
            return self.settled[index]
        value = steps[0][1]
        for t, code in steps:
            if t > now_ms:
                break
            value = code
        return value

    def read_into(self, buf: bytearray, now_ms: float) -> None:
        """What one scan at `now_ms` reads: settled codes, with the bouncing inputs as they are then."""
        buf[:] = self.settled
        if self._bouncing:
            for index in list(self._bouncing):
                buf[index] = self._reading(index, now_ms)
                self._forget_past(index, now_ms)
