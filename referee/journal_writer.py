"""The journal's heartbeat, written on a thread of its own.

The heartbeat (how far table time got) is rewritten every two seconds. It used to be written by the service
loop, which also served the page: when the SD card stalled (a 40 s `fsfreeze`, a worn card busy with its own
housekeeping) every page request timed out and the watchdog restarted the referee in the middle of the stall.
Now the loop only hands the newest value over; this thread writes it when the card answers. Only the newest
value matters, so a stall never builds a queue.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class HeartbeatWriter:
    """Writes the newest (game id, table time) handed to `submit` with `write`, on a daemon thread."""

    def __init__(self, write: Callable[[int, int], None]) -> None:
        self._write = write
        self._cond = threading.Condition()
        self._pending: tuple[int, int] | None = None
        self._closed = False
        self._thread: threading.Thread | None = None
        self.written = 0

    def submit(self, game_id: int, t_ms: int) -> None:
        """Hand over the newest heartbeat; never waits for the disk."""
        with self._cond:
            if self._closed:
                return
            self._pending = (game_id, t_ms)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="referee-heartbeat", daemon=True)
                self._thread.start()
            self._cond.notify()

    def close(self, timeout: float = 5.0) -> None:
        """Write what is pending (waiting at most `timeout` seconds for the disk), then stop."""
        with self._cond:
            self._closed = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                item, self._pending = self._pending, None
                if item is None:
                    return
            try:
                self._write(*item)
                self.written += 1
            except Exception:  # a lost heartbeat costs at most one interval of a clock
                log.exception("the heartbeat could not be written")
