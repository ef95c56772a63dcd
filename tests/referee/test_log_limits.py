"""The log's bound: a flood of one message costs a few lines, and the count of the rest is not lost."""

from __future__ import annotations

import io
import logging

from referee.log_limits import RateLimitFilter


def test_a_flood_of_one_message_is_cut_to_a_burst_then_counted() -> None:
    now = [0.0]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RateLimitFilter(burst=3, period=60.0, clock=lambda: now[0]))
    log = logging.getLogger("test.flood")
    log.propagate = False
    log.addHandler(handler)
    try:
        for n in range(10_000):
            log.warning("socket.accept() out of system resource (%d)", n)
        log.warning("another message")  # a different template has its own budget
        now[0] = 61.0
        log.warning("socket.accept() out of system resource (%d)", 10_000)
    finally:
        log.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 5
    assert lines[3] == "another message"
    assert lines[4] == "socket.accept() out of system resource (10000) [9997 more like this left out of the log " \
                       "in the last 60 s]"
