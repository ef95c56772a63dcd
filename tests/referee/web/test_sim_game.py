"""End to end: a scripted game on the service's `SimulatedTable` (state machine, rules engine, table clock),
watched and steered through the scoreboard in headless Chromium.

Scores come from the engine, not from the script: the test reads them from the table and checks that the
page shows the same within a second of each push. The table's clock is a `ManualClock`; the page's clock
is Playwright's, paused. Nothing sleeps.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser
sim = pytest.importorskip("referee.sim")

PIN = "390217"
WITHIN = 1000


def test_a_game_on_the_simulated_table(page: Any, sim_table: Any, live_server: Any, ui: Any) -> None:
    table = sim_table
    expect = ui.expect
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect(page.locator("#table-name")).to_have_text(table.snapshot()["table"])
    table.control("start", {})
    ui.check_players(page, table)

    # Anna thinks 40 s, plays QUIZ; the page shows the score, the clocks and the challenge window.
    table.advance(40)
    ui.check_players(page, table)
    table.play("8G QUIZ")
    ui.check_players(page, table)
    assert table.snapshot()["players"][0]["score"] == 44
    expect(page.locator("#pending .challenge-window")).to_contain_text("Time to challenge Anna's play:",
                                                                         timeout=WITHIN)
    expect(page.locator("#moves tbody tr").first).to_contain_text("8G QUIZ")
    table.advance(15)  # the window closes: Ben's turn, his clock runs
    ui.check_players(page, table)
    expect(page.locator("#pending")).to_be_hidden()

    # Ben plays through the I of QUIZ.
    table.advance(75)
    table.play("I5 WAX.ER")
    table.advance(15)
    ui.check_players(page, table)
    expect(page.locator("#moves tbody tr")).to_have_count(2)

    # Anna lays BOARD with a blank for the B; the page asks for its letter and the PIN holder enters it.
    table.advance(33)
    table.place_word("10F bOA.D")
    table.press()
    # The table words the question itself; the page shows it once, not twice.
    expect(page.locator('#alerts [data-code="blank_letter"]')).to_contain_text("F10", timeout=WITHIN)
    expect(page.locator("#pending")).to_be_hidden()
    page.locator("#control summary").click()
    page.locator("#pin").fill(PIN)
    form = page.locator("#form-blank")
    expect(form.locator("[name=square]")).to_have_value("F10")
    form.locator("[name=letter]").fill("b")
    form.locator("button[type=submit]").click()
    expect(page.locator('#board [data-square="F10"]')).to_have_attribute("data-tile", "blank", timeout=WITHIN)
    expect(page.locator('#board [data-square="F10"]')).to_have_text("B")
    ui.check_players(page, table)
    expect(page.locator("#moves tbody tr").first).to_contain_text("10F bOA.D")  # GCG: "." a tile already there
    table.advance(15)

    # Ben plays SHOWY, but the tile on J5 is really an S (a misread letter): corrected with the PIN,
    # the engine re-scores the play.
    table.advance(20)
    table.play("5F SHO.Y")
    before = table.snapshot()["players"][1]["score"]
    ui.check_players(page, table)
    form = page.locator("#form-correct")
    page.locator('#board [data-square="J5"]').click()
    expect(form.locator("[name=square]")).to_have_value("J5")
    form.locator("[name=letter]").fill("s")
    form.locator("button[type=submit]").click()
    expect(page.locator('#board [data-square="J5"]')).to_have_text("S", timeout=WITHIN)
    after = table.snapshot()["players"][1]["score"]
    assert after == before - 3  # Y is worth 4, S 1, on a plain square
    ui.check_players(page, table)
    expect(page.locator("#moves tbody tr").first.locator("td").nth(4)).to_have_text(
        str(table.snapshot()["moves"][-1]["score"]))

    # A control action without the PIN is refused, and the game is as it was.
    seq = table.snapshot()["seq"]
    page.locator("#pin").fill("")
    page.locator('button[data-action="pause"]').click()
    expect(page.locator("#control-status")).to_have_text("Enter the table PIN first.", timeout=WITHIN)
    assert table.snapshot()["seq"] == seq

    # With it, the pause reaches the table and every clock stops on the page.
    page.locator("#pin").fill(PIN)
    page.locator('button[data-action="pause"]').click()
    expect(page.locator("#state")).to_have_text("paused", timeout=WITHIN)
    for card in page.locator(".player .clock").all():
        expect(card).to_have_attribute("data-running", "false")
    ui.check_players(page, table)

    # The downloads come from the same game.
    gcg = page.request.get(f"{server.url}/game.gcg")
    assert gcg.ok and "8G QUIZ" in gcg.text() and gcg.text() == table.gcg()
    png = page.request.get(f"{server.url}/board.png")
    assert png.ok and png.body()[:4] == b"\x89PNG"


def test_a_doubtful_letter_and_a_lost_sensor_on_the_simulated_table(page: Any, sim_table: Any, live_server: Any,
                                                                     ui: Any) -> None:
    table = sim_table
    expect = ui.expect
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.place_word("8G QUI")
    table.place_doubtful("J8")
    table.press()
    # The table asks; the page says so, marks the square and fills in the correction form.
    alert = page.locator('#alerts [data-code="doubtful_letter"]')
    expect(alert).to_contain_text("Which letter is on J8?", timeout=WITHIN)
    expect(page.locator("#pending")).to_be_hidden()  # asked once, in the table's words
    expect(page.locator('#board [data-square="J8"]')).to_have_class(re.compile(r"\bwaiting\b"))
    alert.click()  # the question opens control at the form that answers it
    form = page.locator("#form-correct")
    expect(form.locator("[name=square]")).to_have_value("J8")
    expect(form.locator("[name=letter]")).to_be_focused()
    page.locator("#pin").fill(PIN)
    form.locator("[name=letter]").fill("Z")
    form.locator("button[type=submit]").click()
    expect(page.locator('#board [data-square="J8"]')).to_have_text("Z", timeout=WITHIN)
    expect(page.locator("#alerts .alert")).to_have_count(0)
    ui.check_players(page, table)
    assert table.snapshot()["players"][0]["score"] == 44
    table.advance(15)

    # The sensor board's cable comes out: the page says what is wrong; back in, the alert goes.
    table.unplug()
    table.publish()
    expect(page.locator('#alerts [data-code="board_lost"]')).to_contain_text("sensor board", timeout=WITHIN)
    table.replug()
    table.publish()
    expect(page.locator("#alerts .alert")).to_have_count(0, timeout=WITHIN)
    ui.check_players(page, table)


def test_a_scramble_turn_through_the_pages_roll_form(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(kind="scramble"), clock=sim.ManualClock())
    expect = ui.expect
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect(page.locator("#board .cell")).to_have_count(81)  # the 9x9 mat
    expect(page.locator(".unseen-box")).to_be_hidden()
    expect(page.locator("#bag")).to_have_text(str(table.snapshot()["bag"]))
    expect(page.locator("#bag").locator("xpath=..").locator(".label")).to_have_text("Dice in the cup")
    roll = page.locator("#form-roll")
    expect(roll).to_be_hidden()  # nothing to roll before the start
    table.control("start", {})
    assert table.snapshot()["pending"] == {"roll": 7}

    # The table asks for seven dice; the tray cannot read them, so the letters are typed in.
    expect(page.locator("#pending")).to_have_text("Roll 7 dice.", timeout=WITHIN)
    page.locator("#pending").click()  # the question opens control at the form that answers it
    expect(roll).to_be_visible()
    expect(roll.locator("label")).to_contain_text("Letters of the 7 dice, ? for a blank face")
    letters = roll.locator("[name=letters]")
    expect(letters).to_be_focused()

    # Without the PIN, and with too few letters, nothing reaches the table.
    seq = table.snapshot()["seq"]
    letters.fill("quiz")
    roll.locator("button[type=submit]").click()
    status = page.locator("#control-status")
    expect(status).to_have_text("Enter the table PIN first.", timeout=WITHIN)
    page.locator("#pin").fill(PIN)
    roll.locator("button[type=submit]").click()
    expect(status).to_have_text("Check the input: letters: the table asks for 7 dice: type 7 letters, not 4",
                                timeout=WITHIN)
    letters.fill("quizaeö")  # an English table's dice show no Ö: the table says so
    roll.locator("button[type=submit]").click()
    expect(status).to_have_text("The table refused: roll: no die shows 'Ö'", timeout=WITHIN)
    assert table.snapshot()["seq"] == seq and table.snapshot()["state"] == "roll"

    letters.fill("q u i z a e b")
    roll.locator("button[type=submit]").click()
    expect(status).to_have_text("Done: Dice rolled", timeout=WITHIN)
    expect(page.locator("#pending")).to_have_text("Rolled: QUIZAEB", timeout=WITHIN)
    expect(roll).to_be_hidden()
    expect(page.locator("#state")).to_have_text("playing")
    assert table.snapshot()["pending"] == {"rolled": "QUIZAEB"}
    timer = page.locator("#turn-timer .clock")  # Scramble's 60 s turn timer runs from the roll
    expect(timer).to_have_text(ui.clock_text(table.snapshot()["turn_timer"]["remaining_ms"]), timeout=WITHIN)
    table.advance(20)
    expect(timer).to_have_text(ui.clock_text(table.snapshot()["turn_timer"]["remaining_ms"]), timeout=WITHIN)

    # Anna lays QUIZ on the mat and presses her clock; the engine scores it, the window closes, and the
    # table asks Ben for his roll: the form is back, empty.
    table.play("5E QUIZ")
    ui.check_players(page, table)
    assert table.snapshot()["players"][0]["score"] > 0
    expect(page.locator("#moves tbody tr").first).to_contain_text("5E QUIZ", timeout=WITHIN)
    table.advance(15)
    asked = table.snapshot()["pending"]["roll"]
    expect(page.locator("#pending")).to_have_text(f"Roll {asked} dice.", timeout=WITHIN)
    expect(roll).to_be_visible()
    expect(letters).to_have_value("")
    expect(page.locator("#player-1")).to_have_class(re.compile(r"\bon-turn\b"))
    ui.check_players(page, table)


def test_a_new_game_after_the_end_in_german(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(kind="scramble", scramble_target=10, edition="german",
                                                 language="de", players=("Jürgen", "Ömer")),
                               clock=sim.ManualClock())
    expect = ui.expect
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect(page.locator("#state")).to_have_text("wartet auf Start")
    new_game = page.locator('button[data-action="new_game"]')
    page.locator("#control summary").click()
    page.locator("#pin").fill(PIN)
    expect(new_game).to_be_hidden()  # only once a game has ended
    page.locator('button[data-action="start"]').click()
    expect(page.locator("#pending")).to_have_text("7 Würfel werfen.", timeout=WITHIN)
    roll = page.locator("#form-roll")
    expect(roll.locator("h3")).to_have_text("Gewürfelt (falls Schale oder Kamera sie nicht lesen)")
    expect(roll.locator("label")).to_contain_text("Buchstaben der 7 Würfel, ? für eine Blankoseite")
    roll.locator("[name=letters]").fill("äeüsntr")  # the German dice's umlauts
    roll.locator("button[type=submit]").click()
    expect(page.locator("#pending")).to_have_text("Gewürfelt: ÄEÜSNTR", timeout=WITHIN)

    # Jürgen lays RÄT: past the target of 10 points, the game is over once the challenge window closes.
    table.play("5D RÄT")
    table.advance(15)
    assert table.snapshot()["state"] == "ended"
    expect(page.locator("#state")).to_have_text("Spielende", timeout=WITHIN)
    expect(page.locator("#player-0 .meta")).to_contain_text("gewinnt")
    expect(new_game).to_be_visible()
    expect(new_game).to_have_text("Neue Partie")
    finished = table.gcg()

    # A new game cannot be taken back: the first tap asks, the second one starts it.
    new_game.click()
    expect(new_game).to_have_text("Zum Bestätigen nochmals tippen")
    assert table.snapshot()["state"] == "ended"
    new_game.click()
    expect(page.locator("#state")).to_have_text("wartet auf Start", timeout=WITHIN)
    expect(page.locator("#control-status")).to_have_text("Erledigt: Neue Partie")
    expect(new_game).to_be_hidden()
    expect(page.locator("#moves tbody tr")).to_have_text(["Noch keine Züge"])
    for i in range(2):
        expect(page.locator(f"#player-{i} .score")).to_have_text("0")
    assert "RÄT" in finished and "RÄT" not in table.gcg()

    # The dice of the last game still lie on the mat: the table refuses the start and says where, in German.
    page.locator('button[data-action="start"]').click()
    expect(page.locator("#control-status")).to_have_text(
        "Der Tisch lehnt ab: vor dem Start das Brett abräumen: Steine liegen auf D5, E5, F5", timeout=WITHIN)
    for square in ("D5", "E5", "F5"):
        table.lift(square)
    page.locator('button[data-action="start"]').click()
    expect(page.locator("#pending")).to_have_text("7 Würfel werfen.", timeout=WITHIN)
    expect(roll).to_be_visible()
    ui.check_players(page, table)
