"""The commands as a user runs them: `referee demo` (what `make run` does) and `referee run` refusing a bad file."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.pty
def test_demo_command_plays_the_builtin_game_and_says_where_to_watch(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.run([sys.executable, "-m", "referee", "demo", "--pause", "0", "--exit", "--no-camera",
                           "--port", str(port), "--state-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"watch the game at http://127.0.0.1:{port}/" in proc.stdout
    assert "every one of 10 totals agrees with the record" in proc.stdout
    assert (tmp_path / "games.sqlite3").is_file()


def test_run_refuses_a_bad_configuration_naming_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[clocks]\nmode = 'hourglass'\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "referee", "run", "--config", str(bad)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert f"{bad}: clocks.mode: must be one of" in proc.stderr


def test_run_needs_a_lexicon_for_a_real_table(tmp_path: Path) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text("[sensors]\nboard = '/dev/ttyACM0'\n[web]\npin = '4711'\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "referee", "run", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "game.lexicon: a table needs a lexicon" in proc.stderr
