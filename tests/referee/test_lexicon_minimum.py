"""A word list named in `game.lexicon` is checked as `referee lexicon install` checks one (issue 26): a five-word
file is refused at start with the reason, instead of a table judging every challenge on five words."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.config import ConfigError, parse_config
from referee.lexicon_store import MIN_WORDS
from referee.parts import load_lexicon

from .wordlists import write_word_list

FIVE = ("CAT", "DOG", "QUIZ", "APE", "SET")


def _config(lexicon: str) -> object:
    return parse_config({"game": {"lexicon": lexicon}, "sensors": {"board": "/dev/ttyACM0"},
                         "web": {"enabled": False}}, source="table.toml")


def test_a_five_word_list_is_refused_below_the_installs_minimum(tmp_path: Path) -> None:
    five = tmp_path / "five.txt"
    five.write_text("".join(f"{w}\n" for w in FIVE), encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_lexicon(_config(str(five)))  # type: ignore[arg-type]
    assert exc.value.key == "game.lexicon"
    assert exc.value.reason.startswith(f"{five}: only 5 words, a lexicon has at least {MIN_WORDS} (")
    assert f"referee lexicon install {five} --name NAME --min-words N" in exc.value.reason


def test_referee_run_with_a_five_word_list_exits_2_in_one_line(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    five = tmp_path / "five.txt"
    five.write_text("".join(f"{w}\n" for w in FIVE), encoding="utf-8")
    cfg = tmp_path / "table.toml"
    cfg.write_text(f"[table]\nstate_dir = \"{tmp_path / 'state'}\"\n[game]\nlexicon = \"{five}\"\n"
                   "[sensors]\nboard = \"emulator://15x15?coded=1&buttons=2\"\n[web]\nhost = \"127.0.0.1\"\n"
                   "pin = \"730591\"\n", encoding="utf-8")
    assert main(["run", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"referee: {cfg}: game.lexicon: {five}: only 5 words") and len(err.splitlines()) == 1
    assert not (tmp_path / "state" / "games.sqlite3").exists()


def test_a_list_mostly_of_junk_is_refused_as_the_install_refuses_it(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("\n".join(["QUIZ"] * 1 + [f"{n} {n * 7}" for n in range(3000)]) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"game\.lexicon: .*junk\.txt: .* are not words"):
        load_lexicon(_config(str(junk)))  # type: ignore[arg-type]


def test_a_list_at_the_minimum_loads_and_a_short_one_installed_on_purpose_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.cli import main

    words = write_word_list(tmp_path / "club.txt", ("QUIZ", "ZA"))
    lexicon = load_lexicon(_config(str(words)))  # type: ignore[arg-type]
    assert "QUIZ" in lexicon and "ZA" in lexicon and "QI" not in lexicon
    five = tmp_path / "five.txt"
    five.write_text("".join(f"{w}\n" for w in FIVE), encoding="utf-8")
    monkeypatch.setenv("REFEREE_DATA_DIR", str(tmp_path / "data"))
    assert main(["lexicon", "install", str(five), "--name", "house", "--min-words", "5"]) == 0
    house = load_lexicon(_config("house"))  # type: ignore[arg-type]
    assert "QUIZ" in house and "ZA" not in house
