"""The Pico's `machine` module, simulated in MicroPython, so that the firmware's own main.py runs unchanged on
the MicroPython unix port (`firmware_bridge.micropython_board` starts it). MicroPython only.

What it simulates is the hardware of docs/hardware-board.md, at the level the firmware touches it:
- the 74HC595 drive chain: bytes shifted out over SPI, latched by a rising edge on RCLK (GP5), one line high;
- the reed-switch matrix behind it, diodes included (a closed switch only pulls its own sense line);
- the 74HC165 sense chain: /PL (GP6) going low loads the driven line's sense bits, SPI.readinto reads them,
  bit 0 first (the MSB of the first byte), as PicoHal expects;
- the buttons and dice-tray slots on the extra drive line (buttons + 7 bits per slot);
- the maintenance jumper (GP22, not fitted unless SIM_MAINTENANCE), reset() (the process ends; the host
  side starts it again, as a Pico reboots);
- a UART whose RX/TX are this process's stdin/stdout: like the USB CDC path (which PicoHal reads through
  sys.stdin/sys.stdout itself), they are the pseudo-terminal the host opens.

The world (tiles, buttons, dice) is driven by the host through a control pipe (config.SIM_CONTROL, a path
such as /dev/fd/5), one ASCII line per change, read at the start of every scan pass (when line 0 is
selected), never blocking:
    S <input> <t0> <code0> [<t1> <code1> ...]  input <input> reads code_k from ticks_ms t_k on (contact
                                               bounce written out by the host; times are ticks_ms values)
    H                                          hang: no scan, no output, until the next line U
    X                                          stop: print the heap in use to stderr, exit 0
The geometry comes from the firmware's own config.py (WIDTH, HEIGHT, CODED, BUTTONS, SLOTS).
"""

import gc
import select
import sys
import time

try:
    import config
except ImportError:
    config = None


def _get(name, default):
    return getattr(config, name, default) if config is not None else default


_PIN_LATCH = 5  # 74HC595 RCLK (hal_pico.PIN_DRIVE_LATCH)
_PIN_LOAD = 6  # 74HC165 /PL (hal_pico.PIN_SENSE_LOAD)
_PIN_MAINTENANCE = 22


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x00\x00\x00"


def idle():
    pass


def reset():
    sys.stderr.write("machine.reset(): the board reboots\n")
    sys.exit(3)


def soft_reset():
    reset()


class _Board:
    """The switch matrix and both shift-register chains; one instance, made at import."""

    def __init__(self):
        self.width = _get("WIDTH", 15)
        self.height = _get("HEIGHT", 15)
        self.bits = 6 if _get("CODED", False) else 1
        self.buttons = _get("BUTTONS", 4)
        self.slots = _get("SLOTS", 0)
        self.squares = self.width * self.height
        lines = self.height + (1 if (self.buttons or self.slots) else 0)
        sense_bits = max(self.width * self.bits, self.buttons + self.slots * 7)
        self.sense_bytes = (sense_bits + 7) // 8
        # What every drive line's sense bits read now: kept up to date as inputs change, so a scan's
        # readinto is one slice copy (the simulation must not be what the scan-time figure measures).
        self.lines = [bytearray(self.sense_bytes) for _ in range(lines)]
        self.none = bytearray(self.sense_bytes)  # no line driven: every sense line pulled down
        self.shifted = b""
        self.driven = -1
        self.loaded = self.none
        self.line_of = {}  # drive bytes -> line, learned on first sight
        self.bouncing = {}  # input -> [[ticks, code], ...] still to come
        self.control = None
        self.poll = None
        path = _get("SIM_CONTROL", None)
        if path is not None:
            self.control = open(path, "rb")  # noqa: SIM115 - open for the life of the process
            self.poll = select.poll()
            self.poll.register(self.control, select.POLLIN)

    # ---- the shift registers ----

    def latch(self):
        """RCLK rising: the drive chain's outputs take the shifted bytes (last byte = lines 0-7)."""
        data = self.shifted
        line = self.line_of.get(data)
        if line is None:
            line = -1
            n = len(data)
            for i in range(n):
                byte = data[n - 1 - i]
                for b in range(8):
                    if byte & (1 << b):
                        line = i * 8 + b if line == -1 else -2  # -2: two lines high, a firmware bug
            self.line_of[bytes(data)] = line
        self.driven = line
        if line == 0:
            self.tick()

    def load(self):
        """/PL low: the sense chain samples the sense lines of the driven drive line."""
        line = self.driven
        self.loaded = self.lines[line] if 0 <= line < len(self.lines) else self.none

    # ---- the world ----

    def set_code(self, index, code):
        if index < self.squares:
            line = index // self.width
            first = (index % self.width) * self.bits
            nbits = self.bits
        elif index < self.squares + self.buttons:
            line = self.height
            first = index - self.squares
            nbits = 1
        else:
            line = self.height
            first = self.buttons + (index - self.squares - self.buttons) * 7
            nbits = 7
        sense = self.lines[line]
        for b in range(nbits):
            k = first + b
            mask = 0x80 >> (k & 7)
            if code & (1 << b):
                sense[k >> 3] |= mask
            else:
                sense[k >> 3] &= ~mask & 0xFF

    def tick(self):
        """Once per scan pass: take the host's changes, then let every bouncing contact move on."""
        if self.poll is not None:
            while self.poll.poll(0):
                line = self.control.readline()
                if not line:
                    self.poll = None  # the host went away: the world stands still
                    break
                self.command(line.split())
        if self.bouncing:
            now = time.ticks_ms()
            done = []
            for index in self.bouncing:
                steps = self.bouncing[index]
                while steps and time.ticks_diff(now, steps[0][0]) >= 0:
                    self.set_code(index, steps.pop(0)[1])
                if not steps:
                    done.append(index)
            for index in done:
                del self.bouncing[index]

    def command(self, words):
        if not words:
            return
        op = words[0]
        if op == b"S":
            index = int(words[1])
            steps = []
            for k in range(2, len(words) - 1, 2):
                steps.append([int(words[k]), int(words[k + 1])])
            self.bouncing[index] = steps
        elif op == b"H":
            while True:
                line = self.control.readline()
                if not line or line.split()[:1] == [b"U"]:
                    return
                self.command(line.split())
        elif op == b"X":
            gc.collect()
            sys.stderr.write(f"heap alloc={gc.mem_alloc()} free={gc.mem_free()}\n")
            sys.exit(0)


_BOARD = _Board()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.v = 0 if value is None else value

    def init(self, mode=-1, pull=-1, value=None):
        if value is not None:
            self.v = value

    def value(self, v=None):
        if v is None:
            if self.id == _PIN_MAINTENANCE:
                return 0 if _get("SIM_MAINTENANCE", False) else 1  # pulled up: jumper not fitted
            return self.v
        old = self.v
        self.v = v
        if self.id == _PIN_LATCH and v and not old:
            _BOARD.latch()
        elif self.id == _PIN_LOAD and old and not v:
            _BOARD.load()
        return None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __call__(self, v=None):
        return self.value(v)


class SPI:
    """SPI0: MOSI into the 74HC595 chain, MISO from the 74HC165 chain."""

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None,
                 miso=None):
        self.baudrate = baudrate

    def write(self, data):
        _BOARD.shifted = data

    def readinto(self, buf, write=0):
        # Only the first sense_bytes bytes come from the chain; a longer read shifts in zeros (DS to GND).
        loaded = _BOARD.loaded
        n = len(buf)
        if n == len(loaded):
            buf[:] = loaded
        else:
            for i in range(n):
                buf[i] = loaded[i] if i < len(loaded) else 0

    def read(self, n, write=0):
        buf = bytearray(n)
        self.readinto(buf, write)
        return bytes(buf)


class UART:
    """A UART wired to the pseudo-terminal (this process's stdin/stdout)."""

    def __init__(self, id, baudrate=115200, bits=8, parity=None, stop=1, tx=None, rx=None, txbuf=256, rxbuf=256,
                 timeout=0):
        self.rxbuf = rxbuf
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)

    def any(self):
        return 1 if self._poll.poll(0) else 0

    def read(self, n=-1):
        limit = self.rxbuf if n is None or n < 0 else n
        data = b""
        while len(data) < limit and self._poll.poll(0):
            chunk = self._in.read(1)
            if not chunk:
                break
            data += chunk
        return data or None

    def write(self, data):
        self._out.write(data)
        return len(data)
