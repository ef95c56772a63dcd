"""`referee.parts.real_parts`: what a real table's file asks for that cannot be opened is reported with
the file and the key, like every other mistake in it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.config import ConfigError, parse_config
from referee.parts import real_parts

from .wordlists import write_word_list


def _config(tmp_path: Path, **sensors: str) -> object:
    words = tmp_path / "words.txt"
    write_word_list(words, ("QUIZ", "ZA"))
    return parse_config({"game": {"lexicon": str(words)}, "sensors": {"board": "/dev/ttyACM0", **sensors},
                         "web": {"enabled": False}}, source=str(tmp_path / "table.toml"))


@pytest.mark.parametrize(("camera", "reason"), [("nope:1", "unknown frame source 'nope:1'"),
                                                ("files:/no/such/folder", "/no/such/folder")])
def test_a_camera_that_cannot_be_opened_names_the_file_and_key(tmp_path: Path, camera: str, reason: str) -> None:
    with pytest.raises(ConfigError) as exc:
        real_parts(_config(tmp_path, camera=camera))  # type: ignore[arg-type]
    assert exc.value.key == "sensors.camera" and reason in exc.value.reason
    assert str(exc.value).startswith(f"{tmp_path / 'table.toml'}: sensors.camera: ")


def test_real_pins_off_a_pi_name_outputs_devices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_driver() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "ensure_pin_factory", staticmethod(no_driver))
    monkeypatch.setenv("LG_WD", str(tmp_path))  # lgpio's work folder: writable, so only the driver is missing
    words = tmp_path / "words.txt"
    write_word_list(words)
    config = parse_config({"game": {"lexicon": str(words)}, "sensors": {"board": "/dev/ttyACM0"},
                           "outputs": {"devices": "real"}, "hardware": {"players": 2},
                           "web": {"enabled": False}}, source="table.toml")
    with pytest.raises(ConfigError, match=r'^table.toml: outputs.devices: GPIO: .*outputs.devices = "mock"'):
        real_parts(config)


def test_a_lexicon_path_that_does_not_exist_is_named_as_a_missing_file(tmp_path: Path) -> None:
    from referee.parts import load_lexicon

    missing = tmp_path / "lists" / "csw21.txt"
    config = parse_config({"game": {"lexicon": str(missing)}, "sensors": {"board": "/dev/ttyACM0"},
                           "web": {"enabled": False}}, source="table.toml")
    with pytest.raises(ConfigError, match=f"^table.toml: game.lexicon: {missing}: no such word list file"):
        load_lexicon(config)


def test_a_lexicon_path_may_start_at_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.parts import load_lexicon

    monkeypatch.setenv("HOME", str(tmp_path))
    write_word_list(tmp_path / "club.txt", ("QUIZ", "ZA"))
    config = parse_config({"game": {"lexicon": "~/club.txt"}, "sensors": {"board": "/dev/ttyACM0"},
                           "web": {"enabled": False}}, source="table.toml")
    lexicon = load_lexicon(config)
    assert "QUIZ" in lexicon and "QI" not in lexicon


@pytest.mark.pty
def test_a_real_table_is_built_and_run_without_importing_the_simulator(
        emulated_table_file: Callable[[str], Path]) -> None:
    """`referee run --config` builds its table with referee.parts: traced by Python's own import log (-X importtime),
    the whole start-up of a table (its board on the emulator, as a test has no other) imports no module of
    referee.sim. Its stdin is /dev/null, as under systemd: nobody types at a real table's terminal."""
    cfg = emulated_table_file("enabled = false")
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "referee", "run", "--config", str(cfg)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = ""
        while "sensor board emulator at" not in line:  # started: the service, its link and its table are up
            line = proc.stdout.readline()
            assert line, "the referee ended before it was up"
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    imported = [line.rsplit("|", 1)[-1].strip() for line in err.splitlines() if line.startswith("import time:")]
    assert {"referee.parts", "referee.service", "referee.table.machine"} <= set(imported)
    assert [name for name in imported if name == "referee.sim" or name.startswith("referee.sim.")] == []
