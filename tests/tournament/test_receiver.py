"""The receiver applies each event once and in order, whatever order and how often they arrive."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from referee.sim.clock import ManualClock
from tournament.payloads import EventMessage
from tournament.receiver import Receiver


def ev(seq: int, table: int = 1, game: int = 1) -> EventMessage:
    return EventMessage(table, game, seq, "game" if seq == 0 else "clock", {"player": seq % 2}, seq / 10, "t")


def make() -> tuple[Receiver, list[tuple[int, int, int]], list[tuple[int, int, int, int | None]], ManualClock]:
    applied: list[tuple[int, int, int]] = []
    asked: list[tuple[int, int, int, int | None]] = []
    clock = ManualClock(0.0)
    r = Receiver(lambda m: applied.append(m.key), lambda *a: asked.append(a), retry_s=2.0, grace_s=0.5,
                 monotonic=clock)
    return r, applied, asked, clock


def test_in_order_stream_applies_everything_and_asks_nothing() -> None:
    r, applied, asked, _ = make()
    for s in range(5):
        r.feed(ev(s))
    assert applied == [(1, 1, s) for s in range(5)]
    assert asked == []


def test_duplicates_are_dropped_and_counted() -> None:
    r, applied, _, _ = make()
    for s in [0, 1, 1, 2, 0, 2, 3]:
        r.feed(ev(s))
    assert [k[2] for k in applied] == [0, 1, 2, 3]
    assert r.stats.duplicates == 3


def test_a_gap_is_asked_for_at_once_and_filled_by_the_replay() -> None:
    r, applied, asked, clock = make()
    r.feed(ev(0))
    r.feed(ev(1))
    r.feed(ev(4))
    assert asked == [(1, 1, 2, 3)]
    assert [k[2] for k in applied] == [0, 1]
    clock.now = 1.0
    r.check_gaps()
    assert len(asked) == 1, "asked again before retry_s"
    clock.now = 2.5
    r.check_gaps()
    assert asked[-1] == (1, 1, 2, 3) and len(asked) == 2, "a gap still open after retry_s is asked again"
    clock.now = 4.0
    r.check_gaps()
    assert len(asked) == 2, "the second wait is twice as long"
    clock.now = 6.6
    r.check_gaps()
    assert len(asked) == 3
    r.feed(ev(2))
    r.feed(ev(3))
    assert [k[2] for k in applied] == [0, 1, 2, 3, 4]
    clock.now = 100
    r.check_gaps()
    assert len(asked) == 3, "nothing is asked once the gap is filled"


def test_a_game_met_midway_asks_for_its_start() -> None:
    r, _, asked, _ = make()
    r.feed(ev(7, table=3, game=2))
    assert asked == [(3, 2, 0, 6)]


def test_a_lost_tail_shows_in_the_snapshot_and_is_asked_for_after_the_grace() -> None:
    r, _, asked, clock = make()
    for s in range(3):
        r.feed(ev(s))
    r.note_snapshot(1, 1, 5)
    r.check_gaps()
    assert asked == [], "the events may be on their way"
    clock.now = 1.1
    r.check_gaps()
    assert asked == [(1, 1, 3, 5)]


def test_a_gap_that_is_being_filled_is_not_asked_for_again() -> None:
    r, _, asked, clock = make()
    r.feed(ev(0))
    r.feed(ev(6))
    assert asked == [(1, 1, 1, 5)]
    for s in range(1, 5):  # the replay trickles in, slowly but steadily
        clock.now += 1.5
        r.feed(ev(s))
        r.check_gaps()
    assert asked == [(1, 1, 1, 5)]


def test_a_retained_snapshot_waits_longer_and_a_long_gap_is_asked_in_chunks() -> None:
    r, _, asked, clock = make()
    r.feed(ev(0))
    r.note_snapshot(1, 1, 2000, retained=True)
    clock.now = 5
    r.check_gaps()
    assert asked == []
    clock.now = 10.5
    r.check_gaps()
    assert asked == [(1, 1, 1, 500)]


def test_after_a_new_session_a_retained_gap_is_asked_after_the_short_grace() -> None:
    """A broker that lost the director's session (crashed before saving it) queued nothing for it: the gap a
    retained snapshot shows will not fill by itself, so it is asked for after `grace_s`, not 10 s."""
    r, _, asked, clock = make()
    r.feed(ev(0))
    r.session_started(kept=False)
    r.note_snapshot(1, 1, 3, retained=True)
    clock.now = 0.6
    r.check_gaps()
    assert asked == [(1, 1, 1, 3)]
    r.session_started(kept=True)  # a kept session: the queued events follow, the long grace again
    r.feed(ev(0, table=2))
    r.note_snapshot(2, 1, 5, retained=True)
    clock.now = 5.0
    r.check_gaps()
    assert [a for a in asked if a[0] == 2] == []


def test_restore_resumes_where_the_store_stopped() -> None:
    r, applied, asked, _ = make()
    r.restore(1, 1, 10)
    r.feed(ev(9))
    r.feed(ev(10))
    assert applied == [(1, 1, 10)]
    assert asked == []


@given(st.lists(st.integers(0, 30), min_size=1, max_size=120), st.randoms(use_true_random=False))
def test_any_order_with_duplicates_applies_each_seq_once_in_order(extra: list[int], rnd: random.Random) -> None:
    r, applied, _, _ = make()
    seqs = list(range(31)) + extra
    rnd.shuffle(seqs)
    for s in seqs:
        r.feed(ev(s))
    assert [k[2] for k in applied] == list(range(31))


def test_a_live_position_after_a_retained_one_asks_after_the_short_grace() -> None:
    r, _, asked, clock = make()
    r.feed(ev(0))
    r.note_snapshot(1, 1, 3, retained=True)
    r.note_snapshot(1, 1, 4)  # the table's "online" with its journal's end, sent once it caught up
    clock.now = 1.1
    r.check_gaps()
    assert asked == [(1, 1, 1, 4)]


def test_a_new_game_asks_once_for_the_tail_of_the_previous_one() -> None:
    r, _, asked, _ = make()
    for s in range(4):
        r.feed(ev(s, game=1))
    r.feed(ev(0, game=2))
    r.feed(ev(1, game=2))
    r.feed(ev(0, game=3))
    assert asked == [(1, 1, 4, None), (1, 2, 2, None)]
