"""A German table says everything a player reads in German: no English state names, no English sentences,
whatever players and sensors do (the page's own labels are the page's)."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.sim.table import ManualClock, SimulatedTable, default_setup
from referee.table.api import ControlError, Snapshot

from .table_steps import WORDS, apply_step, step

# English words that never belong in a German sentence of the table (state names and common words).
ENGLISH = re.compile(r"\b(the|is|are|table|waiting|turn|takeback|removal|paused|ended|challenge|blank|racks|"
                     r"tiles?|play|press|clock|take|put|board)\b", re.IGNORECASE)


def _german(said: str) -> None:
    # letters and squares in a message are data, e.g. "QI, ZA": only lowercase English words count here
    assert not ENGLISH.search(re.sub(r"\b[A-Z]{2,}\b", "", said)), said


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=30))
def test_every_alert_and_refusal_of_a_german_table_is_german(steps: list[tuple[Any, ...]]) -> None:
    t = SimulatedTable(default_setup(language="de"), words=WORDS, clock=ManualClock())
    published: list[Snapshot] = []
    t.subscribe(published.append)
    refusals: list[str] = []
    for s in steps:
        try:
            apply_step(t, s)
        except ControlError as exc:
            refusals.append(exc.text("de"))
    for snap in [*published, t.snapshot()]:
        for alert in snap["alerts"]:
            _german(alert["text"])
    for said in refusals:
        _german(said)


def test_a_camera_doubt_at_a_german_table_is_asked_in_german() -> None:
    """The issue's example: the camera's doubt was English inside the German question ("Welcher Buchstabe liegt
    auf H8? H8: the camera cannot read this tile (maybe Q, 50% sure)")."""
    from referee.fusion import CameraSquare, fuse

    t = SimulatedTable(default_setup(language="de"), words=WORDS, clock=ManualClock())
    t.control("start", {})
    t.board_seen(fuse(None, {"H8": CameraSquare(True, "Q", 0.5, uncertain=True)}))
    snap = t.press()
    asked = [a["text"] for a in snap["alerts"] if a["code"] == "doubtful_letter"]
    assert asked == ["Welcher Buchstabe liegt auf H8? H8: die Kamera kann diesen Stein nicht lesen "
                     "(vielleicht Q, zu 50% sicher)"]
    _german(asked[0])
