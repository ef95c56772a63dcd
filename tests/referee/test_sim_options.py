"""Issue 28 item 1: the simulated table's players, rules, clocks and edition chosen with options of `run --sim`;
a wrong value is named by its option, and the options are refused with a configuration file (it says them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.cli import build_parser, main
from referee.commands.run import _sim_config
from referee.config import ConfigError


def _config(tmp_path: Path, *options: str) -> object:
    args = build_parser().parse_args(["run", "--sim", "--state-dir", str(tmp_path), *options])
    return _sim_config(args)


def test_players_rules_clocks_and_edition_come_from_the_options(tmp_path: Path) -> None:
    config: object = _config(tmp_path, "--players", "Cleo, Dan,Eve", "--challenge", "five-point",
                             "--clock", "tournament", "--minutes", "2", "--edition", "german")
    game, clocks = config.game, config.clocks  # type: ignore[attr-defined]
    assert game.players == ("Cleo", "Dan", "Eve") and game.challenge == "five-point" and game.edition == "german"
    assert clocks.mode == "tournament" and clocks.minutes_per_player == 2
    assert config.sensors.board.endswith("buttons=3")  # type: ignore[attr-defined]  # a clock button each
    default: Any = _config(tmp_path)
    assert default.game.players == ("Anna", "Ben") and default.clocks.minutes_per_player == 25


@pytest.mark.parametrize(("options", "said"), [
    (("--players", "Solo"), "--sim: --players: "),
    (("--minutes", "0"), "--sim: --minutes: "),
    (("--game", "scramble", "--clock", "tournament"), "--sim: --clock: Scramble uses its 60-second turn timer"),
])
def test_a_wrong_option_is_named(tmp_path: Path, options: tuple[str, ...], said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _config(tmp_path, *options)
    assert str(caught.value).startswith(said)


def test_the_game_options_are_for_the_simulated_table_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--config", str(tmp_path / "table.toml"), "--players", "A,B", "--minutes", "3"]) == 2
    err = capsys.readouterr().err
    assert "referee: --players, --minutes are for --sim; with --config the file says it" in err
