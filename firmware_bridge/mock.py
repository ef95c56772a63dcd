"""A scripted board on a fake serial port, in the manner of python-chess's `engine.MockTransport`.

Where the emulator behaves like a real board, this one does exactly what a test says and checks that
the host sends exactly what the test expects:

    port = ScriptedPort()
    port.expect(wire.HOST_HELLO, reply=[(wire.HELLO, wire.pack_hello(9, 9, 0, 0, 0, 30, 1000))])
    port.expect(wire.GET_BOARD, reply=[(wire.BOARD_DUMP, wire.pack_dump(0, 9, 9, bytes(81), 0, b""))])
    with BoardLink("scripted", opener=lambda url: port) as link:
        ...
        port.send(wire.SQUARE_CHANGED, wire.pack_square(40, 1, 1234))
    port.assert_done()

A mismatch never raises inside the link's thread (which would look like a port error); it is recorded
and `assert_done()` raises it.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

from firmware_bridge.firmware import wire


@dataclass
class _Expectation:
    msg_type: int
    payload: bytes | None
    reply: list[tuple[int, bytes]] = field(default_factory=list)


class ScriptedPort:
    """Implements the `link.Port` protocol; thread-safe between the link's thread and the test's."""

    def __init__(self) -> None:
        self.timeout: float | None = None
        self.closed = False
        self.problems: list[str] = []
        self.received: list[tuple[int, int, bytes]] = []
        self._expected: deque[_Expectation] = deque()
        self._rx = bytearray()
        self._seq = 0
        self._reader = wire.FrameReader()
        self._cond = threading.Condition()
        self._read_error: Exception | None = None
        self._write_error: Exception | None = None
        self.flushed = 0

    def expect(self, msg_type: int, payload: bytes | None = None, reply: list[tuple[int, bytes]] | None = None) -> None:
        """The host must send this command next (any payload when None), and the board answers `reply`."""
        with self._cond:
            self._expected.append(_Expectation(msg_type, payload, list(reply or [])))

    def send(self, msg_type: int, payload: bytes = b"") -> None:
        """The board sends a frame unasked."""
        with self._cond:
            self._queue(msg_type, payload)

    def send_raw(self, data: bytes) -> None:
        """Bytes on the line as they are: noise, half frames."""
        with self._cond:
            self._rx += data
            self._cond.notify_all()

    def send_repeated(self, msg_type: int, payload: bytes = b"") -> None:
        """The board's frame arrives twice, same sequence number (a line or USB stack delivering it again)."""
        with self._cond:
            frame = wire.encode_frame(msg_type, self._seq, payload)
            self._seq = (self._seq + 1) & 0xFF
            self._rx += frame + frame
            self._cond.notify_all()

    def fail_read(self, error: Exception) -> None:
        """The next read raises `error` (once the bytes already sent are read): an unplug, a port error."""
        with self._cond:
            self._read_error = error
            self._cond.notify_all()

    def fail_writes(self, error: Exception) -> None:
        """Every write from now on raises `error` (a board whose USB stops taking bytes: a write timeout)."""
        with self._cond:
            self._write_error = error

    def _queue(self, msg_type: int, payload: bytes) -> None:
        self._rx += wire.encode_frame(msg_type, self._seq, payload)
        self._seq = (self._seq + 1) & 0xFF
        self._cond.notify_all()

    # ---- the Port protocol ----

    @property
    def in_waiting(self) -> int:
        with self._cond:
            return len(self._rx)

    def reset_input_buffer(self) -> None:
        """What a pyserial port does on open in the link: counted, the script's bytes are kept."""
        with self._cond:
            self.flushed += 1

    def read(self, size: int = 1) -> bytes:
        """Up to `size` bytes the script made the board send, waiting at most `timeout` for some."""
        with self._cond:
            if not self._rx and not self.closed and self._read_error is None:
                self._cond.wait(self.timeout)
            if not self._rx and self._read_error is not None:
                error, self._read_error = self._read_error, None
                raise error
            data = bytes(self._rx[:size])
            del self._rx[:size]
            return data

    def write(self, data: bytes) -> int:
        """The host's bytes: each command is checked against the next expectation and answered."""
        with self._cond:
            if self._write_error is not None:
                raise self._write_error
            for msg_type, seq, payload in self._reader.feed(data):
                self.received.append((msg_type, seq, payload))
                name = wire.NAMES.get(msg_type, hex(msg_type))
                if not self._expected:
                    self.problems.append(f"unexpected {name} {payload.hex()}")
                    continue
                want = self._expected.popleft()
                if want.msg_type != msg_type or (want.payload is not None and want.payload != payload):
                    wanted = wire.NAMES.get(want.msg_type, hex(want.msg_type))
                    self.problems.append(f"expected {wanted}, got {name} {payload.hex()}")
                    continue
                for reply_type, reply_payload in want.reply:
                    self._queue(reply_type, reply_payload)
            self._cond.notify_all()
            return len(data)

    def close(self) -> None:
        """The host closed the port (idempotent)."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    # ---- for the test ----

    def wait_done(self, timeout: float) -> bool:
        """Wait until every expected command has arrived (or `timeout` seconds)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._expected or bool(self.problems), timeout)

    def assert_done(self) -> None:
        """Raise AssertionError if the host strayed from the script or left part of it unsent."""
        with self._cond:
            if self.problems:
                raise AssertionError("board script: " + "; ".join(self.problems))
            if self._expected:
                left = ", ".join(wire.NAMES.get(e.msg_type, hex(e.msg_type)) for e in self._expected)
                raise AssertionError(f"board script: still expecting {left}")
