"""The director's page in Debian's Chromium, with 50 simulated tables on a real Mosquitto.

Every score and clock a table publishes is on the hall page within 1 s; pause-all reaches every table (they
apply it and acknowledge); a killed table shows offline and comes back with nothing missing; commands are
refused without the director key; the TV view and one table's page show what they should; a round goes from
tsh's tourney.js, sent from the page, to the tsh lines and the zip downloaded from it.
"""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main as referee_main
from tournament.testing.simhall import SimTable

pytestmark = [pytest.mark.browser, pytest.mark.slow]
TABLES = 50
KEY = "hall-key-2026"
FIXTURES = Path(__file__).parents[1] / "fixtures"


def clock_text(ms: int) -> str:
    total = abs(ms) // 1000
    return f"{'-' if ms < 0 else ''}{total // 60}:{total % 60:02d}"


def open_hall(page: Any, url: str, expect: Any) -> None:
    page.goto(url)
    expect(page.locator("#connection")).to_have_attribute("data-connected", "true", timeout=15000)
    expect(page.locator(".tile")).to_have_count(TABLES, timeout=15000)


def test_the_hall_with_50_tables(director_server: Any, sim_tables: Any, page: Any, wait: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    tables: list[SimTable] = sim_tables(range(1, TABLES + 1))
    server = director_server()
    open_hall(page, server.url, expect)

    # every score and clock, seen within 1 s of the table publishing it
    # (the page stamps each tile with the wall time it reached the DOM: same machine, same clock as here)
    worst = 0.0
    for table in tables:
        n = table.number
        published = time.time() * 1000
        table.play("8D QUIZ", 20 + n, ["D8", "E8", "F8", "G8"])
        table.set_clocks(600_000 + n * 1000, -(n * 1000))
        tile = page.locator(f'.tile[data-table="{n}"]')
        expect(tile.locator('.player[data-index="0"] .score')).to_have_text(str(20 + n), timeout=1000)
        expect(tile.locator('.player[data-index="0"] .clock')).to_have_text(clock_text(600_000 + n * 1000),
                                                                            timeout=1000)
        expect(tile.locator('.player[data-index="1"] .clock')).to_have_text(clock_text(-(n * 1000)), timeout=1000)
        worst = max(worst, float(tile.get_attribute("data-shown-at") or 0) - published)
    assert worst < 1000
    expect(page.locator('.tile[data-table="3"] .alerts [data-code="overtime"]')).to_have_count(1)

    # no key: refused, and nothing reaches a table
    page.locator("#director summary").click()
    page.locator('[data-all="pause"]').click()
    page.locator("#confirm-yes").click()  # a hall-wide action asks first
    expect(page.locator("#director-result")).to_have_text(re.compile("refused: this needs the director key"),
                                                          timeout=5000)
    assert all(t.applied == [] for t in tables)

    # pause all: every table applies it and acknowledges
    page.locator("#key").fill(KEY)
    page.locator("#pause-reason").fill("fire alarm")
    page.locator('[data-all="pause"]').click()
    page.locator("#confirm-yes").click()  # a hall-wide action asks first
    expect(page.locator("#director-result")).to_have_text(f"pause: {TABLES} of {TABLES} tables acknowledged",
                                                          timeout=10000)
    assert all(t.state == "paused" and [c.cmd for c in t.applied] == ["pause"] for t in tables)
    expect(page.locator('.tile[data-table="50"] .state')).to_have_text("paused", timeout=1000)
    # who paused and why, from the tables' journaled events
    expect(page.locator('.tile[data-table="50"] .alerts [data-code="paused"]')).to_have_text(
        re.compile(r"^paused by director at \d\d:\d\d:\d\d: fire alarm$"), timeout=2000)

    # a table killed shows offline; it plays on, comes back, and nothing is missing
    lost = tables[6]
    lost.kill()
    tile = page.locator('.tile[data-table="7"]')
    expect(tile).to_have_attribute("data-online", "false", timeout=5000)
    offline = tile.locator('.alerts [data-code="offline"]')
    expect(offline).to_have_text(re.compile(r"^offline since \d\d:\d\d:\d\d$"))  # the hall's local time
    lost.play("9D AB", 7)
    lost.play("10D CD", 9)
    lost.revive()
    expect(tile).to_have_attribute("data-online", "true", timeout=5000)
    expect(tile.locator('.player[data-index="0"] .score')).to_have_text(str(27 + 9), timeout=2000)
    wait(lambda: server.call(lambda: server.store.event_seqs(7, 1)) == list(range(len(lost.journal[1]))),
         what="every event of table 7 in the director's store")

    # filter and page: only the tables with alerts, then pages of 24
    page.locator("#only-alerts").check()
    expect(page.locator(".tile")).to_have_count(TABLES)  # every table has a player in overtime
    page.locator("#only-alerts").uncheck()
    page.locator("#per-page").select_option("24")
    expect(page.locator(".tile")).to_have_count(24)
    expect(page.locator("#page")).to_have_text("1 / 3")
    page.locator("#next").click()
    page.locator("#next").click()
    expect(page.locator(".tile")).to_have_count(2)


def test_tv_view_and_one_table(director_server: Any, sim_tables: Any, page: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    tables: list[SimTable] = sim_tables([1, 2, 3])
    server = director_server()
    tables[1].play("8D QUIZ", 64, ["D8", "E8", "F8", "G8"])
    page.goto(server.url + "/?display=tv")
    expect(page.locator(".tile")).to_have_count(2, timeout=5000)  # the feature tables, 1 and 2
    expect(page.locator('.tile[data-table="2"] .last')).to_have_text("last: 8D QUIZ +64", timeout=2000)
    expect(page.locator("#director")).to_be_hidden()

    live = page.request.get(server.url + "/gcg/2.gcg")  # a game outside the pairings has its live GCG too
    assert live.ok and ">P2a: IQUZ 8D QUIZ +64 64" in live.text()
    assert "#description Test Open, table 2" in live.text().splitlines()  # no round, no division: not paired
    page.goto(server.url + "/table/2")
    expect(page.locator("#moves tbody tr")).to_have_count(1, timeout=5000)
    page.locator("#key").fill(KEY)
    page.locator("#player").select_option("1")
    page.locator("#seconds").fill("-60")
    page.locator("#adjust-time").click()
    expect(page.locator("#director-result")).to_have_text("adjust_time: 1 of 1 tables acknowledged", timeout=5000)
    # 24:00 left (the clock runs on the page, as the table's does after the play: its time is the snapshot's)
    expect(page.locator('#players .player[data-index="1"] .clock')).to_have_attribute("data-ms", "1440000",
                                                                                      timeout=2000)
    page.locator("#square").fill("d8")
    page.locator("#letter").fill("q")
    page.locator("#correct-score").click()
    expect(page.locator("#director-result")).to_have_text("correct_score: 1 of 1 tables acknowledged", timeout=5000)
    assert dict(tables[1].applied[-1].args) == {"square": "D8", "letter": "Q"}
    page.locator("#points").fill("-10")
    page.locator("#reason").fill("phone rang")
    page.locator("#adjust-score").click()  # player 1, still chosen above
    expect(page.locator("#director-result")).to_have_text("correct_score: 1 of 1 tables acknowledged", timeout=5000)
    assert dict(tables[1].applied[-1].args) == {"player": 1, "points": -10, "reason": "phone rang"}
    expect(page.locator("#moves tbody tr").last).to_contain_text("(adjustment) phone rang", timeout=2000)
    expect(page.locator('#players .player[data-index="1"] .score')).to_have_text("-10", timeout=2000)
    page.locator("#message").fill("Please come to the director's table")
    page.locator("#send-message").click()
    expect(page.locator("#director-result")).to_have_text("message: 1 of 1 tables acknowledged", timeout=5000)
    assert tables[1].alerts[-1]["text"] == "Please come to the director's table"
    assert [c.cmd for c in tables[0].applied] == []


def test_a_round_from_tourney_js_on_the_page_to_the_tsh_lines_and_the_zip(
        director_server: Any, sim_tables: Any, page: Any, wait: Any, table_moves: list[dict[str, Any]],
        tmp_path: Path) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    tables: list[SimTable] = sim_tables([1, 2, 11, 12])
    server = director_server()
    page.goto(server.url)
    expect(page.locator(".tile")).to_have_count(4, timeout=15000)
    page.locator("#director summary").click()
    page.locator("#key").fill(KEY)
    page.locator("#pairings-file").set_input_files(str(FIXTURES / "tourney.js"))
    page.locator("#pairings-offsets").fill("B=10")
    page.locator("#send-pairings").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text(
        "round 1: 6 tables sent their players; byes: A Brett Cappelletto", timeout=5000)  # 21, 22: division 2
    wait(lambda: all(t.game == 2 for t in tables), what="every table to start the round's game")
    expect(page.locator('.tile[data-table="11"] .name')).to_have_text("Table 11")
    expect(page.locator('.tile[data-table="11"] .where')).to_have_text("div B · round 1", timeout=2000)
    page.locator("#division").select_option("B")
    expect(page.locator(".tile")).to_have_count(2)
    page.locator('[data-all="start"]').click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text("start: 4 of 4 tables acknowledged", timeout=5000)
    for table in tables:
        for move in table_moves:
            table.play(move["notation"], move["score"], kind=move["kind"])
        table.end()
    expect(page.locator('.tile[data-table="12"] .state')).to_have_text("ended", timeout=5000)
    wait(lambda: server.call(lambda: all(s.snapshot.get("state") == "ended" for s in server.director.tables.values())),
         what="every game ended at the director")
    with page.expect_download() as tsh:
        page.evaluate("() => { const a = document.getElementById('results-tsh'); a.download = 'tsh.txt'; a.click(); }")
    text = Path(tsh.value.path()).read_text(encoding="utf-8")
    assert "1 48 2 37\n4 48 3 37\n" in text and "1 48 4 37\n3 48 2 37\n" in text
    with page.expect_download() as archive:
        page.locator("#results-zip").click()
    with zipfile.ZipFile(archive.value.path()) as zipped:
        names = zipped.namelist()
        zipped.extractall(tmp_path)
    assert len([n for n in names if n.endswith(".gcg")]) == 4
    assert referee_main(["gcg", "check", "--quiet", str(tmp_path / "round01/gcg")]) == 0
