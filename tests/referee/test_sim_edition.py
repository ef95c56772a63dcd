"""`referee run --sim --language de` is the German edition unless `--edition` says otherwise (issue 25 item 3).

On English tiles a German simulated table read the emulated board's Ä as A and scored ÄRGER as ARGER. The
options go through the real command line parser and `sim_edition`, then through the real service on the
emulated board (coded tiles over a pty), so the word the board reports is the word scored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.tiles import load_tile_set
from referee.cli import build_parser
from referee.commands.run import sim_edition
from referee.service import TableService
from referee.sim.parts import sim_config, sim_parts
from referee.table.rules import WordSet

from ..patience import patience


def _edition(*argv: str) -> str:
    args = build_parser().parse_args(["run", "--sim", *argv])
    return sim_edition(args.language, args.edition)


def test_language_de_alone_is_the_german_edition() -> None:
    assert _edition("--language", "de") == "german"
    assert _edition() == "english"


def test_edition_given_wins_over_the_language() -> None:
    assert _edition("--language", "de", "--edition", "english") == "english"
    assert _edition("--edition", "german") == "german"


def test_edition_with_a_configuration_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["run", "--config", str(tmp_path / "t.toml"), "--edition", "german"]) == 2
    assert "--edition is for --sim" in capsys.readouterr().err


def _wait_for(what: str, pred: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + patience(timeout)
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.02)  # polling a condition, not waiting for time to pass
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.pty
def test_a_german_simulated_table_scores_the_emulated_boards_umlaut(tmp_path: Path) -> None:
    edition = _edition("--language", "de")
    cfg = sim_config(state_dir=tmp_path, web=False, fusion="sensors", language="de", edition=edition)
    parts = sim_parts(cfg)
    parts.lexicon = WordSet(["ÄRGER"])
    service = TableService(parts)
    stop = threading.Event()
    service.start()

    def loop() -> None:
        while not stop.wait(0.02):
            service.step()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        table, emu = service.table, service.link.emulator
        _wait_for("the board link", lambda: service.link.picture().connected)
        table.control("start", {})
        for square, letter in zip(("E8", "F8", "G8", "H8", "I8"), "ÄRGER", strict=True):
            emu.place(square, letter)
        _wait_for("the tiles seen", lambda: {"E8", "I8"} <= table.machine.observed.keys())
        emu.press(0)
        snap = _wait_for("the play scored", lambda: (s := table.snapshot())["moves"] and s)
        emu.release(0)
        assert not [a for a in snap["alerts"] if a["code"] in ("doubt", "tile_doubt")], snap["alerts"]
        assert snap["moves"][-1]["notation"] == "8E ÄRGER"
        german = load_tile_set("german")
        assert german.letter_value("Ä") != load_tile_set("english").letter_value("A")  # the test can tell them apart
        assert snap["players"][0]["score"] == 2 * german.rack_value("ÄRGER")  # E8-I8: the double word star only
        assert service.config.game.edition == "german"
    finally:
        stop.set()
        thread.join(5)
        service.close()
