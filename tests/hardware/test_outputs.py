"""The plain LED bar graph and the buzzer, on MockFactory pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.outputs import BarGraph, Buzzer


def test_bar_lights_exactly_the_lit_count(mock_pins: MockFactory) -> None:
    bar = BarGraph([5, 6, 13, 19, 26], mock_pins)
    for lit in range(6):
        bar.show(lit)
        assert bar.states == tuple(i < lit for i in range(5))
        assert [mock_pins.pin(p).state for p in (5, 6, 13, 19, 26)] == [i < lit for i in range(5)]
    with pytest.raises(ValueError, match="6 lit LEDs on a bar of 5"):
        bar.show(6)
    bar.close()


def test_active_low_bar(mock_pins: MockFactory) -> None:
    bar = BarGraph([5, 6], mock_pins, active_high=False)
    bar.show(1)
    assert [mock_pins.pin(p).state for p in (5, 6)] == [False, True]
    bar.close()


def test_buzzer_follows_its_pattern_on_the_injected_time(mock_pins: MockFactory) -> None:
    buzzer = Buzzer(18, mock_pins)
    buzzer.play((0.2, 0.1, 0.2), now=50.0)
    seen = []
    for t in (50.0, 50.19, 50.25, 50.31, 50.6):
        buzzer.update(t)
        seen.append(mock_pins.pin(18).state)
    assert seen == [True, True, False, True, False]
    assert buzzer.next_change(50.25) == pytest.approx(50.3)
    assert buzzer.next_change(50.6) is None
    buzzer.close()
