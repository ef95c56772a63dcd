"""What the referee reads from a file a person names: only a regular file, only up to a size, only a game.

Each of these once hung the command, ate the memory of the Pi or ended in a traceback (issue 26)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.cli import main
from referee.config import ConfigError, load_config
from referee.input_files import MAX_GCG_MOVES, InputFileError, read_regular_file

GAME = "#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>b: AEH H7 A.E +3 3\n"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.gcg"
    os.mkfifo(path)
    return path


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_as_a_configuration_before_it_is_read(special: str) -> None:
    with pytest.raises(ConfigError, match=r"is a device, not a configuration file \(give a regular file\)"):
        load_config(special)


def test_a_fifo_is_refused_as_a_configuration_without_waiting_for_a_writer(fifo: Path) -> None:
    with pytest.raises(ConfigError, match="is a FIFO"):
        load_config(fifo)


def test_a_folder_is_refused_as_a_configuration(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder"):
        load_config(tmp_path)


def test_a_configuration_of_megabytes_is_refused_with_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text("# a comment\n" * 100_000 + "[web]\nenabled = false\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"is 1,200,022 bytes, more than a configuration file can be \(256 KB"):
        load_config(path)


def test_run_with_a_special_config_exits_2_in_one_line(fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--config", "/dev/zero"]) == 2
    assert _one_line(capsys.readouterr().err) == ("referee: /dev/zero: is a device, not a configuration file "
                                                  "(give a regular file)")
    assert main(["run", "--config", str(fifo)]) == 2
    assert "is a FIFO (named pipe), not a configuration file" in _one_line(capsys.readouterr().err)


def test_reading_stops_at_the_cap_even_when_the_file_grows(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_regular_file(path, max_bytes=10, what="thing") == b"x" * 10
    path.write_bytes(b"x" * 11)
    with pytest.raises(InputFileError, match="is 11 bytes, more than a thing can be"):
        read_regular_file(path, max_bytes=10, what="thing")


@pytest.mark.parametrize("command", [["gcg", "check"], ["gcg", "board"], ["demo"]])
def test_gcg_commands_refuse_a_fifo_and_a_device_in_one_line(command: list[str], fifo: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    for special in ("/dev/zero", str(fifo)):
        assert main([*command, special]) == 2
        err = _one_line(capsys.readouterr().err)
        assert special in err and "not a" in err and ("device" in err or "FIFO" in err), err


def _record(tmp_path: Path, text: str, name: str = "r.gcg") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _gcg_check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["gcg", "check", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("checked 0 games"), out
    assert len(out) == 2, out
    return code, out[0]


def test_a_5000_digit_score_is_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, f"#player1 a a\n#player2 b b\n>a: ACT 8G CAT +{'9' * 5000} 10\n")
    code, line = _gcg_check(capsys, path)
    assert code == 2
    assert line == f"{path}: unreadable: line 3: '+9999999999999999999... (5,001 characters)' is not a score " \
                   "(more than 6 digits)"
    assert main(["demo", str(path)]) == 2
    assert "is not a score (more than 6 digits)" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize(("text", "why"), [
    ("#player1 a a\n#player2 b b\n#lexicon CSW21\n#title only pragmas\n", "has no moves"),
    # The issue's own records (100,000 note lines, 10,000 players, 60,000 passes) are past the line cap
    # (game.gcg.MAX_GCG_LINES) before they are read as records; smaller ones of each kind reach the record's
    # own checks.
    ("#player1 a a\n#player2 b b\n" + "#note n\n" * 100_000, "lines, more than the 10000 a game record"),
    ("#player1 a a\n#player2 b b\n" + "#note n\n" * 5_000, "has no moves"),
    ("".join(f"#player{i} p{i} P{i}\n" for i in range(1, 10_001)) + ">p1: ACT 8G CAT +10 10\n",
     "lines, more than the 10000 a game record"),
    ("".join(f"#player{i} p{i} P{i}\n" for i in range(1, 1_001)) + ">p1: ACT 8G CAT +10 10\n",
     "names 1,000 players; a game has 2 to 4"),
    ("#player1 a a\n#player2 b b\n" + ">a: - +0 0\n>b: - +0 0\n" * 30_000, "lines, more than the 10000 a game record"),
    ("#player1 a a\n#player2 b b\n" + ">a: - +0 0\n>b: - +0 0\n" * 2_000, "has 4,000 moves; a game has far fewer"),
    ("#player1 a a\n#player2 b b\n#note " + "x" * 50_000_000 + "\n", "more than a game record can be (1 MB"),
])
def test_records_that_are_not_games_are_refused_by_check_and_demo(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str) -> None:
    path = _record(tmp_path, text)
    code, line = _gcg_check(capsys, path)
    assert code == 2
    assert line.startswith(f"{path}: unreadable: ") and why in line, line
    assert main(["demo", str(path)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert err.startswith(f"referee demo: {path}: ") and why in err, err


def test_the_move_cap_leaves_room_for_any_real_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert MAX_GCG_MOVES >= 300  # the longest tournament games have under 100 lines
    code = main(["gcg", "check", str(_record(tmp_path, GAME))])
    assert (code, capsys.readouterr().out.splitlines()[-1]) == (0, "checked 1 games, 2 plays, 0 mismatches")
