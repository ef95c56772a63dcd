"""The director's pages in Debian's Chromium on a real Mosquitto, when the hall goes wrong. A broker `kill -9`
(issue 24 row 8): the hall page showed 20 tables online and clocks running; it says the director lost the
broker, its clocks stand, and it says live again once the broker is back. A tile on a game the table is not
playing (row 4): the table page resets its view."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_page_says_the_director_lost_the_broker(director_server: Any, sim_tables: Any, broker: Any, page: Any,
                                                    wait: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    tables = sim_tables([1, 2])
    server = director_server()
    tables[0].set_clocks(600_000, 600_000, running=True)
    page.goto(server.url)
    expect(page.locator("#connection")).to_have_text("live", timeout=15000)
    expect(page.locator(".tile")).to_have_count(2, timeout=15000)
    assert page.locator("#broker-lost").count() == 0 or page.locator("#broker-lost").is_hidden()
    broker.kill()
    banner = page.locator("#broker-lost")
    expect(banner).to_be_visible(timeout=15000)
    expect(banner).to_contain_text("The director has lost the broker since")
    expect(page.locator("#connection")).to_have_text("broker lost")
    stats = page.request.get(server.url + "/api/stats").json()
    assert stats["broker"]["connected"] is False and stats["broker"]["since"]
    broker.start()
    expect(page.locator("#connection")).to_have_text("live", timeout=20000)
    expect(banner).to_be_hidden()
    assert page.request.get(server.url + "/api/stats").json()["broker"]["connected"] is True


def test_reset_this_tables_view_from_its_page(director_server: Any, sim_tables: Any, page: Any, wait: Any) -> None:
    """The table page's "Reset this table's view" (issue 24 row 4) behind the director key."""
    expect = pytest.importorskip("playwright.sync_api").expect
    (table,) = sim_tables([4])
    server = director_server()
    table.play("8D QUIZ", 30)
    wait(lambda: server.call(lambda: 4 in server.director.tables and server.director.tables[4].game == 1),
         what="table 4 at the director")
    page.goto(server.url + "/table/4")
    page.locator("#reset-view").click()
    expect(page.locator("#director-result")).to_contain_text("refused: this needs the director key")
    page.locator("#key").fill("hall-key-2026")
    page.locator("#reset-view").click()
    expect(page.locator("#director-result")).to_have_text("view reset: games 1 taken again from the table")
    table.play("9D AB", 5)  # the table's next event brings its game back from its journal
    wait(lambda: server.call(lambda: [p["score"] for p in server.director.tables[4].tile()["players"]]) == [30, 5],
         what="table 4's game back, whole")
