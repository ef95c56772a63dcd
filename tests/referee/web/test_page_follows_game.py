"""The table page follows the game (issue 25 item 4), in headless Chromium, with screenshots to look at
(REFEREE_SCREENSHOTS=DIR keeps them; otherwise they go to the test's temporary folder).

Each state shows its own controls; a phony is one alert; "Time is up" goes with a loss on time; the end
has a final line and cards without tile counts; words stay whole on a phone; Scramble's cards have no tile
count and a scramble is a row of the score sheet.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser
sim = pytest.importorskip("referee.sim.table")

PIN = "4711"
WITHIN = 1000


def expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("REFEREE_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _score(n: int) -> str:
    """A score as the page writes it: a minus sign (U+2212) before a negative one, as on its clocks."""
    return f"\u2212{-n}" if n < 0 else str(n)


def _visible_controls(page: Any) -> list[str]:
    return sorted(page.evaluate("""() => [...document.querySelectorAll(
        '.buttons button[data-action], .forms form[data-action]')]
        .filter((e) => !e.hidden).map((e) => e.dataset.action)"""))


def test_the_controls_and_the_end_of_a_game(browser: Any, make_sim_table: Any, live_server: Any, ui: Any,
                                            tmp_path: Path) -> None:
    table = make_sim_table(players=("Cesar", "Dora"), words=["QUIZ", "QI"])
    server = live_server(table, PIN)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    shots = _shots(tmp_path)
    try:
        page = context.new_page()
        ui.open(page, server.url)
        page.locator("#control summary").click()
        expect()(page.locator('button[data-action="start"]')).to_be_visible()
        assert _visible_controls(page) == ["start"]  # waiting: Start, no Pass, Exchange or racks
        table.control("start", {})
        expect()(page.locator('button[data-action="start"]')).to_be_hidden(timeout=WITHIN)
        assert set(_visible_controls(page)) == {"correct", "exchange", "pass", "pause"}
        table.play("8E QUIZ")
        table.advance(15)
        table.play("E8 .I")  # Dora: QI down from the Q
        table.advance(15)
        table.control("exchange", {"count": 3})
        while table.snapshot()["state"] != "racks":  # six scoreless turns end the game
            table.control("pass", {})
        expect()(page.locator("#form-racks")).to_be_visible(timeout=WITHIN)
        assert set(_visible_controls(page)) == {"pause", "racks"}
        table.control("racks", {"player": 0, "tiles": "BCDFGHK"})
        snap = table.control("racks", {"player": 1, "tiles": "AEINRST"})
        assert snap["state"] == "ended" and min(p["score"] for p in snap["players"]) >= 0
        expect()(page.locator("#result")).to_be_visible(timeout=WITHIN)
        cesar, dora = (p["score"] for p in snap["players"])
        winner = "Cesar" if cesar > dora else "Dora"
        high, low = max(cesar, dora), min(cesar, dora)
        expect()(page.locator("#result")).to_have_text(f"{winner} wins {high}-{low}, +{high - low}")
        assert _visible_controls(page) == ["new_game"]  # no Exchange after the game
        for i in range(2):
            expect()(page.locator(f"#player-{i} .meta")).not_to_contain_text("tiles")
        # a phone: "(exchange)" and "(end)" are whole words on one line, never "(exchan ge)"
        words = page.locator("#moves tbody td .word")
        broken = page.evaluate("""() => [...document.querySelectorAll('#moves tbody td .word:not(.long)')]
            .filter((w) => w.getClientRects().length > 1).map((w) => w.textContent)""")
        assert words.count() > 10 and broken == []
        expect()(page.locator("#moves tbody")).to_contain_text("(exchange)")
        page.screenshot(path=str(shots / "page-ended-phone.png"), full_page=True)
    finally:
        context.close()


def test_a_german_page_says_the_final_line_in_german(page: Any, make_sim_table: Any, live_server: Any,
                                                     ui: Any) -> None:
    table = make_sim_table(players=("Cesar", "Dora"), words=["QUIZ"], language="de", edition="german")
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.play("8E QUIZ")
    table.advance(15)
    while table.snapshot()["state"] != "racks":
        table.control("pass", {})
    table.control("racks", {"player": 0, "tiles": "AEINRST"})
    snap = table.control("racks", {"player": 1, "tiles": "BCDFGHK"})
    cesar, dora = (p["score"] for p in snap["players"])
    assert cesar > dora
    expect()(page.locator("#result")).to_have_text(f"Cesar gewinnt {_score(cesar)}:{_score(dora)}, +{cesar - dora}",
                                                   timeout=WITHIN)


def test_a_phony_is_one_alert_and_time_up_goes_with_a_loss_on_time(page: Any, make_sim_table: Any,
                                                                    live_server: Any, ui: Any,
                                                                    tmp_path: Path) -> None:
    table = make_sim_table(words=["QUIZ"], challenge="void", minutes_per_player=1.0, overtime_limit_minutes=1.0,
                           on_max_overtime="lose")
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.place_word("8G ZQ")
    table.press(0)
    expect()(page.locator("#alerts .alert")).to_have_count(1, timeout=WITHIN)
    expect()(page.locator("#alerts .alert")).to_contain_text("G8, H8")
    expect()(page.locator("#pending")).to_be_hidden()  # the alert is the instruction: no second prompt
    page.screenshot(path=str(_shots(tmp_path) / "page-phony.png"), full_page=True)
    table.lift("G8")
    table.lift("H8")
    table.advance(61)
    expect()(page.locator('#alerts [data-code="time_up"]')).to_have_count(1, timeout=WITHIN)
    table.advance(60)
    expect()(page.locator("#state")).to_have_attribute("data-state", "ended", timeout=WITHIN)
    expect()(page.locator('#alerts [data-code="lost_on_time"]')).to_have_count(1)
    expect()(page.locator('#alerts [data-code="time_up"]')).to_have_count(0)
    expect()(page.locator("#result")).to_contain_text("wins on time")


def test_scramble_cards_and_a_scramble_row(page: Any, make_sim_table: Any, live_server: Any, ui: Any,
                                           tmp_path: Path) -> None:
    table = make_sim_table(kind="scramble", clock_mode="none", words=["OAT", "ZA", "OATS"])
    server = live_server(table, PIN)
    ui.open(page, server.url)
    table.control("start", {})
    table.roll("OATZEEE")
    table.play("5D OAT")
    table.advance(15)
    table.roll("ZEEEEEE")
    table.play("E4 Z.")
    table.advance(15)
    row = page.locator('#moves tbody tr[data-kind="scramble"]')
    expect()(row).to_have_count(1, timeout=WITHIN)
    expect()(row).to_contain_text("(dice back to the cup)")
    expect()(row).to_contain_text("D5, F5")
    for i in range(2):
        expect()(page.locator(f"#player-{i} .meta")).not_to_contain_text("tiles")
    page.screenshot(path=str(_shots(tmp_path) / "page-scramble.png"), full_page=True)


def test_a_table_without_a_word_list_says_challenges_cannot_be_judged(page: Any, make_sim_table: Any,
                                                                       live_server: Any, ui: Any) -> None:
    without = live_server(make_sim_table())  # no words: every word stands
    ui.open(page, without.url)
    expect()(page.locator("#no-word-list")).to_be_visible()
    expect()(page.locator("#no-word-list")).to_contain_text("challenges cannot be judged")
    judged = live_server(make_sim_table(words=["QUIZ"]))
    ui.open(page, judged.url)
    expect()(page.locator("#no-word-list")).to_be_hidden()
