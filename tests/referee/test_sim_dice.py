"""Issue 28 item 4: Scramble at the simulated table. `roll SLOT DIE FACE` numbers the dice 1-12 as `referee dice
show` prints them (slots 1-7, faces 1-6 or the face's letter); one die lies in one slot; `roll` alone is a random
roll of the dice in the cup; the tray's die numbers reach the game, so the cup the page shows is the table's."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.errors import EmulatorCommandError
from firmware_bridge.events import DiceTray
from game.scramble.dice import load_dice_set
from referee.service import ServiceParts, TableService
from referee.sim import SimulatedTable, default_setup
from referee.sim.console import execute
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord

DICE = load_dice_set("english").dice


class Tray:
    """The emulator's dice tray as the console uses it (the board's own tray: EmulatedBoard)."""

    def __init__(self) -> None:
        self.board = EmulatedBoard(9, 9, coded=True, buttons=2, slots=7)

    def roll(self, slot: int, die: int, face: int) -> None:
        self.board.roll(slot, die, face)

    def clear_slot(self, slot: int) -> None:
        self.board.clear_slot(slot)

    def tray(self) -> dict[int, tuple[int, int]]:
        return self.board.tray()


def _scramble() -> SimulatedTable:
    table = SimulatedTable(default_setup(kind="scramble"))
    table.control("start", {})
    return table


def test_the_emulated_tray_holds_a_die_in_one_slot_only() -> None:
    board = EmulatedBoard(9, 9, coded=True, buttons=2, slots=7)
    board.roll(0, 3, 2)
    board.roll(0, 3, 4)  # the same die turned in its own slot
    with pytest.raises(EmulatorCommandError, match="die 3 is already in tray slot 0"):
        board.roll(1, 3, 2)
    board.clear_slot(0)
    board.roll(1, 3, 2)
    assert board.tray() == {1: (3, 2)}


def test_roll_numbers_slots_dice_and_faces_as_dice_show_prints_them() -> None:
    table, tray = _scramble(), Tray()
    assert execute(tray, "roll 1 12 6", "en", table) == ""  # die 12's sixth face, into the first slot
    assert tray.tray() == {0: (11, 5)}
    letter = DICE[0].faces[4].letter
    assert execute(tray, f"roll 2 1 {letter.lower()}", "en", table) == ""  # a face by its letter
    assert tray.tray()[1] == (0, 4)
    assert execute(tray, "roll 3 12 1", "en", table) == "roll: die 12 already lies in slot 1: one die, one slot"
    assert execute(tray, "roll 0 1 1", "en", table) == "roll: slot '0': give a number from 1 to 7"
    assert execute(tray, "roll 3 13 1", "en", table) == "roll: die '13': give a number from 1 to 12"
    assert execute(tray, "roll 3 2 7", "en", table) == "roll: face '7': give a number from 1 to 6"
    faces = " ".join(f.letter for f in DICE[1].faces)
    missing = next(ch for ch in "QZXJKVWY" if ch not in faces)
    said = execute(tray, f"roll 3 2 {missing}", "en", table)
    assert said == f"roll: die 2 has no face {missing} (its faces: {faces})"
    assert execute(tray, "roll 3 13 1", "de", table) == "roll: Würfel '13': bitte eine Zahl von 1 bis 12"
    assert tray.tray() == {0: (11, 5), 1: (0, 4)}  # nothing refused reached the tray


def test_a_random_roll_draws_the_dice_to_roll_from_the_cup() -> None:
    table, tray = _scramble(), Tray()
    tray.roll(6, 0, 0)  # a die left in the tray from before: the tray is emptied first
    assert execute(tray, "roll", "en", table, random.Random(5)) == ""
    rolled = tray.tray()
    assert sorted(rolled) == list(range(7)) and len({die for die, _ in rolled.values()}) == 7
    with table.reading() as now:
        assert {die for die, _ in rolled.values()} <= now.cup
    standard = SimulatedTable()
    standard.control("start", {})
    assert execute(Tray(), "roll", "en", standard) == "roll: this table plays with tiles, not dice"


def test_a_die_out_of_the_cup_is_refused_and_the_cup_is_the_tables(tmp_path: Path) -> None:
    cfg = sim_config(state_dir=tmp_path, web=False, fusion="sensors", kind="scramble", clock_mode="none")
    service = TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False))
    try:
        table = service.table
        table.control("start", {})
        # The tray reads dice 6 to 12 (0-based 5 to 11), each on its first face: the sensors know which die is which.
        tray = {slot: (die, 0) for slot, die in enumerate(range(5, 12))}
        service.link = SimpleNamespace(stop=lambda: None)
        for slot, (die, face) in tray.items():  # the tray's slots fill one by one, as its events say
            service._on_board_event(DiceTray(slot, die, face, board_ms=slot))
        snap: Any = table.snapshot()
        assert snap["state"] == "turn" and snap["pending"]["rolled"] == "".join(DICE[d].faces[0].letter
                                                                                 for d in range(5, 12))
        assert snap["cup"] == [1, 2, 3, 4, 5]  # the dice left in the cup: those the tray did not hold
        with table.reading() as now:
            cup = now.cup
        assert cup == frozenset(range(5))
    finally:
        service.close()
    again = TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False))
    try:  # the journal replays the same dice out of the cup
        assert again.table.snapshot()["cup"] == [1, 2, 3, 4, 5]
        assert execute(Tray(), "roll 1 6 1", "en", again.table) == (
            "roll: die 6 is not in the cup (on the mat or in hand); the cup holds 1 2 3 4 5")
    finally:
        again.close()


def test_roll_clear_empties_the_tray() -> None:
    table, tray = _scramble(), Tray()
    assert execute(tray, "roll 1 3 1", "en", table) == "" and execute(tray, "roll 7 4 2", "en", table) == ""
    assert execute(tray, "roll clear", "en", table) == ""
    assert tray.tray() == {}
