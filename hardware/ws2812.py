"""WS2812 (NeoPixel) LEDs driven through the SPI bus with `spidev`.

Why SPI and not PWM/DMA: `rpi_ws281x` does not run on the Raspberry Pi 5 (its RP1 chip has no
BCM PWM/DMA path), while `/dev/spidevB.D` works the same on every Pi, from the Zero to the 5.
Only MOSI is wired to the strip's DIN. Each WS2812 bit becomes one SPI byte at 6.4 MHz, so every
bit lasts 1.25 us: a 0 is 0b11000000 (0.31 us high), a 1 is 0b11111000 (0.78 us high), within the
WS2812B's +-150 ns tolerances. A trailing run of zero bytes (300 us low at the configured speed) latches
the frame, long enough for the newer WS2812B-V5 parts that need 280 us. The same run of zeros also comes
first: some SPI controllers leave MOSI high between transfers (reported on the CM4's BCM2711), and the LEDs
would read that high as a stray bit and show every colour shifted by one; after a reset the frame starts clean.

`encode_ws2812` and `decode_ws2812` are pure; `SpiLedStrip` opens the bus lazily (the `spidev`
import happens only when a real strip is built) and accepts any object with the `spidev.SpiDev`
methods it uses, which is how the tests and the simulated table drive it (`FakeSpiDev`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from hardware.lifecycle import ClosingDevice

RGB = tuple[int, int, int]

SPI_HZ = 6_400_000
BIT_ONE, BIT_ZERO = 0xF8, 0xC0
RESET_S = 300e-6  # low time that latches a frame (WS2812B-V5: at least 280 us)
LATCH_BYTES = 240  # 300 us at 6.4 MHz

# One colour byte -> its 8 SPI bytes, most significant bit first (the WS2812 order).
_TABLE: tuple[bytes, ...] = tuple(
    bytes(BIT_ONE if value & (0x80 >> i) else BIT_ZERO for i in range(8)) for value in range(256)
)
_CHANNEL = {"R": 0, "G": 1, "B": 2}


class SpiDevLike(Protocol):
    """The part of `spidev.SpiDev` the strip uses."""

    max_speed_hz: int
    mode: int

    def open(self, bus: int, device: int) -> None: ...

    def writebytes2(self, data: Sequence[int] | bytes) -> None: ...

    def close(self) -> None: ...


def reset_bytes(speed_hz: int) -> int:
    """Zero bytes that hold MOSI low for `RESET_S` at `speed_hz` (240 at 6.4 MHz, 270 at 7.2 MHz)."""
    return max(1, math.ceil(speed_hz * RESET_S / 8))


def encode_ws2812(pixels: Sequence[RGB], order: str = "GRB", reset: int = LATCH_BYTES) -> bytes:
    """The SPI bytes that set `pixels` (full-scale 0-255 RGB) on a strip wired in colour `order`:
    `reset` zero bytes, 24 bytes per LED, `reset` zero bytes."""
    channels = [_CHANNEL[c] for c in order]
    out = bytearray(reset)
    for index, pixel in enumerate(pixels):
        if len(pixel) != 3 or any(not 0 <= v <= 255 for v in pixel):
            raise ValueError(f"LED {index}: a colour is three values from 0 to 255, not {pixel!r}")
        for ch in channels:
            out += _TABLE[pixel[ch]]
    out += bytes(reset)
    return bytes(out)


def decode_ws2812(data: bytes, order: str = "GRB") -> list[RGB]:
    """Read the pixels back from SPI bytes (what a strip would show); for tests and the simulator.

    Raises ValueError on a byte that is neither a WS2812 one nor zero, naming its offset."""
    lead = 0
    while lead < len(data) and data[lead] == 0:
        lead += 1  # the leading reset: every WS2812 bit is a non-zero SPI byte, so the pixels start here
    body = data[lead:]
    end = len(body)
    while end and body[end - 1] == 0:
        end -= 1  # the latch: every WS2812 bit is a non-zero SPI byte, so the pixels end here
    if end % 24:
        raise ValueError(f"{end} SPI bytes of pixel data is not a whole number of LEDs (24 each)")
    pixels: list[RGB] = []
    for start in range(0, end, 24):
        values = []
        for k in range(3):
            byte = 0
            for i in range(8):
                offset = start + k * 8 + i
                spi = body[offset]
                if spi not in (BIT_ONE, BIT_ZERO):
                    raise ValueError(f"SPI byte {offset + lead} is {spi:#04x}, not a WS2812 bit")
                byte = (byte << 1) | (spi == BIT_ONE)
            values.append(byte)
        rgb = [0, 0, 0]
        for ch, value in zip(order, values, strict=True):
            rgb[_CHANNEL[ch]] = value
        pixels.append((rgb[0], rgb[1], rgb[2]))
    return pixels


def _open_spidev() -> SpiDevLike:
    import spidev  # the Pi extra; imported only when a real strip is built

    dev: SpiDevLike = spidev.SpiDev()
    return dev


class SpiLedStrip(ClosingDevice):
    """A WS2812 ring or strip on SPI bus `bus`, chip select `device` (the CE line is not wired)."""

    def __init__(
        self,
        leds: int,
        *,
        bus: int = 0,
        device: int = 0,
        order: str = "GRB",
        brightness: float = 0.25,
        speed_hz: int = SPI_HZ,
        spi_factory: Callable[[], SpiDevLike] = _open_spidev,
    ) -> None:
        self.leds = leds
        self.order = order
        self.brightness = brightness
        self.frame: list[RGB] = [(0, 0, 0)] * leds  # what the strip shows now (after brightness)
        self.writes = 0
        self._reset = reset_bytes(speed_hz)
        try:
            self._spi = spi_factory()
            self._spi.open(bus, device)
        except FileNotFoundError as exc:
            raise OSError(
                f"LED ring: /dev/spidev{bus}.{device} is missing; enable SPI (dtparam=spi=on) "
                f"and add the user to the spi group"
            ) from exc
        except PermissionError as exc:
            raise OSError(
                f"LED ring: /dev/spidev{bus}.{device} may not be opened by this user; add it to the spi group "
                f"(sudo usermod -aG spi USER, then log in again)"
            ) from exc
        self._spi.max_speed_hz = speed_hz
        self._spi.mode = 0

    def show(self, frame: Sequence[RGB]) -> bool:
        """Send `frame` (full-scale colours, one per LED) at the configured brightness.

        Returns False without touching the bus when the strip already shows it."""
        if len(frame) != self.leds:
            raise ValueError(f"LED ring: a frame of {len(frame)} colours for {self.leds} LEDs")
        scaled = [(_dim(r, self.brightness), _dim(g, self.brightness), _dim(b, self.brightness)) for r, g, b in frame]
        if scaled == self.frame and self.writes:
            return False
        self._spi.writebytes2(encode_ws2812(scaled, self.order, self._reset))
        self.frame = scaled
        self.writes += 1
        return True

    def off(self) -> None:
        self._spi.writebytes2(encode_ws2812([(0, 0, 0)] * self.leds, self.order, self._reset))
        self.frame = [(0, 0, 0)] * self.leds

    def _close(self) -> None:
        try:
            self.off()
        finally:
            self._spi.close()


def _dim(value: int, brightness: float) -> int:
    return round(value * brightness)


class FakeSpiDev:
    """A stand-in for `spidev.SpiDev` that keeps every transfer: the simulated ring and the tests."""

    def __init__(self) -> None:
        self.max_speed_hz = 0
        self.mode = 0
        self.opened: tuple[int, int] | None = None
        self.closed = False
        self.transfers: list[bytes] = []

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data: Sequence[int] | bytes | Any) -> None:
        if self.opened is None or self.closed:
            raise OSError("SPI device is not open")
        self.transfers.append(bytes(data))

    def close(self) -> None:
        self.closed = True
