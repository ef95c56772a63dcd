"""The spectator view and the overlays in Debian's Chromium, at 1920x1080 and 1280x720, fed the real table's
snapshots: the board with coordinates, premiums and the last play, score sheet, unseen tiles and bag, clocks,
who is to play; an overlay's fields, its transparent background, live updates; a slot aimed from the hall page;
the delay; German at a German event. Screenshots go to /tmp/broadcast-*.png (to look at)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tournament.broadcast.delay import Delay

from .cast_server import KEY, CastServer, played, real_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
MOVES = ["8G QI", "7H AX", "9F JOE", "10E WE"]
SIZES = [(1920, 1080), (1280, 720)]


@pytest.fixture
def cast(tmp_path: Path) -> Iterator[Any]:
    servers: list[CastServer] = []

    def start(**kwargs: Any) -> CastServer:
        server = CastServer(tmp_path / f"cast{len(servers)}", **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def new_page(browser: Any, width: int, height: int, locale: str = "en-GB") -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def inside(box: dict[str, float], width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 0.5 and \
        box["y"] + box["height"] <= height + 0.5


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_spectator_view(cast: Any, browser: Any, width: int, height: int) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    server = cast()
    shots = played(real_table(), MOVES)
    server.online(3)
    for shot in shots:
        server.show(3, shot)
    final = shots[-1]
    page = new_page(browser, width, height)
    page.goto(f"{server.url}/watch/3")
    board = page.locator("#board")
    expect(board.locator(".sq")).to_have_count(225, timeout=5000)
    expect(board.locator(".coord.col")).to_have_text(list("ABCDEFGHIJKLMNO"))
    expect(board.locator(".coord.row")).to_have_text([str(n) for n in range(1, 16)])
    premiums = "".join(final["premiums"])
    for code, cls in (("T", "p-TW"), ("D", "p-DW"), ("t", "p-tL"), ("d", "p-dL")):
        expect(board.locator(f".sq.{cls}")).to_have_count(premiums.count(code))
    expect(board.locator(".sq.start")).to_have_count(0)  # H8 holds a tile
    expect(board.locator('.sq[data-sq="H8"] .letter')).to_have_text("I")
    expect(board.locator(".sq.p-TW .plabel").first).to_have_text("TW")
    expect(board.locator(".tile.last")).to_have_count(len(final["last_play"]))
    for square in final["last_play"]:
        expect(board.locator(f'.sq[data-sq="{square}"] .tile')).to_have_class(re.compile(r"\blast\b"))
    expect(page.locator("#moves tbody tr")).to_have_count(4)
    expect(page.locator("#moves tbody tr.latest td").nth(2)).to_have_text("10E WE")
    expect(page.locator("#last")).to_have_text(re.compile(r"Ben Okafor\s*10E WE\s*\+18"))
    expect(page.locator("#counts")).to_have_text(f"{final['bag']} in the bag · {len(final['unseen'])} unseen")
    expect(page.locator("#unseen")).to_contain_text("AAAAAAAA")
    first = page.locator('#players .player[data-index="0"]')
    expect(first).to_have_class(re.compile(r"\bon-turn\b"))
    expect(first.locator(".turn")).to_have_text("to play")
    expect(first.locator(".score")).to_have_text(str(final["players"][0]["score"]))
    expect(page.locator('#players .player[data-index="1"] .clock')).to_have_text("24:20")
    # the whole view fits the screen: the board square, beside the panels, nothing cut off
    box = board.bounding_box()
    assert box is not None and inside(box, width, height) and abs(box["width"] - box["height"]) < 2
    assert box["height"] > 0.75 * height
    for selector in ("#players", "#last", "#unseen", ".moves-box"):
        side = page.locator(selector).bounding_box()
        assert side is not None and inside(side, width, height) and side["x"] >= box["x"] + box["width"]
    page.screenshot(path=f"/tmp/broadcast-watch-{width}x{height}.png")
    # live: the next move is on the page without a reload
    table = real_table()
    after = played(table, [*MOVES, "11D ZA"])[-1]
    server.show(3, after)
    expect(page.locator("#moves tbody tr")).to_have_count(5, timeout=2000)
    # every board, to choose one
    page.goto(f"{server.url}/watch")
    card = page.locator('.card[data-table="3"]')
    expect(card.locator(".cscore")).to_have_text([str(p["score"]) for p in after["players"]], timeout=5000)
    page.screenshot(path=f"/tmp/broadcast-index-{width}x{height}.png")
    card.click()
    expect(page).to_have_url(f"{server.url}/watch/3")
    expect(page.locator("#board .sq")).to_have_count(225, timeout=5000)
    assert page.errors == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_overlays_their_fields_transparent_and_live(cast: Any, browser: Any, width: int, height: int) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    image = pytest.importorskip("PIL.Image")
    server = cast()
    shots = played(real_table(), MOVES)
    server.online(3)
    for shot in shots[:-1]:
        server.show(3, shot)
    page = new_page(browser, width, height)
    page.goto(f"{server.url}/overlay/3?fields=board,names,scores,clocks,last,unseen,spread,turn")
    overlay = page.locator("#overlay")
    expect(overlay.locator(".board .sq")).to_have_count(225, timeout=5000)
    expect(overlay.locator(".op")).to_have_count(2)
    expect(overlay.locator(".olast")).to_have_text(re.compile(r"Last play: Anna Müller 9F JOE \+26"))
    expect(overlay.locator(".ospread")).to_have_text("Spread: Anna Müller +29")
    expect(overlay.locator('.op[data-index="1"] .oturn')).to_have_text("to play")
    server.show(3, shots[-1])  # live by SSE
    expect(overlay.locator(".olast")).to_have_text(re.compile(r"Ben Okafor 10E WE \+18"), timeout=2000)
    expect(overlay.locator(".ospread")).to_have_text("Spread: Anna Müller +11")
    for selector in (".board", ".op >> nth=0", ".op >> nth=1", ".olast", ".ounseen", ".ospread"):
        box = overlay.locator(selector).bounding_box()
        assert box is not None and inside(box, width, height), selector
    page.screenshot(path=f"/tmp/broadcast-overlay-board-{width}x{height}.png", omit_background=True)

    page.goto(f"{server.url}/overlay/3?fields=names,scores,clocks,last,turn")
    expect(overlay.locator(".op")).to_have_count(2, timeout=5000)
    expect(overlay.locator(".board")).to_have_count(0)
    expect(overlay.locator(".ounseen")).to_have_count(0)
    expect(overlay.locator(".oscore")).to_have_text(["48", "37"])
    font = float(page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.oscore')).fontSize)"))
    assert font >= 0.08 * height  # large type: a score is more than a twelfth of the screen tall
    png = page.screenshot(path=f"/tmp/broadcast-overlay-{width}x{height}.png", omit_background=True)
    picture = image.open(io.BytesIO(png)).convert("RGBA")
    assert picture.getpixel((width // 2, height // 4))[3] == 0  # transparent where no panel is
    assert picture.getpixel((width // 4, height - 40))[3] > 0  # the players' panel is drawn
    page.goto(f"{server.url}/overlay/3?fields=scores")
    expect(overlay.locator(".oscore")).to_have_count(2, timeout=5000)
    expect(overlay.locator(".oname")).to_have_count(0)
    expect(overlay.locator(".clock")).to_have_count(0)
    expect(overlay.locator(".onotice")).to_have_count(0)
    page.goto(f"{server.url}/overlay/3?fields=scores,score,bag")  # a misspelt field is said on the overlay
    expect(overlay.locator(".onotice")).to_have_text(
        "fields: 'score', 'bag' unknown (known: board, names, scores, clocks, last, unseen, spread, turn)",
        timeout=5000)
    expect(overlay.locator(".oscore")).to_have_count(2)
    assert page.errors == []


def test_a_slot_aimed_from_the_hall_page(cast: Any, browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    server = cast()
    server.online(3)
    server.online(4)
    server.show(3, played(real_table(("Ann Ash", "Bo Birch")), MOVES[:1])[-1])
    server.show(4, played(real_table(("Cy Cole", "Di Dunn")), MOVES[:2])[-1])
    hall = new_page(browser, 1600, 1000)
    hall.goto(server.url)
    hall.locator("#director summary").click()
    overlay = new_page(browser, 1280, 720)
    overlay.goto(f"{server.url}/overlay/slot/1")
    expect(overlay.locator(".onotice")).to_have_text("Slot 1 is not aimed at a table", timeout=5000)
    hall.locator("#cast-table").fill("3")
    hall.locator("#cast-aim").click()
    expect(hall.locator("#director-result")).to_have_text("refused: this needs the director key", timeout=5000)
    hall.locator("#key").fill(KEY)
    hall.locator("#cast-aim").click()
    expect(hall.locator("#director-result")).to_have_text("slot 1 shows table 3", timeout=5000)
    expect(overlay.locator(".oname")).to_have_text(["Ann Ash", "Bo Birch"], timeout=2000)
    hall.locator("#cast-table").fill("4")
    hall.locator("#cast-aim").click()
    expect(overlay.locator(".oname")).to_have_text(["Cy Cole", "Di Dunn"], timeout=2000)
    expect(hall.locator("#cast-now")).to_have_text(re.compile(r"slot 1: table 4"))
    overlay.screenshot(path="/tmp/broadcast-slot-1280x720.png", omit_background=True)
    # the delay from the hall page: the overlay shows one move less, the director's table page all of them
    hall.locator("#cast-delay").fill("1")
    hall.locator("#cast-set-delay").click()
    expect(hall.locator("#director-result")).to_have_text("spectators' delay: 1 moves", timeout=5000)
    expect(overlay.locator(".odelay")).to_have_text("1 move behind", timeout=2000)
    expect(overlay.locator(".olast")).to_have_text(re.compile(r"8G QI"))
    hall.goto(f"{server.url}/table/4")
    expect(hall.locator("#moves tbody tr")).to_have_count(2, timeout=5000)
    assert hall.errors == [] and overlay.errors == []


def test_german_at_a_german_event(cast: Any, browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    server = cast(language="de", delay=Delay(moves=1))
    shots = played(real_table(("Jürgen Groß", "Ayşe Özdemir"), edition="german", language="de"), MOVES)
    server.online(5)
    for shot in shots:
        server.show(5, shot)
    page = new_page(browser, 1920, 1080, locale="de-DE")
    page.goto(f"{server.url}/watch/5")
    expect(page.locator("#board .sq")).to_have_count(225, timeout=5000)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#h-unseen")).to_have_text("Ungesehene Steine")
    expect(page.locator("#h-moves")).to_have_text("Züge")
    expect(page.locator("#board .sq.p-TW .plabel").first).to_have_text("3W")
    expect(page.locator("#board .sq.p-dL .plabel").first).to_have_text("2B")
    expect(page.locator("#delay")).to_have_text("1 Zug zurück")
    expect(page.locator("#state")).to_have_text("Spiel läuft")
    expect(page.locator("#counts")).to_contain_text("im Beutel")
    expect(page.locator("#players .player.on-turn .turn")).to_have_text("am Zug")
    expect(page.locator('#board .sq[data-sq="G8"] .value')).to_have_text("10")  # Q, on a German set too
    expect(page.locator('#board .sq[data-sq="I7"] .value')).to_have_text("8")  # X: 8 in German, as in English
    page.screenshot(path="/tmp/broadcast-watch-de-1920x1080.png")
    page.goto(f"{server.url}/overlay/5?fields=names,scores,last,spread,unseen")
    expect(page.locator(".olast")).to_have_text(re.compile(r"^Letzter Zug: "), timeout=5000)
    expect(page.locator(".ospread")).to_have_text(re.compile(r"^Differenz: "))
    expect(page.locator(".ocounts")).to_contain_text("im Beutel")
    page.screenshot(path="/tmp/broadcast-overlay-de-1920x1080.png", omit_background=True)
    # ?lang=en on the address is the page's own choice
    page.goto(f"{server.url}/overlay/5?fields=last&lang=en")
    expect(page.locator(".olast")).to_have_text(re.compile(r"^Last play: "), timeout=5000)
    assert page.errors == []


def test_without_an_event_language_each_page_follows_its_table(cast: Any, browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    server = cast()
    server.online(1)
    server.online(2)
    server.show(1, played(real_table(("Anna", "Bernd"), edition="german", language="de"), MOVES[:1])[-1])
    server.show(2, played(real_table(("Ann", "Ben")), MOVES[:1])[-1])
    page = new_page(browser, 1280, 720)
    page.goto(f"{server.url}/overlay/1?fields=last,turn")
    expect(page.locator(".olast")).to_have_text(re.compile(r"^Letzter Zug: Anna 8G QI \+\d+$"), timeout=5000)
    expect(page.locator('.op[data-index="1"] .oturn')).to_have_text("am Zug")
    page.goto(f"{server.url}/overlay/2?fields=last")
    expect(page.locator(".olast")).to_have_text(re.compile(r"^Last play: Ann 8G QI \+22$"), timeout=5000)
    assert page.errors == []
