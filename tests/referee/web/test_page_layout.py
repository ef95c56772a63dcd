"""What the page draws from the snapshot alone: the score sheet inside its box at every width, the board's
coordinates, start square and premium names from the layout (Scramble's 9x9 mat included), the German
page's own words, and the score sheet's marks (a withdrawn play, one label per kind). Headless Chromium."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser
sim = pytest.importorskip("referee.sim.table")

PIN = "4711"
WITHIN = 1000
# from a phone to a TV, with every width between 1024 and 1600 where the sheet shares the row with the board
WIDTHS = [(390, 844), (768, 1024), (1024, 768), (1100, 800), (1200, 800), (1280, 800), (1366, 768),
          (1440, 900), (1536, 864), (1600, 900), (1920, 1080)]


def expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def test_the_score_sheet_fits_its_box_at_every_width(browser: Any, make_sim_table: Any, live_server: Any,
                                                      ui: Any) -> None:
    table = make_sim_table(players=("Maximiliane Schwarzenberger", "Bartholomew Fitzwilliam"))
    server = live_server(table, PIN)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        ui.open(page, server.url)
        table.control("start", {})
        for move in ("8H BUTAZON", "8H .......E", "8A OXYPHEN........"):  # the longest word, scores of 3 digits
            table.play(move)
            table.advance(15)
        expect()(page.locator("#moves tbody tr")).to_have_count(3, timeout=WITHIN)
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            sizes = page.evaluate("""() => {
                const wrap = document.querySelector('.moves-wrap');
                const table = document.querySelector('#moves');
                const box = wrap.getBoundingClientRect();
                const cells = [...table.querySelectorAll('th, td')].map((c) => c.getBoundingClientRect());
                return {box: box.right, table: table.getBoundingClientRect().right, scroll: wrap.scrollWidth,
                        client: wrap.clientWidth, right: Math.max(...cells.map((c) => c.right)),
                        page: document.documentElement.scrollWidth,
                        wider: [...document.querySelectorAll('body *')]
                          .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
                          .map((e) => `${e.tagName}.${e.className}#${e.id}`).slice(0, 5)};
            }""")
            where = f"at {width}x{height}: {sizes}"
            assert sizes["scroll"] <= sizes["client"], where  # nothing to scroll sideways to: Total is seen
            assert sizes["right"] <= sizes["box"] + 0.5, where
            assert sizes["page"] <= width, where
            total = page.locator("#moves thead th").nth(5)
            tbox = total.bounding_box()
            assert tbox is not None and tbox["x"] + tbox["width"] <= sizes["box"] + 0.5, where
    finally:
        context.close()


def test_scrambles_mat_has_its_own_start_square_and_coordinates(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(kind="scramble"), clock=sim.ManualClock())
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect()(page.locator("#board .cell")).to_have_count(81)
    expect()(page.locator('#board [data-start="true"]')).to_have_count(1)
    expect()(page.locator('#board [data-square="E5"]')).to_have_attribute("data-start", "true")
    star = page.evaluate("""() => [...document.querySelectorAll('#board .cell')]
        .filter((c) => getComputedStyle(c, '::after').content === '"★"').map((c) => c.dataset.square)""")
    assert star == ["E5"]
    expect()(page.locator("#board .coord.col")).to_have_text([chr(65 + c) for c in range(9)])
    expect()(page.locator("#board .coord.row")).to_have_text([str(r) for r in range(1, 10)])
    # A coordinate stands in line with its squares: column E above E5, row 5 left of it.
    e5 = page.locator('#board [data-square="E5"]').bounding_box()
    col = page.locator("#board .coord.col").nth(4).bounding_box()
    row = page.locator("#board .coord.row").nth(4).bounding_box()
    assert e5 and col and row
    assert abs((col["x"] + col["width"] / 2) - (e5["x"] + e5["width"] / 2)) < 2 and col["y"] < e5["y"]
    assert abs((row["y"] + row["height"] / 2) - (e5["y"] + e5["height"] / 2)) < 2 and row["x"] < e5["x"]
    # No exchange and no racks at the end in Scramble: those forms are not offered.
    page.locator("#control summary").click()
    expect()(page.locator("#form-exchange")).to_be_hidden()
    expect()(page.locator("#form-racks")).to_be_hidden()
    expect()(page.locator('button[data-action="start"]')).to_be_visible()  # waiting: Start, and nothing else
    expect()(page.locator("#form-blank")).to_be_hidden()


def test_the_standard_board_has_fifteen_coordinates_and_its_star_on_h8(page: Any, table: Any, live_server: Any,
                                                                      ui: Any) -> None:
    server = live_server(table, PIN)
    ui.open(page, server.url)
    expect()(page.locator("#board .coord.col")).to_have_text([chr(65 + c) for c in range(15)])
    expect()(page.locator("#board .coord.row")).to_have_text([str(r) for r in range(1, 16)])
    expect()(page.locator('#board [data-start="true"]')).to_have_count(1)
    expect()(page.locator('#board [data-square="H8"]')).to_have_attribute("data-start", "true")
    expect()(page.locator('#board [data-square="A1"]')).to_have_attribute("data-label", "TW")


def test_a_german_page_names_premiums_and_blanks_in_german(browser: Any, make_sim_table: Any, live_server: Any,
                                                          ui: Any) -> None:
    table = make_sim_table(players=("Jürgen", "Ömer"), language="de", edition="german")
    server = live_server(table, PIN)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    try:
        page = context.new_page()
        ui.open(page, server.url)
        labels = {"A1": "3W", "D1": "2B", "B2": "2W", "F2": "3B"}
        for square, label in labels.items():
            cell = page.locator(f'#board [data-square="{square}"]')
            expect()(cell).to_have_attribute("data-label", label, timeout=WITHIN)
            shown = cell.evaluate("(c) => getComputedStyle(c, '::after').content")
            assert shown == f'"{label}"'
        table.control("start", {})
        table.place_word("8G JaN")  # a blank for the A, laid face down
        table.press()
        question = next(a["text"] for a in table.snapshot()["alerts"] if a["code"] == "blank_letter")
        assert "H8" in question and "Blanko" in question  # the table asks, in German, in its alert
        expect()(page.locator("#alerts")).to_contain_text(question, timeout=WITHIN)
        expect()(page.locator("#state")).to_have_text("Blanko-Buchstabe?")
        expect()(page.locator("#form-blank h3")).to_have_text("Buchstabe eines Blankos")
        assert "Joker" not in page.locator("body").inner_text()
        page.locator("#lang").click()  # the same squares in English
        expect()(page.locator('#board [data-square="A1"]')).to_have_attribute("data-label", "TW")
    finally:
        context.close()


def test_a_withdrawn_play_is_marked_and_a_lost_turn_labelled_once(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(challenge="double"), words=["QUIZ", "QI"],
                               clock=sim.ManualClock())
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.play("8E QUIZ")
    table.control("challenge", {"player": 1})  # QUIZ is good: Ben loses his turn
    rows = page.locator("#moves tbody tr")
    expect()(rows).to_have_count(2, timeout=WITHIN)
    expect()(rows.first.locator("td").nth(2)).to_have_text("(lost turn)")
    table.play("9E AE")  # a phony, challenged off: its row is struck, the withdrawal follows it
    table.control("challenge", {"player": 1})
    expect()(rows).to_have_count(4, timeout=WITHIN)
    phony = rows.nth(1)
    expect()(phony.locator("td").nth(2)).to_have_text("9E AE")
    expect()(phony).to_have_attribute("data-withdrawn", "true")
    assert phony.locator("td").nth(4).evaluate("(c) => getComputedStyle(c).textDecorationLine") == "line-through"
    expect()(rows.nth(3)).not_to_have_attribute("data-withdrawn", "true")  # QUIZ stands
    expect()(rows.first).to_have_attribute("data-kind", "withdrawn")


def test_scrambles_turn_timer_goes_with_the_game(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(kind="scramble", scramble_target=10), clock=sim.ManualClock())
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.control("roll", {"letters": "QUIZAEB"})
    timer = page.locator("#turn-timer")
    expect()(timer).to_be_visible(timeout=WITHIN)
    table.play("5E QUIZ")
    table.advance(15)
    assert table.snapshot()["state"] == "ended"
    expect()(page.locator("#state")).to_have_text("game over", timeout=WITHIN)
    expect()(timer).to_be_hidden()
    expect()(page.locator("#board")).not_to_contain_text(re.compile("1:00"))


def test_a_directors_adjustment_is_its_own_row_with_its_reason(page: Any, live_server: Any, ui: Any) -> None:
    table = sim.SimulatedTable(sim.default_setup(), words=["QUIZ"], clock=sim.ManualClock())
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.play("8E QUIZ")
    table.director("correct_score", {"player": 1, "points": -10, "reason": "phone rang"}, by="td", command_id="a1")
    rows = page.locator("#moves tbody tr")
    expect()(rows).to_have_count(2, timeout=WITHIN)
    cells = rows.first.locator("td")
    expect()(rows.first).to_have_attribute("data-kind", "adjustment")
    expect()(cells.nth(2)).to_have_text("(director's adjustment)")
    expect()(cells.nth(3)).to_have_text("phone rang")
    expect()(cells.nth(4)).to_have_text("-10")
