"""A bound on the log: the same message at most a few times a minute, then one line saying how many were left out.

Under a flood of connections the service once wrote 120-530 MB of log in two minutes (one line per refused
accept, per request, per closed connection): enough to fill the SD card the journal lives on, which then
stops the game. The journal is what must survive; the log only has to tell a person what happened.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

Clock = Callable[[], float]


class RateLimitFilter(logging.Filter):
    """Lets through at most `burst` records per message template (logger, level, format string) per `period`
    seconds; the next record of that template after the period says how many were dropped.

    At most `max_templates` templates are tracked (a flood of distinct messages forgets the oldest)."""

    def __init__(self, burst: int = 10, period: float = 60.0, *, clock: Clock = time.monotonic,
                 max_templates: int = 512) -> None:
        super().__init__()
        self.burst = burst
        self.period = period
        self._clock = clock
        self._max = max_templates
        # template -> [window start, records let through in the window, records dropped]
        self._seen: OrderedDict[tuple[str, int, str], list[float]] = OrderedDict()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self._clock()
        entry = self._seen.pop(key, None)
        if entry is None or now - entry[0] >= self.period:
            dropped = int(entry[2]) if entry is not None else 0
            entry = [now, 0.0, 0.0]
            if dropped:
                record.msg = f"{record.msg} [{dropped} more like this left out of the log in the last " \
                             f"{self.period:.0f} s]"
        self._seen[key] = entry
        while len(self._seen) > self._max:
            self._seen.popitem(last=False)
        if entry[1] < self.burst:
            entry[1] += 1
            return True
        entry[2] += 1
        return False


def install(handler: logging.Handler, **kwargs: float) -> RateLimitFilter:
    """Put a `RateLimitFilter` on `handler` (the service's stderr handler) and return it."""
    limit = RateLimitFilter(**kwargs)  # type: ignore[arg-type]
    handler.addFilter(limit)
    return limit
