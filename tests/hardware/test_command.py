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


def test_simulated_test_cycles_every_output(config_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "test", str(config_file), "--simulated"]) == 0
    out = capsys.readouterr().out
    assert "wire: [(255, 0, 0), (255, 0, 0), (255, 0, 0)]" in out  # RGB order decoded back to red
    assert "display 1: sent 'P2', the chip shows 'P2'" in out
    assert "bar: lit 0 to 2 LEDs; now (True, True)" in out
    assert "buzzer: played the time-up pattern" in out
    assert "buttons: clock0, clock1, confirm" in out
