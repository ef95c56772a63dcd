"""A journal whose writes block until the test lets the disk answer: an SD card that stalls (an `fsfreeze`,
a worn card busy with its own housekeeping), without a wall-clock sleep anywhere."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

BOUND_S = 5.0  # a call that returns at all returns in ms; this only bounds a test that would otherwise hang


class StalledWrites:
    """Stands between the journal and its database: every write waits until `gate` is set."""

    def __init__(self, db: Any, gate: threading.Event) -> None:
        self._db = db
        self.gate = gate
        self.waiting = threading.Event()

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "BEGIN", "PRAGMA WAL_CHECKPOINT")):
            self.waiting.set()
            assert self.gate.wait(30), "the test never let the disk answer"
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def returns(call: Callable[[], Any]) -> Any:
    """Run `call` on a thread; fail if it has not returned within BOUND_S (it waits for the disk)."""
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(BOUND_S)
    assert not worker.is_alive(), "it waited for the stalled disk"
    return out[0] if out else None
