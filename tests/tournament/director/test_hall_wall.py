"""The hall page as a wall display: 20 tables on a 1920x1080 screen, in Debian's Chromium.

Tried as a hall would: at 1920x1080 the page with 20 tables cut the players' names to 3-5 letters, left the
bottom 45% of the screen empty, and drew the small boards without letters. A hall screen is read from across
the room: every tile on one screen without scrolling, the screen used, full names, letters on the boards.
The screenshot is kept in the test's folder (`hall-1920x1080.png`) to be looked at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tournament.acl import table_user
from tournament.settings import BrokerSettings
from tournament.testing.simhall import SimTable

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FIRST = ["Christopher", "Robin Pollock", "Eilon", "Anna", "Jackson", "Nigel", "Joey", "Will", "Brett", "Maxim"]
LAST = ["Sykes", "Daniel", "Silver-Frankel", "Müller-Lüdenscheidt", "Smylie", "Richards", "Krafchick", "Anderson",
        "Cappelletto", "Panitch"]
# QUIZ across row 8 from G and JOE down column H: letters where a board shows them
BOARD = ["." * 15] * 6 + ["......Q........", "......U........", "......IJOE.....", "......Z........"] + ["." * 15] * 5


EVENT = "test-open"  # the event and passwords of this folder's broker fixture (conftest.py)


def settings(broker: Any, user: str) -> BrokerSettings:
    return BrokerSettings(broker.host, broker.port, username=user, password=f"pw-{user}")


def names(table: int) -> tuple[str, str]:
    a, b = (table * 3) % 10, (table * 7 + 1) % 10
    return f"{FIRST[a]} {LAST[(a + table) % 10]}", f"{FIRST[b]} {LAST[(b + 2 * table) % 10]}"


def test_twenty_tables_fill_a_1080p_screen_with_full_names_and_letters(
        director_server: Any, broker: Any, browser: Any, tmp_path: Path, wait: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect

    tables = [SimTable(EVENT, n, settings(broker, table_user(n)), players=names(n)) for n in range(1, 21)]
    try:
        for table in tables:
            table.connect()
        for table in tables:
            assert table.connected.wait(15)
        server = director_server()
        for table in tables:
            table.play("8G QUIZ", 66, ["G8", "H8", "I8", "J8"])
            with table.lock:
                table.board = list(BOARD)
                table.flush()
        wait(lambda: server.call(lambda: sum(1 for s in server.director.tables.values() if s.snapshot.get("board")))
             == 20, what="every table's board at the director")
        context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
        page = context.new_page()
        try:
            page.goto(server.url)
            expect(page.locator(".tile")).to_have_count(20, timeout=15000)
            expect(page.locator('.tile[data-table="20"] .player .score').first).to_have_text("66", timeout=5000)
            page.wait_for_function("() => document.querySelectorAll('.tile canvas[data-drawn]').length === 20",
                                   timeout=5000)
            page.screenshot(path=str(tmp_path / "hall-1920x1080.png"))
            geometry = page.evaluate("""() => {
                const tiles = [...document.querySelectorAll('.tile')].map((t) => t.getBoundingClientRect());
                const names = [...document.querySelectorAll('.tile .pname')].map((n) => ({
                    text: n.textContent,
                    clipped: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1}));
                return {scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth,
                        bottom: Math.max(...tiles.map((r) => r.bottom)), right: Math.max(...tiles.map((r) => r.right)),
                        left: Math.min(...tiles.map((r) => r.left)), names};
            }""")
            # one screen, no scrolling, and the screen used: the tiles reach its bottom and both sides
            assert geometry["scrollH"] <= 1080 and geometry["scrollW"] <= 1920, geometry
            assert geometry["bottom"] >= 1080 * 0.9 and geometry["right"] >= 1920 * 0.95 and geometry["left"] <= 40
            # every name whole
            expected = sorted(name for n in range(1, 21) for name in names(n))
            assert sorted(n["text"] for n in geometry["names"]) == expected
            assert [n["text"] for n in geometry["names"] if n["clipped"]] == []
            # letters on the small boards: the ink of a letter inside the square of Q (G7) of every board
            inked = page.evaluate("""() => [...document.querySelectorAll('.tile canvas')].map((canvas) => {
                const size = canvas.width / 15;
                const data = canvas.getContext('2d').getImageData(6 * size, 6 * size, size, size).data;
                let dark = 0;
                for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 150) dark++;
                return {dark, px: Math.round(size * size), width: canvas.getBoundingClientRect().width};
            })""")
            assert all(b["dark"] > b["px"] * 0.05 for b in inked), inked
            assert min(b["width"] for b in inked) >= 180, inked  # 12 px a square and more, from across the hall
        finally:
            context.close()
    finally:
        for table in tables:
            table.stop()
