"""The host link: a port opened by URL, a reader thread, and `LinkCore` turning bytes into events.

URLs are pyserial's (`serial_for_url`):
- a device path (`/dev/ttyACM0`, `/dev/serial/by-id/...`) or a pty path (the emulator's `path`);
- `emulator://` or `emulator://9x9?coded=1&buttons=2&slots=7&seed=3`: this project's own pyserial URL
  handler (`firmware_bridge.urlhandler`), an emulated board in this process (`link.emulator`, for scripting);
  with `micropython=1`, the firmware's own main.py on MicroPython instead (`micropython_board.MicroPythonBoard`);
- any other pyserial URL (`loop://`, `spy://...`, `rfc2217://...`).

The thread owns the port. It reopens it by itself after an unplug, a port error or a silent board, every
`reconnect_s` seconds until it comes back (a board refused for what its HELLO says: every
`REFUSED_RETRY_S`); `LinkCore` resynchronises with a BOARD_DUMP. pyserial is imported inside the
functions that make a port, so importing this module costs nothing on a table without a board.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from firmware_bridge.codes import TileCodes
from firmware_bridge.core import DOWN, LinkCore
from firmware_bridge.emulator_url import parse_emulator_url
from firmware_bridge.errors import PortURLError
from firmware_bridge.events import BoardReading, Event, Hello
from firmware_bridge.firmware import wire

if TYPE_CHECKING:
    from firmware_bridge.pty_emulator import PtyEmulator

__all__ = ["BoardLink", "Port", "check_url", "make_port", "open_port", "parse_emulator_url"]

log = logging.getLogger("firmware_bridge.link")

BAUDRATE = 115200  # ignored by USB CDC, used by a UART build (never 1200: that reboots a Pico into its bootloader)
POLL_S = 0.02
WRITE_TIMEOUT_S = 1.0  # a board whose USB stops taking bytes is a lost link, not a thread stuck in write()
REFUSED_RETRY_S = 5.0  # a board refused for its HELLO is tried again this seldom (it changes only if reflashed)
QUEUE_SIZE = 1000  # events kept for `get`/`wait_for`, by default only when there is no `on_event`


class Port(Protocol):
    """What the link needs of a pyserial port (and what a test fake provides)."""

    timeout: float | None

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...

    @property
    def in_waiting(self) -> int: ...


class ReopenablePort(Port, Protocol):
    """A pyserial port object: closed and opened again on the same object (an emulator's board survives)."""

    def open(self) -> None: ...

    def reset_input_buffer(self) -> None: ...


def _pyserial_port(url: str, timeout: float, do_not_open: bool) -> ReopenablePort:
    from firmware_bridge.urlhandler import register

    register()
    import serial  # type: ignore[import-untyped]

    port: ReopenablePort = serial.serial_for_url(
        url,
        baudrate=BAUDRATE,
        timeout=timeout,
        write_timeout=WRITE_TIMEOUT_S,
        exclusive=True,
        do_not_open=do_not_open,
    )
    return port


def make_port(url: str, timeout: float = POLL_S) -> ReopenablePort:
    """The pyserial port for `url`, not opened yet (open it with `open()`, as often as it is closed).

    A wrong URL fails here, before any thread starts: an unknown scheme or a wrong emulator option is a
    PortURLError saying what is wrong; a device path is not required to exist (a board unplugged at boot
    is waited for)."""
    try:
        return _pyserial_port(url, timeout, do_not_open=True)
    except PortURLError:
        raise
    except ValueError as exc:  # pyserial: "invalid URL, protocol 'http' not known"
        raise PortURLError(f"{url}: {exc}") from None


def check_url(url: str) -> bool:
    """True if pyserial (with this project's handlers) opens `url`'s scheme and its options are right; False
    for a scheme nobody handles; a PortURLError naming the fault for a known scheme used wrongly (an
    `emulator://99x99`). Starts nothing: the emulator's board is built, not run."""
    try:
        port = make_port(url)
    except PortURLError as exc:
        if "not known" in str(exc):
            return False
        raise
    emulator = getattr(port, "emulator", None)
    if emulator is not None:
        emulator.stop()  # never started; frees its temporary folder if anything made one
    return True


def open_port(url: str, timeout: float = POLL_S) -> Port:
    """Open a device path, a pty or a pyserial URL; raises serial.SerialException or OSError if it cannot.

    The port is locked (`exclusive`, flock): a second reader (`referee board monitor` beside the service)
    is refused with "Could not exclusively lock port" instead of silently taking half the frames. pyserial
    raises DTR on open, which MicroPython's USB CDC needs before it sends anything to the host."""
    port = _pyserial_port(url, timeout, do_not_open=False)
    port.reset_input_buffer()  # what piled up while nobody listened is stale
    return port


class BoardLink:
    """The sensor board, seen from the referee: typed events to `on_event` (and, opt-in, a bounded queue),
    and the picture.

    `with BoardLink(url, on_event=...) as link:` starts it and closes it; `close()` (or `stop()`) stops the
    thread, closes the port and stops an emulator the URL started, and may be called any number of times.

    The queue behind `get`/`wait_for` holds at most `queue_size` events, the oldest dropped first and
    counted in `stats["events_dropped"]`: a reader that stops reading costs a bounded amount of memory.
    By default it is kept only when there is no `on_event` (the service reads events from its callback and
    would otherwise keep every heartbeat for ever); pass `queue_size` to have both, or 0 for none.
    """

    def __init__(
        self,
        url: str,
        on_event: Callable[[Event], None] | None = None,
        tile_codes: TileCodes | None = None,
        debounce_ms: int | None = None,
        heartbeat_ms: int | None = None,
        reconnect_s: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[str], Port] | None = None,
        queue_size: int | None = None,
        accept: Callable[[Hello], str | None] | None = None,
        port: ReopenablePort | None = None,
    ) -> None:
        self.url = url
        self.on_event = on_event
        self.core = LinkCore(tile_codes, debounce_ms, heartbeat_ms, accept=accept)  # accept: see LinkCore
        self.reconnect_s = reconnect_s
        self.clock = clock
        if queue_size is None:
            queue_size = 0 if on_event is not None else QUEUE_SIZE
        if queue_size < 0:
            raise ValueError(f"queue_size {queue_size}: write 0 (no queue) or more")
        self.queue_size = queue_size
        self.events: queue.Queue[Event] = queue.Queue(maxsize=queue_size or 1)
        self.events_dropped = 0
        # Without an opener, one pyserial port object is made now (a wrong URL fails here, in the caller's
        # thread) and opened again on every reconnect, so an emulator:// board lives as long as the link.
        # `port`: that object made beforehand by the caller (`make_port(url)`), who keeps a hand on the board
        # behind it (the simulated table films its emulated board).
        self._opener = opener
        self._port: ReopenablePort | None = port if port is not None else make_port(url) if opener is None else None
        self.emulator: PtyEmulator | None = getattr(self._port, "emulator", None)
        self.reconnects = 0
        self.open_failures = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    # ---- lifecycle ----

    def start(self) -> BoardLink:
        """Start the emulator (for emulator://) and the link's thread; returns self."""
        if self._closed:
            raise RuntimeError(f"the board link to {self.url} is closed: make a new one")
        if self._thread is not None:
            return self
        if self.emulator is not None:
            self.emulator.start()
        self._thread = threading.Thread(target=self._run, name=f"board-link {self.url}", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread (within a poll interval), close the port, stop an own emulator; idempotent."""
        self._closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self.emulator is not None:
            self.emulator.stop()

    stop = close

    def __enter__(self) -> BoardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- for the referee ----

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None after `timeout` seconds."""
        if self.queue_size == 0:
            raise RuntimeError("this board link keeps no event queue (queue_size=0): its events go to on_event")
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_for(self, predicate: Callable[[Event], bool], timeout: float) -> tuple[Event | None, list[Event]]:
        """Events up to and including the first that matches (None if none within `timeout` seconds)."""
        seen: list[Event] = []
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            event = self.get(left)
            if event is None:
                break
            seen.append(event)
            if predicate(event):
                return event, seen
        return None, seen

    def picture(self) -> BoardReading:
        """The board as the link believes it is now (a frozen snapshot, safe to keep)."""
        with self._lock:
            return self.core.picture()

    @property
    def stats(self) -> dict[str, int]:
        """Counters since the link was made: frames, bad frames, gaps, duplicates, resyncs, reconnects,
        refused boards, events dropped from a full queue."""
        with self._lock:
            stats = dict(self.core.stats)
            reader = self.core.reader
        stats.update(
            crc_errors=reader.crc_errors,  # of the current connection; all kinds together are in bad_frames
            reconnects=self.reconnects,
            open_failures=self.open_failures,
            events_dropped=self.events_dropped,
        )
        return stats

    def ping(self, token: int) -> None:
        """Send a PING; the PONG with `token` arrives after everything the board sent before."""
        with self._lock:
            self.core.ping(token)

    def request_board(self) -> None:
        """Ask the board for a full BOARD_DUMP now."""
        with self._lock:
            self.core.request_board()

    def send_raw(self, msg_type: int, payload: bytes = b"") -> None:
        """Any command, framed and queued for the port (diagnostics, tests)."""
        with self._lock:
            self.core.command(msg_type, payload)

    def set_config(self, debounce_ms: int, heartbeat_ms: int) -> None:
        """Change the board's timing until it reboots; answered by ACK, or NAK with the reason."""
        self.send_raw(wire.SET_CONFIG, wire.pack_set_config(debounce_ms, heartbeat_ms, wire.REPORT_ALL))

    # ---- the thread ----

    def _publish(self, events: list[Event]) -> None:
        """Queue each event and hand it to `on_event`; called without the lock held."""
        for event in events:
            if self.queue_size:
                self._enqueue(event)
            if self.on_event is not None:
                try:
                    self.on_event(event)
                except Exception:  # a consumer's bug must not kill the link
                    log.exception("on_event raised for %r", event)

    def _enqueue(self, event: Event) -> None:
        """Put an event in the bounded queue, dropping the oldest when it is full (only this thread puts)."""
        while True:
            try:
                self.events.put_nowait(event)
                return
            except queue.Full:
                try:
                    self.events.get_nowait()
                    self.events_dropped += 1
                except queue.Empty:
                    pass

    def _open(self) -> Port:
        if self._opener is not None:
            return self._opener(self.url)
        assert self._port is not None
        self._port.open()
        try:
            self._port.reset_input_buffer()  # what piled up while nobody listened is stale
        except Exception:
            self._port.close()
            raise
        return self._port

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                port = self._open()
            except Exception as exc:  # pyserial raises SerialException (an OSError subclass) or ValueError
                self.open_failures += 1
                if first or self.open_failures % 20 == 1:
                    log.warning("cannot open %s: %s; retrying every %.1f s", self.url, exc, self.reconnect_s)
                first = False
                with self._lock:
                    events = self.core.open_failed(str(exc), self.clock())
                self._publish(events)
                self._stop.wait(self.reconnect_s)
                continue
            if not first:
                self.reconnects += 1
            first = False
            try:
                self._serve(port)
            finally:
                try:
                    port.close()
                except Exception:
                    log.exception("closing %s", self.url)
            if self.core.refused is not None:  # it will say the same again: no point asking 20 times a second
                self._stop.wait(max(self.reconnect_s, REFUSED_RETRY_S))
            elif not self._stop.is_set():
                self._stop.wait(min(self.reconnect_s, 0.05))

    def _serve(self, port: Port) -> None:
        with self._lock:
            events = self.core.connection_made(self.clock())
        self._publish(events)
        poll = min(POLL_S, self.core.heartbeat_s / 10)
        port.timeout = poll
        while not self._stop.is_set():
            try:
                with self._lock:
                    out = self.core.take_outgoing()
                if out:
                    port.write(out)
                waiting = port.in_waiting
                data = port.read(waiting if waiting > 0 else 1)
            except Exception as exc:  # SerialException, OSError: the device went away
                with self._lock:
                    events = self.core.connection_lost(f"port error: {exc}", self.clock())
                self._publish(events)
                return
            now = self.clock()
            with self._lock:
                events = self.core.data_received(data, now) if data else []
                events += self.core.tick(now)
                down = self.core.state == DOWN
            self._publish(events)  # outside the lock: a callback may ask for the picture or send a command
            if down:
                return
