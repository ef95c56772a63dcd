"""`referee dice show | roll | teach`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from game.scramble.dice import DiceSet, load_dice_set
from referee.cli import main

ENGLISH = load_dice_set("english")


def test_show_prints_twelve_dice_and_the_provisional_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "show"]) == 0
    out = capsys.readouterr().out
    assert "(provisional)" in out
    lines = [line for line in out.splitlines() if line.startswith("die ")]
    assert lines == [f"die {n:>2}: {die}" for n, die in enumerate(ENGLISH.dice, start=1)]


def test_show_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "show", "--set", "german"]) == 0
    assert "Äx1" in capsys.readouterr().out


def test_show_unknown_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "show", "--set", "klingon"]) == 2
    assert "no dice set named 'klingon'" in capsys.readouterr().err


def test_show_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    assert main(["dice", "show", "--file", str(path)]) == 2
    assert "broken.json: not a dice set file" in capsys.readouterr().err


def test_roll_with_a_seed_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "roll", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["dice", "roll", "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    faces = first.split()
    assert len(faces) == 7
    all_faces = {str(f) for die in ENGLISH.dice for f in die.faces}
    assert set(faces) <= all_faces


def _teach_input() -> str:
    # Die 3 is typed wrong first (five faces), die 5 with a value clashing with die 1's E.
    lines = [str(die) for die in ENGLISH.dice]
    lines.insert(2, "E1 O1 R1 T1 D2")
    lines.insert(5, "E2 A1 T1 L1 G2 ?0")
    lines[0] = "e a n r t q"  # letters alone take the tile values
    return "\n".join(lines) + "\n"


def test_teach_writes_a_loadable_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "mine.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(_teach_input()))
    assert main(["dice", "teach", str(out_path), "--name", "mine"]) == 0
    out = capsys.readouterr().out
    assert out.count("not taken") == 2
    assert "a die has 6 faces, not 5" in out
    assert "E was worth 1 on an earlier die, not 2" in out
    taught = DiceSet.from_json(out_path.read_text(encoding="utf-8"))
    assert not taught.provisional and taught.name == "mine"
    assert taught.dice == ENGLISH.dice
    assert json.loads(out_path.read_text(encoding="utf-8"))["language"] == "en"
    # and the other commands read it
    assert main(["dice", "show", "--file", str(out_path)]) == 0
    assert "dice set mine" in capsys.readouterr().out


def test_teach_stops_cleanly_on_end_of_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "half.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("E1 A1 N1 R1 T1 Q10\n"))
    assert main(["dice", "teach", str(out_path)]) == 2
    assert "nothing written" in capsys.readouterr().err
    assert not out_path.exists()


def test_teach_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "mine.json"
    out_path.write_text("keep me", encoding="utf-8")
    assert main(["dice", "teach", str(out_path)]) == 2
    assert "--force" in capsys.readouterr().err
    assert out_path.read_text(encoding="utf-8") == "keep me"


def test_teach_german_letters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out_path = tmp_path / "de.json"
    german = load_dice_set("german")
    lines = [" ".join(f.letter.lower() for f in die.faces) for die in german.dice]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["dice", "teach", str(out_path), "--language", "de"]) == 0
    assert DiceSet.from_json(out_path.read_text(encoding="utf-8")).dice == german.dice
