"""A board that cannot play the game is refused with the reason (issue 26): a Scramble game on a 15x15 emulator,
a standard game on a 9x9 one, `board emulate --slots 100`, a real board whose HELLO is the wrong size.

Before, all of these started: the table waited for tiles on squares its game does not have."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.core import DOWN, LinkCore
from firmware_bridge.events import Hello, LinkLost
from firmware_bridge.firmware import wire
from referee.board_fit import board_misfit, game_board_size
from referee.config import ConfigError, parse_config
from referee.words import say

from ..patience import patience
from .wordlists import write_word_list

SCRAMBLE_ON_9X9 = "Scramble: it is played on 9x9"


def _table_file(tmp_path: Path, kind: str, board: str) -> Path:
    words = write_word_list(tmp_path / "words.txt")
    cfg = tmp_path / "table.toml"
    cfg.write_text(f"""
[table]
state_dir = "{tmp_path / 'state'}"
[game]
kind = "{kind}"
players = ["Anna", "Ben"]
lexicon = "{words}"
[sensors]
board = "{board}"
[web]
host = "127.0.0.1"
port = 18080
pin = "730591"
""", encoding="utf-8")
    return cfg


@pytest.mark.parametrize(("kind", "board", "said"), [
    ("scramble", "emulator://15x15?coded=1&buttons=2&slots=7", f"a 15x15 board cannot play {SCRAMBLE_ON_9X9}"),
    ("scramble-advanced", "emulator://15x15?coded=1", f"a 15x15 board cannot play {SCRAMBLE_ON_9X9}"),
    ("standard", "emulator://9x9?coded=1&buttons=2", "a 9x9 board cannot play the standard game: it is played on "
                                                     "15x15"),
    ("scramble", "emulator://9x9?coded=1&slots=3", "a dice tray of 3 slot(s) cannot hold a roll of 7 dice"),
    ("standard", "emulator://15x15?coded=1&buttons=2&slots=100", "slots 100 is outside 0 to 21 (a tray holds each "
                                                                "die once"),
])
def test_referee_run_refuses_an_emulated_board_that_cannot_play_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, board: str, said: str) -> None:
    from referee.cli import main

    cfg = _table_file(tmp_path, kind, board)
    assert main(["run", "--config", str(cfg)]) == 2  # a configuration error: systemd does not restart it
    err = capsys.readouterr().err
    assert err.startswith(f"referee: {cfg}: sensors.board: ") and said in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "state" / "games.sqlite3").exists()  # no game opened on it


@pytest.mark.parametrize(("kind", "board"), [("standard", "emulator://15x15?coded=1&buttons=2"),
                                             ("standard", "emulator://15x15"),
                                             ("scramble", "emulator://9x9?coded=1&buttons=2&slots=7"),
                                             ("scramble", "emulator://9x9?coded=1"),
                                             ("scramble-advanced", "emulator://9x9?slots=12"),
                                             ("standard", "/dev/ttyACM0")])
def test_a_board_that_fits_the_game_is_accepted(tmp_path: Path, kind: str, board: str) -> None:
    config = parse_config({"game": {"kind": kind, "lexicon": "enable"}, "sensors": {"board": board},
                           "web": {"enabled": False}}, source="table.toml")
    assert config.sensors.board == board


def test_the_game_sizes_are_the_layouts() -> None:
    assert game_board_size("standard") == (15, 15)
    assert game_board_size("scramble") == game_board_size("scramble-advanced") == (9, 9)
    assert board_misfit("standard", 15, 15, slots=3) is None  # a standard game ignores a tray
    misfit = board_misfit("scramble", 15, 15)
    assert misfit is not None
    said = misfit.phrase
    assert say(said.catalogue, said.code, "de", **said.fields) == ("ein Brett mit 15x15 Feldern kann Scramble nicht "
                                                                   "spielen: es wird auf 9x9 gespielt")
    assert str(misfit) == "a 15x15 board cannot play Scramble: it is played on 9x9"


def test_a_config_error_names_the_key_for_a_scramble_game_on_the_standard_board() -> None:
    with pytest.raises(ConfigError) as exc:
        parse_config({"game": {"kind": "scramble"}, "sensors": {"board": "emulator://15x15?coded=1"},
                      "web": {"enabled": False}}, source="table.toml")
    assert exc.value.key == "sensors.board" and "game.kind = 'scramble'" in exc.value.reason


def test_board_emulate_refuses_a_tray_no_dice_can_fill(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["board", "emulate", "--slots", "100"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --slots: 100 is outside 0 to 21: a tray holds each die once and a slot's 7 switches name " \
           "dice 0 to 20 only" in err
    assert "Traceback" not in err


def _hello(width: int, height: int, slots: int = 0) -> bytes:
    return wire.encode_frame(wire.HELLO, 0, wire.pack_hello(width, height, wire.CAP_CODED, 2, slots, 30, 1000))


def test_the_link_refuses_a_board_its_owner_does_not_accept() -> None:
    asked: list[Hello] = []

    def accept(hello: Hello) -> str | None:
        asked.append(hello)
        return None if (hello.width, hello.height) == (15, 15) else f"a {hello.width}x{hello.height} board"

    core = LinkCore(accept=accept)
    core.connection_made(0.0)
    events = core.data_received(_hello(9, 9), 0.01)
    assert [e.reason for e in events if isinstance(e, LinkLost)] == ["board refused: a 9x9 board"]
    assert not any(isinstance(e, Hello) for e in events) and core.state == DOWN
    assert core.take_outgoing() == b""  # no GET_BOARD to a board we do not serve
    core.connection_made(5.0)  # the right board plugged in instead: served
    events = core.data_received(_hello(15, 15), 5.01)
    assert [e.width for e in events if isinstance(e, Hello)] == [15] and core.state != DOWN
    assert [(h.width, h.height) for h in asked] == [(9, 9), (15, 15)]


def _wait_for(what: str, pred: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + patience(timeout)
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.02)  # polling a condition, not waiting for time to pass
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.pty
def test_a_real_board_of_the_wrong_size_is_refused_and_the_page_says_why(tmp_path: Path) -> None:
    """A device path cannot be checked before it answers: its HELLO is. A 9x9 board behind a pty at a standard
    table: the link refuses it, the page shows board_unfit with the reason, nothing it reports reaches the game."""
    from referee.service import TableService
    from referee.sim.parts import sim_config, sim_parts

    config = sim_config(state_dir=tmp_path, web=False, fusion="sensors", clock_mode="none", language="de")
    parts = sim_parts(config)
    parts.board_url = "emulator://9x9?coded=1&buttons=2"  # as a real board's HELLO would say it
    parts.board_port = None  # not the 15x15 board the simulated table made: the link opens the URL
    service = TableService(parts)
    try:
        service.start()
        alert = _wait_for("the board_unfit alert", lambda: next(
            (a for a in service.table.snapshot()["alerts"] if a["code"] == "board_unfit"), None))
        assert alert["text"].startswith("Das Sensorbrett passt nicht zu diesem Spiel (ein Brett mit 9x9 Feldern "
                                        "kann das Standardspiel nicht spielen: es wird auf 15x15 gespielt)")
        assert service.link is not None and not service.link.picture().connected
        assert service.link.core.refused == "a 9x9 board cannot play the standard game: it is played on 15x15"
        service.link.emulator.place("E5", "Q")
        service.step()
        assert not service.table.machine.observed
    finally:
        service.close()
