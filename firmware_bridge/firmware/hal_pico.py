"""The Pico's HAL: the switch matrix through shift registers, the host through USB CDC or a UART.

Hardware (docs/hardware-board.md): drive lines through a chain of 74HC595 (one line high at a time),
sense lines through a chain of 74HC165 read over SPI0, a diode in series with every reed switch so
that no pressed switch can make a ghost. A presence-only 15x15 board has 15 drive lines and 15 sense
lines; a coded board has 6 sense lines per column (one per magnet bit), 90 in all. Buttons and the
dice tray hang on one extra drive line. MicroPython only: imported by main.py on the Pico, and by the
tests with a fake `machine` module.
"""

import time

import machine

# Pins (GPIO numbers), see the wiring table in docs/hardware-board.md.
PIN_SCK = 2
PIN_MOSI = 3
PIN_MISO = 4
PIN_DRIVE_LATCH = 5  # 74HC595 RCLK
PIN_SENSE_LOAD = 6  # 74HC165 /PL
PIN_LED = 25
PIN_MAINTENANCE = 22  # jumper to GND at power-up: do not start the firmware, leave the REPL to mpremote
SPI_BAUD = 4000000


class PicoHal:
    """HAL for Firmware: `layout` says how sense bits map to square codes (see docs/hardware-board.md)."""

    def __init__(self, width=15, height=15, bits_per_square=1, buttons=0, slots=0, uart_id=None, scan_period_ms=5):
        self.width = width
        self.height = height
        self.bits = bits_per_square
        self.buttons = buttons
        self.slots = slots
        self.scan_period_ms = scan_period_ms
        self.drive_lines = height + (1 if (buttons or slots) else 0)
        sense_bits = max(width * bits_per_square, buttons + slots * 7)
        self.sense_bytes = (sense_bits + 7) // 8
        self.drive_bytes = (self.drive_lines + 7) // 8
        self.spi = machine.SPI(
            0,
            baudrate=SPI_BAUD,
            polarity=0,
            phase=0,
            sck=machine.Pin(PIN_SCK),
            mosi=machine.Pin(PIN_MOSI),
            miso=machine.Pin(PIN_MISO),
        )
        self.latch = machine.Pin(PIN_DRIVE_LATCH, machine.Pin.OUT, value=0)
        self.load = machine.Pin(PIN_SENSE_LOAD, machine.Pin.OUT, value=1)
        # One-hot drive bytes for every line, made once: the chain shifts the last byte out first, so
        # line 0 is the lowest bit of the last byte (QA of the 74HC595 nearest the Pico).
        self._patterns = []
        for line in range(self.drive_lines):
            drive = bytearray(self.drive_bytes)
            drive[self.drive_bytes - 1 - line // 8] = 1 << (line % 8)
            self._patterns.append(bytes(drive))
        self._sense = bytearray(self.sense_bytes)
        # What each drive line read last time: a line whose sense bytes did not change needs no decoding,
        # so an idle scan is a few C calls per line (the decode loop is the expensive part on an M0+).
        self._last = [None] * self.drive_lines
        self._next_scan = time.ticks_ms()
        if uart_id is None:
            import select
            import sys

            import micropython

            # Frames are binary: a 0x03 byte from the host must not raise KeyboardInterrupt (the REPL's
            # Ctrl-C). For mpremote, boot with the maintenance jumper fitted (main.py), which skips this.
            micropython.kbd_intr(-1)

            self._in = sys.stdin.buffer
            self._out = sys.stdout.buffer
            self._poll = select.poll()
            self._poll.register(self._in, select.POLLIN)
            self._uart = None
        else:
            self._uart = machine.UART(uart_id, baudrate=115200, txbuf=1024, rxbuf=256)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def _select(self, line):
        self.spi.write(self._patterns[line])
        self.latch.value(1)
        self.latch.value(0)

    def _read_sense(self):
        self.load.value(0)  # parallel load the 74HC165s
        self.load.value(1)
        self.spi.readinto(self._sense, 0)
        return self._sense

    def _unchanged(self, line, sense):
        last = self._last[line]
        if last is not None and last == sense:
            return True
        self._last[line] = bytes(sense)
        return False

    def scan(self, buf):
        """Fill buf (which the firmware hands back every scan, so unchanged lines keep their codes)."""
        width = self.width
        bits = self.bits
        for row in range(self.height):
            self._select(row)
            sense = self._read_sense()
            if self._unchanged(row, sense):
                continue
            base = row * width
            for col in range(width):
                code = 0
                first = col * bits
                for b in range(bits):
                    k = first + b
                    if sense[k >> 3] & (0x80 >> (k & 7)):
                        code |= 1 << b
                buf[base + col] = code
        if self.buttons or self.slots:
            self._select(self.height)
            sense = self._read_sense()
            if self._unchanged(self.height, sense):
                return
            n = width * self.height
            for b in range(self.buttons):
                buf[n + b] = 1 if sense[b >> 3] & (0x80 >> (b & 7)) else 0
            for s in range(self.slots):
                code = 0
                for b in range(7):
                    k = self.buttons + s * 7 + b
                    if sense[k >> 3] & (0x80 >> (k & 7)):
                        code |= 1 << b
                buf[n + self.buttons + s] = code

    def read(self):
        if self._uart is not None:
            return self._uart.read()
        data = b""
        while self._poll.poll(0):
            chunk = self._in.read(1)
            if not chunk:
                break
            data += chunk
            if len(data) >= 64:
                break
        return data or None

    def write(self, data):
        try:
            if self._uart is not None:
                return self._uart.write(data) == len(data)
            self._out.write(data)
            return True
        except OSError:
            return False

    def idle(self):
        """Pace the loop: one scan per scan_period_ms."""
        self._next_scan = time.ticks_add(self._next_scan, self.scan_period_ms)
        wait = time.ticks_diff(self._next_scan, time.ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
        else:
            self._next_scan = time.ticks_ms()
