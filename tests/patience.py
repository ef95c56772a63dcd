"""How much longer than on a PC the tests' wall-clock safety nets may wait: a factor, 1 unless told.

A timeout in a test never times the code (speed goals live in benchmarks/): it only stops a wait for an
event that does not come. Under qemu (`make pi-check`, arm64 emulated) everything runs ten or more times
slower, and safety nets sized for a PC ran out before the event came. REFEREE_TEST_PATIENCE stretches them
there, and tells Hypothesis not to count slow input generation as a fault; it changes no assertion.
"""

from __future__ import annotations

import os


def _factor(text: str | None) -> float:
    if text is None or text.strip() == "":
        return 1.0
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"REFEREE_TEST_PATIENCE={text!r}: give a number, 1 or more") from None
    if not 1.0 <= value <= 1000.0:
        raise ValueError(f"REFEREE_TEST_PATIENCE={text!r}: give a number from 1 to 1000")
    return value


FACTOR = _factor(os.environ.get("REFEREE_TEST_PATIENCE"))


def patience(seconds: float) -> float:
    """`seconds` of waiting on a PC, stretched by REFEREE_TEST_PATIENCE on a slow (emulated) machine."""
    return seconds * FACTOR
