"""The firmware's modules on a real MicroPython: the codec round-trips, the scan core debounces, and both
produce exactly the bytes CPython produces from the same inputs (so the host and the Pico cannot drift)."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.firmware import wire

CODEC_SCRIPT = r"""
import sys
import wire
assert sys.implementation.name in ("micropython", "cpython")
assert wire.crc16(b"123456789") == 0x29B1
assert wire.crc16_table(b"123456789") == 0x29B1
msgs = [
    (wire.HELLO, wire.pack_hello(15, 15, wire.CAP_CODED | wire.CAP_BUTTONS, 4, 7, 30, 1000)),
    (wire.SQUARE_CHANGED, wire.pack_square(112, 5, 123456789)),
    (wire.BUTTON, wire.pack_button(3, True, 4000000000)),
    (wire.DICE_TRAY, wire.pack_tray(2, 11, 5, 77)),
    (wire.HEARTBEAT, wire.pack_heartbeat(99999, 1000, 1, 2, 3, 70000)),
    (wire.ACK, wire.pack_ack(wire.SET_CONFIG, 9)),
    (wire.NAK, wire.pack_nak(0x7E, 10, wire.NAK_UNKNOWN_TYPE)),
    (wire.PONG, wire.pack_pong(0xDEADBEEF, 5)),
    (wire.BOARD_DUMP, wire.pack_dump(5, 15, 15, bytes([i % 64 for i in range(225)]), 5, bytes([0, 7, 72]))),
    (wire.SET_CONFIG, wire.pack_set_config(30, 1000, 7)),
    (wire.PING, wire.pack_ping(1)),
    (wire.GET_BOARD, b""),
]
stream = b""
for seq, (t, p) in enumerate(msgs):
    frame = wire.encode_frame(t, seq, p)
    stream += frame
    print(frame.hex() if hasattr(frame, "hex") else frame)
    assert wire.decode_frame(frame[1:-1]) == (t, seq, p)
assert wire.unpack_dump(msgs[8][1])[5] == bytes([0, 7, 72])
assert wire.cobs_decode(wire.cobs_encode(bytes(range(256)) * 3)) == bytes(range(256)) * 3
# The reader: split anywhere, corrupted, glued to garbage - never raises, next intact frame arrives.
r = wire.FrameReader()
got = []
for i in range(0, len(stream), 7):
    got += r.feed(stream[i:i + 7])
assert len(got) == len(msgs), len(got)
bad = bytearray(stream)
bad[20] ^= 0x10
got = r.feed(b"\xff\x00\x13garbage" + bytes(bad) + wire.encode_frame(wire.PING, 200, wire.pack_ping(7)))
assert got[-1] == (wire.PING, 200, wire.pack_ping(7)), got[-1]
assert r.crc_errors + r.cobs_errors + r.short >= 2
r.feed(b"\x01" * 3000)
assert r.too_long >= 1
assert r.feed(wire.encode_frame(wire.PING, 1, b"\x00\x00\x00\x01"))[0][1] == 1
print("codec ok")
"""


def test_codec_runs_on_micropython_and_matches_cpython_byte_for_byte(micropython, cpython_flat) -> None:  # type: ignore[no-untyped-def]
    mp = micropython(CODEC_SCRIPT)
    assert mp.returncode == 0, mp.stdout + mp.stderr
    assert mp.stdout.strip().endswith("codec ok")
    cp = cpython_flat(CODEC_SCRIPT)
    assert cp.returncode == 0, cp.stderr
    assert mp.stdout == cp.stdout


# A scripted HAL: the matrix is a list of (time_ms, index, code) steps with contact bounce written out.
SCAN_SCRIPT = r"""
import wire
import scanner

class ScriptHal:
    def __init__(self, n, script, host_bytes):
        self.t = 1073741000  # a few hundred ms before MicroPython's ticks_ms wraps at 2**30
        self.n = n
        self.script = script
        self.host = host_bytes
        self.out = []
        self.codes = bytearray(n)
    def ticks_ms(self):
        return self.t % (1 << 30)
    def ticks_diff(self, a, b):
        half = 1 << 29
        return ((a - b + half) % (1 << 30)) - half
    def scan(self, buf):
        while self.script and self.script[0][0] <= self.now:
            _, i, c = self.script.pop(0)
            self.codes[i] = c
        buf[:] = self.codes
    def read(self):
        for k in range(len(self.host)):
            if self.host[k][0] <= self.now:
                data = self.host.pop(k)[1]
                return data
        return None
    def write(self, data):
        self.out.append(bytes(data))
        return True

# 9x9 coded mat, 2 buttons, 1 tray slot. E (code 5) lands on E5 (index 40) and bounces for 9 ms;
# a neighbour (E4, index 31) is brushed for 4 ms; button 1 bounces then holds; a die lands in slot 0.
script = []
for t, c in ((100, 1), (101, 0), (103, 5), (104, 4), (105, 5), (107, 1), (109, 5)):
    script.append((t, 40, c))
script += [(102, 31, 2), (106, 31, 0)]
script += [(300, 81 + 1, 1), (302, 81 + 1, 0), (303, 81 + 1, 1)]
script += [(400, 83, 1 + 4 * 6 + 2)]
script += [(600, 40, 0), (601, 40, 5), (602, 40, 0), (603, 40, 5)]  # a knock, not a lift
host = [
    (50, wire.encode_frame(wire.HOST_HELLO, 0, wire.pack_host_hello())),
    (60, wire.encode_frame(wire.SET_CONFIG, 1, wire.pack_set_config(20, 250, wire.REPORT_ALL))),
    (70, wire.encode_frame(wire.SET_CONFIG, 2, wire.pack_set_config(0, 250, wire.REPORT_ALL))),
    (80, wire.encode_frame(0x7E, 3, b"")),
    (90, wire.encode_frame(wire.PING, 4, b"\x01")),
    (500, wire.encode_frame(wire.GET_BOARD, 5, b"")),
    (510, b"\x00\x05garbage\x00"),
    (520, wire.encode_frame(wire.PING, 6, wire.pack_ping(0xABCDEF01))),
]
hal = ScriptHal(9 * 9 + 2 + 1, script, host)
hal.now = 0
fw = scanner.Firmware(hal, width=9, height=9, coded=True, buttons=2, slots=1)
for ms in range(1, 1000):
    hal.now = ms
    hal.t += 1
    fw.step()
r = wire.FrameReader()
names = {}
for k in wire.NAMES:
    names[k] = wire.NAMES[k]
for frame in hal.out:
    for t, seq, p in r.feed(frame):
        if t == wire.SQUARE_CHANGED:
            print(seq, "SQUARE", wire.unpack_square(p))
        elif t == wire.BUTTON:
            print(seq, "BUTTON", wire.unpack_button(p))
        elif t == wire.DICE_TRAY:
            print(seq, "TRAY", wire.unpack_tray(p))
        elif t == wire.NAK:
            print(seq, "NAK", wire.unpack_nak(p))
        elif t == wire.BOARD_DUMP:
            d = wire.unpack_dump(p)
            print(seq, "DUMP", d[0], d[3][40], d[4], d[5][0])
        elif t == wire.HEARTBEAT:
            print(seq, "HEARTBEAT", wire.unpack_heartbeat(p))
        else:
            print(seq, names[t], p)
print("crc", fw.reader.crc_errors + fw.reader.cobs_errors + fw.reader.short)
"""


def test_scan_core_on_micropython_debounces_and_answers_like_cpython(micropython, cpython_flat) -> None:  # type: ignore[no-untyped-def]
    mp = micropython(SCAN_SCRIPT)
    assert mp.returncode == 0, mp.stdout + mp.stderr
    cp = cpython_flat(SCAN_SCRIPT)
    assert cp.returncode == 0, cp.stderr
    assert mp.stdout == cp.stdout
    lines = mp.stdout.splitlines()
    squares = [line for line in lines if "SQUARE" in line]
    # Debounce 20 ms after SET_CONFIG: E settles at 109 ms and is reported once, with that time;
    # the brushed neighbour and the 3 ms knock at 600-603 never show.
    assert len(squares) == 1 and squares[0].endswith("SQUARE (40, 5, 109)")
    assert [line.split(" ", 1)[1] for line in lines if "BUTTON" in line] == ["BUTTON (1, 1, 303)"]
    assert [line.split(" ", 1)[1] for line in lines if "TRAY" in line] == ["TRAY (0, 4, 2, 400)"]
    naks = [line.split(" ", 1)[1] for line in lines if "NAK" in line]
    assert naks == [
        f"NAK ({wire.SET_CONFIG}, 2, {wire.NAK_BAD_VALUE})",
        f"NAK (126, 3, {wire.NAK_UNKNOWN_TYPE})",
        f"NAK ({wire.PING}, 4, {wire.NAK_BAD_LENGTH})",
    ]
    assert any(line.endswith("DUMP 500 5 2 27") for line in lines)
    assert any("PONG" in line and "\\xab\\xcd\\xef\\x01" in line for line in lines)
    beats = [line for line in lines if "HEARTBEAT" in line]
    assert len(beats) == 3  # every 250 ms after SET_CONFIG at 60 ms: 310, 560, 810
    assert "(310, 1000," in beats[0]
    assert lines[-1] == "crc 1"  # the garbage frame was counted


FAKE_MACHINE = r"""
# A fake of MicroPython's `machine` for PicoHal: 74HC595 drive chain and 74HC165 sense chain on one SPI.
class Pin:
    OUT = 1
    IN = 0
    def __init__(self, n, mode=None, value=None):
        self.n = n
        self.v = value
    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        BUS.pin(self.n, v)

class Bus:
    def __init__(self):
        self.shift = b""
        self.line = None
        self.closed = {}     # (drive line, sense bit) -> True
        self.loaded = b""
        self.writes = 0
    def pin(self, n, v):
        if n == 5 and v == 1:   # RCLK: latch the drive chain
            data = self.shift
            self.line = None
            for i in range(len(data)):
                byte = data[len(data) - 1 - i]
                for b in range(8):
                    if byte & (1 << b):
                        self.line = i * 8 + b
        if n == 6 and v == 0:   # /PL: load the sense chain
            self.loaded = self.line

BUS = Bus()

class SPI:
    def __init__(self, *a, **k):
        self.sense_bytes = 0
    def write(self, data):
        BUS.shift = bytes(data)
        BUS.writes += 1
    def readinto(self, buf, fill=0):
        for i in range(len(buf)):
            buf[i] = 0
        for (line, bit) in BUS.closed:
            if line == BUS.loaded:
                buf[bit >> 3] |= 0x80 >> (bit & 7)

class UART:
    def __init__(self, n, baudrate=0, txbuf=0, rxbuf=0):
        self.rx = [b"\x00abc"]
        self.tx = b""
    def read(self):
        return self.rx.pop(0) if self.rx else None
    def write(self, data):
        self.tx += data
        return len(data)
"""

HAL_SCRIPT = r"""
import machine
import hal_pico
# Presence-only 15x15 with 3 buttons: H8 (row 8, column H) and A1 and O15 closed; button 2 pressed.
hal = hal_pico.PicoHal(width=15, height=15, bits_per_square=1, buttons=3, uart_id=0)
machine.BUS.closed = {(7, 7): True, (0, 0): True, (14, 14): True, (15, 2): True}
buf = bytearray(15 * 15 + 3)
hal.scan(buf)
print("presence", [i for i in range(len(buf)) if buf[i]])
# Coded 9x9: 6 sense bits per column. E (code 5 = bits 0 and 2) on E5 (row 4, column 4).
hal = hal_pico.PicoHal(width=9, height=9, bits_per_square=6, uart_id=0)
machine.BUS.closed = {(4, 4 * 6 + 0): True, (4, 4 * 6 + 2): True}
buf = bytearray(81)
hal.scan(buf)
print("coded", [(i, buf[i]) for i in range(81) if buf[i]])
print("uart", hal.read(), hal.write(b"\x00hi\x00"), hal._uart.tx)
d = hal.ticks_diff(hal.ticks_ms(), hal.ticks_ms())
print("ticks", d <= 0)
"""


def test_pico_hal_reads_shift_registers_through_a_fake_machine(micropython) -> None:  # type: ignore[no-untyped-def]
    mp = micropython(HAL_SCRIPT, {"machine": FAKE_MACHINE})
    assert mp.returncode == 0, mp.stdout + mp.stderr
    out = mp.stdout.splitlines()
    assert out[0] == "presence [0, 112, 224, 227]"  # A1, H8, O15, button 2
    assert out[1] == "coded [(40, 5)]"
    assert out[2] == "uart b'\\x00abc' True b'\\x00hi\\x00'"
    assert out[3] == "ticks True"


def test_every_firmware_file_compiles_on_micropython(micropython) -> None:  # type: ignore[no-untyped-def]
    names = ["wire.py", "scanner.py", "hal_pico.py", "main.py"]
    script = (
        f"for name in {names!r}:\n    compile(open(name).read(), name, 'exec')\nprint('compiled', len({names!r}))\n"
    )
    mp = micropython(script)
    assert mp.returncode == 0, mp.stdout + mp.stderr
    assert mp.stdout.strip() == "compiled 4"


def test_shared_modules_use_nothing_micropython_lacks() -> None:
    # A cheap guard beside the real interpreter: the shared modules must not grow CPython-only imports.
    for name in ("wire.py", "scanner.py"):
        text = (Path(wire.__file__).parent / name).read_text()
        for banned in (
            "import typing",
            "from typing",
            "from dataclasses",
            "@dataclass",
            "from __future__",
            "import enum",
        ):
            assert banned not in text, f"{name} uses {banned!r}, which MicroPython lacks"


FAKE_BOARD_MACHINE = r"""
# The Pico's hardware for main.py: H8 closes after 20 scans; after 200 scans the "power" goes off.
import sys

class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 1
    def __init__(self, n, mode=None, pull=None, value=None):
        self.n = n
    def value(self, v=None):
        if v is None:
            return 1 if self.n == 22 else 0   # the maintenance jumper is not fitted
        if self.n == 5 and v == 1:
            BUS.latch()

def reset():
    raise RuntimeError("machine.reset() called: the firmware crashed")

class Bus:
    def __init__(self):
        self.shift = b""
        self.line = -1
        self.reads = 0
    def latch(self):
        data = self.shift
        self.line = -1
        for i in range(len(data)):
            byte = data[len(data) - 1 - i]
            for b in range(8):
                if byte & (1 << b):
                    self.line = i * 8 + b

BUS = Bus()

class SPI:
    def __init__(self, *a, **k):
        pass
    def write(self, data):
        BUS.shift = bytes(data)
    def readinto(self, buf, fill=0):
        BUS.reads += 1
        for i in range(len(buf)):
            buf[i] = 0
        if BUS.line == 7 and BUS.reads > 20 * 16:   # row 8, after 20 scans of 16 lines
            buf[0] = 0x80 >> 7                     # sense bit 7: column H
        if BUS.reads > 200 * 16:
            sys.exit(0)

class UART:
    pass
"""


def test_main_boots_on_micropython_and_speaks_the_protocol_over_usb_stdio(micropython_main) -> None:  # type: ignore[no-untyped-def]
    """The firmware image as it goes on the Pico (main.py, config.py, fake `machine`), on MicroPython, with
    the host's bytes on stdin: it boots with HELLO, answers HOST_HELLO and PING, and reports H8 once."""
    config = "WIDTH = 15\nHEIGHT = 15\nCODED = False\nBUTTONS = 4\nSCAN_MS = 1\n"
    # The PING's token holds 0x03, the REPL's Ctrl-C: the firmware must read it as data.
    host = wire.encode_frame(wire.HOST_HELLO, 0, wire.pack_host_hello()) + wire.encode_frame(
        wire.PING, 1, wire.pack_ping(0x0300BEEF)
    )
    proc = micropython_main(host, {"machine": FAKE_BOARD_MACHINE, "config": config})
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    frames = wire.FrameReader().feed(proc.stdout)
    kinds = [wire.NAMES[t] for t, _, _ in frames]
    assert kinds[:3] == ["HELLO", "HELLO", "PONG"], kinds
    assert wire.unpack_hello(frames[0][2])[:6] == (1, 15, 15, wire.CAP_BUTTONS, 4, 0)
    assert wire.unpack_pong(frames[2][2])[0] == 0x0300BEEF
    changes = [wire.unpack_square(p) for t, _, p in frames if t == wire.SQUARE_CHANGED]
    assert [(index, code) for index, code, _ in changes] == [(112, 1)]  # H8, occupied: once, after debounce


def test_maintenance_jumper_keeps_the_firmware_out_of_the_way(micropython_main) -> None:  # type: ignore[no-untyped-def]
    fitted = FAKE_BOARD_MACHINE.replace("return 1 if self.n == 22 else 0", "return 0")
    proc = micropython_main(b"", {"machine": fitted, "config": "SCAN_MS = 1\n"})
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stdout == b""  # no HELLO: the REPL is left to mpremote


def test_a_crash_in_the_firmware_reboots_the_board(micropython_main) -> None:  # type: ignore[no-untyped-def]
    broken = FAKE_BOARD_MACHINE.replace("BUS.reads += 1", "BUS.reads += 1\n        if BUS.reads > 50: [][1]")
    proc = micropython_main(b"", {"machine": broken, "config": "SCAN_MS = 1\n"})
    assert b"machine.reset() called" in proc.stdout + proc.stderr  # MicroPython prints tracebacks to stdout
