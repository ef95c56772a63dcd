"""At a German event ([director] language = "de") the director's hall and table pages and the spectators' overlay
are German: labels, states, alerts, the clocks' words, premium squares, who is to play. In Debian's Chromium at
1920x1080; screenshots go to /tmp/director-de-*.png (to look at)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tournament.payloads import StatusMessage

from .cast_server import KEY, CastServer, played, real_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# English words that never belong on a German page (the names of the players and of files are data, left out)
ENGLISH = re.compile(r"\b(the|of|and|to|is|are|with|table|tables|round|alerts?|hall|director|key|pause|resume|start|"
                     r"send|enter|result|scores?|moves?|player|total|playing|waiting|challenge|open|since|last|play|"
                     r"offline since|overtime|slot|delay|seconds|minutes|message|game|new|undo|hold|release|"
                     r"correct|points|because|reason|standings|lines|shows|aim|spectators|unseen|bag|spread|wins|"
                     r"connected|connecting|reconnecting|live GCG|none|yes|cancel|filter|sort|division|all|only)\b",
                     re.IGNORECASE)
DATA = ("Jürgen Groß", "Ayşe Özdemir", "Anna Roth", "Bernd Kurz", "Test Open", "tsh tourney.js", "tourney.js", "CSV",
        "GCG", "ZIP", "Broker", "live", "B=100, C=200", "H8",
        "no broker link", "Choose File", "No file chosen")  # no broker in this test; the browser's own file input


def english_in(text: str) -> list[str]:
    for data in DATA:
        text = text.replace(data, "")
    return ENGLISH.findall(text)


def new_page(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def german_event(tmp_path: Path) -> CastServer:
    server = CastServer(tmp_path / "cast", language="de", pages_language="de")
    german = real_table(("Jürgen Groß", "Ayşe Özdemir"), edition="german", language="de")
    shots = played(german, ["8G QI", "7H AX"])
    german.play("9F JOE")  # its challenge window is open
    server.online(5, "Tisch 5")
    for shot in [*shots, dict(german.snapshot())]:
        server.show(5, shot)
    server.online(6, "Tisch 6")
    server.show(6, played(real_table(("Anna Roth", "Bernd Kurz"), edition="german", language="de"), ["8G QI"])[-1])
    server.call(lambda: server.director.on_status(6, StatusMessage(6, "offline", "2026-05-02T10:05:00+00:00",
                                                                   "Tisch 6")))
    return server


def test_the_directors_pages_and_an_overlay_in_german(tmp_path: Path, browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    server = german_event(tmp_path)
    try:
        hall = new_page(browser)
        hall.goto(server.url)
        expect(hall.locator(".tile")).to_have_count(2, timeout=5000)
        expect(hall.locator("html")).to_have_attribute("lang", "de")
        expect(hall.locator("#summary")).to_have_text("2 Tische · 1 offline · 2 mit Meldungen")
        five, six = hall.locator('.tile[data-table="5"]'), hall.locator('.tile[data-table="6"]')
        expect(five.locator(".state")).to_have_text("Anzweifeln möglich")
        expect(five.locator(".alerts li")).to_have_text(["Anzweiflung offen"])
        expect(five.locator(".last")).to_have_text(re.compile(r"^zuletzt: 9F JOE \+\d+$"))
        offline = six.locator('.alerts li[data-code="offline"]')
        expect(offline).to_have_text(re.compile(r"^offline seit \d\d:\d\d:\d\d$"))
        hall.locator("#director summary").click()
        expect(hall.locator("#director summary")).to_have_text("Turnierleitung")
        expect(hall.locator('[data-all="pause"]')).to_have_text("Alle anhalten")
        expect(hall.locator("#cast-overlay")).to_have_text("Overlay von Platz 1")
        hall.locator("#cast-aim").click()  # without the key: the refusal is German too
        expect(hall.locator("#director-result")).to_have_text("abgelehnt: dafür ist der Schlüssel der Turnierleitung "
                                                              "nötig", timeout=5000)
        hall.locator("#key").fill(KEY)
        hall.locator("#cast-table").fill("5")
        hall.locator("#cast-aim").click()
        expect(hall.locator("#director-result")).to_have_text("Platz 1 zeigt Tisch 5", timeout=5000)
        expect(hall.locator("#cast-now")).to_have_text("Platz 1: Tisch 5; Verzögerung für Zuschauer: keine")
        said = hall.locator("body").inner_text()
        assert english_in(said) == [], said
        hall.screenshot(path="/tmp/director-de-hall-1920x1080.png", full_page=True)

        one = new_page(browser)
        one.goto(f"{server.url}/table/5")
        expect(one.locator("#players .player")).to_have_count(2, timeout=5000)
        expect(one.locator("#state")).to_have_text("Anzweifeln möglich")
        expect(one.locator("#alerts .alert")).to_have_text(["Anzweiflung offen"])
        expect(one.locator("#moves thead th")).to_have_text(["#", "Spieler", "Zug", "Punkte", "Summe"])
        expect(one.locator('[data-cmd="undo"]')).to_have_text("Letzten Zug zurücknehmen")
        expect(one.locator("#p1")).to_have_attribute("placeholder", "erster Spieler")
        expect(one.locator("#players .player .clock").first).to_have_text(re.compile(r"^\d+:\d\d$"))
        said = one.locator("body").inner_text()
        assert english_in(said) == [], said
        one.screenshot(path="/tmp/director-de-table-1920x1080.png", full_page=True)

        overlay = new_page(browser)
        overlay.goto(f"{server.url}/overlay/slot/1?fields=board,names,scores,clocks,last,unseen,spread,turn")
        root = overlay.locator("#overlay")
        expect(root.locator(".board .sq")).to_have_count(225, timeout=5000)
        expect(root.locator(".olast")).to_have_text(re.compile(r"^Letzter Zug: Jürgen Groß 9F JOE \+\d+$"))
        expect(root.locator(".ospread")).to_have_text(re.compile(r"^Differenz: "))
        expect(root.locator(".op.on-turn .oturn")).to_have_text("am Zug")
        expect(root.locator(".board .sq.p-TW .plabel").first).to_have_text("3W")
        expect(root.locator(".ocounts")).to_have_text(re.compile(r"^\d+ im Beutel · \d+ ungesehen$"))
        said = root.inner_text()
        assert english_in(said) == [], said
        overlay.screenshot(path="/tmp/director-de-overlay-1920x1080.png", omit_background=True)
        assert hall.errors == [] and one.errors == [] and overlay.errors == []
    finally:
        server.stop()
