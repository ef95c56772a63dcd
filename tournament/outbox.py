"""A table's publisher: the journal is the outbox, and a cursor in it advances only on the broker's PUBACK.

Delivery is at least once: an event leaves the outbox when the broker acknowledged it (QoS 1), and the
cursor saying so is stored in the journal itself. After a broker restart, a lost network or a table
restart, publishing resumes from the stored cursor, in journal order; what the broker had already taken
may come again, and the receiver drops it by (table, game, seq). The cursor is saved at most every
`save_every_s` (and at a clean stop), so saving it never competes with the table's own writes: a cursor
that lags only means a few duplicates after a crash.

Publishing never blocks the table: the table only calls `notify()` (marks the publisher) and
`publish_snapshot()` (keeps the latest); reading the journal, publishing and taking acknowledgements run on
a `PublisherLoop`'s thread (tournament/publisher_loop.py: one thread for any number of tables, owning their
sockets). With the broker gone for an hour the table journals on; the publisher catches up in order, at
most `window` messages in flight at a time.

`OutboxSource` is what the publisher needs from a journal; `referee.tournament_link.JournalOutbox`
implements it over `referee.journal.Journal` (this package never imports the referee).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import queue
import select
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import paho.mqtt.client as paho

from tournament import mqtt, topics
from tournament.payloads import AckMessage, CommandMessage, EventMessage, PayloadError, SnapshotMessage, StatusMessage
from tournament.publisher_loop import PublisherLoop
from tournament.settings import TableLinkSettings

log = logging.getLogger(__name__)

CLOSE_FLUSH_S = 1.0  # how long a stop waits for the socket to take the last "offline" and the DISCONNECT
REPLAY_AGAIN_S = 2.0  # the same range asked again within this is not sent twice (several receivers may ask)


@dataclass(frozen=True, order=True)
class Cursor:
    """How far the broker has acknowledged: the last game whose header it took, the last journal position
    (a journal-wide, ever-growing number of the event row) whose event it took."""

    game: int = 0
    event: int = 0


@dataclass(frozen=True)
class Pending:
    """One message of the outbox and where the cursor stands once the broker acknowledges it."""

    cursor: Cursor
    message: EventMessage


class OutboxSource(Protocol):
    """The journal, as the publisher sees it."""

    def load_cursor(self) -> Cursor:
        """The stored cursor (Cursor() when nothing was ever acknowledged)."""

    def save_cursor(self, cursor: Cursor) -> None:
        """Store the cursor (cheap; losing the last save only means duplicates)."""

    def pending(self, after: Cursor, limit: int) -> list[Pending]:
        """Up to `limit` messages after `after`, in order: headers of newer games first, then events."""

    def replay(self, game: int, first: int, last: int | None) -> list[EventMessage]:
        """Seqs `first`..`last` (None: to the end) of `game`, seq 0 being its header. Empty if unknown."""

    def tail(self) -> tuple[int, int] | None:
        """(game, seq) of the newest event in the journal (seq 0: a game without events yet); None if empty."""


class CommandRefused(Exception):
    """A command the table does not apply: `code` for machines, the message in words."""

    def __init__(self, code: str, text: str) -> None:
        self.code = code
        super().__init__(text)


# Applies a director command to the table; returns the journal row it became (game, seq) or (None, None).
CommandHandler = Callable[[CommandMessage], tuple[int | None, int | None]]


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class PublisherStats:
    published: int = 0
    acknowledged: int = 0
    refused_by_broker: int = 0
    replayed: int = 0
    commands: int = 0
    connects: int = 0


class TablePublisher:
    """Publishes one table's journal, snapshot and status, and takes its director commands."""

    def __init__(self, settings: TableLinkSettings, source: OutboxSource, *, name: str = "",
                 on_command: CommandHandler | None = None, window: int = 100, save_every_s: float = 0.5,
                 snapshot_every_s: float = 0.2, client_id: str | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.source = source
        self.name = name or f"Table {settings.table}"
        self.on_command = on_command
        self.window = window
        self.save_every_s = save_every_s
        self.snapshot_every_s = snapshot_every_s
        self.monotonic = monotonic
        self.stats = PublisherStats()
        ev, n = settings.event, settings.table
        self._topic_events = topics.events(ev, n)
        self._topic_status = topics.status(ev, n)
        self._topic_snapshot = topics.snapshot(ev, n)
        self._topic_ack = topics.ack(ev, n)
        self._command_topics = (topics.command(ev, n), topics.all_command(ev))
        self.client = mqtt.make_client(settings.broker, client_id or f"{ev}-table-{n}", inflight=window)
        self.client.will_set(self._topic_status, StatusMessage(n, "offline", _now_iso(), self.name).to_bytes(),
                             qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._loop: PublisherLoop | None = None
        self._own_loop = False
        self._closed = False
        self._connected = threading.Event()
        self._reset = True
        self._acks: collections.deque[tuple[int, bool]] = collections.deque()
        self._commands: queue.SimpleQueue[CommandMessage] = queue.SimpleQueue()
        self._inflight: collections.OrderedDict[int, Pending] = collections.OrderedDict()
        self._acked_mids: set[int] = set()
        self._snapshot: tuple[int | None, int, Mapping[str, Any]] | None = None
        self._snapshot_lock = threading.Lock()
        self._last_snapshot_at = float("-inf")
        self._last_snapshot: tuple[int | None, int, dict[str, Any]] | None = None  # the last sent, to send a change
        self._reset_snapshot = True  # after a (re)connect the next snapshot goes out even if unchanged
        self._last_read = monotonic()
        self._announce = False  # say where the journal ends once caught up after a (re)connect
        self._gen = 0  # counts notify() calls: "caught up" only holds if none came while we looked
        self._gen_lock = threading.Lock()
        self._more = True  # the journal may hold more than was read: set by notify(), a reconnect, a full batch
        self._recent_commands: collections.OrderedDict[str, AckMessage] = collections.OrderedDict()
        self._replayed: dict[tuple[int, int, int | None], float] = {}  # range -> when it was last sent
        self.cursor = source.load_cursor()  # acknowledged by the broker
        self._saved = self.cursor
        self._sent = self.cursor  # handed to paho
        self._last_save = monotonic()
        self.caught_up = threading.Event()  # set whenever nothing is pending and nothing is in flight

    # --- what the table calls (cheap, never blocking) --------------------------------------------

    def notify(self) -> None:
        """The journal has something new."""
        with self._gen_lock:
            self._gen += 1
            self.caught_up.clear()
        self._more = True
        self._wake()

    def publish_snapshot(self, game: int | None, seq: int, snapshot: Mapping[str, Any]) -> None:
        """Keep the latest snapshot; the publisher thread sends it (only the latest matters)."""
        with self._snapshot_lock:
            self._snapshot = (game, seq, snapshot)
        self._wake()

    def _wake(self) -> None:
        if self._loop is not None:
            self._loop.wake(self)

    # --- life cycle --------------------------------------------------------------------------------

    def start(self, loop: PublisherLoop | None = None) -> None:
        """Connect and publish from `loop`'s thread; without one, from a loop of its own (one table per Pi)."""
        if self._loop is not None:
            return
        mqtt.configure_connect(self.client, self.settings.broker, clean_start=False)
        if loop is None:
            loop = PublisherLoop(name=f"outbox-{self.settings.table}")
            self._own_loop = True
        self._loop = loop
        loop.add(self)
        loop.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Save the cursor, say "offline", disconnect. Bounded by `timeout`; calling it twice is harmless."""
        loop = self._loop
        if loop is None or self._closed:
            return
        self._closed = True
        loop.call_and_wait(self._close, timeout)
        if self._own_loop:
            loop.stop(timeout)

    def _close(self) -> None:
        """On the loop's thread: the last cursor save, the retained "offline" (sent before the DISCONNECT, so
        the broker takes it first), then the socket is closed and the loop forgets this publisher."""
        assert self._loop is not None
        self._step(stopping=True)
        if self._connected.is_set():
            self.client.publish(self._topic_status, StatusMessage(
                self.settings.table, "offline", _now_iso(), self.name).to_bytes(), qos=1, retain=True)
            self.client.disconnect()
            self._flush_before_closing(CLOSE_FLUSH_S)
        self._connected.clear()
        self._loop.remove(self)
        sock = self.client.socket()
        if sock is not None:  # a broker that took nothing for a whole second: close it anyway
            with contextlib.suppress(OSError):
                sock.close()

    def _flush_before_closing(self, within_s: float) -> None:
        """Write out the "offline" and the DISCONNECT (paho closes the socket after the DISCONNECT), waiting
        for the socket to take them at most `within_s`: a stop never hangs on a broker that stopped reading."""
        deadline = self.monotonic() + within_s
        with contextlib.suppress(OSError, ValueError):
            while self.client.want_write():
                sock = self.client.socket()
                left = deadline - self.monotonic()
                if sock is None or left <= 0 or self.client.loop_write() != paho.MQTT_ERR_SUCCESS:
                    return
                if self.client.want_write():
                    select.select([], [sock], [], min(left, 0.05))

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    # --- paho callbacks (network thread: only record and wake) ----------------------------------------

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.warning("table %s: broker %s refused the connection: %s", self.settings.table,
                        self.settings.broker.url, reason_code)
            return
        mqtt.set_nodelay(client)
        self.stats.connects += 1
        client.subscribe([(t, 1) for t in self._command_topics])  # "online" follows in _on_subscribe
        self._reset = True
        self._reset_snapshot = True
        self._connected.set()
        self._wake()

    def _on_subscribe(self, client: paho.Client, userdata: Any, mid: int, reason_codes: Any,
                      properties: Any) -> None:
        """Say "online" only once the command topics are subscribed: a director that sees it can command."""
        if any(rc.is_failure for rc in reason_codes):
            log.error("table %s: the broker refused the command subscriptions (%s); check the ACL for user %r",
                      self.settings.table, ", ".join(str(rc) for rc in reason_codes), self.settings.broker.username)
        client.publish(self._topic_status, StatusMessage(self.settings.table, "online", _now_iso(),
                                                         self.name).to_bytes(), qos=1, retain=True)
        # Events and acks are never retained: a retained one (published there by anyone with this table's
        # login) would be handed to every new subscriber as if new. An empty retained message clears it.
        for topic in (self._topic_events, self._topic_ack):
            client.publish(topic, b"", qos=1, retain=True)

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self._connected.clear()
        self._wake()

    def _on_publish(self, client: paho.Client, userdata: Any, mid: int, reason_code: Any, properties: Any) -> None:
        self._acks.append((mid, not reason_code.is_failure))
        self._wake()

    def _on_message(self, client: paho.Client, userdata: Any, message: paho.MQTTMessage) -> None:
        try:
            self._commands.put(CommandMessage.from_bytes(message.payload))
        except PayloadError as exc:
            log.warning("table %s: dropped a command on %s: %s", self.settings.table, message.topic, exc)
            return
        self._wake()

    # --- the publisher thread ------------------------------------------------------------------------

    def step(self) -> None:
        """One turn of the publisher, on its loop's thread (`PublisherLoop`)."""
        self._step(stopping=False)

    def _step(self, stopping: bool) -> None:
        self._take_acks()
        now = self.monotonic()
        if self.cursor != self._saved and (stopping or now - self._last_save >= self.save_every_s):
            self.source.save_cursor(self.cursor)
            self._saved = self.cursor
            self._last_save = now
        if stopping:
            return
        while not self._commands.empty():
            self._command(self._commands.get())
        if not self._connected.is_set():
            return
        if self._reset:  # a new connection: whatever was in flight may be lost; start again at the cursor
            self._reset = False
            self._inflight.clear()
            self._acked_mids.clear()
            self._sent = self.cursor
            self._more = True
            self._announce = True
        room = self.window - len(self._inflight)
        gen = self._gen
        if room > 0 and (self._more or self._timed_out()):
            self._more = False  # cleared before reading: a notify() meanwhile sets it again
            self._last_read = now
            batch = self.source.pending(self._sent, room)
            if len(batch) == room:
                self._more = True
            for item in batch:
                info = self.client.publish(self._topic_events, item.message.to_bytes(), qos=1,
                                           properties=mqtt.publish_properties(
                                               user={"published": str(int(time.time() * 1000))}))
                self._inflight[info.mid] = item
                self._sent = item.cursor
                self.stats.published += 1
            if not batch and not self._inflight:
                self._set_caught_up(gen)
        elif not self._inflight and not self._more:
            self._set_caught_up(gen)
        self._send_snapshot(now)

    def _set_caught_up(self, gen: int) -> None:
        with self._gen_lock:
            if gen != self._gen:
                return
            self.caught_up.set()
        if self._announce and self._connected.is_set():
            # Everything is out after a (re)connect: say where the journal ends, so a receiver that lost the
            # last events (a broker that crashed before delivering them) asks for them.
            self._announce = False
            tail = self.source.tail()
            if tail is not None:
                self.client.publish(self._topic_status, StatusMessage(
                    self.settings.table, "online", _now_iso(), self.name, tail[0], tail[1]).to_bytes(),
                    qos=1, retain=True)

    def next_due(self, now: float) -> float:
        """When the loop must step this publisher again if nothing wakes it: a cursor not yet saved, and while
        connected a snapshot held back by the interval and the journal's 5 s look. (A connect, an ack, a
        command or a notify() wakes it anyway.)"""
        due = now + 60.0
        if self.cursor != self._saved:
            due = min(due, self._last_save + self.save_every_s)
        if self._connected.is_set():
            if len(self._inflight) < self.window:
                due = min(due, self._last_read + 5.0)
            if self._snapshot is not None:
                due = min(due, self._last_snapshot_at + self.snapshot_every_s)
        return max(due, now + 0.005)

    def _timed_out(self) -> bool:
        """Read the journal at least every 5 s even without a notify(): a writer that forgot to call it (or
        another process writing the same journal) is published anyway."""
        now = self.monotonic()
        if now - self._last_read >= 5.0:
            self._last_read = now
            return True
        return False

    def _take_acks(self) -> None:
        while self._acks:
            mid, ok = self._acks.popleft()
            if mid not in self._inflight:
                continue  # a status, snapshot, ack, replay, or a message from before a reconnect
            if not ok:
                self.stats.refused_by_broker += 1
                log.error("table %s: the broker refused an event on %s (check the ACL for user %r); "
                          "retrying from the cursor", self.settings.table, self._topic_events,
                          self.settings.broker.username)
                self._reset = True
                continue
            self._acked_mids.add(mid)
            self.stats.acknowledged += 1
        # The cursor moves over the acknowledged prefix only, so it never passes an unacknowledged event.
        while self._inflight:
            mid, item = next(iter(self._inflight.items()))
            if mid not in self._acked_mids:
                break
            self._inflight.popitem(last=False)
            self._acked_mids.discard(mid)
            self.cursor = item.cursor

    def _send_snapshot(self, now: float) -> None:
        if now - self._last_snapshot_at < self.snapshot_every_s:
            return  # `next_due` brings the loop back when the interval is over
        with self._snapshot_lock:
            snap, self._snapshot = self._snapshot, None
        if snap is None:
            return
        game, seq, body = snap
        # the page's own counter ("seq" of the body) moves with every push, once a second: it is no change
        same = (game, seq, {k: v for k, v in body.items() if k != "seq"})
        if same == self._last_snapshot and not self._reset_snapshot:
            return  # an idle or ended table: nothing changed, nothing sent (the retained copy stands)
        self.client.publish(self._topic_snapshot, SnapshotMessage(self.settings.table, game, seq, body).to_bytes(),
                            qos=1, retain=True)
        self._last_snapshot, self._reset_snapshot = same, False
        self._last_snapshot_at = now

    def _command(self, cmd: CommandMessage) -> None:
        self.stats.commands += 1
        ack = self._recent_commands.get(cmd.id)
        if ack is None:
            ack = self._apply(cmd)
            self._recent_commands[cmd.id] = ack
            while len(self._recent_commands) > 1000:
                self._recent_commands.popitem(last=False)
        self.client.publish(self._topic_ack, ack.to_bytes(), qos=1)

    def _apply(self, cmd: CommandMessage) -> AckMessage:
        n = self.settings.table
        if cmd.cmd == "replay":
            last = cmd.args.get("to")
            key = (int(cmd.args["game"]), int(cmd.args["from"]), None if last is None else int(last))
            now = self.monotonic()
            if now - self._replayed.get(key, float("-inf")) < REPLAY_AGAIN_S:
                return AckMessage(n, cmd.id, True)  # just sent: those events are on their way
            self._replayed[key] = now
            if len(self._replayed) > 1000:
                self._replayed = {k: t for k, t in self._replayed.items() if now - t < REPLAY_AGAIN_S}
            events = self.source.replay(*key)
            for ev in events:
                self.client.publish(self._topic_events, EventMessage(
                    ev.table, ev.game, ev.seq, ev.kind, ev.data, ev.time, ev.at, replay=True).to_bytes(), qos=1)
            self.stats.replayed += len(events)
            if not events:
                return AckMessage(n, cmd.id, False, f"table {n} has no events {cmd.args['from']}.. of game "
                                                    f"{cmd.args['game']}", "no_such_events")
            return AckMessage(n, cmd.id, True)
        if self.on_command is None:
            return AckMessage(n, cmd.id, False, f"table {n} takes no director commands", "not_supported")
        try:
            game, seq = self.on_command(cmd)
        except CommandRefused as exc:
            return AckMessage(n, cmd.id, False, str(exc), exc.code)
        except Exception as exc:  # a bug applying it: refuse, say so, keep publishing
            log.exception("table %s: command %s failed", n, cmd.cmd)
            return AckMessage(n, cmd.id, False, f"{type(exc).__name__}: {exc}", "failed")
        return AckMessage(n, cmd.id, True, game=game, seq=seq)
