"""The simple outputs: the plain LED bar graph and the buzzer, both gpiozero devices.

Both are driven by frames (`hardware.frames`): the bar shows a number of lit LEDs, the buzzer
follows a pattern evaluated at the injected clock's time, so neither starts a background thread
of its own (gpiozero's `beep()` would, timed by the wall of `time.sleep`).
"""

from __future__ import annotations

from collections.abc import Sequence

from hardware.frames import buzzer_on
from hardware.lifecycle import ClosingDevice
from hardware.pins import PinFactory


class BarGraph(ClosingDevice):
    """A row of plain LEDs (gpiozero `LEDBarGraph`), lit from the first pin like a sand level."""

    def __init__(self, pins: Sequence[int], pin_factory: PinFactory, *, active_high: bool = True) -> None:
        from gpiozero import LEDBarGraph

        self.leds = len(pins)
        self._bar = LEDBarGraph(*pins, active_high=active_high, pwm=False, pin_factory=pin_factory)
        self.lit = 0
        self.writes = 0

    def show(self, lit: int) -> bool:
        if not 0 <= lit <= self.leds:
            raise ValueError(f"bar graph: {lit} lit LEDs on a bar of {self.leds}")
        if lit == self.lit and self.writes:
            return False
        # LEDBarGraph lights LED i when value >= (i + 1) / n: lit / n lights exactly `lit` LEDs.
        self._bar.value = lit / self.leds
        self.lit = lit
        self.writes += 1
        return True

    @property
    def states(self) -> tuple[bool, ...]:
        """Each LED's state as gpiozero sees it (first pin first)."""
        return tuple(bool(led.value) for led in self._bar)

    def _close(self) -> None:
        self._bar.close()


class Buzzer(ClosingDevice):
    """A buzzer that plays on/off patterns timed by the refresh loop, not by a thread."""

    def __init__(self, pin: int, pin_factory: PinFactory, *, active_high: bool = True) -> None:
        from gpiozero import Buzzer as GpioBuzzer

        self._buzzer = GpioBuzzer(pin, active_high=active_high, pin_factory=pin_factory)
        self._pattern: Sequence[float] = ()
        self._since = 0.0
        self.plays = 0

    def play(self, pattern: Sequence[float], now: float) -> None:
        """Start `pattern` (on, off, on, ... seconds) at monotonic time `now`; it replaces any other."""
        self._pattern = tuple(pattern)
        self._since = now
        self.plays += 1
        self.update(now)

    def update(self, now: float) -> None:
        """Set the buzzer for `now`; call it from the refresh loop."""
        on = buzzer_on(self._pattern, now - self._since)
        if on != self.is_on:
            self._buzzer.value = on

    def next_change(self, now: float) -> float | None:
        """When the pattern next turns the buzzer on or off, or None when it has finished."""
        t = self._since
        for duration in self._pattern:
            t += duration
            if t > now:
                return t
        return None

    @property
    def is_on(self) -> bool:
        return bool(self._buzzer.value)

    def _close(self) -> None:
        self._buzzer.close()
