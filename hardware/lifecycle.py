"""Closing devices: every long-lived device here is a context manager whose `close()` may be called again.

A table's outputs are closed from more than one place (the service's shutdown, a failed start that
closes what it had opened, a test's cleanup); a second close must neither raise nor touch the pins
again, which by then may belong to someone else.
"""

from __future__ import annotations

from typing import Protocol, Self


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
