"""Property tests: whatever players and sensors do, the table never fails with anything but a clear
refusal, and the journal always rebuilds exactly the game that was shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.journal import Journal
from referee.sim import ManualClock, SimulatedTable, default_setup
from referee.table.api import ControlError
from referee.table.live import LiveTable
from referee.table.rules import WordSet, table_rules

WORDS = ["QI", "QIS", "ZA", "ZAS", "AS", "IS", "AI", "SI"]
SQUARES = ["G8", "H8", "I8", "H7", "H9", "G7", "I9", "J8", "F8", "H10"]
LETTERS = ["Q", "I", "S", "Z", "A", "?"]

step = st.one_of(
    st.tuples(st.just("place"), st.sampled_from(SQUARES), st.sampled_from(LETTERS)),
    st.tuples(st.just("lift"), st.sampled_from(SQUARES)),
    st.tuples(st.just("press"), st.integers(0, 1)),
    st.tuples(st.just("word"), st.sampled_from(["8G QI", "8H ZA", "H8 .S", "7H AS", "8G QIS", "9H Ai", "I7 S."])),
    st.tuples(st.just("wait"), st.sampled_from([0.5, 5.0, 16.0, 200.0])),
    st.tuples(st.just("unplug")),
    st.tuples(st.just("replug")),
    st.tuples(st.just("control"), st.sampled_from([
        ("start", {}), ("pause", {}), ("resume", {}), ("accept", {}), ("pass", {}),
        ("challenge", {"player": 0}), ("challenge", {"player": 1}), ("exchange", {"count": 2}),
        ("blank", {"square": "H8", "letter": "E"}), ("blank", {"square": "I8", "letter": "S"}),
        ("correct", {"square": "H8", "letter": "A"}), ("racks", {"player": 1, "tiles": "AB"}),
        ("challenge", {"player": "x"}), ("exchange", {"count": 99}),
    ])),
)


def _play(t: SimulatedTable, steps: list[tuple[Any, ...]]) -> None:
    for s in steps:
        kind = s[0]
        if kind == "place":
            t.place(s[1], s[2])
        elif kind == "word":
            t.place_word(s[1])
        elif kind == "lift":
            t.lift(s[1])
        elif kind == "press":
            t.press(s[1])
        elif kind == "wait":
            t.advance(s[1])
        elif kind == "unplug":
            t.unplug()
        elif kind == "replug":
            t.replug()
        else:
            action, params = s[1]
            before = t.snapshot()
            try:
                t.control(action, params)
            except ControlError:
                after = t.snapshot()
                assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items()
                                                                          if k != "seq"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=40))
def test_any_sequence_is_refused_cleanly_or_applied_and_replays_identically(tmp_path: Path,
                                                                            steps: list[tuple[Any, ...]]) -> None:
    journal = Journal(":memory:")
    t = SimulatedTable(default_setup(), words=WORDS, journal=journal, clock=ManualClock())
    _play(t, steps)
    t.checkpoint()  # the last heartbeat before the "crash" (between heartbeats a running clock may give back
    shown = t.snapshot()  # up to 2 s to its player: tests/referee/test_service.py checks that bound)
    resumed = LiveTable.resume(journal, lambda s: table_rules(s, WordSet(WORDS)), monotonic=ManualClock(5.0))
    if shown["state"] == "ended":
        assert resumed is None
        return
    assert resumed is not None
    again = resumed.snapshot()
    assert {k: v for k, v in again.items() if k != "seq"} == {k: v for k, v in shown.items() if k != "seq"}
