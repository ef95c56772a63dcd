"""The one-line terminal timer of the simulated table."""

from __future__ import annotations

import pytest

from game.clock import ClockConfig, GameClock
from hardware.frames import Reading, readings
from hardware.terminal import render_face, render_line
from referee.sim.clock import ManualClock


def test_line_for_a_running_game(clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=120.0), clock)
    game.start(0)
    clock.advance(90)
    line = render_line(readings(game), ["Ann", "Bob"], width=8, ascii_only=True)
    assert line == "Ann [##......]   0:30 *  |  Bob [########]   2:00"


def test_overtime_flag_and_pause_are_spelled_out() -> None:
    assert render_face(Reading(-184_000, 1_500_000, active=True), 4) == "[!!!!]  -3:04 * OVER"
    assert render_face(Reading(-184_600, 1_500_000, active=True), 4) == "[    ]  -3:04 * OVER"
    assert render_face(Reading(-601_000, 1_500_000, active=False, flagged=True), 4) == "[!!!!]    -10 FLAG"
    assert render_face(Reading(1_000, 2_000, active=True, paused=True), 4) == "[██░░]   0:01 * PAUSED"


def test_names_must_match_faces() -> None:
    with pytest.raises(ValueError, match="1 name"):
        render_line([Reading(1, 1, True), Reading(1, 1, False)], ["Ann"])
