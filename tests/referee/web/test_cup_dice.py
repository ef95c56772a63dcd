"""Issue 28 item 4: the page shows which dice are left in Scramble's cup, numbered as `referee dice show` prints
them (the numbers `roll SLOT DIE FACE` takes at the simulated table), in headless Chromium."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser
sim = pytest.importorskip("referee.sim")

PIN = "390217"
WITHIN = 1000


def test_the_page_shows_the_dice_left_in_the_cup(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(kind="scramble"), clock=sim.ManualClock())
    expect = ui.expect
    server = live_server(table, PIN)
    ui.open(page, server.url)
    box = page.locator(".cup-box")
    expect(box).to_be_visible()
    expect(box.locator(".label")).to_have_text("Dice in the cup, by number")
    expect(page.locator("#cup-dice")).to_have_text(" ".join(str(d) for d in range(1, 13)))
    table.control("start", {})
    dice = table.machine.game.dice_set.dice
    out = [1, 2, 4, 6, 7, 9, 12]  # the tray read these dice, each on its first face
    table.roll("".join(dice[d - 1].faces[0].letter for d in out), [d - 1 for d in out])
    left = table.snapshot()["cup"]
    assert left == [3, 5, 8, 10, 11]
    expect(page.locator("#cup-dice")).to_have_text(" ".join(map(str, left)), timeout=WITHIN)
    expect(page.locator("#bag")).to_have_text(str(len(left)))


def test_a_standard_game_has_no_dice_to_show(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(clock=sim.ManualClock())
    server = live_server(table, PIN)
    ui.open(page, server.url)
    ui.expect(page.locator("#bag")).to_have_text(str(table.snapshot()["bag"]))
    ui.expect(page.locator(".cup-box")).to_be_hidden()
