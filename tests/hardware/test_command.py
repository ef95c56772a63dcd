"""`referee hardware check/test` (referee/commands/hardware.py), on the mock backend.

Kept with the hardware tests because it exercises the hardware package end to end from a TOML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main

TOML = """
[hardware]
players = 2
[hardware.ring]
leds = 6
order = "RGB"
brightness = 1.0
[hardware.bar]
pins = [5, 6]
[[hardware.displays]]
clk = 23
dio = 24
[[hardware.displays]]
clk = 25
dio = 12
[hardware.buzzer]
pin = 18
[hardware.buttons]
clock = [17, 27]
confirm = 16
"""


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(TOML)
    return path


def test_check_lists_the_pins(config_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "check", str(config_file)]) == 0
    out = capsys.readouterr().out
    assert "valid for 2 players" in out
    assert "GPIO17  buttons.clock[0]" in out
    assert "6 LEDs on /dev/spidev0.0 (RGB" in out


def test_check_names_the_bad_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(TOML.replace("pin = 18", "pin = 17"))
    with pytest.raises(SystemExit, match=r"hardware\.buttons\.clock\[0\]: pin 17 is already used by buzzer\.pin"):
        main(["hardware", "check", str(path)])


def test_check_without_a_hardware_table(tmp_path: Path) -> None:
    path = tmp_path / "none.toml"
    path.write_text("[game]\n")
    with pytest.raises(SystemExit, match=r"no \[hardware\] table"):
        main(["hardware", "check", str(path)])


def test_check_of_a_file_that_is_not_utf8_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes("[hardware]\n# Stra\u00dfe\n".encode("latin-1"))
    with pytest.raises(SystemExit, match=r"latin1\.toml: is not UTF-8 text \(byte \d+\); save it as UTF-8"):
        main(["hardware", "check", str(path)])


def test_simulated_test_cycles_every_output(config_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "test", str(config_file), "--simulated"]) == 0
    out = capsys.readouterr().out
    assert "wire: [(255, 0, 0), (255, 0, 0), (255, 0, 0)]" in out  # RGB order decoded back to red
    assert "display 1: sent 'P2', the chip shows 'P2'" in out
    assert "bar: lit 0 to 2 LEDs; now (True, True)" in out
    assert "buzzer: played the time-up pattern" in out
    assert "buttons: clock0, clock1, confirm" in out


def test_real_mode_on_mock_pins_and_a_fake_spidev(
    config_file: Path, mock_pins, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    """The command's real-pin path, with gpiozero's global factory mocked and time faked: `sleep`
    moves a fake monotonic clock instead of waiting, and a button is pressed while it listens."""
    import sys
    import time
    import types

    from hardware.ws2812 import FakeSpiDev, decode_ws2812

    spi = FakeSpiDev()
    module = types.ModuleType("spidev")
    module.SpiDev = lambda: spi  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", module)
    fake_now = [500.0]
    pressed = [False]

    def sleep(seconds: float) -> None:
        fake_now[0] += seconds
        if fake_now[0] > 510.0 and not pressed[0]:  # while listening: Ann presses her clock button
            pressed[0] = True
            mock_pins.pin(17).drive_low()

    monkeypatch.setattr(time, "monotonic", lambda: fake_now[0])
    monkeypatch.setattr(time, "sleep", sleep)
    assert main(["hardware", "test", str(config_file), "--buttons-seconds", "15"]) == 0
    out = capsys.readouterr().out
    # No chip answers on plain mock pins: three frames of 7 bytes, none acknowledged.
    assert "display 1: showed 88:88 then P2; 21 of 21 bytes not acknowledged (check CLK/DIO" in out
    assert "press: clock of player 1 -> clock" in out
    assert decode_ws2812(spi.transfers[0], "RGB")[0] == (255, 0, 0)
    assert spi.closed


def test_a_device_that_will_not_open_is_reported_not_a_traceback(
    config_file: Path, mock_pins, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    import sys
    import types

    module = types.ModuleType("spidev")

    def missing() -> object:
        raise FileNotFoundError(2, "No such file or directory")

    module.SpiDev = missing  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", module)
    with pytest.raises(SystemExit, match=r"table\.toml: LED ring: could not be opened"):
        main(["hardware", "test", str(config_file)])


def test_check_reads_a_file_saved_with_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notepad.toml"
    path.write_bytes(b"\xef\xbb\xbf" + TOML.encode("utf-8"))
    assert main(["hardware", "check", str(path)]) == 0
    assert "valid for 2 players" in capsys.readouterr().out
