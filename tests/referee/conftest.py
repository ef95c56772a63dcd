"""Fixtures of the referee's tests: the one simulated table on the one fake clock, and a table file for a
real `referee run` on an emulated board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from referee.journal import Journal
from referee.sim import ManualClock, SimulatedTable, default_setup

from .wordlists import write_word_list


@pytest.fixture
def clock() -> ManualClock:
    """The test's time: it moves only on `clock.advance(seconds)` (or the table's `advance`)."""
    return ManualClock()


@pytest.fixture
def sim_table(clock: ManualClock) -> SimulatedTable:
    """The real table on a virtual board and `clock`: two players, English, every word good, waiting."""
    return SimulatedTable(clock=clock)


@pytest.fixture
def make_sim_table(clock: ManualClock) -> Callable[..., SimulatedTable]:
    """More simulated tables on `clock`: `make_sim_table(language="de", words=[...], journal=...)`; any
    other keyword is a setting of `default_setup`."""

    def make(*, words: list[str] | None = None, journal: Journal | None = None, **changes: object) -> SimulatedTable:
        return SimulatedTable(default_setup(**changes), words=words, journal=journal, clock=clock)

    return make


@pytest.fixture
def emulated_table_file(tmp_path: Path) -> Callable[[str], Path]:
    """Write a table file (a one-word lexicon, a coded emulated board with two clock buttons, state under
    tmp_path) with the given `[web]` section body, and return its path."""

    def write(web: str) -> Path:
        words = tmp_path / "words.txt"
        write_word_list(words)
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
