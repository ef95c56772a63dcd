"""What the players see besides the page: the LED timer, the digit displays, the buzzer, a terminal line.

The clocks themselves live in the table state machine (so they are journaled and replayed); this
module only *reads* them and draws with issue 6's pure frame functions (`hardware.frames`). It
must never poll or press the machine's clocks: that is why it does not use
`hardware.controller.ClockController`, which drives the timer it is given.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from referee.live_table import LiveTable

Monotonic = Callable[[], float]
TROUBLE = (200, 0, 0)


class Outputs:
    """Draws the table's clocks on the configured devices and/or the terminal. Call `refresh()` often."""

    def __init__(self, table: LiveTable, devices: Any | None, clock: Monotonic,
                 terminal: TextIO | None = None) -> None:
        self.table = table
        self.devices = devices
        self.clock = clock
        self.terminal = terminal
        self._last_line = ""
        self._last_term = float("-inf")
        self._alerts_seen: set[str] = set()
        self.trouble = False  # an error alert is up: the ring blinks red instead of showing the clocks

    def _faces(self) -> tuple[list[Any], list[str], set[str]]:
        from hardware.frames import readings

        with self.table._lock:
            m = self.table.machine
            timer = m.clock if m.clock is not None else m.timer
            names = list(m.setup.players)
            codes = {a.code for a in m.notices}
            self.trouble = any(a.level == "error" for a in m.alerts())
            return (readings(timer) if timer is not None else []), names, codes

    def refresh(self) -> None:
        faces, names, codes = self._faces()
        now = self.clock()
        if self.devices is not None:
            self._draw(faces, now, codes)
        if self.terminal is not None and faces and now - self._last_term >= 0.5:
            from hardware.terminal import render_line

            line = render_line(faces, names if len(faces) == len(names) else None)
            if line != self._last_line:
                self.terminal.write("\r" + line + "  ")
                self.terminal.flush()
                self._last_line = line
            self._last_term = now

    def _draw(self, faces: list[Any], now: float, codes: set[str]) -> None:
        from hardware.frames import FLAG_PATTERN, TIME_UP_PATTERN, bar_lit, digits_text, focus, ring_frame, tm1637_bytes

        d = self.devices
        assert d is not None  # refresh() draws only when there are devices
        d.buttons.poll()
        if d.buzzer is not None:
            for code, pattern in (("time_up", TIME_UP_PATTERN), ("turn_timer", TIME_UP_PATTERN),
                                  ("max_overtime", FLAG_PATTERN)):
                if code in codes and code not in self._alerts_seen:
                    d.buzzer.play(pattern, now)
            self._alerts_seen = codes
            d.buzzer.update(now)
        if d.ring is not None and self.trouble:
            # Something is wrong at the table (a tile moved, the board or camera lost): the page says what
            # and where; the ring draws the eye to it, blinking red twice a second.
            on = int(now * 4) % 2 == 0
            d.ring.show([TROUBLE if on else (0, 0, 0)] * d.ring.leds)
        elif d.ring is not None and faces:
            d.ring.show(ring_frame(faces, d.ring.leds))
        if not faces:
            return
        if d.bar is not None:
            d.bar.show(bar_lit(focus(faces), d.bar.leds))
        for i, display in enumerate(d.displays):
            face = faces[i] if len(faces) == len(d.displays) else focus(faces)
            display.show(tm1637_bytes(digits_text(face)))

    def close(self) -> None:
        if self.terminal is not None and self._last_line:
            self.terminal.write("\n")
        if self.devices is not None:
            self.devices.close()


def stdout_if_tty() -> TextIO | None:
    return sys.stdout if sys.stdout.isatty() else None
