"""TM1637 4-digit 7-segment displays, bit-banged on two GPIO lines through gpiozero pins.

The TM1637 speaks a two-wire protocol that looks like I2C but is not (no address, bytes least
significant bit first), so the Pi's I2C controller cannot drive it. The driver toggles CLK and DIO
through gpiozero's pin objects, which run on lgpio on a Pi 5 and on the older Pis alike, and on
`MockFactory` in tests.

A frame: START, 0x40 (write, auto-increment), STOP; START, 0xC0 (address 0), four segment bytes,
STOP; START, 0x88 | brightness (display on), STOP. After every byte the chip pulls DIO low for one
clock (ACK), from the falling edge of the eighth clock: the driver lets go of DIO (input, pulled up) before
that edge when the last bit was a 1, so the Pi never drives the line high against the chip. Python is slower
than the chip's clock limit, so the chip itself needs no delay; some
cheap modules put large capacitors on CLK and DIO that round the edges, and `bit_delay_us`
(busy-waited on `time.perf_counter`; about 7 ms a frame at 50 us) slows the bus for them. A missing
ACK (display unplugged, wrong pin) is counted, not raised, so a loose display cable never stops the
clock.

`FakeTM1637` is the chip's side of the wire on `MockFactory` pins: it decodes what the driver sends
and answers the ACKs; the simulated table and the tests read the digits back from it.
"""

from __future__ import annotations

import time
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.frames import COLON, SEGMENTS
from hardware.lifecycle import ClosingDevice
from hardware.pins import PinFactory

CMD_DATA_AUTO = 0x40
CMD_ADDRESS = 0xC0
CMD_DISPLAY_ON = 0x88
CMD_DISPLAY_OFF = 0x80


class TM1637(ClosingDevice):
    """One display. `show(segments)` sends four segment bytes; it skips the bus when nothing changed."""

    def __init__(
        self, clk: int, dio: int, pin_factory: PinFactory, *, brightness: int = 3, bit_delay_us: float = 0.0
    ) -> None:
        if not 0 <= brightness <= 7:
            raise ValueError(f"TM1637 brightness runs from 0 to 7, not {brightness}")
        self.brightness = brightness
        self._delay = bit_delay_us / 1e6
        self.missing_acks = 0
        self.bytes_sent = 0
        self.writes = 0
        self.segments: bytes | None = None
        self._shown_level = -1
        self._factory = pin_factory
        pin_factory.reserve_pins(self, clk, dio)
        self._clk = pin_factory.pin(clk)
        self._dio = pin_factory.pin(dio)
        self._clk.function = "output"
        self._dio.function = "output"
        self._clk.state = 1
        self._dio.state = 1

    def show(self, segments: bytes, brightness: int | None = None) -> bool:
        if len(segments) != 4:
            raise ValueError(f"TM1637: four segment bytes, not {len(segments)}")
        level = self.brightness if brightness is None else brightness
        if segments == self.segments and level == self._shown_level:
            return False
        self._command(bytes([CMD_DATA_AUTO]))
        self._command(bytes([CMD_ADDRESS]) + segments)
        self._command(bytes([CMD_DISPLAY_ON | level]))
        self.segments = bytes(segments)
        self._shown_level = level
        self.writes += 1
        return True

    def off(self) -> None:
        self._command(bytes([CMD_DISPLAY_OFF]))
        self.segments = None
        self._shown_level = -1

    def _close(self) -> None:
        try:
            self.off()
        finally:
            self._clk.close()
            self._dio.close()
            self._factory.release_all(self)

    # --- the wire ----------------------------------------------------------------------------------

    def _wait(self) -> None:
        if self._delay:
            end = time.perf_counter() + self._delay
            while time.perf_counter() < end:
                pass

    def _command(self, data: bytes) -> None:
        clk, dio, wait = self._clk, self._dio, self._wait
        # START: DIO falls while CLK is high.
        dio.state = 0
        for byte in data:
            for i in range(8):
                clk.state = 0
                dio.state = (byte >> i) & 1
                wait()
                clk.state = 1
                wait()
            # ACK: the chip pulls DIO low from the falling edge of the eighth clock to that of the ninth. DIO
            # is let go of (input, pulled up) before the edge if it is high (the pull-ups keep it high: no
            # edge on the wire), after it if it is low, so it is never driven high against the chip.
            last_high = (byte >> 7) & 1
            if last_high:
                dio.function = "input"
                dio.pull = "up"
            clk.state = 0
            if not last_high:
                dio.function = "input"
                dio.pull = "up"
            wait()
            clk.state = 1
            wait()
            self.bytes_sent += 1
            if dio.state:
                self.missing_acks += 1
            clk.state = 0
            dio.function = "output"
            dio.state = 0
        # STOP: DIO rises while CLK is high.
        clk.state = 0
        dio.state = 0
        wait()
        clk.state = 1
        wait()
        dio.state = 1


# --- the chip's side, for MockFactory ---------------------------------------------------------


_CHARS = {v: k for k, v in reversed(list(SEGMENTS.items()))}


class FakeTM1637:
    """Watches two `MockFactory` pins as a TM1637 would, keeping what it was told to show.

    Create it before the driver: it installs its own pin classes on those pins."""

    def __init__(self, factory: MockFactory, clk: int, dio: int) -> None:
        self.memory = bytearray(6)
        self.on = False
        self.brightness = 0
        self.frames = 0  # complete display updates received
        self.contention = 0  # ACKs the chip began while the host drove DIO high (a short through the pin)
        self._bits = 0
        self._count = 0
        self._acking = False
        self._bytes: list[int] = []
        self._in_frame = False
        self.dio: _DioPin = factory.pin(dio, pin_class=_DioPin, chip=self)
        self.clk: _ClkPin = factory.pin(clk, pin_class=_ClkPin, chip=self)

    @property
    def segments(self) -> bytes:
        return bytes(self.memory[:4])

    def text(self) -> str:
        """What a person reads off the display, "" when it is dark: e.g. "3:04" or "-2:05"."""
        if not self.on:
            return ""
        chars = "".join(_CHARS.get(b & 0x7F, "?") for b in self.memory[:4])
        if self.memory[1] & COLON:
            chars = chars[:2] + ":" + chars[2:]
        return chars.strip()

    # Called by the pins.
    def clock_edge(self, high: bool) -> None:
        if high:
            if self._count < 8:
                self._bits |= int(self.dio._state) << self._count
                self._count += 1
                if self._count == 8:
                    self._bytes.append(self._bits)
            else:
                self._count = 9
        elif self._count == 8 and not self._acking:  # the eighth falling edge: the chip pulls DIO low
            self._acking = True
            if self.dio._function == "output" and self.dio._state:
                self.contention += 1
        elif self._count == 9:
            self._acking = False
            self._count = 0
            self._bits = 0

    def data_edge(self, high: bool) -> None:
        if not self.clk._state:
            return
        if not high:  # START
            self._in_frame, self._bytes, self._count, self._bits = True, [], 0, 0
        elif self._in_frame:  # STOP
            self._in_frame = False
            self._execute(self._bytes)

    def _execute(self, data: list[int]) -> None:
        if not data:
            return
        cmd = data[0]
        if cmd & 0xC0 == CMD_ADDRESS:
            address = cmd & 0x07
            for offset, value in enumerate(data[1:]):
                if address + offset < len(self.memory):
                    self.memory[address + offset] = value
            self.frames += 1
        elif cmd & 0xC0 == 0x80:
            self.on = bool(cmd & 0x08)
            self.brightness = cmd & 0x07


class _ChipPin(MockPin):  # type: ignore[misc]  # gpiozero ships no type hints
    def __init__(self, factory: Any, info: Any, chip: FakeTM1637) -> None:
        self.chip = chip
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self._edge(value)
        return changed

    def _edge(self, high: bool) -> None:
        raise NotImplementedError


class _ClkPin(_ChipPin):
    def _edge(self, high: bool) -> None:
        self.chip.clock_edge(high)


class _DioPin(_ChipPin):
    def _edge(self, high: bool) -> None:
        self.chip.data_edge(high)

    def _get_state(self) -> bool:
        # The chip pulls the line low for the ACK clock, whatever the pull-up says.
        if self._function == "input" and getattr(self, "chip", None) is not None and self.chip._acking:
            return False
        state: bool = self._state
        return state
