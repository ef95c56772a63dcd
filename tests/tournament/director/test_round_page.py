"""A round that runs itself, on the hall page in Chromium: six simulated tables on a real Mosquitto, round 1
loaded from tsh's tourney.js as soon as the director starts, "round 1: 5 of 6 finished" while a dead table's
game is out, its result entered by hand (asked first, marked as the director's), the round closed, round 2
loaded from tsh the moment tsh pairs it; the confirmations before hall-wide actions, undo and a new game; a
German spreadsheet's CSV in Windows-1252 read by the page. The page is photographed for a person to look at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tournament.pairings import tourney_data
from tournament.testing.simhall import SimTable

pytestmark = [pytest.mark.browser, pytest.mark.slow]
KEY = "hall-key-2026"
FIXTURES = Path(__file__).parents[1] / "fixtures"
SHOTS = Path("/tmp/28b")


def tourney_paired(rounds: int) -> str:
    """The fixture tourney.js as tsh writes it once it has paired `rounds` rounds."""
    data = tourney_data((FIXTURES / "tourney.js").read_text(encoding="utf-8"))
    for division in data["divisions"]:
        for player in division["players"][1:]:
            player["pairings"] = player["pairings"][:rounds]
            player["scores"] = player["scores"][:rounds - 1]
            for key in ("p12", "board"):
                if key in player.get("etc", {}):
                    player["etc"][key] = player["etc"][key][:rounds]
    return "newt=" + json.dumps(data, ensure_ascii=False) + ";"


def test_a_round_that_runs_itself(director_server: Any, sim_tables: Any, page: Any, wait: Any,
                                  tmp_path: Path) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    tables: dict[int, SimTable] = {t.number: t for t in sim_tables([1, 2, 11, 12, 21, 22])}
    tourney = tmp_path / "tourney.js"
    tourney.write_text(tourney_paired(1), encoding="utf-8")
    server = director_server(tsh_file=tourney, tsh_offsets={"B": 10})
    wait(lambda: all(t.game == 2 for t in tables.values()), what="round 1 loaded from tsh and seated")
    page.goto(server.url)
    expect(page.locator(".tile")).to_have_count(6, timeout=15000)
    expect(page.locator("#broker")).to_have_text("broker connected", timeout=5000)
    expect(page.locator("#round-text")).to_have_text("round 1: 0 of 6 finished", timeout=5000)
    expect(page.locator("#tsh-text")).to_have_text("· round 1 pairings loaded from tsh")

    # a hall-wide action asks first: cancelled, nothing reaches a table; confirmed, every table starts
    page.locator("#director summary").click()
    page.locator("#key").fill(KEY)
    page.locator('[data-all="start"]').click()
    expect(page.locator("#confirm-text")).to_have_text(
        "Start the round: every waiting table's clock starts (6 tables online)?")
    page.locator("#confirm-no").click()
    expect(page.locator("#director-result")).to_have_text("start: not sent")
    assert all(t.applied[-1].cmd == "set_players" for t in tables.values())
    page.locator('[data-all="start"]').click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text("start: 6 of 6 tables acknowledged", timeout=5000)

    # table 22's Pi dies; the others finish
    tables[22].kill()
    for number, table in tables.items():
        if number != 22:
            table.play("8D QUIZ", 30 + number, ["D8", "E8", "F8", "G8"])
            table.end()
    expect(page.locator("#round-text")).to_have_text("round 1: 5 of 6 finished", timeout=5000)
    expect(page.locator("#round-waiting")).to_have_text("waiting for table 22 (offline)")

    # its result, from the players' score sheets, entered by hand
    page.locator("#result-table").fill("22")
    page.locator("#result-table").dispatch_event("change")
    expect(page.locator("#result-players")).to_have_text("Ayşe Özdemir v Jürgen Groß", timeout=3000)
    page.locator("#result-score1").fill("388")
    page.locator("#result-score2").fill("402")
    page.locator("#result-reason").fill("its Pi is dead; from the score sheets")
    page.locator("#enter-result").click()
    expect(page.locator("#confirm-text")).to_have_text(re.compile(
        r"^Enter Ayşe Özdemir 388 - 402 Jürgen Groß as the result of table 22 in round 1\? It replaces what the "
        r"table sent, marked as entered by the director\.$"))
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text("table 22: Ayşe Özdemir 388 - 402 Jürgen Groß entered",
                                                          timeout=3000)
    expect(page.locator("#round-text")).to_have_text("round 1: 6 of 6 finished (1 entered by the director)",
                                                     timeout=3000)
    expect(page.locator("#result-players")).to_have_text(
        "Ayşe Özdemir v Jürgen Groß (entered by director: 388-402)", timeout=3000)
    expect(page.locator('.tile[data-table="22"] .alerts [data-code="entered"]')).to_have_text(
        "result entered by director: 388-402", timeout=3000)  # the dead table's tile says it too
    csv_text = page.request.get(server.url + "/results/round/1.csv").text()
    assert re.search(r"^1,2,22,Ayşe Özdemir,388,Jürgen Groß,402,.*,22-director,director$", csv_text, re.M)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "round-entered.png"), full_page=True)

    # the round closed (asked first); tsh pairs round 2 and it goes to the tables at once
    page.locator("#close-round-button").click()
    expect(page.locator("#confirm-text")).to_have_text("Close round 1? Every table has finished.")
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text(
        "round 1: 6 of 6 finished (1 entered by the director) · closed", timeout=3000)
    tourney.write_text(tourney_paired(2), encoding="utf-8")
    wait(lambda: tables[1].players[0]["name"] == "Jackson Smylie", what="round 2's players at table 1")
    expect(page.locator("#round-text")).to_have_text("round 2: 0 of 5 finished", timeout=5000)
    expect(page.locator("#tsh-text")).to_have_text("· round 2 pairings loaded from tsh")
    page.screenshot(path=str(SHOTS / "round-2.png"), full_page=True)

    # on a table's page: undo and a new game ask first; a message is sent with its minutes
    tables[1].play("8D QUIZ", 64, ["D8", "E8", "F8", "G8"])
    page.goto(server.url + "/table/1")
    expect(page.locator("#moves tbody tr")).to_have_count(1, timeout=5000)
    page.locator("#key").fill(KEY)
    page.locator('[data-cmd="undo"]').click()
    expect(page.locator("#confirm-text")).to_have_text(re.compile(r"^Undo 8D QUIZ \(\+64\) at Table 1\?"))
    page.screenshot(path=str(SHOTS / "undo-confirm.png"))
    page.locator("#confirm-no").click()
    expect(page.locator("#director-result")).to_have_text("undo: not sent")
    assert tables[1].applied[-1].cmd == "set_players"
    page.locator('[data-cmd="undo"]').click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text("undo: 1 of 1 tables acknowledged", timeout=5000)
    page.locator("#message").fill("Round 3 starts at 14:00")
    page.locator("#message-minutes").fill("3")
    page.locator("#send-message").click()
    expect(page.locator("#director-result")).to_have_text("message: 1 of 1 tables acknowledged", timeout=5000)
    assert dict(tables[1].applied[-1].args) == {"text": "Round 3 starts at 14:00", "minutes": 3}
    # as at a real table, a new game is seated only once this one has ended (after the undo's tiles are lifted)
    tables[1].take_back()
    tables[1].end()
    page.locator("#p1").fill("Cleo")
    page.locator("#p2").fill("Dan")
    page.locator("#set-players").click()
    expect(page.locator("#confirm-text")).to_have_text(re.compile(
        r"^Start a new game at Table 1: Cleo v Dan\? The game shown \(Jackson Smylie v Brett Cappelletto, "))
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text("set_players: 1 of 1 tables acknowledged", timeout=5000)


def test_a_german_spreadsheets_csv_from_the_page(director_server: Any, sim_tables: Any, page: Any, wait: Any,
                                                 tmp_path: Path) -> None:
    """Excel's plain "CSV" in a German Windows: semicolons, CR LF, Windows-1252 (its umlauts are not UTF-8)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    tables: list[SimTable] = sim_tables([5, 6])
    server = director_server()
    sheet = tmp_path / "Runde1.csv"
    sheet.write_bytes(("Runde;Tisch;Spieler1;Spieler2;Beginnt\r\n1;5;Jörg Groß;Ümit Öz;1\r\n"
                       "1;6;Eva Braun;Frank Roth;2\r\n").encode("cp1252"))
    page.goto(server.url)
    expect(page.locator(".tile")).to_have_count(2, timeout=15000)
    page.locator("#director summary").click()
    page.locator("#key").fill(KEY)
    page.locator("#pairings-format").select_option("csv")
    page.locator("#pairings-file").set_input_files(str(sheet))
    page.locator("#send-pairings").click()
    expect(page.locator("#confirm-text")).to_have_text(
        "Send round 1's pairings from Runde1.csv? Every paired table starts a new game with its players.")
    page.locator("#confirm-yes").click()
    expect(page.locator("#director-result")).to_have_text("round 1: 2 tables sent their players", timeout=5000)
    wait(lambda: [p["name"] for p in tables[0].players] == ["Jörg Groß", "Ümit Öz"], what="table 5's players")
    # each table's command travels on its own: table 6's may arrive after table 5's
    wait(lambda: [p["name"] for p in tables[1].players] == ["Frank Roth", "Eva Braun"], what="table 6's players")
    expect(page.locator("#round-text")).to_have_text("round 1: 0 of 2 finished", timeout=5000)
