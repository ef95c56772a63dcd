"""The host link: a port opened by URL, a reader thread, and `LinkCore` turning bytes into events.

URLs, like pyserial's `serial_for_url`:
- a device path (`/dev/ttyACM0`, `/dev/serial/by-id/...`) or a pty path (the emulator's `path`);
- `emulator://` or `emulator://9x9?coded=1&buttons=2&slots=7&seed=3`: start a PtyEmulator in this process
  and open its pty (`link.emulator` is the emulator, for scripting);
  with `micropython=1`, the firmware's own main.py on MicroPython instead (`micropython_board.MicroPythonBoard`);
- any other pyserial URL (`loop://`, `spy://...`, `rfc2217://...`).

The thread owns the port. It reopens it by itself after an unplug, a port error or a silent board, every
`reconnect_s` seconds until it comes back; `LinkCore` resynchronises with a BOARD_DUMP. pyserial is
imported inside `open_port`, so importing this module costs nothing on a table without a board.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from firmware_bridge.codes import TileCodes
from firmware_bridge.core import DOWN, LinkCore
from firmware_bridge.errors import PortURLError
from firmware_bridge.events import BoardPicture, Event
from firmware_bridge.firmware import wire

log = logging.getLogger("firmware_bridge.link")

BAUDRATE = 115200  # ignored by USB CDC, used by a UART build (never 1200: that reboots a Pico into its bootloader)
POLL_S = 0.02
WRITE_TIMEOUT_S = 1.0  # a board whose USB stops taking bytes is a lost link, not a thread stuck in write()


class Port(Protocol):
    """What the link needs of a pyserial port (and what a test fake provides)."""

    timeout: float | None

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...

    @property
    def in_waiting(self) -> int: ...


def parse_emulator_url(url: str) -> dict[str, Any]:
    """`emulator://9x9?coded=1&buttons=2` -> keyword arguments for EmulatedBoard."""
    parts = urlsplit(url)
    kwargs: dict[str, Any] = {}
    size = parts.netloc or parts.path.strip("/")
    if size:
        try:
            width, height = (int(x) for x in size.lower().split("x"))
        except ValueError:
            raise PortURLError(f"{url}: board size must read WIDTHxHEIGHT, like 15x15") from None
        kwargs["width"], kwargs["height"] = width, height
    ints = {"buttons", "slots", "seed", "debounce_ms", "heartbeat_ms"}
    for key, values in parse_qs(parts.query).items():
        value = values[-1]
        if key in ("coded", "micropython"):
            kwargs[key] = value.lower() in ("1", "true", "yes")
        elif key in ints:
            try:
                kwargs[key] = int(value)
            except ValueError:
                raise PortURLError(f"{url}: {key} must be a whole number, not {value!r}") from None
        elif key in ("bounce_ms", "glitch"):
            kwargs[key] = float(value)
        else:
            raise PortURLError(f"{url}: unknown emulator option {key!r}")
    return kwargs


def open_port(url: str, timeout: float = POLL_S) -> Port:
    """Open a device path, a pty or a pyserial URL; raises serial.SerialException or OSError if it cannot.

    The port is locked (`exclusive`, flock): a second reader (`referee board monitor` beside the service)
    is refused with "Could not exclusively lock port" instead of silently taking half the frames. pyserial
    raises DTR on open, which MicroPython's USB CDC needs before it sends anything to the host."""
    import serial  # type: ignore[import-untyped]

    port: Port = serial.serial_for_url(
        url,
        baudrate=BAUDRATE,
        timeout=timeout,
        write_timeout=WRITE_TIMEOUT_S,
        exclusive=True,
        do_not_open=False,
    )
    if hasattr(port, "reset_input_buffer"):
        port.reset_input_buffer()  # what piled up while nobody listened is stale
    return port


class BoardLink:
    """The sensor board, seen from the referee: typed events in a queue (and to `on_event`), and the picture."""

    def __init__(
        self,
        url: str,
        on_event: Callable[[Event], None] | None = None,
        tile_codes: TileCodes | None = None,
        debounce_ms: int | None = None,
        heartbeat_ms: int | None = None,
        reconnect_s: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[str], Port] = open_port,
    ) -> None:
        self.url = url
        self.on_event = on_event
        self.core = LinkCore(tile_codes, debounce_ms, heartbeat_ms)
        self.reconnect_s = reconnect_s
        self.clock = clock
        self.opener = opener
        self.events: queue.Queue[Event] = queue.Queue()
        self.emulator: Any = None
        self.port_url = url
        if url.startswith("emulator://"):
            from firmware_bridge.emulator import EmulatedBoard
            from firmware_bridge.pty_emulator import PtyEmulator

            options = parse_emulator_url(url)
            if options.pop("micropython", False):
                from firmware_bridge.micropython_board import MicroPythonBoard

                self.emulator = MicroPythonBoard(**options)
            else:
                self.emulator = PtyEmulator(EmulatedBoard(**options))
            self.port_url = self.emulator.path
        self.reconnects = 0
        self.open_failures = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---- lifecycle ----

    def start(self) -> BoardLink:
        """Start the emulator (for emulator://) and the link's thread; returns self."""
        if self.emulator is not None:
            self.emulator.start()
        self._thread = threading.Thread(target=self._run, name=f"board-link {self.url}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread (within a poll interval), close the port, stop an own emulator."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self.emulator is not None:
            self.emulator.stop()

    def __enter__(self) -> BoardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- for the referee ----

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None after `timeout` seconds."""
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

    def picture(self) -> BoardPicture:
        """The board as the link believes it is now (a frozen snapshot, safe to keep)."""
        with self._lock:
            return self.core.picture()

    @property
    def stats(self) -> dict[str, int]:
        """Counters since the link was made: frames, bad frames, gaps, resyncs, reconnects."""
        with self._lock:
            stats = dict(self.core.stats)
            reader = self.core.reader
        stats.update(
            crc_errors=reader.crc_errors,  # of the current connection; all kinds together are in bad_frames
            reconnects=self.reconnects,
            open_failures=self.open_failures,
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
            self.events.put(event)
            if self.on_event is not None:
                try:
                    self.on_event(event)
                except Exception:  # a consumer's bug must not kill the link
                    log.exception("on_event raised for %r", event)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                port = self.opener(self.port_url)
            except Exception as exc:  # pyserial raises SerialException (an OSError subclass) or ValueError
                self.open_failures += 1
                if first or self.open_failures % 20 == 1:
                    log.warning("cannot open %s: %s; retrying every %.1f s", self.port_url, exc, self.reconnect_s)
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
                    log.exception("closing %s", self.port_url)
            if not self._stop.is_set():
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
