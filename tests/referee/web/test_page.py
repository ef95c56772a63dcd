"""The page in headless Chromium: a scripted game shows every score and clock within 1 s, control works
with the PIN and is refused without it, both languages, and a phone-sized screen.

The browser's clock is Playwright's fake clock, paused: the page shows exactly the server's clock values,
and the test moves the page's time on to check the animation between pushes. Nothing sleeps.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.journal import Journal

pytestmark = pytest.mark.browser

PIN = "390217"
WITHIN = 1000  # ms: every push must be on the page within a second


def expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def test_a_scripted_game_shows_every_score_and_clock(page: Any, sim_table: Any, live_server: Any, ui: Any) -> None:
    table = sim_table
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect()(page.locator("#state")).to_have_text("waiting to start")
    table.control("start", {})
    ui.check_players(page, table)
    script = [  # seconds of thought, the move, the tiles it lays, its score on the real board
        (95.0, "8H QUIZ", "H8=Q I8=U J8=I K8=Z", 44),
        (61.5, "K6 AD.E", "K6=A K7=D K9=E", 14),
        (130.2, "9G JOE", "G9=J H9=O I9=E", 33),
        (20.0, "L4 WAX", "L4=W L5=A L6=X", 35),
    ]
    for seconds, move, tiles, score in script:
        table.advance(seconds)
        table.play(move)
        table.advance(15)  # the challenge window closes: the move stands
        ui.check_players(page, table)
        rows = page.locator("#moves tbody tr")
        expect()(rows).to_have_count(len(table.snapshot()["moves"]), timeout=WITHIN)
        expect()(rows.first).to_contain_text(move)
        expect()(rows.first.locator("td").nth(4)).to_have_text(str(score))
        for square in tiles.split():
            cell = page.locator(f'#board [data-square="{square[:-2]}"]')
            expect()(cell).to_have_text(square[-1], timeout=WITHIN)
            expect()(cell).to_have_class(re.compile(r"\blast\b"))
        expect()(page.locator("#bag")).to_have_text(str(table.snapshot()["bag"]))
        # A clock second passes on the table: the page follows the pushed value.
        table.advance(1.0)
        ui.check_players(page, table)
    # Between pushes the page animates the running clock from the server's value, for display only.
    running = next(p for p in table.snapshot()["players"] if p["clock"]["running"])
    index = table.snapshot()["players"].index(running)
    page.clock.run_for(3000)
    left = running["clock"]["remaining_ms"]
    expect()(page.locator(f"#player-{index} .clock")).to_have_text(ui.clock_text(left - 3000))
    expect()(page.locator(f"#player-{index} .clock")).to_have_attribute(
        "data-remaining-ms", str(running["clock"]["remaining_ms"]))
    table.lift("H8")  # a played tile lifted outside a turn: the table alerts, naming the square
    alert = table.snapshot()["alerts"][-1]
    assert alert["code"] == "tile_moved" and alert["squares"] == ["H8"]
    expect()(page.locator("#alerts .alert")).to_have_text(alert["text"], timeout=WITHIN)
    expect()(page.locator('#board [data-square="H8"]')).to_have_class(re.compile(r"\bflagged\b"))


def test_a_blank_letter_and_a_correction_with_the_pin(page: Any, table: Any, live_server: Any, ui: Any) -> None:
    server = live_server(table, PIN)
    table.control("start", {})
    table.play("8H QUIZ")
    table.advance(15)  # the challenge window closes: QUIZ stands
    table.place_word("K6 AD.e")  # ADZE with a blank for its E, laid face down
    table.press()
    ui.open(page, server.url)
    question = next(a["text"] for a in table.snapshot()["alerts"] if a["code"] == "blank_letter")
    assert "K9" in question  # the table asks in its alert; the page's own prompt then stays out of the way
    expect()(page.locator("#alerts")).to_contain_text(question)
    page.locator("#control summary").click()
    page.locator("#pin").fill(PIN)
    form = page.locator("#form-blank")
    expect()(form.locator("[name=square]")).to_have_value("K9")  # filled in from what the table waits for
    form.locator("[name=letter]").fill("e")
    form.locator("button[type=submit]").click()
    expect()(page.locator("#control-status")).to_have_text("Done: Letter of a blank", timeout=WITHIN)
    cell = page.locator('#board [data-square="K9"]')
    expect()(cell).to_have_attribute("data-tile", "blank", timeout=WITHIN)
    expect()(cell).to_have_text("E")
    expect()(page.locator("#alerts")).not_to_contain_text(question)
    expect()(page.locator("#pending")).to_contain_text("Time to challenge Ben's play")  # the blank is no longer asked
    expect()(page.locator("#pending")).not_to_contain_text("K9")
    assert table.controls[-1] == ("blank", {"square": "K9", "letter": "E"})

    table.advance(15)
    table.play("9G JOE")  # 33 for Anna: JOE, QO and UE
    table.advance(15)
    ui.check_players(page, table)
    page.locator('#board [data-square="G9"]').click()  # tapping a tile fills in its square
    form = page.locator("#form-correct")
    expect()(form.locator("[name=square]")).to_have_value("G9")
    form.locator("[name=letter]").fill("M")
    form.locator("button[type=submit]").click()
    expect()(page.locator('#board [data-square="G9"]')).to_have_text("M", timeout=WITHIN)
    expect()(page.locator("#player-0 .score")).to_have_text(str(44 + 23), timeout=WITHIN)  # the table re-scored
    expect()(page.locator("#moves tbody tr").first.locator("td").nth(4)).to_have_text("23")  # MOE, QO, UE

    # Malformed input: a clear message, nothing sent to the table.
    sent = len(table.controls)
    form.locator("[name=square]").fill("Z99")
    form.locator("button[type=submit]").click()
    expect()(page.locator("#control-status")).to_have_text(re.compile(r"Check the input: square: Z99 is off the board"),
                                                         timeout=WITHIN)
    assert len(table.controls) == sent


def test_a_control_action_is_refused_without_the_pin(page: Any, table: Any, live_server: Any, ui: Any) -> None:
    server = live_server(table, PIN)
    ui.open(page, server.url)
    page.locator("#control summary").click()
    page.locator('button[data-action="start"]').click()
    status = page.locator("#control-status")
    expect()(status).to_have_text("Enter the table PIN first.", timeout=WITHIN)
    expect()(status).to_have_attribute("data-kind", "error")
    page.locator("#pin").fill("0000")
    page.locator('button[data-action="start"]').click()
    expect()(status).to_have_text("Wrong PIN.", timeout=WITHIN)
    assert table.controls == [] and table.snapshot()["state"] == "waiting"
    expect()(page.locator("#state")).to_have_text("waiting to start")
    page.locator("#pin").fill(PIN)
    page.locator('button[data-action="start"]').click()
    expect()(page.locator("#state")).to_have_text("playing", timeout=WITHIN)


def test_without_a_configured_pin_the_page_says_control_is_off(page: Any, table: Any, live_server: Any,
                                                               ui: Any) -> None:
    server = live_server(table, None)
    ui.open(page, server.url)
    page.locator("#control summary").click()
    expect()(page.locator("#control-disabled")).to_have_text(
        "Control is disabled: this table has no PIN configured.")
    expect()(page.locator("#control-body")).to_be_hidden()


def test_german_text_and_a_phone_sized_screen(browser: Any, make_sim_table: Any, live_server: Any, ui: Any) -> None:
    table = make_sim_table(players=("Jürgen", "Ömer"), language="de", edition="german")
    server = live_server(table, PIN)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        ui.open(page, server.url)
        table.control("start", {})
        table.play("8H ÄU")
        table.advance(15)  # the challenge window closes: the move stands
        expect()(page.locator("#state")).to_have_text("Spiel läuft", timeout=WITHIN)
        expect()(page.locator("html")).to_have_attribute("lang", "de")
        expect()(page.locator("h2")).to_have_text("Züge")
        expect()(page.locator("#player-1 .meta")).to_contain_text("am Zug")
        expect()(page.locator('#board [data-square="H8"]')).to_have_text("Ä")
        ui.check_players(page, table)
        # One column, nothing wider than the phone, and the board fits the width.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#board").bounding_box()
        assert box is not None and box["width"] <= 390 and box["width"] > 300
        # The language can be switched by hand.
        page.locator("#lang").click()
        expect()(page.locator("h2")).to_have_text("Moves")
        expect()(page.locator("#state")).to_have_text("playing")
    finally:
        context.close()


def test_the_other_forms_reach_the_table_and_its_refusals_are_shown(page: Any, table: Any, live_server: Any,
                                                                   ui: Any) -> None:
    server = live_server(table, PIN)
    table.control("start", {})
    ui.open(page, server.url)
    page.locator("#control summary").click()
    page.locator("#pin").fill(PIN)
    form = page.locator("#form-exchange")
    form.locator("[name=count]").fill("3")
    form.locator("button[type=submit]").click()
    # An exchange cannot be taken back: the first tap only asks to confirm.
    expect()(form.locator("button[type=submit]")).to_have_text("Tap again to confirm")
    assert table.controls == [("start", {})]
    form.locator("button[type=submit]").click()
    expect()(form.locator("button[type=submit]")).to_have_text("Exchange")
    expect()(page.locator("#moves tbody tr").first).to_contain_text("(exchange)", timeout=WITHIN)
    assert table.controls[-1] == ("exchange", {"count": 3})
    page.locator('button[data-action="pass"]').click()
    page.clock.run_for(4100)  # the second tap came too late: nothing was sent
    expect()(page.locator('button[data-action="pass"]')).to_have_text("Pass")
    assert table.controls[-1][0] == "exchange"
    page.locator('button[data-action="pass"]').click()
    page.locator('button[data-action="pass"]').click()
    expect()(page.locator("#moves tbody tr").first).to_contain_text("(pass)", timeout=WITHIN)
    # Forms of other states are not offered (issue 25): no challenge without a play, no racks mid-game.
    expect()(page.locator("#form-challenge")).to_be_hidden()
    expect()(page.locator("#form-racks")).to_be_hidden()
    table.play("8E QUIZ")  # Anna: a play open to challenge
    form = page.locator("#form-challenge")
    expect()(form).to_be_visible(timeout=WITHIN)
    expect()(page.locator("#form-exchange")).to_be_hidden()
    form.locator("[name=player]").select_option("Ben")
    form.locator("[name=words]").fill("2")
    form.locator("button[type=submit]").click()
    form.locator("button[type=submit]").click()
    expect()(page.locator("#control-status")).to_contain_text("the number of words challenged is 1 to 1",
                                                             timeout=WITHIN)  # refused: nothing reached the table
    form.locator("[name=words]").fill("")
    form.locator("button[type=submit]").click()
    form.locator("button[type=submit]").click()
    expect()(page.locator("#moves tbody tr").first).to_contain_text("(lost turn)", timeout=WITHIN)
    assert table.controls[-1] == ("challenge", {"player": 1})  # words left empty: not sent, the table takes 1
    assert ("challenge", {"player": 1, "words": 2}) not in table.controls


def test_the_turn_timer_and_overtime(page: Any, make_sim_table: Any, live_server: Any, ui: Any) -> None:
    timer = page.locator("#turn-timer")
    ui.open(page, live_server(make_sim_table(), PIN).url)  # game clocks only: no turn timer to show
    expect()(timer).to_be_hidden()
    table = make_sim_table(clock_mode="turn", turn_seconds=2.5)  # a sand timer of 2.5 s, to reach overtime soon
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    expect()(timer).to_be_visible(timeout=WITHIN)
    clock = timer.locator(".clock")
    expect()(clock).to_have_text("0:03")
    # the started game's picture first (0:03 too, but running): the page's clock counts only a running timer
    expect()(clock).to_have_attribute("data-running", "true", timeout=WITHIN)
    page.clock.run_for(2000)
    expect()(clock).to_have_text("0:01")
    expect()(clock).to_have_class(re.compile(r"\blow\b"))
    page.clock.run_for(2000)  # past zero: overtime, shown with a minus and in its own colour
    expect()(clock).to_have_text("−0:01")
    expect()(clock).to_have_class(re.compile(r"\bovertime\b"))
    table.advance(4)  # the table's time: 1.5 s into overtime, then the director pauses the game
    table.director("pause", {}, by="director", command_id="pause-1")
    assert table.snapshot()["turn_timer"] == {"remaining_ms": -1500, "running": False}
    # the server's value wins over the page's own count
    expect()(clock).to_have_text("−0:01", timeout=WITHIN)
    expect()(clock).to_have_attribute("data-running", "false")
    page.clock.run_for(5000)
    expect()(clock).to_have_text("−0:01")


def test_a_screen_across_the_room_shows_the_game_only(page: Any, table: Any, live_server: Any, ui: Any) -> None:
    server = live_server(table, PIN)
    ui.open(page, f"{server.url}/?display=tv")
    table.control("start", {})
    table.play("H8 QI")
    ui.check_players(page, table)
    expect()(page.locator("#control")).to_be_hidden()
    expect()(page.locator(".tools")).to_be_hidden()
    expect()(page.locator("#board")).to_be_visible()


def test_a_lost_connection_is_shown_not_hidden(page: Any, table: Any, live_server: Any, ui: Any) -> None:
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect()(page.locator("html")).not_to_have_class(re.compile(r"\boffline\b"))
    server.stop()  # the service goes away: the scores on the page may be stale from now on
    expect()(page.locator("html")).to_have_class(re.compile(r"\boffline\b"), timeout=5000)
    expect()(page.locator("#connection")).to_have_text("reconnecting…")
    expect()(page.locator("#connection")).to_have_attribute("data-connected", "false")


RACK = "AEIOULN"  # seven tiles worth 7: what a player has left when the game ends on scoreless turns


def end_on_passes(table: Any, racks: tuple[str, str] = (RACK, RACK)) -> None:
    """Pass until the table asks for the racks (six scoreless turns), then enter them: the game ends."""
    while table.snapshot()["state"] == "turn":
        table.control("pass", {})
    for player, tiles in enumerate(racks):
        table.control("racks", {"player": player, "tiles": tiles})
    assert table.snapshot()["state"] == "ended"


def test_the_end_of_the_game_shows_who_won(page: Any, make_sim_table: Any, live_server: Any, ui: Any) -> None:
    table = make_sim_table()
    ui.open(page, live_server(table, PIN).url)
    table.control("start", {})
    table.play("8H QI")  # 22 for Anna, then nobody scores again
    table.advance(15)
    end_on_passes(table)
    assert table.snapshot()["result"] == {"winners": [0], "reason": "score"}
    expect()(page.locator("#state")).to_have_text("game over", timeout=WITHIN)
    expect()(page.locator("#player-0")).to_have_class(re.compile(r"\bwinner\b"))
    expect()(page.locator("#player-0 .meta")).to_contain_text("wins")
    expect()(page.locator("#player-1")).not_to_have_class(re.compile(r"\bwinner\b"))

    table = make_sim_table()  # a tie: nobody scores, the same racks; both share the win
    ui.open(page, live_server(table, PIN).url)
    table.control("start", {})
    end_on_passes(table)
    assert table.snapshot()["result"] == {"winners": [0, 1], "reason": "shared"}
    expect()(page.locator("#player-1 .meta")).to_contain_text("shares the win", timeout=WITHIN)
    expect()(page.locator("#player-0 .meta")).to_contain_text("shares the win")

    table = make_sim_table()  # a tie after the racks (-7 each), decided on the score before them: Ben's 4
    ui.open(page, live_server(table, PIN).url)
    table.control("start", {})
    table.control("pass", {})
    table.play("8H AT")
    table.advance(15)
    end_on_passes(table, (RACK, "DGBAEIO"))
    assert table.snapshot()["result"] == {"winners": [1], "reason": "tie_break"}
    expect()(page.locator("#player-1 .meta")).to_contain_text("wins on the score before the racks", timeout=WITHIN)
    expect()(page.locator("#player-1")).to_have_class(re.compile(r"\bwinner\b"))
    expect()(page.locator("#player-0")).not_to_have_class(re.compile(r"\bwinner\b"))
    expect()(page.locator("#player-0 .meta")).not_to_contain_text("win")

    # Anna runs past the overtime limit (clocks set to "lose", 3 s each way): Ben wins without a move
    table = make_sim_table(minutes_per_player=0.05, overtime_limit_minutes=0.05, on_max_overtime="lose")
    ui.open(page, live_server(table, PIN).url)
    table.control("start", {})
    table.advance(10)
    assert table.snapshot()["result"] == {"winners": [1], "reason": "lost_on_time"}
    expect()(page.locator("#player-0 .meta")).to_contain_text("lost on time", timeout=WITHIN)
    expect()(page.locator("#player-0")).not_to_have_class(re.compile(r"\bwinner\b"))
    expect()(page.locator("#player-1")).to_have_class(re.compile(r"\bwinner\b"))
    expect()(page.locator("#player-1 .meta")).to_contain_text("wins")


def test_a_table_that_refuses_a_new_game_is_heard(page: Any, make_recorded_table: Any, live_server: Any, ui: Any,
                                                  tmp_path: Path) -> None:
    # The SD card stops answering as the next game is opened: the table refuses, its game unchanged.
    journal = Journal(tmp_path / "journal.sqlite3")
    table = make_recorded_table(journal=journal)
    server = live_server(table, PIN)
    ui.open(page, server.url)
    page.locator("#control summary").click()
    page.locator("#pin").fill(PIN)
    new_game = page.locator('button[data-action="new_game"]')
    expect()(new_game).to_be_hidden()
    table.control("start", {})
    table.play("8H QI")
    table.advance(15)
    expect()(new_game).to_be_hidden()
    end_on_passes(table)
    expect()(new_game).to_be_visible(timeout=WITHIN)
    journal._db.execute("PRAGMA query_only=ON")  # as good as a full or read-only card for every write
    new_game.click()
    new_game.click()
    expect()(page.locator("#control-status")).to_contain_text(
        "The table refused: the table cannot write its journal, so nothing was changed:", timeout=WITHIN)
    assert table.controls[-1] == ("new_game", {})
    expect()(page.locator("#state")).to_have_text("game over")  # the finished game stays on the page
    expect()(page.locator("#moves tbody tr")).to_have_count(len(table.snapshot()["moves"]))  # QI, the passes, racks
