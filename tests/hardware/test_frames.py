"""What the LEDs, digits and buzzer show at chosen instants of a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.clock import ClockConfig, GameClock
from game.timers import TurnTimer, TurnTimerConfig
from hardware.frames import (
    OFF,
    Reading,
    RingStyle,
    bar_lit,
    buzzer_on,
    clock_text,
    digits_text,
    readings,
    ring_frame,
    segment_bounds,
    tm1637_bytes,
)
from referee.sim.clock import ManualClock

STYLE = RingStyle()
DIM_OK = (0, round(160 * STYLE.idle_dim), 0)


@pytest.mark.parametrize(
    ("remaining_ms", "text"),
    [
        (1_500_000, "25:00"),
        (1_499_001, "25:00"),  # a part second counts while counting down
        (1_499_000, "24:59"),
        (7_000, "0:07"),
        (1, "0:01"),
        (0, "0:00"),
        (-1, "-0:00"),
        (-184_000, "-3:04"),  # 3:04 over, as the penalty reads it
        (-184_999, "-3:04"),
        (-125_000, "-2:05"),
        (-600_000, "-10"),
        (6_000_000, "99:59"),
    ],
)
def test_clock_text(remaining_ms: int, text: str) -> None:
    assert clock_text(remaining_ms) == text


def test_tm1637_bytes_with_colon_and_minus() -> None:
    assert tm1637_bytes("3:04") == bytes([0x00, 0x4F | 0x80, 0x3F, 0x66])
    assert tm1637_bytes("-2:05") == bytes([0x40, 0x5B | 0x80, 0x3F, 0x6D])
    assert tm1637_bytes("25:00") == bytes([0x5B, 0x6D | 0x80, 0x3F, 0x3F])
    assert tm1637_bytes("") == bytes(4)
    assert tm1637_bytes("-10") == bytes([0x00, 0x40, 0x06, 0x3F])


@pytest.mark.parametrize(("text", "match"), [("12:345", "does not fit"), ("1:2:3", "does not fit"), ("12:3", "colon"),
                                             ("WX", "cannot show 'W'")])
def test_tm1637_bytes_refuses_what_does_not_fit(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        tm1637_bytes(text)


def test_game_clock_frames_at_chosen_instants(clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=100.0), clock)
    game.start(0)
    leds = 20  # 10 per player

    clock.advance(50)  # player 0 half drained, green; player 1 full and dim
    frame = ring_frame(readings(game), leds)
    assert frame[:10] == [STYLE.ok] * 5 + [OFF] * 5
    assert frame[10:] == [DIM_OK] * 10

    clock.advance(30)  # 20 s left of 100: amber (a quarter or less)
    assert ring_frame(readings(game), leds)[:10] == [STYLE.warn] * 2 + [OFF] * 8

    clock.advance(15)  # 5 s left: red, the last LED still holds sand
    assert ring_frame(readings(game), leds)[:10] == [STYLE.low] + [OFF] * 9

    clock.advance(5.2)  # 0.2 s over: the whole segment red, blinking on
    assert ring_frame(readings(game), leds)[:10] == [STYLE.overtime] * 10
    clock.advance(0.5)  # 0.7 s over: the off beat
    assert ring_frame(readings(game), leds)[:10] == [OFF] * 10

    game.press(0)  # a stopped clock in overtime stays lit (dim), it does not blink
    face = readings(game)[0]
    assert not face.active and face.blink_on
    assert ring_frame(readings(game), leds)[0] == (round(255 * STYLE.idle_dim), 0, 0)


def test_paused_faces_are_blue_and_steady(clock: ManualClock) -> None:
    game = GameClock(ClockConfig(budget_s=10.0), clock)
    game.start(1)
    clock.advance(10.2)
    game.pause()
    frame = ring_frame(readings(game), 4)
    assert frame[2:] == [STYLE.paused] * 2
    assert frame[:2] == [tuple(round(v * STYLE.idle_dim) for v in STYLE.paused)] * 2


def test_turn_timer_is_one_segment(clock: ManualClock) -> None:
    timer = TurnTimer(TurnTimerConfig.scramble(), clock)
    timer.start_turn()
    clock.advance(45)
    (face,) = readings(timer)
    assert face == Reading(remaining_ms=15_000, total_ms=60_000, active=True)
    assert ring_frame([face], 12) == [STYLE.warn] * 3 + [OFF] * 9
    assert bar_lit(face, 8) == 2


def test_segments_split_as_evenly_as_possible() -> None:
    assert segment_bounds(24, 2) == [(0, 12), (12, 24)]
    assert segment_bounds(10, 3) == [(0, 3), (3, 6), (6, 10)]


def test_bar_blinks_all_leds_in_overtime() -> None:
    assert bar_lit(Reading(-200, 60_000, active=True), 5) == 5
    assert bar_lit(Reading(-700, 60_000, active=True), 5) == 0
    assert bar_lit(Reading(60_000, 60_000, active=True), 5) == 5
    assert bar_lit(Reading(1, 60_000, active=True), 5) == 1


def test_digits_blank_on_the_off_beat_of_running_overtime() -> None:
    assert digits_text(Reading(-184_200, 1_500_000, active=True)) == "-3:04"
    assert digits_text(Reading(-184_700, 1_500_000, active=True)) == ""
    assert digits_text(Reading(-184_700, 1_500_000, active=False)) == "-3:04"


def test_buzzer_pattern() -> None:
    pattern = (0.25, 0.15, 0.6)
    assert [buzzer_on(pattern, t) for t in (-0.1, 0.0, 0.24, 0.3, 0.41, 0.99, 1.0)] == [
        False, True, True, False, True, True, False,
    ]  # fmt: skip


def test_place_rotates_and_mirrors_onto_the_wired_leds() -> None:
    from hardware.frames import place

    a, b, c = (1, 0, 0), (2, 0, 0), (3, 0, 0)
    frame = [a, b, c, OFF, OFF, OFF]
    assert place(frame) == frame
    assert place(frame, offset=4) == [c, OFF, OFF, OFF, a, b]
    assert place(frame, offset=1, reverse=True) == [b, a, OFF, OFF, OFF, c]


# --- properties --------------------------------------------------------------------------------


MS = st.integers(-10**8, 10**8)


@given(MS)
def test_every_clock_reading_fits_the_display(remaining_ms: int) -> None:
    text = clock_text(remaining_ms)
    assert len(tm1637_bytes(text)) == 4
    if 0 < remaining_ms <= 99 * 60_000:
        minutes, seconds = text.split(":")
        shown_ms = (int(minutes) * 60 + int(seconds)) * 1000
        assert remaining_ms <= shown_ms < remaining_ms + 1000  # counting down, a part second counts


@given(st.integers(1, 240), st.integers(1, 4), st.integers(1, 10**7), st.data())
def test_the_sand_only_ever_drains(leds: int, players: int, total: int, data: st.DataObject) -> None:
    later, earlier = sorted(data.draw(st.lists(st.integers(1, total), min_size=2, max_size=2)))
    lit_before = bar_lit(Reading(earlier, total, active=True), leds)
    lit_after = bar_lit(Reading(later, total, active=True), leds)
    assert 1 <= lit_after <= lit_before <= leds
    faces = [Reading(later, total, active=(i == 0)) for i in range(players)]
    assert len(ring_frame(faces, max(leds, players))) == max(leds, players)
