"""Speaking off the table's path: a small queue, one worker thread, and dropping what comes too late.

The table's listener only works out the sentences (microseconds) and queues them; the worker says them.
A sentence that waited longer than `max_delay_s` is dropped unsaid (an old score read out over the next
play helps nobody), and when the queue is full the oldest sentence goes. Nothing here can block or
raise into the table: a failing voice is logged once and counted.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from game.errors import RefereeError
from referee.speech.phrases import announcements
from referee.speech.voice import Voice

log = logging.getLogger(__name__)

Monotonic = Callable[[], float]


class Announcer:
    """Says queued sentences with `voice`, in order, on its own thread. A context manager; `close` is idempotent."""

    def __init__(self, voice: Voice, *, queue_size: int = 4, max_delay_s: float = 10.0,
                 clock: Monotonic = time.monotonic,
                 on_trouble: Callable[[Exception | None], None] | None = None) -> None:
        """`on_trouble(error)`: told, from the worker thread, when the voice starts failing (the error), and
        with None when it speaks again: the service shows it on the page (a table without a sound device is not
        silent about being silent)."""
        if queue_size < 1:
            raise ValueError("queue_size: at least 1")
        self.voice = voice
        self.max_delay_s = max_delay_s
        self.clock = clock
        self._queue: collections.deque[tuple[float, str]] = collections.deque(maxlen=queue_size)
        self._cond = threading.Condition()
        self._closed = False
        self._pending = 0  # queued or being said
        self.said: int = 0
        self.dropped: int = 0
        self.failures: int = 0
        self.failing = False  # the last sentence could not be said
        self.on_trouble = on_trouble
        self._thread = threading.Thread(target=self._work, name="announcer", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue a sentence; never blocks. A full queue drops its oldest sentence."""
        with self._cond:
            if self._closed:
                return
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1  # the oldest goes: pending stays the same
            else:
                self._pending += 1
            self._queue.append((self.clock(), text))
            self._cond.notify()

    def _next(self) -> str | None:
        with self._cond:
            while not self._queue and not self._closed:
                self._cond.wait()
            while self._queue:
                queued_at, text = self._queue.popleft()
                if self.clock() - queued_at <= self.max_delay_s:
                    return text
                self.dropped += 1
                self._pending -= 1
                self._cond.notify_all()
            return None

    def _work(self) -> None:
        while True:
            text = self._next()
            if text is None:
                return
            try:
                self.voice.speak(text)
                self.said += 1
                if self.failing:
                    self.failing = False
                    log.info("the announcer speaks again (after %d failed sentence(s))", self.failures)
                    self._tell(None)
            except Exception as exc:
                self.failures += 1
                if not self.failing:  # logged once an outage; the sentences after it are only counted
                    self.failing = True
                    log.error("the announcer could not speak (%s); the table plays on, further failures are "
                              "counted", exc, exc_info=not isinstance(exc, RefereeError))
                    self._tell(exc)
            finally:
                with self._cond:
                    self._pending -= 1
                    self._cond.notify_all()

    def _tell(self, why: Exception | None) -> None:
        if self.on_trouble is not None:
            try:
                self.on_trouble(why)
            except Exception:
                log.exception("showing the voice's trouble failed")

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued sentence is said or dropped (tests, and a clean stop)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._pending -= len(self._queue)
            self._queue.clear()
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)

    def __enter__(self) -> Announcer:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class SpeechListener:
    """A table listener (`TableView.subscribe`): turns each new snapshot into sentences for the announcer."""

    def __init__(self, announcer: Announcer) -> None:
        self.announcer = announcer
        self._before: dict[str, Any] | None = None

    def __call__(self, snapshot: Any) -> None:
        try:
            lines = announcements(self._before, snapshot)
        except Exception:
            log.exception("working out what to announce failed; nothing is said for this change")
            lines = []
        self._before = snapshot
        for line in lines:
            self.announcer.say(line)
