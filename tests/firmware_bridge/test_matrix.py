"""The simulated switch matrix bounces like reed contacts do, and settles on the new reading."""

from __future__ import annotations

import random

from firmware_bridge.matrix import SwitchMatrix


def test_matrix_really_bounces_then_settles() -> None:
    matrix = SwitchMatrix(4, 4, 2, bits=6, bounce_ms=10, glitch=0.0)
    matrix.set(0, 0b101011, 100.0)
    readings = set()
    buf = bytearray(4)
    for t in range(100, 112):
        for sub in range(4):
            matrix.read_into(buf, t + sub / 4)
            readings.add(buf[0])
    assert len(readings) > 2  # partial codes were read while the contacts chattered
    matrix.read_into(buf, 111)
    assert buf[0] == 0b101011
    assert matrix.quiet_after() <= 110


def test_a_brushed_neighbour_closes_for_less_than_the_debounce_time_and_reopens() -> None:
    matrix = SwitchMatrix(9, 9, 3, bits=1, rng=random.Random(4), bounce_ms=10, glitch=1.0, glitch_ms=8)
    matrix.set(4, 1, 0.0)  # the centre of a 3x3 board: every placement brushes a neighbour
    buf = bytearray(9)
    closed: dict[int, list[float]] = {}
    for tenth in range(0, 300):
        t = tenth / 10
        matrix.read_into(buf, t)
        for i in (1, 3, 5, 7):
            if buf[i]:
                closed.setdefault(i, []).append(t)
    assert len(closed) == 1  # one neighbour was brushed
    times = next(iter(closed.values()))
    assert 0 < max(times) - min(times) < 10  # briefly
    matrix.read_into(buf, 30.0)
    assert list(buf) == [0, 0, 0, 0, 1, 0, 0, 0, 0]
