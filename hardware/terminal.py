"""The timer as one line of text, for the simulated table and for logs.

Drawn from the same `Reading`s as the LEDs and digits (`hardware.frames`), so the terminal shows
what the table shows: a bar that drains like sand, the time as the displays show it, a marker on
the face whose clock runs, and the overtime and pause states in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from hardware.frames import Reading, clock_text, lit_count

FULL, EMPTY = "█", "░"
ASCII_FULL, ASCII_EMPTY = "#", "."


def render_face(reading: Reading, width: int = 12, *, ascii_only: bool = False) -> str:
    """`[████░░░░] 3:04` with `*` after the face on move, `OVER` in overtime, `FLAG` past the maximum."""
    if width < 1:
        raise ValueError(f"a timer bar needs at least 1 character, not {width}")
    full, empty = (ASCII_FULL, ASCII_EMPTY) if ascii_only else (FULL, EMPTY)
    if reading.overtime:
        # The sand is gone; the bar shows how far into overtime, in its own character.
        bar = ("!" if reading.blink_on else " ") * width
    else:
        lit = lit_count(reading, width)
        bar = full * lit + empty * (width - lit)
    text = f"[{bar}] {clock_text(reading.remaining_ms):>6}"
    marks = []
    if reading.active:
        marks.append("*")
    if reading.paused:
        marks.append("PAUSED")
    if reading.flagged:
        marks.append("FLAG")
    elif reading.overtime:
        marks.append("OVER")
    return f"{text} {' '.join(marks)}".rstrip()


def render_line(
    faces: Sequence[Reading],
    names: Sequence[str] | None = None,
    width: int = 12,
    *,
    ascii_only: bool = False,
) -> str:
    """All faces on one line, separated by ` | `; names (in seat order) are padded to line up."""
    if names is not None and len(names) != len(faces):
        raise ValueError(f"{len(names)} name(s) for {len(faces)} clock face(s)")
    pad = max((len(n) for n in names), default=0) if names else 0
    parts = []
    for i, face in enumerate(faces):
        label = f"{names[i]:<{pad}} " if names else ""
        parts.append(label + render_face(face, width, ascii_only=ascii_only))
    return "  |  ".join(parts)
