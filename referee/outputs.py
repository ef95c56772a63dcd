"""What the players see besides the page: the LED timer, the digit displays, the buzzer, a terminal line.

The clocks themselves live in the table state machine (so they are journaled and replayed); this
module only *reads* them and draws them with the devices' own drawing, `TableDevices.draw` (the ring's
configured offset and direction, the digits dimmed for the clock not on move, each write guarded). It never
polls or presses the machine's clocks.

A stalled SD card never stops these clocks: while a journal write holds the table, the faces last read run on
by the table time since (`LiveTable.reading_unless_busy`), and past a couple of seconds the terminal line says
the game cannot be saved (the page shows the same as an alert).

A failing output (a display unplugged mid-game, an SPI error, a closed terminal) is logged the first
time, counted (`Outputs.faults`), and never stops the clock or the service: `refresh()` does not raise.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TextIO, cast

from hardware.lifecycle import log_once_then_count
from referee.table.live import STALL_ALERT_S, LiveTable
from referee.words import say

if TYPE_CHECKING:  # the devices' module imports gpiozero: only when a table has devices (referee.sim.parts)
    from hardware.factory import TableDevices

log = logging.getLogger(__name__)

Monotonic = Callable[[], float]
TROUBLE = (200, 0, 0)


class StatusLine(Protocol):
    """A terminal that keeps the clock line itself (the simulated table's `referee.sim.screen.Screen`, where the
    line shares the bottom row with what is typed): given the line, never `\r`-drawn over the typing."""

    def show_status(self, line: str) -> None: ...


class Outputs:
    """Draws the table's clocks on the configured devices and/or the terminal. Call `refresh()` often."""

    def __init__(self, table: LiveTable, devices: TableDevices | None, clock: Monotonic,
                 terminal: TextIO | StatusLine | None = None, language: str = "en") -> None:
        self.table = table
        self.language = language  # of what the terminal says (referee/words/terminal.py)
        self.devices = devices
        self.clock = clock
        self.terminal = terminal
        self._last_line = ""
        self._last_term = float("-inf")
        self._alerts_seen: set[str] = set()
        self._faults: dict[str, int] = {}  # failures outside the devices' own writes (terminal, drawing)
        self.trouble = False  # an error alert is up: the ring blinks red instead of showing the clocks
        # The faces, names and notice codes last read, and the table time (ms) they were read at.
        self._last: tuple[list[Any], list[str], set[str], int] = ([], [], set(), 0)
        self._stall_logged = False
        self._closed = False

    @property
    def faults(self) -> dict[str, int]:
        """Failed writes per output since the start: the devices' (`TableDevices.faults`) and this module's."""
        devices = dict(self.devices.faults) if self.devices is not None else {}
        return {**devices, **self._faults}

    def _guarded(self, name: str, action: Callable[[], object]) -> None:
        """Like `TableDevices.guarded`, for what is not a device write: logged once, counted, never raised."""
        log_once_then_count(self._faults, name, action, log,
                            "%s failed; the clock runs on, further failures are only counted")

    def _faces(self) -> tuple[list[Any], list[str], set[str]]:
        """The clock faces now. While a journal write holds the table (a stalled SD card), the faces last read
        run on by the table time since: the timer's own state, never a frozen clock (the table applies nothing
        until the write returns, so the faces it will show then are these)."""
        from hardware.frames import readings

        with self.table.reading_unless_busy() as now:
            if now is not None:
                timer = now.timing
                self._last = ((readings(timer) if timer is not None else []), list(now.players),
                              set(now.notice_codes), now.table_ms)
                self.trouble = now.in_trouble
                return self._last[0], self._last[1], self._last[2]
        faces, names, codes, at_ms = self._last
        elapsed = max(0, self.table.clock.now_ms() - at_ms)
        return [dataclasses.replace(f, remaining_ms=f.remaining_ms - elapsed) if f.active and not f.paused else f
                for f in faces], names, codes

    def _stall_note(self) -> str:
        """The terminal's word on a journal write waiting for the disk past STALL_ALERT_S ("" otherwise); the
        page shows the same as its `journal_waiting` alert. Logged once a stall."""
        waiting = self.table.saving_stalled_s()
        if waiting < STALL_ALERT_S:
            self._stall_logged = False
            return ""
        if not self._stall_logged:
            self._stall_logged = True
            log.error("the journal has waited %.0f s for the SD card: the game cannot be saved; the clocks run on",
                      waiting)
        return say("terminal", "stall_note", self.language, seconds=f"{waiting:.0f}")

    def refresh(self) -> None:
        """Draw the clocks now. Never raises: the service loop calls it between the table's timers."""
        self._guarded("drawing the clocks", self._refresh)

    def _refresh(self) -> None:
        faces, names, codes = self._faces()
        now = self.clock()
        if self.devices is not None:
            self._draw(faces, now, codes)
        if self.terminal is not None and faces and now - self._last_term >= 0.5:
            from hardware.terminal import render_line

            line = render_line(faces, names if len(faces) == len(names) else None) + self._stall_note()
            show = getattr(self.terminal, "show_status", None)
            if line != self._last_line and show is not None:
                self._guarded("terminal", partial(show, line))
            elif line != self._last_line:
                pad = max(2, len(self._last_line) - len(line) + 2)  # a shorter line wipes the longer one's end
                self._guarded("terminal", partial(self._write, "\r" + line + " " * pad))
            self._last_line = line
            self._last_term = now

    def _write(self, text: str) -> None:
        terminal = cast(TextIO, self.terminal)  # a StatusLine terminal is never written to (it draws the line)
        terminal.write(text)
        terminal.flush()

    def _draw(self, faces: list[Any], now: float, codes: set[str]) -> None:
        from hardware.frames import FLAG_PATTERN, TIME_UP_PATTERN

        d = self.devices
        assert d is not None  # refresh() draws only when there are devices
        d.guarded("buttons", d.buttons.poll)  # long presses; a press itself comes from gpiozero's thread
        buzzer = d.buzzer
        if buzzer is not None:
            for code, pattern in (("time_up", TIME_UP_PATTERN), ("turn_timer", TIME_UP_PATTERN),
                                  ("max_overtime", FLAG_PATTERN), ("lost_on_time", FLAG_PATTERN)):
                if code in codes and code not in self._alerts_seen:
                    d.guarded("buzzer", partial(buzzer.play, pattern, now))
            self._alerts_seen = codes
            d.guarded("buzzer", partial(buzzer.update, now))
        ring = d.ring
        if ring is not None and self.trouble:
            # Something is wrong at the table (a tile moved, the board or camera lost): the page says what
            # and where; the ring draws the eye to it, blinking red twice a second. The other outputs
            # still show the clocks: they are drawn from a view of the devices without the ring.
            on = int(now * 4) % 2 == 0
            frame = [TROUBLE if on else (0, 0, 0)] * ring.leds
            d.guarded("LED ring", partial(ring.show, frame))
            d = dataclasses.replace(d, ring=None)  # shares the devices and their fault counts
        d.draw(faces)

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the terminal's clock line and switch the devices off. Safe to call again (it does nothing)."""
        if self._closed:
            return
        self._closed = True
        if self.terminal is not None and self._last_line and not hasattr(self.terminal, "show_status"):
            self._guarded("terminal", partial(self._write, "\n"))
        if self.devices is not None:
            self.devices.close()


def stdout_if_tty() -> TextIO | None:
    return sys.stdout if sys.stdout.isatty() else None
