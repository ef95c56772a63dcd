"""The director's end of the tournament network: one MQTT client, driven on the director's asyncio loop.

`DirectorLink` subscribes to every table's events, snapshots, statuses and acks, applies each event once and
in order per game (its `Receiver` asks a table to replay any gap) and publishes commands. Its session is
persistent (MQTT 5 session expiry, one day): while the director is away the broker keeps its QoS 1 messages,
and whatever the broker could not keep is asked of the tables again when the director sees the gap.

paho-mqtt is driven on the loop the link is started on, as paho's own examples/loop_asyncio.py and aiomqtt
do: the socket's reads and writes are the loop's reader and writer callbacks (`on_socket_open` ->
`add_reader`, `on_socket_register_write` -> `add_writer`), keepalive and reconnecting are a task of the loop
(paho's `loop_misc`), and so is the receiver's search for gaps. So there is no paho network thread and no
hand-over: every callback (`on_event`, `on_snapshot`, ...) runs on the loop, where the hall lives, one at a
time. Only the TCP connect runs in the loop's executor, as aiomqtt's does: it resolves the broker's name
and may wait up to `mqtt.CONNECT_TIMEOUT_S` for a machine that does not answer, and the director's pages
must not freeze meanwhile.

`hall_link(director, settings)` is the link that feeds a `Director`: its hall, its command sender, its
broker state and its delivery figures; at start the receiver is told how far the director's own store goes
for every game, so a restarted director asks the tables only for what it lacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.subscribeoptions import SubscribeOptions

from tournament import mqtt, topics
from tournament.director.broker_watch import BrokerWatch
from tournament.director.core import Director
from tournament.payloads import (
    AckMessage,
    CommandMessage,
    CommandName,
    EventMessage,
    PayloadError,
    SnapshotMessage,
    StatusMessage,
)
from tournament.receiver import Receiver
from tournament.settings import BrokerSettings

log = logging.getLogger(__name__)

MISC_EVERY_S = 1.0  # keepalive pings and their time-outs (paho's loop_misc), checked this often
GAPS_EVERY_S = 0.5  # how often the receiver looks for gaps to ask about again
READS_PER_WAKE = 64  # packets read in one turn of the loop at most, so a flood never starves the pages


def _buffered(sock: Any) -> bool:
    """Whether the socket has bytes to read now (TLS: decrypted ones in the SSL object, or raw ones)."""
    pending = getattr(sock, "pending", None)
    if callable(pending) and pending():
        return True
    buf = bytearray(4)
    try:
        import fcntl  # POSIX (the Pi, Linux, macOS): elsewhere one packet a turn of the loop, as paho reads
        import termios

        fcntl.ioctl(sock.fileno(), termios.FIONREAD, buf)
    except (ImportError, OSError, ValueError):
        return False
    return int.from_bytes(buf, sys.byteorder) > 0


class DirectorLink:
    """Connects as the director of `event` once `start()`ed on a running loop; `await stop()` on that loop.

    `on_event` gets each table event once, in order per game; `published_ms` is the MQTT user property the
    table set on sending (None for a replay). `on_broker` hears True once connected and False when the
    connection is lost (not at `stop()`). `watch` says whether the broker is reached, for the page and the
    log."""

    def __init__(self, broker: BrokerSettings, event: str, *,
                 on_event: Callable[[EventMessage, int | None], None],
                 on_snapshot: Callable[[SnapshotMessage], None] | None = None,
                 on_status: Callable[[StatusMessage], None] | None = None,
                 on_ack: Callable[[AckMessage], None] | None = None,
                 on_broker: Callable[[bool], None] | None = None,
                 by: str = "director", client_id: str | None = None, retry_s: float = 2.0,
                 monotonic: Callable[[], float] = time.monotonic, seed: int | None = None) -> None:
        self.broker = broker
        self.event = topics.check_event_id(event)
        self.by = by
        self.on_event = on_event
        self.on_snapshot = on_snapshot
        self.on_status = on_status
        self.on_ack = on_ack
        self.on_broker = on_broker
        self.watch = BrokerWatch(broker.url, retry_s=mqtt.MAX_RECONNECT_S)
        self._published: int | None = None
        self.receiver = Receiver(self._apply, self._ask_replay, retry_s=retry_s, monotonic=monotonic)
        self.client = mqtt.make_client(broker, client_id or f"{event}-director")
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.client.on_socket_open = self._on_socket_open
        self.client.on_socket_close = self._on_socket_close
        self.client.on_socket_register_write = self._on_socket_register_write
        self.client.on_socket_unregister_write = self._on_socket_unregister_write
        self.connected = asyncio.Event()
        self.dropped = 0  # payloads that did not parse
        self._ids = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self._random = random.Random(seed)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None  # the loop's thread: paho calls back from the executor while connecting
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = asyncio.Event()  # the socket closed: the driver reconnects
        self._stopping = False
        self._connecting = False  # paho's connect runs in the executor: publishing waits for it (`send`)
        self._deferred: list[tuple[str, bytes]] = []
        self._accepted = False  # the broker accepted the present connection (the back-off starts over after it)
        self._fresh = True  # this process has not subscribed yet: it knows no table's status or snapshot

    # --- on the loop -------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start connecting (and reconnecting, for as long as the link runs) on the running loop."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        mqtt.configure_connect(self.client, self.broker, clean_start=False)
        self._tasks = [self._loop.create_task(self._drive(), name="director-link"),
                       self._loop.create_task(self._gaps(), name="director-gaps")]

    async def stop(self) -> None:
        """Disconnect cleanly (the broker keeps the session) and end the link's tasks. On the link's loop."""
        self._check_loop()
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        sock = self.client.socket()
        if sock is not None:
            self.client.disconnect()
            self.client.loop_write()  # DISCONNECT goes out now; paho then closes the socket (_on_socket_close)
        sock = self.client.socket()
        if sock is not None:  # it could not be written: close without it (the broker keeps the session anyway)
            self._forget_socket(sock)
            with contextlib.suppress(OSError):
                sock.close()
        self.connected.clear()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    async def wait_connected(self, timeout: float) -> bool:
        """Whether the broker accepted the link within `timeout` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), timeout)
        return self.connected.is_set()

    def send(self, table: int | None, cmd: CommandName, args: Mapping[str, Any] | None = None, *,
             command_id: str | None = None) -> str:
        """Publish a command to one table (or to all with None); returns its id, echoed by each ack."""
        self._check_loop()
        cid = command_id or f"{self._prefix}-{next(self._ids)}"
        msg = CommandMessage(cid, self.by, cmd, dict(args or {}))
        topic = topics.all_command(self.event) if table is None else topics.command(self.event, table)
        if self._connecting:  # paho's socket exists before its CONNECT is queued: a PUBLISH must not go first
            self._deferred.append((topic, msg.to_bytes()))
        else:
            self._publish(topic, msg.to_bytes())
        return cid

    def _publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, properties=mqtt.publish_properties(expiry_s=mqtt.COMMAND_EXPIRY_S))

    def command(self, table: int | None, cmd: str, args: dict[str, Any], command_id: str) -> None:
        """The hall's command sender: publish now, or refuse. paho would keep a command while the broker is
        away and send it once it is back, however late (the 120 s expiry runs on the broker only), so a pause
        could land minutes later."""
        if not self.client.is_connected():
            raise RuntimeError("the director has lost the broker: the command was not sent (try again once the "
                               "hall page shows it live)")
        self.send(table, cmd, args, command_id=command_id)  # type: ignore[arg-type]

    def stats(self) -> dict[str, int]:
        """The delivery figures the hall's `/api/stats` shows."""
        stats = self.receiver.stats
        return {"applied": stats.applied, "duplicates": stats.duplicates, "held": stats.held,
                "replay_requests": stats.replay_requests, "missing": self.receiver.missing(),
                "dropped": self.dropped}

    # --- the tasks -----------------------------------------------------------------------------------------

    async def _drive(self) -> None:
        """Connect, keep the connection alive (paho's `loop_misc`: keepalive pings and their time-outs) and
        reconnect after a loss: at once the first time, then after `MIN_RECONNECT_S` doubling to
        `MAX_RECONNECT_S` with +-25 % jitter, as the tables do, so the director is back within about a second
        of the broker's return. The back-off starts over once the broker accepted a connection."""
        tries = 0
        first = True
        while True:
            if not first:
                await asyncio.sleep(self._backoff(tries))
                tries += 1
            first = False
            if not await self._connect():
                continue
            while self.client.socket() is not None:
                self.client.loop_misc()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closed.wait(), MISC_EVERY_S)
                self._closed.clear()
            if self._accepted:
                tries = 0
            self._accepted = False
            self.connected.clear()

    async def _connect(self) -> bool:
        """One connect, in the executor (a name to resolve, a machine that may not answer); then the socket
        is watched on the loop. False when it failed (the watch says why)."""
        loop = asyncio.get_running_loop()
        self._connecting = True
        future = loop.run_in_executor(None, self._reconnect)
        try:
            error = await asyncio.shield(future)
        except asyncio.CancelledError:
            future.add_done_callback(lambda _f: self._abandon())  # stopped while connecting
            self._deferred.clear()
            raise
        self._connecting = False
        deferred, self._deferred = self._deferred, []
        for topic, payload in deferred:  # after the CONNECT (or kept by paho until the next connection)
            self._publish(topic, payload)
        if error is not None:
            self.watch.failed(error)
            return False
        sock = self.client.socket()
        if sock is None:
            self.watch.failed("no answer")
            return False
        mqtt.set_nodelay(self.client)
        self._watch_socket(sock)
        if self.client.want_write():  # the CONNECT, queued in the executor
            loop.add_writer(sock, self._writable)
        return True

    def _reconnect(self) -> str | None:
        """In the executor: paho's connect (TCP, then CONNECT queued). The error's words, or None."""
        try:
            self.client.reconnect()
        except (OSError, ValueError) as exc:  # refused, unreachable, timed out, TLS failure: try again later
            return str(exc) or type(exc).__name__
        return None

    def _abandon(self) -> None:
        """A connect that finished after the link stopped: close what it opened."""
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._close_abandoned)

    def _close_abandoned(self) -> None:
        sock = self.client.socket()
        if sock is not None:
            self._forget_socket(sock)
            with contextlib.suppress(OSError):
                sock.close()

    async def _gaps(self) -> None:
        while True:
            await asyncio.sleep(GAPS_EVERY_S)
            self.receiver.check_gaps()

    def _backoff(self, tries: int) -> float:
        base: float = min(mqtt.MAX_RECONNECT_S, mqtt.MIN_RECONNECT_S * 2.0 ** min(tries, 8))
        return base * self._random.uniform(0.75, 1.25)

    def _check_loop(self) -> None:
        """paho's client is not for other threads: a call from elsewhere while the loop runs is a bug."""
        if self._thread is not None and self._loop is not None and self._loop.is_running() \
                and threading.get_ident() != self._thread:
            raise RuntimeError("DirectorLink: call it on its own loop (loop.call_soon_threadsafe)")

    # --- the socket, as the loop sees it ------------------------------------------------------------------

    def _on_loop(self) -> bool:
        return self._thread is not None and threading.get_ident() == self._thread

    def _watch_socket(self, sock: Any) -> None:
        assert self._loop is not None
        with contextlib.suppress(ValueError, OSError):
            self._loop.add_reader(sock, self._readable)

    def _forget_socket(self, sock: Any) -> None:
        if self._loop is None or self._loop.is_closed():
            return
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(sock)
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_writer(sock)

    def _readable(self) -> None:
        """Read what the socket holds: paho reads one packet a call, and a burst (the retained snapshots of a
        hall at connect, a replay) would otherwise cost a turn of the loop a packet. Then the PUBACKs of what
        was read go out at once."""
        client = self.client
        for _ in range(READS_PER_WAKE):
            client.loop_read()
            sock = client.socket()
            if sock is None or not _buffered(sock):
                break
        if client.socket() is not None and client.want_write():
            client.loop_write()

    def _writable(self) -> None:
        self.client.loop_write()
        sock = self.client.socket()
        if sock is not None and not self.client.want_write() and self._loop is not None:
            self._loop.remove_writer(sock)

    def _on_socket_open(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        if self._on_loop():  # from the executor while connecting: `_connect` watches it once it returns
            self._watch_socket(sock)

    def _on_socket_close(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        if self._on_loop():
            self._forget_socket(sock)
            self._closed.set()

    def _on_socket_register_write(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        if self._on_loop() and self._loop is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.add_writer(sock, self._writable)

    def _on_socket_unregister_write(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        if self._on_loop() and self._loop is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_writer(sock)

    # --- paho's callbacks (on the loop) ------------------------------------------------------------------

    def _apply(self, msg: EventMessage) -> None:
        try:
            self.on_event(msg, None if msg.replay else self._published)
        except Exception:  # a bug behind the link must not stop the events behind this one
            log.exception("director: applying %s failed", msg.key)

    def _ask_replay(self, table: int, game: int, first: int, last: int | None) -> None:
        self.send(table, "replay", {"game": game, "from": first, "to": last})

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            log.warning("director: broker %s refused the connection: %s", self.broker.url, reason_code)
            self.watch.failed(f"the broker refused the login: {reason_code}")
            return
        self._accepted = True
        kept = bool(getattr(flags, "session_present", False))
        log.info("director: connected to %s (session %s)", self.broker.url, "kept" if kept else "new")
        self.receiver.session_started(kept=kept)
        # Retained snapshots and statuses: on this process's first subscription always, even to a session the
        # broker kept (a restarted director, a clean restart too, knows no table's status: without them every
        # tile stayed offline for ever); after a reconnect of the same process only for a subscription the
        # broker did not have (then they are known already, and 500 tables' worth at once only delays the
        # events queued behind them).
        handling = (SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE if self._fresh
                    else SubscribeOptions.RETAIN_SEND_IF_NEW_SUB)
        opts = SubscribeOptions(qos=1, retainHandling=handling)
        client.subscribe([(topics.all_tables(self.event, leaf), opts)
                          for leaf in ("status", "snapshot", "events", "ack")])
        self._fresh = False
        self.connected.set()
        self.watch.up()
        self._tell_broker(True)

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if getattr(reason_code, "is_failure", True):  # not the director's own disconnect at its stop
            self.watch.lost(str(reason_code))
        if not self._stopping:  # a stop of the director is no loss of the broker
            self._tell_broker(False)

    def _tell_broker(self, up: bool) -> None:
        if self.on_broker is not None:
            try:
                self.on_broker(up)
            except Exception:
                log.exception("director: telling the hall the broker is %s failed", "up" if up else "down")

    def _on_message(self, client: paho.Client, userdata: Any, message: paho.MQTTMessage) -> None:
        try:
            self._take(message)
        except (PayloadError, topics.TopicError) as exc:
            self.dropped += 1
            log.warning("director: dropped a message on %s: %s", message.topic, exc)
        except Exception:  # a bug behind the link must not stop paho reading the socket
            log.exception("director: a message on %s failed", message.topic)

    def _take(self, message: paho.MQTTMessage) -> None:
        where = topics.parse(message.topic)
        if where.leaf in ("events", "ack") and (message.retain or not message.payload):
            # never retained (a table clears its own at connect, with an empty message): a retained event
            # or ack was put there by someone, and would be taken as new by every director that subscribes
            if message.payload:
                self.dropped += 1
                log.warning("director: dropped a retained message on %s (events and acks are never retained)",
                            message.topic)
            return
        if where.leaf == "events":
            ev = EventMessage.from_bytes(message.payload)
            if ev.table != where.table:
                raise PayloadError(f"event payload: table {ev.table} on table {where.table}'s topic")
            published = mqtt.user_properties(message).get("published")
            self._published = int(published) if published and published.isdigit() else None
            self.receiver.feed(ev)
        elif where.leaf == "snapshot":
            snap = SnapshotMessage.from_bytes(message.payload)
            self.receiver.note_snapshot(snap.table, snap.game, snap.seq, retained=bool(message.retain))
            if self.on_snapshot:
                self.on_snapshot(snap)
        elif where.leaf == "status":
            st = StatusMessage.from_bytes(message.payload)
            if st.game is not None and st.seq is not None:
                self.receiver.note_snapshot(st.table, st.game, st.seq, retained=bool(message.retain))
            if self.on_status:
                self.on_status(st)
        elif where.leaf == "ack" and self.on_ack:
            self.on_ack(AckMessage.from_bytes(message.payload))


def hall_link(director: Director, settings: BrokerSettings, *, client_id: str | None = None) -> DirectorLink:
    """The link that feeds `director`: its hall, its command sender (refused while the broker is away), its
    broker state and delivery figures. The receiver starts from the director's own store."""
    link = DirectorLink(settings, director.event, on_event=director.on_event, on_snapshot=director.on_snapshot,
                        on_status=lambda message: director.on_status(message.table, message),
                        on_ack=director.on_ack, on_broker=director.on_broker, by=director.by,
                        client_id=client_id or f"{director.event}-director")
    for (table, game), next_seq in director.resume_points().items():
        link.receiver.restore(table, game, next_seq)
    director.sender = link.command
    director.link_stats = link.stats
    director.broker_state = link.watch.state
    director.forget_streams = link.receiver.forget
    return link
