from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main

GOOD = "#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>b: AEH H7 A.E +3 3\n"
BAD = "#player1 a a\n#player2 b b\n>a: ACT 8G CAT +12 12\n>b: AEH H7 A.E +3 3\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["gcg", "check", *args])
    return code, capsys.readouterr().out.splitlines()


def test_clean_folder_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "one.gcg").write_text(GOOD, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "two.GCG").write_text(GOOD, encoding="utf-8")
    code, out = run(capsys, str(tmp_path))
    assert code == 0
    assert out == ["checked 2 games, 4 plays, 0 mismatches"]


def test_mismatch_line_form_and_exit_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.gcg"
    path.write_text(BAD, encoding="utf-8")
    code, out = run(capsys, str(path))
    assert code == 1
    assert out == [f"{path}:3: recorded 8G CAT +12, computed +10: words CAT 10",
                   "checked 1 games, 2 plays, 1 mismatches"]


def test_german_tiles_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "de.gcg"
    path.write_bytes("#player1 a a\n#player2 b b\n>a: DÜS 8G DÜS +16 16\n".encode("latin-1"))
    code, out = run(capsys, "--tiles", "german", str(path))
    assert (code, out) == (0, ["checked 1 games, 1 plays, 0 mismatches"])


def test_skipped_and_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.gcg").write_text("#player1 a a\n>a: ЖЖ 8G ЖЖ +4 4\n", encoding="utf-8")
    (tmp_path / "b.gcg").write_text(">a: garbage\n", encoding="utf-8")
    code, out = run(capsys, str(tmp_path))
    assert code == 2  # a file that is no game record at all (issue 26); mismatches alone are 1
    assert out[0] == f"skipped: {tmp_path / 'a.gcg'}: letters Ж are in no shipped tile set"
    assert out[1].startswith(f"{tmp_path / 'b.gcg'}: unreadable: line 1:")
    assert out[-1] == "checked 0 games, 0 plays, 1 mismatches"


def test_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gcg", "check", str(tmp_path / "nope")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_shared_records_summary(shared_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folders = [str(shared_dir / "gcg" / sub) for sub in ("liwords", "macondo", "quackle")]
    code, out = run(capsys, "--quiet", *folders)
    assert code == 1
    assert out[-1] == "checked 111 games, 2729 plays, 1 mismatches"


def test_lexicon_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee import lexicon_store

    lexicon_store.install_bytes("mini", b"cat\n", "test", tmp_path, min_words=1)
    path = tmp_path / "g.gcg"
    path.write_text(GOOD, encoding="utf-8")
    code, out = run(capsys, "--lexicon", "mini", "--data-dir", str(tmp_path), str(path))
    assert code == 0
    assert out == [f"note: {path}: line 4: AAE not in the lexicon (the play stood)",
                   "checked 1 games, 2 plays, 0 mismatches"]
    assert main(["gcg", "check", "--lexicon", "nope", "--data-dir", str(tmp_path), str(path)]) == 2
    assert "no lexicon 'nope' installed" in capsys.readouterr().err


def test_board_at_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.gcg"
    path.write_text(BAD, encoding="utf-8")
    assert main(["gcg", "board", str(path), "--line", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == list("ABCDEFGHIJKLMNO")
    assert out[8].split() == ["8", ".", ".", ".", ".", ".", ".", "C", "A", "T", ".", ".", ".", ".", ".", "."]
    assert out[16:18] == ["a: 10", "b: 0"]
    assert out[18] == "bag: 83 tiles; unseen: " + "".join(sorted(
        "A" * 8 + "BB" + "C" + "DDDD" + "E" * 12 + "FF" + "GGG" + "HH" + "I" * 9 + "J" + "K" + "LLLL" + "MM" + "N" * 6
        + "O" * 8 + "PP" + "Q" + "R" * 6 + "SSSS" + "T" * 5 + "UUUU" + "VV" + "WW" + "X" + "YY" + "Z" + "??"))
    assert out[19] == f"{path}:3: recorded 8G CAT +12, computed +10: words CAT 10"
    assert main(["gcg", "board", str(tmp_path / "none.gcg")]) == 2


def test_a_file_past_the_line_cap_is_one_unreadable_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game.gcg import MAX_GCG_LINES

    path = tmp_path / "huge.gcg"
    path.write_text("#player1 a a\n#player2 b b\n" + ">a: - +0 0\n>b: - +0 0\n" * MAX_GCG_LINES, encoding="utf-8")
    code, lines = run(capsys, str(path))
    assert code == 2  # a file that is not a game's record: exit 2, as every unreadable one (issue 26)
    assert lines == [f"{path}: unreadable: the record has {2 * MAX_GCG_LINES + 2} lines, more than the "
                     f"{MAX_GCG_LINES} a game record can need: not a game's record",
                     "checked 0 games, 0 plays, 1 mismatches"]
