"""A journal damaged where the referee reads it at start (a bad card, a hand edit): a JournalError naming the game
and the event, exit status 2 (systemd does not restart into the same damage), never a traceback or a
different game (issue 26)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.cli import main
from referee.journal import Journal, JournalError
from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.sim.table import SimulatedTable, default_setup
from referee.table.rules import EveryWord


def _journal_with_a_game(state: Path) -> Path:
    state.mkdir(exist_ok=True)
    path = state / "games.sqlite3"
    journal = Journal(path)
    t = SimulatedTable(default_setup(), words=["QUIZ"], journal=journal)
    t.control("start", {})
    t.play("8E QUIZ")
    journal.close()
    return path


def _damage(path: Path, sql: str, *args: object) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute(sql, args)
    db.close()


def _setup(path: Path) -> dict[str, object]:
    db = sqlite3.connect(path)
    setup: dict[str, object] = json.loads(db.execute("SELECT setup FROM games WHERE id = 1").fetchone()[0])
    db.close()
    return setup


def _start(state: Path) -> TableService:
    cfg = sim_config(state_dir=state, web=False, fusion="sensors", clock_mode="none")
    return TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False))


DAMAGE = [
    ("UPDATE games SET setup = '{not json' WHERE id = 1", "game 1: its setup is not JSON"),
    ("UPDATE games SET players = 'Anna, Ben' WHERE id = 1", "game 1: its players are not JSON"),
    ("UPDATE games SET players = '[1, 2]' WHERE id = 1", "game 1: its players are not a list of 2 to 4 names"),
    ("UPDATE events SET data = '{\"player\": \"zz\"}' WHERE game_id = 1 AND kind = 'clock'",
     "game 1: event 5 (clock) cannot be replayed"),
    ("UPDATE events SET data = '{\"cells\": \"E8\"}' WHERE game_id = 1 AND seq = 4",
     "game 1: event 4 (board) cannot be replayed"),
    ("UPDATE events SET data = '{\"cells\": {\"E8\": 7}}' WHERE game_id = 1 AND seq = 4",
     "game 1: event 4 (board) cannot be replayed"),
]


@pytest.mark.parametrize(("sql", "said"), DAMAGE)
def test_a_damaged_game_stops_the_start_with_a_journal_error_naming_game_and_event(
        tmp_path: Path, sql: str, said: str) -> None:
    path = _journal_with_a_game(tmp_path)
    _damage(path, sql)
    with pytest.raises(JournalError, match=re.escape(said)) as caught:
        _start(tmp_path)
    assert str(caught.value).startswith(f"{path}: ") and "\n" not in str(caught.value)


@pytest.mark.parametrize(("change", "said"), [
    ({"kind": "chess"}, "game 1: its setup is damaged: kind must be one of 'standard', 'scramble', "
                        "'scramble-advanced', not 'chess'"),
    ({"players": ["Anna"]}, "game 1: its setup is damaged: players must be a list of 2 to 4 names"),
    ({"minutes_per_player": "lots"}, "game 1: its setup is damaged: minutes_per_player must be a number"),
    ({"challenge_window_ms": -5}, "game 1: its setup is damaged: challenge_window_ms must be between"),
    ({"edition": "klingon"}, "game 1: its setup is damaged: edition must be one of"),
])
def test_the_setup_is_checked_on_resume_as_the_configuration_is(
        tmp_path: Path, change: dict[str, object], said: str) -> None:
    path = _journal_with_a_game(tmp_path)
    setup = {**_setup(path), **change}
    _damage(path, "UPDATE games SET setup = ? WHERE id = 1", json.dumps(setup))
    with pytest.raises(JournalError, match=re.escape(said)):
        _start(tmp_path)


def test_run_exits_2_in_one_line_on_a_damaged_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], emulated_table_file: Callable[[str], Path]) -> None:
    cfg = emulated_table_file("enabled = false")
    path = _journal_with_a_game(tmp_path / "state")
    _damage(path, "UPDATE events SET data = '{\"player\": \"zz\"}' WHERE kind = 'clock'")
    assert main(["run", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"referee: {path}: game 1: event 5 (clock) cannot be replayed"), err


@pytest.mark.parametrize(("sql", "said"), DAMAGE)
def test_games_list_and_export_say_what_is_damaged_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sql: str, said: str) -> None:
    path = _journal_with_a_game(tmp_path)
    _damage(path, sql)
    assert main(["games", "list", "--state-dir", str(tmp_path)]) == 2
    assert said in capsys.readouterr().err
    assert main(["games", "export", "1", "--gcg", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1, err
