"""Buttons on MockFactory pins: leading-edge debounce and long presses, timed by a fake clock."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonEvent, ButtonPanel
from hardware.config import ButtonsConfig
from referee.sim.clock import ManualClock

CONFIG = ButtonsConfig(clock=(17, 27), named={"challenge": 22, "confirm": 16}, bounce_ms=30, hold_s=1.5)


@pytest.fixture
def panel(mock_pins: MockFactory, clock: ManualClock) -> Iterator[tuple[ButtonPanel, list[ButtonEvent]]]:
    p = ButtonPanel(CONFIG, mock_pins, clock)
    events: list[ButtonEvent] = []
    p.subscribe(events.append)
    yield p, events
    p.close()


def test_clock_button_acts_on_the_first_edge(panel, mock_pins: MockFactory, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    _, events = panel
    mock_pins.pin(27).drive_low()
    assert events == [ButtonEvent("clock", "clock", "press", 1000.0, player=1)]


def test_chatter_is_ignored(panel, mock_pins: MockFactory, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    p, events = panel
    pin = mock_pins.pin(17)
    pin.drive_low()
    for _ in range(3):  # contact bounce within 30 ms
        clock.advance(0.004)
        pin.drive_high()
        clock.advance(0.004)
        pin.drive_low()
    assert len(events) == 1
    assert p.bounces == 6
    clock.advance(0.1)
    pin.drive_high()
    clock.advance(0.1)
    pin.drive_low()  # a real second press
    assert [e.player for e in events] == [0, 0]


def test_release_lost_in_the_bounce_is_settled_by_poll(panel, mock_pins: MockFactory, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    p, events = panel
    pin = mock_pins.pin(16)
    pin.drive_low()
    clock.advance(0.01)
    pin.drive_high()  # ignored as chatter, but the button really is up now
    clock.advance(0.05)
    p.poll()
    assert [(e.action, e.kind) for e in events] == [("confirm", "press")]
    clock.advance(5)
    assert p.poll() == []  # no phantom long press


def test_long_press_fires_once_at_the_threshold(panel, mock_pins: MockFactory, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    p, events = panel
    pin = mock_pins.pin(16)  # confirm: held -> "undo" (the default)
    pin.drive_low()
    assert events == []  # a button with a long press waits to know which it is
    assert p.next_due() == pytest.approx(1001.5)
    clock.advance(1.0)
    assert p.poll() == []
    clock.advance(0.6)
    (hold,) = p.poll()
    assert (hold.action, hold.kind, hold.at) == ("undo", "hold", pytest.approx(1001.5))
    clock.advance(1.0)
    assert p.poll() == []
    pin.drive_high()
    assert events == [hold]  # no short press after a long one


def test_short_press_of_a_button_with_a_long_action(panel, mock_pins: MockFactory, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    _, events = panel
    pin = mock_pins.pin(16)
    pin.drive_low()
    clock.advance(0.3)
    pin.drive_high()
    assert [(e.action, e.kind, e.at) for e in events] == [("confirm", "press", 1000.0)]


def test_a_failing_listener_does_not_stop_the_others(panel, mock_pins: MockFactory, caplog) -> None:  # type: ignore[no-untyped-def]
    p, events = panel

    def broken(event: ButtonEvent) -> None:
        raise RuntimeError("listener bug")

    p._listeners.insert(0, broken)
    mock_pins.pin(22).drive_low()
    assert [e.action for e in events] == ["challenge"]
    assert "listener failed" in caplog.text


# --- properties: chatter never doubles a press, and no real press is lost ------------------------



@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=1, max_size=40))
@example(gaps_ms=[0, 30, 30])  # an edge exactly one window after the last, in float seconds
def test_presses_are_never_doubled_nor_lost(gaps_ms: list[int]) -> None:
    """Alternate press/release edges with random gaps (ms): presses reported are at least the debounce
    window apart, and when every gap is at least that window, every press is reported."""
    factory = MockFactory()
    clock = ManualClock()
    panel = ButtonPanel(ButtonsConfig(clock=(17, 27), bounce_ms=30), factory, clock)
    events: list[ButtonEvent] = []
    panel.subscribe(events.append)
    pin = factory.pin(17)
    try:
        presses = 0
        for i, gap in enumerate(gaps_ms):
            clock.advance(gap / 1000.0)
            if i % 2 == 0:
                pin.drive_low()
                presses += 1
            else:
                pin.drive_high()
            panel.poll()
        times = [e.at for e in events]
        assert all(b - a >= 0.030 - 1e-9 for a, b in itertools.pairwise(times))
        assert len(events) <= presses
        if all(g >= 30 for g in gaps_ms[1:]):
            assert len(events) == presses
    finally:
        panel.close()
        factory.close()
