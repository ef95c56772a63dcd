"""ENABLE ships with the referee (issue 25 item 1): an English table judges challenges on the first run, with
nothing installed and no download; a table without any list says so on its page."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from referee import lexicon_store
from referee.cli import main
from referee.config import ConfigError, parse_config
from referee.parts import load_lexicon
from referee.sim.parts import sim_config, sim_lexicon
from referee.sim.table import SimulatedTable, default_setup


@pytest.fixture(autouse=True)
def empty_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh machine: nothing installed in the data folder."""
    data = tmp_path / "data"
    monkeypatch.setenv("REFEREE_DATA_DIR", str(data))
    return data


def test_the_shipped_list_is_enable_whole(shared_dir: Path) -> None:
    assert lexicon_store.read_shipped("enable") == (shared_dir / "lexicons" / "enable2k.txt").read_bytes()
    assert lexicon_store.installed() == []
    lexicon = lexicon_store.load_installed("enable")  # not installed: the package's copy
    assert len(lexicon) == 173_528 and "QUIZ" in lexicon
    assert "QI" not in lexicon and "ZA" not in lexicon  # ENABLE lacks them: tournament lists have them


def test_a_simulated_english_table_judges_words_with_nothing_installed(tmp_path: Path) -> None:
    lexicon = sim_lexicon(sim_config(state_dir=tmp_path / "s", web=False))
    assert "QUIZ" in lexicon and "QUIZZ" not in lexicon


def test_a_real_english_table_without_a_lexicon_key_uses_enable(tmp_path: Path) -> None:
    config = parse_config({"table": {"state_dir": str(tmp_path / "s")}, "web": {"enabled": False},
                           "sensors": {"board": "/dev/ttyACM0"}}, "t.toml")
    assert "QUIZ" in load_lexicon(config)


def test_a_german_table_without_a_list(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = parse_config({"table": {"state_dir": str(tmp_path / "s"), "language": "de"},
                           "game": {"edition": "german"}, "web": {"enabled": False},
                           "sensors": {"board": "/dev/ttyACM0"}}, "t.toml")
    with pytest.raises(ConfigError, match=r"game\.lexicon: a german table needs a lexicon"):
        load_lexicon(config)
    with caplog.at_level(logging.WARNING):
        lexicon = sim_lexicon(config)
    assert "ÄRGERX" in lexicon  # every word stands
    assert "no german lexicon installed" in caplog.text


def test_the_snapshot_says_whether_challenges_can_be_judged() -> None:
    assert SimulatedTable(default_setup()).snapshot()["judges_words"] is False
    assert SimulatedTable(default_setup(), words=["QUIZ"]).snapshot()["judges_words"] is True


def test_install_enable_takes_the_shipped_copy_without_a_download(empty_data_dir: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "install", "enable"]) == 0
    out = capsys.readouterr().out
    assert "downloading" not in out and "installed enable: 173528 words" in out
    assert "shipped with the referee" in (empty_data_dir / "lexicons" / "enable.json").read_text()


def test_a_damaged_shipped_list_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "lexicons").mkdir()
    (tmp_path / "lexicons" / "enable2k.txt.xz").write_bytes(b"not xz")
    monkeypatch.setattr(lexicon_store, "DATA", tmp_path)
    with pytest.raises(lexicon_store.LexiconError, match="cannot be read"):
        lexicon_store.load_installed("enable")
