"""Make docs/img/scoreboard.png: the page during a game, in headless Chromium.

Run from the project root: `.venv/bin/python tests/referee/web/make_screenshot.py`. It plays a short game
on the tests' fake table (scores worked out by hand from the standard board's premiums) and photographs the
page as a player on a tablet beside the board sees it. Not a test: pytest does not collect it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from referee.web import create_app  # noqa: E402

_spec = importlib.util.spec_from_file_location("web_fixtures", HERE / "conftest.py")
assert _spec is not None and _spec.loader is not None
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)

BAG = ("A" * 9 + "B" * 2 + "C" * 2 + "D" * 4 + "E" * 12 + "F" * 2 + "G" * 3 + "H" * 2 + "I" * 9 + "J" + "K"
       + "L" * 4 + "M" * 2 + "N" * 6 + "O" * 8 + "P" * 2 + "Q" + "R" * 6 + "S" * 4 + "T" * 6 + "U" * 4 + "V" * 2
       + "W" * 2 + "X" + "Y" * 2 + "Z" + "??")
GAME = [  # seconds thought, tiles, notation, words, score (by hand: letter values and premiums)
    (95, "G8=Q H8=U I8=I J8=Z", "8G QUIZ", ["QUIZ"], 44),
    (130, "I5=W I6=A I7=X I9=E I10=R", "I5 WAXIER", ["WAXIER"], 25),
    (71, "F10=B G10=O H10=A J10=D", "10F BOARD", ["BOARD"], 18),
    (164, "F5=S G5=H H5=o J5=Y", "5F SHoWY", ["SHOWY"], 13),
    (58, "J11=O J12=V J13=E", "J10 DOVE", ["DOVE"], 8),
]


def main() -> int:
    out = ROOT / "docs" / "img" / "scoreboard.png"
    clock = fx.FakeClock()
    table = fx.FakeTable(clock, players=("Anna", "Ben"))
    server = fx.LiveServer(create_app(table, fx.PIN))
    server.start()
    try:
        table.control("start", {})
        for seconds, tiles, notation, words, score in GAME:
            clock.advance(seconds)
            table.play(tiles, notation, words, score)
        on_board = Counter(ch if ch.isupper() else "?" for row in table.board for ch in row if ch != ".")
        unseen = Counter(BAG) - on_board - Counter("EINRST?")  # less the rack of the player to move
        table.unseen = "".join(sorted(unseen.elements()))
        table.bag = len(BAG) - sum(on_board.values()) - 14
        table.alert("doubtful_letter", "J12: the camera is not sure: V or Y? Tap the square to correct it.",
                    ["J12"])
        clock.advance(37)
        table.publish()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=fx.CHROMIUM, args=fx.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 840}, device_scale_factor=1)
            page.goto(server.url)
            page.wait_for_selector("#player-1 .score")
            page.screenshot(path=str(out), full_page=False)
            browser.close()
    finally:
        server.stop()
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
