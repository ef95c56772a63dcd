"""A broker `kill -9` (issue 24 row 8): the hall page showed 20 tables online and clocks running. The page says
the director lost the broker, its clocks stand, and it says live again once the broker is back. A real
Mosquitto, the director and Debian's Chromium."""

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
