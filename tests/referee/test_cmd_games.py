from __future__ import annotations

from pathlib import Path

import pytest

from game.gcg import parse_gcg
from referee.cli import main
from referee.journal import Journal
from referee.sim.table import SimulatedTable, default_setup
from referee.table.records import export_gcg

WORDS = ["QUIZ", "ZA", "ZAP"]


def _game(tmp_path: Path, **changes: object) -> tuple[Journal, int]:
    journal = Journal(tmp_path / "games.sqlite3")
    t = SimulatedTable(default_setup(**changes), words=WORDS, journal=journal)
    t.control("start", {})
    t.play("8E QUIZ")
    t.control("accept", {})
    t.place_word("H8 .X")  # ZX: a phony
    t.press()
    t.control("challenge", {"player": 0})
    t.lift("H9")
    t.play("H8 .AP")
    t.control("challenge", {"player": 1})  # a good play challenged: Ben loses his turn (double)
    assert t.game_id is not None
    return journal, t.game_id


def test_export_replays_the_journal_into_standard_gcg_without_the_word_list(tmp_path: Path) -> None:
    journal, gid = _game(tmp_path)
    text = export_gcg(journal, gid)
    record = parse_gcg(text)
    assert [p.name for p in record.players] == ["Anna", "Ben"]
    lines = [(m.nick, m.move, m.score, m.total) for m in record.moves]
    # QUIZ 44; ZX 10 + 8 = 18 then withdrawn; ZAP: Z 10 + A 1 + P 3 = 14 (no premium under A or P); Ben's
    # wrong challenge of ZAP costs him the turn: a pass line marked as the lost turn (issue 25)
    assert lines == [("Anna", "8E QUIZ", 44, 44), ("Ben", "H8 .X", 18, 18), ("Ben", "--", -18, 0),
                     ("Anna", "H8 .AP", 14, 58), ("Ben", "-", 0, 0)]
    assert record.moves[-1].lost_turn


def test_games_list_and_export_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal, gid = _game(tmp_path)
    journal.close()
    assert main(["games", "list", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{gid:>4}" in out and "Anna 58 v Ben 0" in out and "not finished" in out
    target = tmp_path / "game.gcg"
    assert main(["games", "export", str(gid), "--gcg", "--state-dir", str(tmp_path), "-o", str(target)]) == 0
    assert ">Anna: IQUZ 8E QUIZ +44 44" in target.read_text(encoding="utf-8")


def test_missing_journal_and_game_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "list", "--state-dir", str(tmp_path / "none")]) == 2
    assert "no journal at" in capsys.readouterr().err
    journal, _ = _game(tmp_path)
    journal.close()
    assert main(["games", "export", "99", "--gcg", "--state-dir", str(tmp_path)]) == 2
    assert "no game 99" in capsys.readouterr().err


def test_a_void_game_without_its_lexicon_says_what_is_missing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "g.sqlite3")
    t = SimulatedTable(default_setup(challenge="void"), words=WORDS, journal=journal)
    t.control("start", {})
    assert t.game_id is not None
    with pytest.raises(ValueError, match="give the lexicon"):
        export_gcg(journal, t.game_id)
    assert "#player1" in export_gcg(journal, t.game_id, lexicon=set(WORDS))


def test_export_to_a_folder_that_does_not_exist_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal, _ = _game(tmp_path)
    journal.close()
    target = tmp_path / "no-such-folder" / "game.gcg"
    assert main(["games", "export", "1", "--gcg", "--state-dir", str(tmp_path), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"referee games: cannot write {target}:") and "Traceback" not in err


def test_backup_copies_the_game_being_played_while_the_journal_is_open(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    journal, gid = _game(tmp_path)
    t = SimulatedTable(default_setup(), words=WORDS, journal=journal)  # a second game, tiles laid, not committed
    t.control("start", {})
    t.place_word("8E QUIZ")
    dest = tmp_path / "copy" / "games.sqlite3"
    dest.parent.mkdir()
    assert main(["games", "backup", str(dest), "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"referee games: 2 game(s) backed up to {dest}"
    copy = Journal(dest)
    assert [e.kind for e in copy.events(t.game_id or 0)] == [e.kind for e in journal.events(t.game_id or 0)]
    assert export_gcg(copy, gid) == export_gcg(journal, gid)
    copy.close()
    journal.close()
