"""Ties a clock from `game` to the table's devices: buttons in, LEDs, digits and buzzer out.

The controller owns no time of its own: the clock (a `GameClock` or a `TurnTimer`) keeps the
deadlines on the injected monotonic clock, and every output is redrawn from `frames.readings()`
of it. A button switches the clock in the button's own callback (gpiozero's thread) and redraws at
once, so the player sees the switch without waiting for the next refresh; `refresh()` from the
service's loop does the rest (blinking, draining, the buzzer, long presses).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from game.clock import GameClock
from game.timers import ClockError, Monotonic, TimerEvent, TurnTimer
from hardware.buttons import ButtonEvent
from hardware.factory import TableDevices
from hardware.frames import (
    FLAG_PATTERN,
    TIME_UP_PATTERN,
    Reading,
    RingStyle,
    bar_lit,
    digits_brightness,
    digits_text,
    focus,
    place,
    readings,
    ring_frame,
    tm1637_bytes,
)
from hardware.lifecycle import ClosingDevice
from hardware.terminal import render_line

log = logging.getLogger(__name__)
ButtonListener = Callable[[ButtonEvent], None]
TimerListener = Callable[[TimerEvent], None]


class ClockController(ClosingDevice):
    """Runs `timer` on `devices`.

    With `buttons_drive_clock` (the default), a player's clock button ends that player's turn
    (`GameClock.press`, or for the turn timer: the next turn's timer starts), before the game a
    clock button starts the *other* player's clock (the chess-clock convention), and the pause
    button pauses and resumes. Either way every button event goes to `subscribe()`d listeners, after the
    clock has acted. The service calls clock methods under `controller.lock`."""

    def __init__(
        self,
        devices: TableDevices,
        timer: GameClock | TurnTimer,
        clock: Monotonic = time.monotonic,
        *,
        style: RingStyle | None = None,
        buttons_drive_clock: bool = True,
    ) -> None:
        if isinstance(timer, GameClock) and devices.displays and len(devices.displays) != timer.config.players:
            raise ClockError(
                f"{len(devices.displays)} digit display(s) for a {timer.config.players}-player clock; give one each"
            )
        self.devices = devices
        self.timer = timer
        self.lock = threading.RLock()
        self._clock = clock
        self._style = style or RingStyle()
        self._drive = buttons_drive_clock
        self._button_listeners: list[ButtonListener] = []
        self._timer_listeners: list[TimerListener] = []
        self.switched_at: float | None = None  # monotonic time of the last clock switch by a button
        # Turn-timer mode: whose turn the sand timer is running for (None until the first press), so
        # only that player's button ends it and an opponent cannot restart someone else's timer.
        self.turn_player: int | None = None
        self._unsubscribe = devices.buttons.subscribe(self._on_button)

    # --- listeners ---------------------------------------------------------------------------------

    def subscribe(self, listener: ButtonListener) -> Callable[[], None]:
        """Get every `ButtonEvent` (clock, challenge, pause, confirm, long presses)."""
        self._button_listeners.append(listener)
        return lambda: self._button_listeners.remove(listener)

    def subscribe_timer(self, listener: TimerListener) -> Callable[[], None]:
        """Get the clock's `TimerEvent`s (time up, turn over, max overtime) as `refresh()` finds them."""
        self._timer_listeners.append(listener)
        return lambda: self._timer_listeners.remove(listener)

    # --- buttons -----------------------------------------------------------------------------------

    def _on_button(self, event: ButtonEvent) -> None:
        if self._drive and event.kind == "press":
            with self.lock:
                acted = self._act(event)
                if acted:
                    self.switched_at = self._clock()
                    self._draw(readings(self.timer))
        for listener in list(self._button_listeners):
            try:
                listener(event)
            except Exception:
                log.exception("button listener failed on %s", event)

    def _act(self, event: ButtonEvent) -> bool:
        timer = self.timer
        if event.button == "clock" and event.player is not None:
            if isinstance(timer, GameClock):
                if timer.state == "ready":
                    # As on a chess clock: the player who does not begin starts the opponent's clock.
                    timer.start((event.player + 1) % timer.config.players)
                    return True
                return timer.press(event.player)
            players = self.devices.config.players
            if timer.state == "paused" or (self.turn_player is not None and event.player != self.turn_player):
                return False
            timer.start_turn()
            self.turn_player = (event.player + 1) % players
            return True
        if event.button == "pause":
            state = timer.state
            if state == "running":
                timer.pause()
                return True
            if state == "paused":
                timer.resume()
                return True
        return False

    # --- the refresh loop --------------------------------------------------------------------------

    def refresh(self) -> list[TimerEvent]:
        """Poll the clock and the buttons' long presses, sound the buzzer, redraw what changed.
        Returns the clock's events (also passed to `subscribe_timer` listeners)."""
        self.devices.buttons.poll()
        with self.lock:
            events = self.timer.poll()
            faces = readings(self.timer)
            now = self._clock()
            buzzer = self.devices.buzzer
            if buzzer is not None:
                for event in events:
                    if event.kind == "time_up":
                        self.devices.guarded("buzzer", partial(buzzer.play, TIME_UP_PATTERN, now))
                    elif event.kind == "max_overtime":
                        self.devices.guarded("buzzer", partial(buzzer.play, FLAG_PATTERN, now))
                self.devices.guarded("buzzer", partial(buzzer.update, now))
            self._draw(faces)
        for event in events:
            for listener in list(self._timer_listeners):
                try:
                    listener(event)
                except Exception:
                    log.exception("timer listener failed on %s", event)
        return events

    def next_refresh(self, fps: float = 20.0) -> float:
        """When to call `refresh()` next: at most 1/fps from now, sooner when an event is due."""
        now = self._clock()
        candidates = [now + 1.0 / fps, self.timer.next_due(), self.devices.buttons.next_due()]
        if self.devices.buzzer is not None:
            candidates.append(self.devices.buzzer.next_change(now))
        return min(c for c in candidates if c is not None)

    def _draw(self, faces: Sequence[Reading]) -> None:
        draw(self.devices, faces, self._style)

    # --- views -------------------------------------------------------------------------------------

    def faces(self) -> list[Reading]:
        with self.lock:
            return readings(self.timer)

    def clock_views(self) -> list[dict[str, Any]]:
        """`referee.table.api.ClockView`-shaped dicts, one per face, for the table snapshot."""
        return [{"remaining_ms": f.remaining_ms, "running": f.active and not f.paused} for f in self.faces()]

    def render_line(self, names: Sequence[str] | None = None, width: int = 12, *, ascii_only: bool = False) -> str:
        """The one-line terminal view of the simulated table."""
        return render_line(self.faces(), names, width, ascii_only=ascii_only)

    def _close(self) -> None:
        """Stop listening to the buttons (the devices belong to whoever built them)."""
        self._unsubscribe()


def draw(devices: TableDevices, faces: Sequence[Reading], style: RingStyle | None = None) -> None:
    """Push `faces` to every configured output; each driver skips the wire when its frame is unchanged.

    Public for callers that keep the clock themselves (the table service draws its own journaled
    clocks with it): the ring gets one segment per face, the bar the face on move, each display its
    player's face (or, with a single turn-timer face, every display shows it)."""
    if not faces:
        return
    ring, bar = devices.ring, devices.bar
    if ring is not None:
        rc = devices.config.ring
        frame = ring_frame(faces, ring.leds, style)
        if rc is not None and (rc.offset or rc.reverse):
            frame = place(frame, rc.offset, rc.reverse)
        devices.guarded("LED ring", lambda: ring.show(frame))
    if bar is not None:
        lit = bar_lit(focus(faces), bar.leds)
        devices.guarded("bar graph", lambda: bar.show(lit))
    for i, display in enumerate(devices.displays):
        face = faces[i] if len(faces) == len(devices.displays) else focus(faces)
        segments = tm1637_bytes(digits_text(face))
        level = digits_brightness(face, display.brightness) if len(faces) > 1 else display.brightness
        devices.guarded(f"display {i}", partial(display.show, segments, level))
