"""A damaged journal is noticed, never copied or resumed in silence: `PRAGMA quick_check` at start and before a
backup; a backup never lands on the live journal's own files; a checkpoint a reader blocks is a warning."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from referee.cli import main
from referee.journal import Journal, JournalError
from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord

PAGE = 4096


def _service(state: Path) -> TableService:
    cfg = sim_config(state_dir=state, web=False, fusion="sensors", clock_mode="none")
    return TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False))


def _killed_then_truncated(tmp_path: Path, pages: int) -> Path:
    """A state folder as a referee killed mid-game leaves it (the write-ahead log beside the database file), then
    the database file cut short by `pages` pages while the referee was stopped (a card that lost its last
    writes). Three games of many events came before the one that was being played."""
    live, state = tmp_path / "live", tmp_path / "state"
    service = _service(live)
    try:
        for _ in range(3):
            t = service.table
            t.control("start", {})
            for turn in range(5):
                t.press_clock(turn % 2)
            for _ in range(60):
                t.link("camera", False)
                t.link("camera", True)
            service.journal._db.execute("UPDATE games SET ended_utc = 'x'")
            service.table = service._open_table()
        service.table.control("start", {})
        for turn in range(3):
            service.table.press_clock(turn % 2)
        state.mkdir()
        for name in ("games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm"):
            shutil.copy(live / name, state / name)  # what a kill leaves on the card
    finally:
        service.close()
    main_file = state / "games.sqlite3"
    with main_file.open("r+b") as f:
        f.truncate(main_file.stat().st_size - pages * PAGE)
    return state


def test_a_truncated_journal_is_an_alert_at_start_never_a_silent_resume(tmp_path: Path) -> None:
    state = _killed_then_truncated(tmp_path, 4)
    service = _service(state)
    try:
        alerts = service.table.snapshot()["alerts"]
        assert alerts[0]["code"] == "journal_malformed" and alerts[0]["level"] == "error"
        assert "damaged" in alerts[0]["text"] and "backup" in alerts[0]["text"]
    finally:
        service.close()


def test_a_journal_too_damaged_to_resume_stops_the_start_with_one_clear_line(tmp_path: Path) -> None:
    state = _killed_then_truncated(tmp_path, 12)
    with pytest.raises(JournalError, match=r"games.sqlite3: the journal is damaged \(database disk image is "
                                           r"malformed\); restore a backup \(docs/backup.md\)") as caught:
        _service(state)
    assert "\n" not in str(caught.value)


def test_a_checkpoint_a_reader_blocks_is_a_warning_until_it_completes_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    service = _service(tmp_path)
    try:
        t = service.table
        t.control("start", {})
        t.press_clock(0)
        assert service.journal.checkpoint_behind == 0
        reader = sqlite3.connect(tmp_path / "games.sqlite3")  # another program (an sqlite3 shell) reading
        reader.execute("BEGIN")
        assert reader.execute("SELECT COUNT(*) FROM events").fetchone()[0] > 0  # its read transaction is open
        with caplog.at_level(logging.WARNING, logger="referee.journal"):
            t.press_clock(1)  # a committed turn: its checkpoint cannot pass the reader's snapshot
            t.press_clock(0)
        assert service.journal.checkpoint_behind > 0
        assert caplog.text.count("another program holds a read transaction on the journal") == 1  # once a spell
        alert = next(a for a in t.snapshot()["alerts"] if a["code"] == "journal_held")
        assert alert["level"] == "warning" and "Another program is reading the journal" in alert["text"]
        reader.rollback()
        reader.close()
        t.press_clock(1)
        assert service.journal.checkpoint_behind == 0
        assert not any(a["code"] == "journal_held" for a in t.snapshot()["alerts"])
    finally:
        service.close()


@pytest.mark.parametrize("name", ["games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm", "link-to-it"])
def test_a_backup_naming_the_live_journal_is_refused_and_the_next_move_survives_a_restart(
        tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    service = _service(state)
    try:
        service.table.control("start", {})
        service.table.press_clock(0)
        dest = state / name
        if name == "link-to-it":
            dest = tmp_path / "backup.sqlite3"
            dest.symlink_to(state / "games.sqlite3")
        before = {f.name: f.stat().st_ino for f in state.iterdir()}
        assert main(["games", "backup", str(dest), "--state-dir", str(state)]) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"referee games: {dest} is the live journal's own file games.sqlite3")
        assert "\n" not in err and "would replace the game being played" in err
        assert {f.name: f.stat().st_ino for f in state.iterdir()} == before  # no file replaced, none added
        service.table.press_clock(1)  # the next move
        kinds = [e.kind for e in service.journal.events(service.table.game_id or 0)]
    finally:
        service.close()
    again = _service(state)
    try:
        assert [e.kind for e in again.journal.events(again.table.game_id or 0)] == kinds
        assert kinds.count("clock") == 2
    finally:
        again.close()


def test_a_damaged_journal_is_never_backed_up_over_a_sound_copy(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    state = _killed_then_truncated(tmp_path, 4)
    good = tmp_path / "games-Mon.sqlite3"
    shutil.copy(tmp_path / "live" / "games.sqlite3", good)  # last night's copy, sound
    Journal(good).close()
    kept = good.read_bytes()
    assert main(["games", "backup", str(good), "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"referee games: {state / 'games.sqlite3'} is damaged (quick_check: ")
    assert f"not backed up over the sound copy {good}" in err and "\n" not in err
    assert good.read_bytes() == kept and not (tmp_path / "games-Mon.sqlite3.part").exists()

    fresh = tmp_path / "rescue.sqlite3"  # no sound copy there: what can be saved is copied, and it says so
    assert main(["games", "backup", str(fresh), "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err.strip()
    assert "is damaged" in err and f"copied as it is to {fresh}" in err and fresh.is_file()


def test_a_sound_journal_is_backed_up_and_the_copy_is_checked(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    service = _service(tmp_path / "state")
    try:
        service.table.control("start", {})
        service.table.press_clock(0)
        dest = tmp_path / "copy.sqlite3"
        assert main(["games", "backup", str(dest), "--state-dir", str(tmp_path / "state")]) == 0
        assert capsys.readouterr().out.strip() == f"referee games: 1 game(s) backed up to {dest}"
        assert main(["games", "backup", str(dest), "--state-dir", str(tmp_path / "state")]) == 0  # over it again
    finally:
        service.close()
    from referee.journal import file_is_sound

    assert file_is_sound(dest) and not file_is_sound(tmp_path / "state" / "nothing.sqlite3")
