"""The TM1637 driver on gpiozero MockFactory pins, read back by a fake chip on the wire."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from hardware.frames import tm1637_bytes
from hardware.tm1637 import TM1637, FakeTM1637


def test_driver_and_chip_agree_on_the_wire(mock_pins: MockFactory) -> None:
    chip = FakeTM1637(mock_pins, clk=23, dio=24)
    display = TM1637(23, 24, mock_pins, brightness=5)
    assert display.show(tm1637_bytes("-3:04"))
    assert chip.text() == "-3:04"
    assert chip.on and chip.brightness == 5
    assert display.missing_acks == 0  # the chip acknowledged every byte
    assert chip.contention == 0  # and never had to pull DIO low against the Pi driving it high
    assert display.show(tm1637_bytes("25:00"))
    assert chip.text() == "25:00"
    assert chip.frames == 2


def test_unchanged_frame_does_not_touch_the_wire(mock_pins: MockFactory) -> None:
    chip = FakeTM1637(mock_pins, clk=5, dio=6)
    display = TM1637(5, 6, mock_pins)
    display.show(tm1637_bytes("0:07"))
    before = len(chip.clk.states)
    assert not display.show(tm1637_bytes("0:07"))
    assert len(chip.clk.states) == before
    assert display.show(tm1637_bytes("0:07"), brightness=1)  # a brightness change is sent
    assert chip.brightness == 1


def test_unplugged_display_counts_missing_acks_without_raising(mock_pins: MockFactory) -> None:
    display = TM1637(20, 21, mock_pins)  # nothing answers on these pins: the pull-up reads high
    display.show(tm1637_bytes("1:00"))
    assert display.missing_acks == 7  # 0x40; 0xC0 + 4 digits; 0x8B


def test_close_turns_the_display_off_and_frees_the_pins(mock_pins: MockFactory) -> None:
    chip = FakeTM1637(mock_pins, clk=23, dio=24)
    display = TM1637(23, 24, mock_pins)
    display.show(tm1637_bytes("9:59"))
    display.close()
    assert not chip.on and chip.text() == ""
    TM1637(23, 24, mock_pins).close()  # the pins can be reserved again


def test_slow_bus_for_modules_with_big_capacitors(mock_pins: MockFactory) -> None:
    chip = FakeTM1637(mock_pins, clk=23, dio=24)
    display = TM1637(23, 24, mock_pins, bit_delay_us=2.0)
    display.show(tm1637_bytes("12:34"))
    assert chip.text() == "12:34" and display.missing_acks == 0


def test_the_pi_never_drives_dio_high_while_the_chip_acknowledges(mock_pins: MockFactory) -> None:
    """Bytes whose last bit (bit 7) is 1 - the colon, 0x8B display-on - are where a push-pull DIO would fight
    the chip's ACK; every byte here is acknowledged and none is fought over."""
    chip = FakeTM1637(mock_pins, clk=23, dio=24)
    display = TM1637(23, 24, mock_pins, brightness=3)
    for text in ("88:88", "-3:04", "0:07", "-10"):
        assert display.show(tm1637_bytes(text))
        assert chip.text() == text
    assert display.bytes_sent == 4 * 7 and display.missing_acks == 0
    assert chip.contention == 0 and chip.brightness == 3
