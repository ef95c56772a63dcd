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

from .table_steps import WORDS, apply_step, step


def _play(t: SimulatedTable, steps: list[tuple[Any, ...]]) -> None:
    """Every step is taken or cleanly refused: a refused control leaves the table exactly as it was."""
    for s in steps:
        before = t.snapshot() if s[0] == "control" else None
        try:
            apply_step(t, s)
        except ControlError:
            assert before is not None, f"only a control may be refused, not {s}"
            after = t.snapshot()
            assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}


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
