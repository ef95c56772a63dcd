from __future__ import annotations

from pathlib import Path

import pytest

from referee.journal import Event, Journal, JournalError
from referee.sim import ManualClock, SimulatedTable, default_setup
from referee.table.api import ControlError
from referee.table.live import LiveTable
from referee.table.rules import WordSet, table_rules

WORDS = ["QUIZ", "ZA", "ZQ", "QI"]


def _without_seq(snap: dict) -> dict:
    return {k: v for k, v in snap.items() if k != "seq"}


def test_events_round_trip_in_order(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    gid = j.new_game("T1", "standard", ["A", "B"], {"players": ["A", "B"]})
    j.append(gid, Event("control", 5, {"action": "start", "params": {}}))
    j.append(gid, Event("clock", 900, {"player": 0}))
    assert [(e.kind, e.t) for e in j.events(gid)] == [("control", 5), ("clock", 900)]
    assert j.games()[0].events == 2 and j.unfinished_game() is not None
    j.end_game(gid)
    assert j.unfinished_game() is None
    j.close()
    assert Journal(tmp_path / "j.sqlite3").game(gid).ended_utc is not None


def test_journal_is_in_wal_mode(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_resume_time_is_the_later_of_heartbeat_and_last_event(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    gid = j.new_game("T1", "standard", ["A", "B"], {})
    j.append(gid, Event("tick", 1000))
    j.heartbeat(gid, 4000)
    j.heartbeat(gid, 3000)  # a late heartbeat never moves table time back
    assert j.resume_time(gid) == 4000
    j.append(gid, Event("tick", 5000))
    assert j.resume_time(gid) == 5000


def test_a_missing_game_and_an_unopenable_file_say_so(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(JournalError, match="no game 7"):
        j.game(7)
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(JournalError, match="cannot open"):
        Journal(tmp_path / "dir.sqlite3")


def _play_some(t: SimulatedTable) -> None:
    t.control("start", {})
    t.advance(40)
    t.play("8E QUIZ")
    t.advance(15)
    t.advance(20)
    t.place_word("8G ..")  # nothing new: a no-op lay
    t.play("H8 .A")  # Ben: ZA, window open now


def test_replaying_the_journal_rebuilds_the_same_game_and_clocks(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    t = SimulatedTable(default_setup(), words=WORDS, journal=Journal(path))
    _play_some(t)
    t.advance(3)
    t.poll()
    t.checkpoint()  # poll hands its heartbeat to the journal's own thread; this one is written now
    before = t.snapshot()
    assert before["state"] == "challenge"
    with pytest.raises(ControlError):
        t.control("racks", {"player": 0, "tiles": "A"})  # refused: not journaled

    # a new process, started 5 minutes of monotonic time later: the downtime is a pause
    later = ManualClock(start=99_999.0)
    j2 = Journal(path)
    resumed = LiveTable.resume(j2, lambda s: table_rules(s, WordSet(WORDS)), monotonic=later)
    assert resumed is not None
    after = resumed.snapshot()
    assert _without_seq(after) == _without_seq(before)
    # Anna: 40 s before her play, then 3 s while Ben's play is open to challenge (her clock runs).
    assert after["players"][0]["clock"]["remaining_ms"] == 25 * 60_000 - 43_000
    later.advance(12)
    resumed.poll()
    assert resumed.snapshot()["state"] == "turn"  # the challenge window closed 15 s after the commit
    assert not any(e.kind == "control" and e.data["action"] == "racks" for e in j2.events(resumed.game_id or 0))


def test_an_ended_game_is_not_resumed(tmp_path: Path) -> None:
    j = Journal(tmp_path / "g.sqlite3")
    t = SimulatedTable(default_setup(clock_mode="none"), words=WORDS, journal=j)
    t.control("start", {})
    for _ in range(6):
        t.press()
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    assert t.snapshot()["state"] == "ended"
    assert LiveTable.resume(j, lambda s: table_rules(s, WordSet(WORDS))) is None


def test_a_new_game_after_the_end_gets_its_own_journal_entry(tmp_path: Path) -> None:
    j = Journal(tmp_path / "g.sqlite3")
    t = SimulatedTable(default_setup(clock_mode="none"), words=WORDS, journal=j)
    with pytest.raises(ControlError, match="once this one has ended"):
        t.control("new_game", {})
    t.control("start", {})
    first = t.game_id
    for _ in range(6):
        t.press()
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    snap = t.control("new_game", {})
    assert snap["state"] == "waiting" and snap["moves"] == [] and t.game_id != first
    t.control("start", {})
    resumed = LiveTable.resume(j, lambda s: table_rules(s, WordSet(WORDS)))
    assert resumed is not None and resumed.game_id == t.game_id and resumed.snapshot()["state"] == "turn"


def test_a_new_game_on_a_card_that_cannot_be_written_is_refused_and_the_old_game_stays(tmp_path: Path) -> None:
    j = Journal(tmp_path / "g.sqlite3")
    t = SimulatedTable(default_setup(), words=WORDS, journal=j)
    t.control("start", {})
    for _ in range(6):
        t.press()
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    ended, game = t.snapshot(), t.game_id
    j._db.execute("PRAGMA query_only=ON")  # a full or read-only SD card
    with pytest.raises(ControlError, match="cannot write its journal") as refused:
        t.control("new_game", {})
    assert refused.value.code == "journal_failed"
    snap = t.snapshot()
    assert t.game_id == game and snap["state"] == "ended" and snap["moves"] == ended["moves"]
    assert snap["alerts"][0]["code"] == "journal_failed"
    with pytest.raises(ControlError, match="cannot write its journal"):  # the director's seating: the same
        t.next_game(["Cy", "Di"], 0, by="director", command_id="c-1")
    j._db.execute("PRAGMA query_only=OFF")
    assert t.control("new_game", {})["state"] == "waiting" and t.game_id != game
    assert not any(a["code"] == "journal_failed" for a in t.snapshot()["alerts"])


def test_a_journal_that_cannot_be_written_changes_nothing_and_says_so(tmp_path: Path) -> None:
    j = Journal(tmp_path / "g.sqlite3")
    t = SimulatedTable(default_setup(), words=WORDS, journal=j)
    t.control("start", {})
    j._db.execute("PRAGMA query_only=ON")  # as good as a full or read-only SD card for every write
    t.place_word("8E QUIZ")
    before_moves = t.snapshot()["moves"]
    t.press()
    snap = t.snapshot()
    assert snap["alerts"][0]["code"] == "journal_failed" and snap["moves"] == before_moves == []
    assert snap["board"][7] == "..............." and snap["state"] == "turn"
    with pytest.raises(ControlError, match="cannot write its journal"):
        t.control("pass", {})
    j._db.execute("PRAGMA query_only=OFF")  # the card has room again: the next change goes through
    t.lift("H8")
    t.place("H8", "Z")
    snap = t.press()
    assert not any(a["code"] == "journal_failed" for a in snap["alerts"]) and snap["players"][0]["score"] == 44


def _end_a_game(t: SimulatedTable) -> None:
    t.control("start", {})
    for _ in range(6):
        t.press()
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    assert t.snapshot()["state"] == "ended"


class _Killed(BaseException):
    """Stands for a SIGKILL: nothing after the point it is raised at runs."""


def test_the_end_of_a_game_is_written_with_its_last_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    j = Journal(tmp_path / "g.sqlite3")

    def killed(self: Journal, game_id: int) -> None:
        raise _Killed  # a kill between the last event and a separate end mark

    monkeypatch.setattr(Journal, "end_game", killed)
    t = SimulatedTable(default_setup(clock_mode="none"), words=WORDS, journal=j)
    _end_a_game(t)  # the end mark went with the last event: end_game was never needed
    assert j.games()[-1].ended_utc is not None


def test_a_committed_turn_is_in_the_database_file_alone(tmp_path: Path) -> None:
    import shutil
    import sqlite3

    path = tmp_path / "g.sqlite3"
    t = SimulatedTable(default_setup(), words=WORDS, journal=Journal(path))
    t.control("start", {})
    t.play("8E QUIZ")
    copy = tmp_path / "backup" / "g.sqlite3"
    copy.parent.mkdir()
    shutil.copy(path, copy)  # the database file alone, as a careless backup copies it: no -wal beside it
    db = sqlite3.connect(copy)
    kinds = [k for (k,) in db.execute("SELECT kind FROM events ORDER BY seq")]
    db.close()
    assert "clock" in kinds and kinds.count("control") == 1  # the start and the committed play are there


def test_the_backup_holds_the_write_ahead_log_too(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    j = Journal(path)
    t = SimulatedTable(default_setup(), words=WORDS, journal=j)
    t.control("start", {})
    t.place_word("8E QUIZ")  # tiles laid, not yet committed: only in the log
    j.backup(tmp_path / "backup.sqlite3")
    copy = Journal(tmp_path / "backup.sqlite3")
    assert [e.kind for e in copy.events(1)] == [e.kind for e in j.events(1)]


def test_a_broken_event_is_skipped_with_an_alert_and_the_rest_resumed(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    j = Journal(path)
    t = SimulatedTable(default_setup(clock_mode="none"), words=WORDS, journal=j)
    t.control("start", {})
    t.play("8E QUIZ")
    seqs = [s for (s,) in j._db.execute("SELECT seq FROM events WHERE kind = 'link'")]
    j._db.execute("UPDATE events SET data = '{\"source\": \"bo' WHERE seq = ?", (seqs[0],))
    j.close()
    j2 = Journal(path)
    resumed = LiveTable.resume(j2, lambda s: table_rules(s, WordSet(WORDS)))
    assert resumed is not None
    snap = resumed.snapshot()
    assert snap["players"][0]["score"] == 44  # the rest of the game is there
    assert snap["alerts"][0]["code"] == "journal_damaged" and f"number {seqs[0]}" in snap["alerts"][0]["text"]


def test_a_second_writer_is_refused_by_the_database_itself(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    first = Journal(path, writer=True)
    with pytest.raises(JournalError, match="another referee is writing this journal"):
        Journal(path, writer=True)
    reader = Journal(path)  # `referee games list` still reads it
    assert reader.games() == []
    reader.close()
    first.close()
    Journal(path, writer=True).close()  # once the first has stopped


def test_a_german_table_says_in_german_that_it_cannot_save(tmp_path: Path) -> None:
    j = Journal(tmp_path / "g.sqlite3")
    t = SimulatedTable(default_setup(language="de"), words=WORDS, journal=j)
    t.control("start", {})
    j._db.execute("PRAGMA query_only=ON")
    t.place_word("8E QUIZ")
    t.press()
    alert = t.snapshot()["alerts"][0]
    assert alert["code"] == "journal_failed"
    assert alert["text"].startswith("Der Schiedsrichter kann die Partie nicht speichern")
    j._db.execute("PRAGMA query_only=OFF")
