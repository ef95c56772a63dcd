"""The table's push buttons: one clock button per player, challenge, pause, confirm.

gpiozero `DigitalInputDevice`s deliver the edges; debouncing and long presses are done here against
the injected monotonic clock rather than with gpiozero `Button`'s `bounce_time` and `when_held`
thread (one thread per button, timed by the wall of `Event.wait`), so that
they are deterministic under a fake clock and a press switches the clock on its *first* edge
(leading-edge debounce: the contact's chatter after the first edge is ignored, the press is not
delayed by a settle time, which matters to a player hitting the clock with seconds left).

- A button without a long-press action acts on the press edge.
- A button with one acts on release if it was let go before `hold_s` (a short press), or fires the
  long-press action once `hold_s` has passed while it is still down (found by `poll()`, which the
  controller calls from its refresh loop), and then does nothing on release.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from game.timers import Monotonic
from hardware.config import ButtonsConfig
from hardware.lifecycle import ClosingDevice
from hardware.pins import PinFactory


@dataclass(frozen=True)
class ButtonEvent:
    """A button did something. `button` is "clock" (with `player`), "challenge", "pause" or "confirm";
    `action` is what it means: the button's name for a press, the configured action for a hold."""

    button: str
    action: str
    kind: Literal["press", "hold"]
    at: float  # monotonic time of the edge (press) or of the hold threshold
    player: int | None = None


Listener = Callable[[ButtonEvent], None]
log = logging.getLogger(__name__)


class _Key:
    """One button's debounce and hold state."""

    __slots__ = ("button", "down", "held", "hold_action", "last_edge", "player", "pressed_at")

    def __init__(self, button: Any, player: int | None, hold_action: str | None) -> None:
        self.button = button
        self.player = player
        self.hold_action = hold_action
        self.down = False
        self.held = False
        self.pressed_at = 0.0
        self.last_edge = float("-inf")


class ButtonPanel(ClosingDevice):
    """All buttons of a table. `subscribe(fn)` to get `ButtonEvent`s; call `poll()` for long presses."""

    def __init__(self, config: ButtonsConfig, pin_factory: PinFactory, clock: Monotonic) -> None:
        from gpiozero import DigitalInputDevice

        self._clock = clock
        # Less a nanosecond: clock readings are floats, and an edge exactly one window after the last
        # (1000.03 - 1000.0 == 0.0299999...) is a real press, not chatter.
        self._bounce = config.bounce_ms / 1000.0 - 1e-9
        self._hold = config.hold_s
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self.keys: dict[str, _Key] = {}
        self.bounces = 0  # edges ignored as contact chatter, for the health page
        buttons: list[tuple[str, int, int | None]] = [
            (f"clock{i}", pin, i) for i, pin in enumerate(config.clock)
        ] + [(name, pin, None) for name, pin in config.named.items()]
        try:
            for name, pin, player in buttons:
                btn = DigitalInputDevice(pin, pull_up=config.pull_up, bounce_time=None, pin_factory=pin_factory)
                kind = "clock" if player is not None else name
                key = _Key(btn, player, config.hold_actions.get(kind))
                self.keys[name] = key
                btn.when_activated = lambda name=name: self._edge(name, True)
                btn.when_deactivated = lambda name=name: self._edge(name, False)
        except Exception:
            self.close()
            raise

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _edge(self, name: str, pressed: bool) -> None:
        now = self._clock()
        with self._lock:
            key = self.keys[name]
            if pressed == key.down or now - key.last_edge < self._bounce:
                self.bounces += 1
                return
            key.last_edge = now
            key.down = pressed
            event = self._on_press(name, key, now) if pressed else self._on_release(name, key)
        if event is not None:
            self._emit(event)

    def _on_press(self, name: str, key: _Key, now: float) -> ButtonEvent | None:
        key.pressed_at = now
        key.held = False
        if key.hold_action is None:
            return self._event(name, key, "press", now)
        return None

    def _on_release(self, name: str, key: _Key) -> ButtonEvent | None:
        if key.hold_action is not None and not key.held:
            return self._event(name, key, "press", key.pressed_at)
        return None

    def poll(self) -> list[ButtonEvent]:
        """Fire long presses that have reached `hold_s`, and settle a release lost to the debounce
        (a bounce that ended up released): returns the events it emitted."""
        now = self._clock()
        events: list[ButtonEvent] = []
        with self._lock:
            for name, key in self.keys.items():
                if key.down and not key.button.is_active and now - key.last_edge >= self._bounce:
                    key.down = False
                    key.last_edge = now
                    released = self._on_release(name, key)
                    if released is not None:
                        events.append(released)
                    continue
                if key.down and key.hold_action and not key.held and now - key.pressed_at >= self._hold:
                    key.held = True
                    events.append(self._event(name, key, "hold", key.pressed_at + self._hold))
        for event in events:
            self._emit(event)
        return events

    def next_due(self) -> float | None:
        """When `poll()` next has a long press to fire, if a button with one is down."""
        due = [k.pressed_at + self._hold for k in self.keys.values() if k.down and k.hold_action and not k.held]
        return min(due, default=None)

    def _event(self, name: str, key: _Key, kind: Literal["press", "hold"], at: float) -> ButtonEvent:
        button = "clock" if key.player is not None else name
        action = button if kind == "press" else (key.hold_action or button)
        return ButtonEvent(button, action, kind, at, key.player)

    def _emit(self, event: ButtonEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not silence the other buttons
                log.exception("button listener failed on %s", event)

    def _close(self) -> None:
        for key in self.keys.values():
            key.button.close()
        self.keys.clear()
