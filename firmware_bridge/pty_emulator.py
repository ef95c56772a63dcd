"""The emulated board behind a pseudo-terminal, paced by the real clock: the host opens it as it would
open /dev/ttyACM0, through a symlink that stays put across unplug and replug (like /dev/serial/by-id/...).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.emulator import TX_BUFFER, EmulatedBoard
from firmware_bridge.errors import EmulatorCommandError
from firmware_bridge.scripted import ScriptedBoard


class PtyEmulator(ScriptedBoard):
    """An EmulatedBoard behind a pseudo-terminal, paced by the real clock on its own thread.

    `path` is a symlink that stays put across unplug/replug (like /dev/serial/by-id/...), pointing at
    the current pty. All scripting goes through the methods here, which take the board's lock.
    """

    def __init__(
        self,
        board: EmulatedBoard | None = None,
        link_dir: str | os.PathLike[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board = board or EmulatedBoard()
        self._given_dir = Path(link_dir) if link_dir is not None else None
        self._made_dir: Path | None = None
        self.device = ""
        self.clock = clock
        self.lock = threading.RLock()
        self.stepped = threading.Condition(self.lock)
        self._master = -1
        self._slave = -1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = 0.0
        self._ms0 = 0.0
        self._tx = bytearray()

    @property
    def _dir(self) -> Path:
        """The symlink's folder: the one given, or a temporary one made on first use (not merely by
        constructing an emulator, so that checking an emulator URL leaves nothing behind)."""
        if self._given_dir is not None:
            return self._given_dir
        if self._made_dir is None:
            self._made_dir = Path(tempfile.mkdtemp(prefix="board-emulator-"))
        return self._made_dir

    @property
    def path(self) -> str:
        """The stable device path to open, like /dev/serial/by-id/...: a symlink to the current pty."""
        return str(self._dir / "board")

    # ---- lifecycle ----

    def start(self) -> PtyEmulator:
        """Create the pty and its symlink and start pacing the board by the clock; returns self. Starting a
        running emulator does nothing; a folder for the symlink that does not exist is an
        EmulatorCommandError naming it."""
        if self._thread is not None:
            return self
        if not self._dir.is_dir():
            raise EmulatorCommandError(
                f"{self._dir}: no such folder for the board's device link (it would be {self.path})"
            )
        with self.lock:
            self._open_pty()
            self._t0 = self.clock()
            self._ms0 = self.board.now_ms
        self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread, close the pty, remove the symlink (and its folder when it is ours); idempotent."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self.lock:
            self._close_pty()
        if self._made_dir is not None:
            with contextlib.suppress(OSError):
                self._made_dir.rmdir()

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass as they are, 0x00 included
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.device = os.ttyname(slave)
        tmp = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.device, tmp)
        os.replace(tmp, self.path)
        self._tx.clear()

    def _close_pty(self) -> None:
        if self._given_dir is not None or self._made_dir is not None:  # else no symlink was ever made
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1
        self.device = ""

    # ---- the thread ----

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                self._pump()
                self.stepped.notify_all()
            self._stop.wait(self.board.scan_period_ms / 1000.0)

    def _pump(self) -> None:
        board = self.board
        if self._master >= 0:
            try:
                data = os.read(self._master, 4096)
            except (BlockingIOError, InterruptedError):
                data = b""
            except OSError:  # nobody has the slave open in a way that lets us read: nothing came
                data = b""
            if data:
                board.from_host(data)
        board.advance_to(self._ms0 + (self.clock() - self._t0) * 1000.0)
        out = board.to_host()
        if out and self._master >= 0:
            self._tx += out
        if self._tx and self._master >= 0:
            try:
                n = os.write(self._master, self._tx)
                del self._tx[:n]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._tx.clear()
            if len(self._tx) > TX_BUFFER:  # the host is not reading: the oldest bytes are lost
                del self._tx[: len(self._tx) - TX_BUFFER]

    # ---- scripting (thread-safe; the world's actions are ScriptedBoard's) ----

    def mute(self) -> None:
        """The board hangs: the port stays open and silent (for the silent-board check)."""
        with self.lock:
            self.board.mute()

    def unmute(self) -> None:
        """The hung board carries on."""
        with self.lock:
            self.board.unmute()

    def unplug(self) -> None:
        """Pull the cable: the device node disappears and the host's port fails, as with real USB."""
        with self.lock:
            self._catch_up()
            self.board.unplug()
            self._close_pty()

    def replug(self) -> None:
        """Plug the cable back: a new pty behind the same path, and the board boots afresh."""
        with self.lock:
            self._catch_up()
            self._open_pty()
            self.board.replug()

    def _catch_up(self) -> None:
        self.board.advance_to(self._ms0 + (self.clock() - self._t0) * 1000.0)

    def now_ms(self) -> float:
        """The board's simulated time (ms since the emulator was made), under the lock."""
        with self.lock:
            return self.board.now_ms

    def host_time(self, board_ms: int) -> float:
        """The host's monotonic time at which the board's clock read `board_ms` (its uptime this boot)."""
        with self.lock:
            return self._t0 + (self.board.boot_ms + board_ms - self._ms0) / 1000.0

    def wait_settled(self, timeout: float = 5.0) -> bool:
        """Wait (on the emulator's own steps, not a fixed sleep) until nothing bounces or is pending."""
        with self.stepped:
            return self.stepped.wait_for(self.board.settled, timeout)
