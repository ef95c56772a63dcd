"""Fixtures of the referee's tests: a table file for a real `referee run` on an emulated board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def emulated_table_file(tmp_path: Path) -> Callable[[str], Path]:
    """Write a table file (a one-word lexicon, a coded emulated board with two clock buttons, state under
    tmp_path) with the given `[web]` section body, and return its path."""

    def write(web: str) -> Path:
        words = tmp_path / "words.txt"
        words.write_text("QUIZ\n", encoding="utf-8")
        cfg = tmp_path / "table.toml"
        cfg.write_text(f"""
[table]
state_dir = "{tmp_path / 'state'}"
[game]
lexicon = "{words}"
[sensors]
board = "emulator://15x15?coded=1&buttons=2"
[web]
{web}
""", encoding="utf-8")
        return cfg

    return write
