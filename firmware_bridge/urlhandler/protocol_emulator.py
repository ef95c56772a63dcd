"""`emulator://15x15?coded=1&buttons=2`: the emulated sensor board, opened like any pyserial port.

`serial.serial_for_url("emulator://...")` (after `firmware_bridge.urlhandler.register()`) gives a port
whose far end is an `EmulatedBoard` running the firmware's own code behind a pseudo-terminal
(`PtyEmulator`), paced by the real clock. The board is made when the URL is set, so a wrong option fails
at once, and starts running at the first `open()`. `port.emulator` is the PtyEmulator, for scripting
(place, press, unplug, ...).

As with a real board, the host closing its port does not switch the board off: `close()` closes the host's
end only, and `open()` on the same object reaches the same board again (that is how `BoardLink`
reconnects). The board's thread stops with `port.emulator.stop()` (BoardLink does it when it closes).
An unplugged emulator makes `open()` fail and an open port's reads fail, exactly as a USB device does.
"""

from __future__ import annotations

from typing import Any

import serial  # type: ignore[import-untyped]
from serial.serialutil import PortNotOpenError, SerialBase, SerialException  # type: ignore[import-untyped]

from firmware_bridge.emulator_url import board_from_url
from firmware_bridge.pty_emulator import PtyEmulator


class Serial(SerialBase):  # type: ignore[misc]  # pyserial ships no type hints
    """A pyserial port whose device is an emulated board (see the module's docstring)."""

    is_open: bool  # set by SerialBase, which has no type hints

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.emulator: PtyEmulator | None = None
        self._pty: Any = None  # the host's end: a pyserial Serial on the emulator's pty, while open
        super().__init__(*args, **kwargs)

    def _set_port(self, url: str | None) -> None:
        SerialBase.port.fset(self, url)
        if self.emulator is not None:
            self.emulator.stop()
            self.emulator = None
        if url is not None:
            self.emulator = PtyEmulator(board_from_url(url))

    port = property(SerialBase.port.fget, _set_port, doc="The emulator URL; setting it makes the board.")

    def open(self) -> None:
        """Start the board (first time only) and open the host's end of its pty."""
        if self.is_open:
            raise SerialException("Port is already open.")
        if self.emulator is None:
            raise SerialException("Port must be configured before it can be used.")
        self.emulator.start()
        self._pty = serial.Serial(
            self.emulator.path,
            baudrate=self._baudrate,
            timeout=self._timeout,
            write_timeout=self._write_timeout,
            exclusive=self._exclusive,
        )
        self.is_open = True

    def close(self) -> None:
        """Close the host's end (idempotent); the board keeps running, as a real one stays powered."""
        self.is_open = False
        pty, self._pty = self._pty, None
        if pty is not None:
            pty.close()

    def _reconfigure_port(self, *args: Any) -> None:
        if self._pty is not None:
            self._pty.timeout = self._timeout
            self._pty.write_timeout = self._write_timeout

    def _host_end(self) -> Any:
        if not self.is_open or self._pty is None:
            raise PortNotOpenError()
        return self._pty

    @property
    def in_waiting(self) -> int:
        return int(self._host_end().in_waiting)

    def read(self, size: int = 1) -> bytes:
        return bytes(self._host_end().read(size))

    def write(self, data: bytes) -> int:
        return int(self._host_end().write(data))

    def flush(self) -> None:
        self._host_end().flush()

    def reset_input_buffer(self) -> None:
        self._host_end().reset_input_buffer()

    def reset_output_buffer(self) -> None:
        self._host_end().reset_output_buffer()

    def _update_dtr_state(self) -> None:
        """DTR and RTS mean nothing to the emulator."""

    def _update_rts_state(self) -> None:
        """DTR and RTS mean nothing to the emulator."""
