"""One thread that drives any number of table publishers: their MQTT sockets, steps, timers and reconnects.

Why not paho's own `loop_start()` thread per client plus a publisher thread per table: every event then
crosses three threads (the table's, the publisher's, paho's network thread) and each hop waits for the GIL.
On a Pi with one table that costs little, but a process that carries many tables (the hall benchmark, a
venue gateway) spends its time switching between hundreds of threads: at 500 tables on two cores an event
waited seconds between being journaled and leaving the socket. Here one thread selects on every client's
socket (paho's external-loop API: `loop_read`, `loop_write`, `loop_misc` and the `on_socket_*` callbacks),
steps each publisher when it was woken or a timer of its is due, and writes at once what the step queued.

The table's side stays as cheap as before: `TablePublisher.notify()` and `publish_snapshot()` only mark the
publisher and, from another thread, write one byte to a wake-up socket (once, however many marks pile up).

Connecting is done here too, with a short back-off (`mqtt.MAX_RECONNECT_S`) and jitter so a hall's tables
do not all knock at the same instant after a broker restart. The TCP connect itself blocks this thread for
at most `mqtt.CONNECT_TIMEOUT_S`: nothing else of a one-table Pi waits on it, and on the hall's wired
network a refused connection returns at once.
"""

from __future__ import annotations

import collections
import contextlib
import heapq
import itertools
import logging
import random
import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as paho

from tournament import mqtt
from tournament.settings import TableLinkSettings

log = logging.getLogger(__name__)

MISC_EVERY_S = 1.0  # keepalive pings and their time-outs (paho's loop_misc), checked this often
MAX_WAIT_S = 1.0


class LoopedPublisher(Protocol):
    """What the loop drives (`tournament.outbox.TablePublisher`): its client's socket is the loop's."""

    client: paho.Client
    settings: TableLinkSettings

    @property
    def connected(self) -> bool: ...

    def step(self) -> None:
        """Take acks and commands, publish what the journal holds, send the snapshot: never blocks."""

    def next_due(self, now: float) -> float:
        """When to be stepped again if nothing wakes it."""


class PublisherLoop:
    """Owns the sockets of the publishers added to it; everything touching their paho clients runs here."""

    def __init__(self, *, name: str = "mqtt-publishers", monotonic: Callable[[], float] = time.monotonic,
                 seed: int | None = None) -> None:
        self.name = name
        self.monotonic = monotonic
        self._random = random.Random(seed)
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._dirty: set[LoopedPublisher] = set()
        self._signalled = False
        self._calls: collections.deque[Callable[[], None]] = collections.deque()
        self._publishers: list[LoopedPublisher] = []
        self._timers: list[tuple[float, int, LoopedPublisher]] = []
        self._due: dict[LoopedPublisher, float] = {}
        self._reconnect_at: dict[LoopedPublisher, float] = {}
        self._tries: dict[LoopedPublisher, int] = {}
        self._order = itertools.count()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._ident: int | None = None
        self._next_misc = 0.0

    # --- from any thread -------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def add(self, publisher: LoopedPublisher) -> None:
        """Take a publisher on: it connects from this loop's thread (at once if the loop runs)."""
        self.call(lambda: self._add(publisher))

    def call(self, fn: Callable[[], None]) -> None:
        """Run `fn` on the loop's thread, soon (paho's clients are not for other threads)."""
        with self._lock:
            self._calls.append(fn)
        self.wake()

    def call_and_wait(self, fn: Callable[[], Any], timeout: float) -> bool:
        """Run `fn` on the loop's thread and wait for it; False if it did not finish within `timeout`."""
        if self.in_loop() or self._thread is None or not self._thread.is_alive():
            fn()  # no loop thread (not started, or stopped): nobody else touches the clients
            return True
        done = threading.Event()

        def run() -> None:
            try:
                fn()
            finally:
                done.set()

        self.call(run)
        return done.wait(timeout)

    def wake(self, publisher: LoopedPublisher | None = None) -> None:
        """Step `publisher` soon. Cheap: one byte on the wake-up socket, only when the loop was not yet woken."""
        with self._lock:
            if publisher is not None:
                self._dirty.add(publisher)
            if self._signalled:
                return
            self._signalled = True
        if not self.in_loop():
            with contextlib.suppress(BlockingIOError, OSError):
                self._wake_w.send(b"\0")

    def in_loop(self) -> bool:
        return self._ident is not None and threading.get_ident() == self._ident

    def stop(self, timeout: float = 3.0) -> None:
        """End the thread (publishers should be closed first: `LoopedPublisher.stop`) and free the sockets."""
        self._stopping.set()
        self.wake()
        if self._thread is not None and not self.in_loop():
            self._thread.join(timeout)
        if self._thread is None or not self._thread.is_alive():
            for pub in list(self._publishers):
                self._drop(pub)
            with contextlib.suppress(OSError):
                self._sel.close()
            self._wake_r.close()
            self._wake_w.close()

    @property
    def publishers(self) -> int:
        return len(self._publishers)

    # --- on the loop's thread ----------------------------------------------------------------------------

    def remove(self, publisher: LoopedPublisher) -> None:
        """Forget a publisher (its connection is closed if still open). Loop thread only."""
        self._drop(publisher)

    def _add(self, pub: LoopedPublisher) -> None:
        if pub in self._publishers:
            return
        self._publishers.append(pub)
        client = pub.client
        client.on_socket_open = lambda c, u, sock, p=pub: self._sock_open(p, sock)
        client.on_socket_close = lambda c, u, sock: self._sock_close(sock)
        client.on_socket_register_write = lambda c, u, sock: self._set_mask(sock, write=True)
        client.on_socket_unregister_write = lambda c, u, sock: self._set_mask(sock, write=False)
        self._reconnect_at[pub] = self.monotonic()
        self._dirty.add(pub)

    def _drop(self, pub: LoopedPublisher) -> None:
        if pub in self._publishers:
            self._publishers.remove(pub)
        self._reconnect_at.pop(pub, None)
        self._tries.pop(pub, None)
        self._due.pop(pub, None)
        self._dirty.discard(pub)
        sock = pub.client.socket()
        if sock is not None:
            self._sock_close(sock)
        client = pub.client
        client.on_socket_open = client.on_socket_close = None
        client.on_socket_register_write = client.on_socket_unregister_write = None

    def _sock_open(self, pub: LoopedPublisher, sock: Any) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._sel.unregister(sock)
        self._sel.register(sock, selectors.EVENT_READ, pub)

    def _sock_close(self, sock: Any) -> None:
        with contextlib.suppress(KeyError, ValueError, OSError, RuntimeError):
            self._sel.unregister(sock)

    def _set_mask(self, sock: Any, *, write: bool) -> None:
        with contextlib.suppress(KeyError, ValueError, OSError, RuntimeError):
            key = self._sel.get_key(sock)
            mask = selectors.EVENT_READ | (selectors.EVENT_WRITE if write else 0)
            if key.events != mask:
                self._sel.modify(sock, mask, key.data)

    def _run(self) -> None:
        self._ident = threading.get_ident()
        while not self._stopping.is_set():
            try:
                self._once()
            except Exception:  # a bug here must not end every table's publishing: log, go on
                log.exception("%s: loop step failed", self.name)
                time.sleep(0.05)

    def _timeout(self) -> float:
        now = self.monotonic()
        until = now + MAX_WAIT_S
        if self._timers:
            until = min(until, self._timers[0][0])
        if self._reconnect_at:
            until = min(until, min(self._reconnect_at.values()))
        return max(0.0, until - now)

    def _once(self) -> None:
        with self._lock:
            busy = bool(self._dirty or self._calls)
        ready: set[LoopedPublisher] = set()  # sockets that had something: step them (acks, commands)
        for key, mask in self._sel.select(0.0 if busy else self._timeout()):
            pub = key.data
            if pub is None:
                with contextlib.suppress(BlockingIOError, OSError):
                    while self._wake_r.recv(4096):
                        pass
                continue
            client = pub.client
            if mask & selectors.EVENT_READ:
                client.loop_read()
            if mask & selectors.EVENT_WRITE and client.socket() is not None:
                client.loop_write()
            ready.add(pub)
        with self._lock:
            dirty, self._dirty = self._dirty | ready, set()
            self._signalled = False
            calls = list(self._calls)
            self._calls.clear()
        for fn in calls:
            fn()
        now = self.monotonic()
        while self._timers and self._timers[0][0] <= now:
            due, _n, pub = heapq.heappop(self._timers)
            if self._due.get(pub) == due:
                del self._due[pub]
                dirty.add(pub)
        for pub in dirty:
            if pub in self._publishers:
                self._step(pub, now)
        if self._reconnect_at:
            for pub, at in list(self._reconnect_at.items()):
                if at <= now:
                    self._connect(pub)
        if now >= self._next_misc:
            self._next_misc = now + MISC_EVERY_S
            for pub in self._publishers:
                if pub.client.socket() is not None:
                    pub.client.loop_misc()
                self._watch(pub)

    def _step(self, pub: LoopedPublisher, now: float) -> None:
        try:
            pub.step()
        except Exception:  # that table's journal or a bug: the others publish on, this one retries on its timer
            log.exception("table %s: publisher step failed", pub.settings.table)
        self._flush(pub)
        self._watch(pub)
        due = pub.next_due(now)
        if self._due.get(pub) != due:
            self._due[pub] = due
            heapq.heappush(self._timers, (due, next(self._order), pub))

    def _flush(self, pub: LoopedPublisher) -> None:
        client = pub.client
        if client.socket() is not None and client.want_write():
            client.loop_write()

    def _watch(self, pub: LoopedPublisher) -> None:
        """A publisher whose connection is gone gets a reconnect scheduled (once); the back-off starts over
        only once the broker accepted a connection (a refused login keeps backing off)."""
        if pub.connected:
            self._tries.pop(pub, None)
        elif pub.client.socket() is None and pub not in self._reconnect_at and pub in self._publishers:
            tries = self._tries.get(pub, 0)
            self._tries[pub] = tries + 1
            self._reconnect_at[pub] = self.monotonic() + self._backoff(tries)

    def _backoff(self, tries: int) -> float:
        """`MIN_RECONNECT_S`, doubling up to `MAX_RECONNECT_S`, each with +-25% jitter so a hall's tables
        spread out."""
        base: float = min(mqtt.MAX_RECONNECT_S, mqtt.MIN_RECONNECT_S * 2.0 ** min(tries, 8))
        return base * self._random.uniform(0.75, 1.25)

    def _connect(self, pub: LoopedPublisher) -> None:
        del self._reconnect_at[pub]
        try:
            pub.client.reconnect()
        except (OSError, ValueError) as exc:  # refused, unreachable, timed out, TLS failure: try again later
            tries = self._tries.get(pub, 0)
            if tries == 0:
                log.warning("table %s: cannot reach broker %s (%s); retrying every %s s", pub.settings.table,
                            pub.settings.broker.url, exc, mqtt.MAX_RECONNECT_S)
            self._tries[pub] = tries + 1
            self._reconnect_at[pub] = self.monotonic() + self._backoff(tries + 1)
            return
        self._flush(pub)
