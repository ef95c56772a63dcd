"""`referee director --config DIRECTOR.toml`: the configuration checked at start, and the service as a process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main as referee_main
from tournament.director.config import DirectorConfigError, load


def write(folder: Path, director: str, broker: str = 'broker = "mqtt://127.0.0.1:1883"\ncredentials = "cred.txt"\n',
          key: str | None = "a-long-director-key") -> Path:
    (folder / "cred.txt").write_text("director:pw-director\n", encoding="utf-8")
    if key is not None:
        (folder / "key.txt").write_text(key + "\n", encoding="utf-8")
    path = folder / "DIRECTOR.toml"
    path.write_text(f"[director]\n{director}\n[broker]\n{broker}", encoding="utf-8")
    return path


def test_a_good_configuration(tmp_path: Path) -> None:
    config = load(write(tmp_path, 'event = "spring-open"\nname = "Spring Open"\ncredential_file = "key.txt"\n'
                                  "feature = [1, 2]\n"))
    assert (config.event, config.name, config.credential, config.feature) == (
        "spring-open", "Spring Open", "a-long-director-key", [1, 2])
    assert (config.broker.host, config.broker.port, config.broker.username) == ("127.0.0.1", 1883, "director")
    assert config.state_dir == tmp_path / "director-state"


def test_without_a_credential_file_commands_are_off(tmp_path: Path) -> None:
    assert load(write(tmp_path, 'event = "e1"\n')).credential is None


def test_the_events_tsh_entry_mode_and_bye_spread(tmp_path: Path) -> None:
    config = load(write(tmp_path, 'event = "e1"\ntsh_entry = "both"\nbye_spread = 75\n'))
    assert (config.tsh_entry, config.bye_spread) == ("both", 75)
    default = load(write(tmp_path, 'event = "e1"\n'))
    assert (default.tsh_entry, default.bye_spread) == ("scores", 50)  # tsh's own defaults


@pytest.mark.parametrize(("director", "broker", "key", "message"), [
    ('event = "a b"\n', None, None, r"\[director\] event: event id 'a b'"),
    ('event = "e1"\nport = "80"\n', None, None, r"\[director\] port: a port number"),
    ('event = "e1"\ncredential_file = "key.txt"\n', None, "short", r"credential_file: the credential needs 8"),
    ('event = "e1"\ncredential_file = "nope.txt"\n', None, None, r"credential_file: cannot read .*nope.txt"),
    ('event = "e1"\npin = "1"\n', None, None, r"\[director\] pin: unknown key"),
    ('event = "e1"\ntsh_entry = "board"\n', None, None, r"\[director\] tsh_entry: tsh's `config entry`"),
    ('event = "e1"\nbye_spread = "50"\n', None, None, r"\[director\] bye_spread: a whole number"),
    ('event = "e1"\n', 'broker = "http://x"\ncredentials = "cred.txt"\n', None, r"\[broker\] broker: 'http://x'"),
    ('event = "e1"\n', 'broker = "mqtt://x"\n', None, r"\[broker\] credentials: missing"),
])
def test_a_wrong_configuration_says_file_key_and_why(tmp_path: Path, director: str, broker: str | None,
                                                     key: str | None, message: str) -> None:
    path = write(tmp_path, director, *([broker] if broker else []), key=key)
    with pytest.raises(DirectorConfigError, match=message):
        load(path)


def test_the_command_refuses_a_wrong_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'event = "e1"\nport = -1\n')
    assert referee_main(["director", "--config", str(path)]) == 2
    assert "DIRECTOR.toml: [director] port" in capsys.readouterr().err


@pytest.mark.slow
def test_the_service_runs_as_a_process(broker: Any, tmp_path: Path) -> None:
    path = write(tmp_path, 'event = "test-open"\nport = 0\ncredential_file = "key.txt"\n',
                 f'broker = "{broker.url}"\ncredentials = "cred.txt"\n')
    process = subprocess.Popen([sys.executable, "-m", "referee", "director", "--config", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("director: http://127.0.0.1:"), line
        with urllib.request.urlopen(line.split(" ", 1)[1].strip() + "api/session", timeout=10) as response:
            session = json.loads(response.read())
        assert session["control"] is True and session["event"] == "test-open"
        assert (tmp_path / "director-state/director.sqlite3").exists()
    finally:
        os.kill(process.pid, signal.SIGINT)
        code = process.wait(15)
        if process.stdout is not None:
            process.stdout.close()
    assert code in (0, 130)


def test_a_configuration_and_key_saved_with_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, 'event = "e1"\ncredential_file = "key.txt"\n')
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    (tmp_path / "key.txt").write_bytes(b"\xef\xbb\xbfa-long-director-key\r\n")
    config = load(path)
    assert (config.event, config.credential) == ("e1", "a-long-director-key")


def test_the_tsh_file_and_its_offsets(tmp_path: Path) -> None:
    config = load(write(tmp_path, 'event = "e1"\ntsh_file = "tsh/html/tourney.js"\ntsh_offsets = {b = 100}\n'))
    assert (config.tsh_file, config.tsh_offsets) == (tmp_path / "tsh/html/tourney.js", {"B": 100})
    assert load(write(tmp_path, 'event = "e1"\n')).tsh_file is None
    for bad, message in (('tsh_file = 3', r"\[director\] tsh_file: the path of tsh's tourney.js, not 3"),
                         ('tsh_offsets = {B = "x"}', r"\[director\] tsh_offsets: a table number offset per division")):
        with pytest.raises(DirectorConfigError, match=message):
            load(write(tmp_path, f'event = "e1"\n{bad}\n'))


@pytest.mark.slow
def test_a_director_with_a_wrong_broker_address_says_so(tmp_path: Path) -> None:
    """It started, served a green "live" hall of 0 tables and logged nothing: now its log and its page say it."""
    from tournament.testing.broker import free_port

    from .conftest import wait_for

    port = free_port()  # nothing listens there
    path = write(tmp_path, 'event = "test-open"\nport = 0\n', f'broker = "mqtt://127.0.0.1:{port}"\n'
                                                             'credentials = "cred.txt"\n')
    log_path = tmp_path / "director.log"
    with log_path.open("w", encoding="utf-8") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "referee", "director", "--config", str(path)],
                                   stdout=subprocess.PIPE, stderr=log_file, text=True,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("director: http://127.0.0.1:"), line
        wait_for(lambda: "cannot reach broker" in log_path.read_text(encoding="utf-8"), 20, "the log line")
        assert (f"director: cannot reach broker mqtt://127.0.0.1:{port} ([Errno 111] Connection refused); "
                f"retrying every 1 s") in log_path.read_text(encoding="utf-8")
        with urllib.request.urlopen(line.split(" ", 1)[1].strip() + "api/hall", timeout=10) as response:
            broker = json.loads(response.read())["broker"]
        assert broker["connected"] is False and broker["text"].startswith(f"cannot reach broker mqtt://127.0.0.1:{port}")
    finally:
        os.kill(process.pid, signal.SIGINT)
        process.wait(15)
        if process.stdout is not None:
            process.stdout.close()
