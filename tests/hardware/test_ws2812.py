"""WS2812 over SPI: the bit encoding, and the driver against a fake `spidev` module."""

from __future__ import annotations

import sys
import types

import pytest

from hardware.ws2812 import (
    BIT_ONE,
    BIT_ZERO,
    LATCH_BYTES,
    FakeSpiDev,
    SpiLedStrip,
    decode_ws2812,
    encode_ws2812,
    reset_bytes,
)


def test_one_pixel_is_24_spi_bytes_grb_msb_first_between_two_resets() -> None:
    data = encode_ws2812([(0x01, 0x80, 0x00)], "GRB")
    body = data[LATCH_BYTES : LATCH_BYTES + 24]
    assert len(data) == LATCH_BYTES + 24 + LATCH_BYTES
    assert data[:LATCH_BYTES] == bytes(LATCH_BYTES)  # a reset first: MOSI left high before is no stray bit
    assert body[:8] == bytes([BIT_ONE] + [BIT_ZERO] * 7)  # G = 0x80
    assert body[8:16] == bytes([BIT_ZERO] * 7 + [BIT_ONE])  # R = 0x01
    assert body[16:] == bytes([BIT_ZERO] * 8)  # B = 0
    assert data[LATCH_BYTES + 24 :] == bytes(LATCH_BYTES)


@pytest.mark.parametrize("speed_hz", [5_600_000, 6_400_000, 7_200_000])
def test_the_reset_is_300_us_at_every_accepted_speed(speed_hz: int, fake_spidev: list[FakeSpiDev]) -> None:
    strip = SpiLedStrip(2, speed_hz=speed_hz)
    strip.show([(255, 255, 255), (1, 2, 3)])
    data = fake_spidev[0].transfers[-1]
    zeros = reset_bytes(speed_hz)
    assert data[:zeros] == bytes(zeros) and data[-zeros:] == bytes(zeros) and len(data) == 2 * zeros + 48
    assert zeros * 8 / speed_hz >= 300e-6  # WS2812B-V5 latches after 280 us low
    assert decode_ws2812(data) == [(64, 64, 64), (0, 0, 1)]


@pytest.mark.parametrize("order", ["GRB", "RGB", "BGR"])
def test_round_trip(order: str) -> None:
    pixels = [(255, 0, 0), (0, 0, 0), (1, 2, 3), (200, 100, 50)]
    assert decode_ws2812(encode_ws2812(pixels, order), order) == pixels


def test_bad_colour_names_the_led() -> None:
    with pytest.raises(ValueError, match="LED 1: a colour is three values"):
        encode_ws2812([(0, 0, 0), (0, 256, 0)])


def test_decode_refuses_garbage() -> None:
    with pytest.raises(ValueError, match="not a WS2812 bit"):
        decode_ws2812(bytes([0]) + bytes([0x55] * 24))


@pytest.fixture
def fake_spidev(monkeypatch: pytest.MonkeyPatch) -> list[FakeSpiDev]:
    """A fake `spidev` module: the real driver imports it and gets recording devices."""
    made: list[FakeSpiDev] = []
    module = types.ModuleType("spidev")

    def SpiDev() -> FakeSpiDev:  # the class name spidev uses
        dev = FakeSpiDev()
        made.append(dev)
        return dev

    module.SpiDev = SpiDev  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", module)
    return made


def test_real_driver_through_the_spidev_module(fake_spidev: list[FakeSpiDev]) -> None:
    strip = SpiLedStrip(3, bus=1, device=2, brightness=0.5)
    (dev,) = fake_spidev
    assert dev.opened == (1, 2) and dev.max_speed_hz == 6_400_000 and dev.mode == 0
    assert strip.show([(200, 0, 0), (0, 100, 0), (0, 0, 51)])
    assert decode_ws2812(dev.transfers[-1]) == [(100, 0, 0), (0, 50, 0), (0, 0, 26)]
    assert not strip.show([(200, 0, 0), (0, 100, 0), (0, 0, 51)])  # unchanged: no bus traffic
    assert len(dev.transfers) == 1
    strip.close()
    assert decode_ws2812(dev.transfers[-1]) == [(0, 0, 0)] * 3
    assert dev.closed


def test_missing_spi_device_says_what_to_enable() -> None:
    class Missing(FakeSpiDev):
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(2, "No such file or directory")

    with pytest.raises(OSError, match=r"/dev/spidev0\.0 is missing; enable SPI"):
        SpiLedStrip(3, spi_factory=Missing)


def test_frame_length_must_match() -> None:
    strip = SpiLedStrip(3, spi_factory=FakeSpiDev)
    with pytest.raises(ValueError, match="a frame of 2 colours for 3 LEDs"):
        strip.show([(0, 0, 0)] * 2)


def test_spi_device_without_permission_names_the_group() -> None:
    class Forbidden(FakeSpiDev):
        def open(self, bus: int, device: int) -> None:
            raise PermissionError(13, "Permission denied")

    with pytest.raises(OSError, match=r"/dev/spidev1\.0 may not be opened by this user; add it to the spi group"):
        SpiLedStrip(3, bus=1, spi_factory=Forbidden)
