"""What players and sensors may do at a table, as a hypothesis strategy, and how one step is done on a
`SimulatedTable`: shared by the property tests (every step taken or cleanly refused, the journal replays
the game) and the German table's (whatever happens, it speaks German)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.sim import SimulatedTable

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


def apply_step(t: SimulatedTable, s: tuple[Any, ...]) -> None:
    """Do one drawn step; a control the table refuses raises its ControlError."""
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
        t.control(action, params)
