"""Issue 28 item 2: `referee run --sim --state-dir DIR` again after Ctrl-C resumes the game on an emulated board
that was made afresh (empty): the service lays it again from the journal's last picture, so the resumed game
does not flag every tile as "moved or lifted outside a turn"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.service import TableService
from referee.sim.parts import sim_config, sim_parts
from referee.table.rules import EveryWord

from .test_service import wait_for

pytestmark = pytest.mark.pty


def _service(state: Path) -> TableService:
    cfg = sim_config(state_dir=state, web=False, fusion="sensors", clock_mode="none")
    parts = sim_parts(cfg)
    parts.lexicon = EveryWord()
    service = TableService(parts)
    service.start()
    return service


def _codes(service: TableService) -> set[str]:
    return {a["code"] for a in service.table.snapshot()["alerts"]}


def _step_until(service: TableService, what: str, pred: Any) -> Any:
    def once() -> Any:
        service.step()
        return pred()
    return wait_for(what, once)


def test_a_resumed_simulated_game_finds_its_tiles_on_the_emulated_board(tmp_path: Path) -> None:
    first = _service(tmp_path)
    try:
        emu, table = first.link.emulator, first.table
        _step_until(first, "the board link", lambda: first.link.picture().connected)
        table.control("start", {})
        for square, letter in (("H8", "Q"), ("I8", "I")):
            emu.place(square, letter)
        emu.place("H9", "?")  # a blank laid, the next play's first tile, not yet committed
        _step_until(first, "the tiles seen", lambda: {"H8", "I8", "H9"} <= table.observed_squares())
        emu.lift("H9")
        _step_until(first, "the blank lifted", lambda: "H9" not in table.observed_squares())
        emu.press(0)
        _step_until(first, "the play scored", lambda: table.snapshot()["players"][0]["score"] > 0)
        emu.release(0)
        emu.place("H10", "?")  # the next player's tile, on the board at Ctrl-C
        _step_until(first, "the next tile seen", lambda: "H10" in table.observed_squares())
        game = table.game_id
    finally:
        first.close()

    again = _service(tmp_path)
    try:
        table = again.table
        assert table.game_id == game and again.relaid == 3
        assert again.link.emulator.board.occupied().keys() == {"H8", "I8", "H10"}
        _step_until(again, "the board link again", lambda: again.link.picture().connected)
        squares = _step_until(again, "the board's first picture", lambda: again.link.picture().squares)
        assert squares == {"H8": "Q", "I8": "I", "H10": "?"}  # the blank, read as one
        again.refresh_picture()
        assert not _codes(again) & {"tile_moved", "tiles_added", "journal_behind"}
        snap = table.snapshot()
        assert snap["state"] == "turn" and snap["board"][7][7:9] == "QI"
    finally:
        again.close()
