"""Closing devices, and failing ones: what every output of a table does the same way.

Every long-lived device here is a context manager whose `close()` may be called again: a table's outputs are
closed from more than one place (the service's shutdown, a failed start that closes what it had opened, a
test's cleanup); a second close must neither raise nor touch the pins again, which by then may belong to
someone else. And an output that fails (a display unplugged mid-game, a terminal gone) is logged once, then
only counted (`log_once_then_count`): it must never stop the clock, nor fill the SD card with tracebacks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping
from typing import Protocol, Self


def log_once_then_count(faults: MutableMapping[str, int], name: str, action: Callable[[], object],
                        log: logging.Logger, message: str) -> bool:
    """Run `action`; a failure is counted in `faults[name]`, logged (with its traceback) the first time only, as
    `message % name`, and never raised: the other outputs and the clock go on. Returns whether it succeeded."""
    try:
        action()
    except Exception:
        count = faults.get(name, 0) + 1
        faults[name] = count
        if count == 1:
            log.exception(message, name)
        return False
    return True


class Closable(Protocol):
    """Anything with an idempotent `close()` (the seam the factory closes devices through)."""

    def close(self) -> None: ...


class ClosingDevice:
    """Mixin: `with device:` closes it on the way out; `closed` says whether `close()` has run.

    Subclasses implement `_close()` (runs once); `close()` makes it idempotent."""

    _closed: bool = False

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Switch the device off and free its pins; safe to call any number of times."""
        if self._closed:
            return
        self._closed = True
        self._close()

    def _close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
