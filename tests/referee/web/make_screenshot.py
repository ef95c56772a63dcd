"""Make docs/img/scoreboard.png and scoreboard-phone.png: the page during a game, in headless Chromium.

Run from the project root: `.venv/bin/python tests/referee/web/make_screenshot.py`. It plays the first
moves of a game on the service's `SimulatedTable` (scores from the rules engine, clocks on its manual
clock) and photographs the page as a tablet beside the board shows it; then the next player lays a word
with a blank and a phone shows the table asking for its letter. Not a test: pytest does not collect it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from referee.sim import ManualClock, SimulatedTable  # noqa: E402
from referee.web import create_app  # noqa: E402

_spec = importlib.util.spec_from_file_location("web_fixtures", HERE / "conftest.py")
assert _spec is not None and _spec.loader is not None
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)

GAME = [(95, "8G QUIZ"), (130, "I5 WAX.ER"), (71, "10F BOA.D"), (164, "5F SHO.Y"), (58, "J10 .OVE"),
        (102, "13G JOK."), (47, "12J .ERB")]


def main() -> int:
    out = ROOT / "docs" / "img" / "scoreboard.png"
    phone = ROOT / "docs" / "img" / "scoreboard-phone.png"
    table = SimulatedTable(clock=ManualClock())
    server = fx.LiveServer(create_app(table, fx.PIN))
    server.start()
    try:
        table.control("start", {})
        for seconds, move in GAME:
            table.advance(seconds)
            table.play(move)
            table.advance(15)  # the challenge window closes
        table.advance(37)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=fx.CHROMIUM, args=fx.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 840}, device_scale_factor=1)
            page.goto(server.url)
            page.wait_for_selector("#player-1 .score")
            page.screenshot(path=str(out), full_page=False)
            table.place_word("11K bAN")
            table.advance(21)
            table.press()
            mobile = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                         is_mobile=True, has_touch=True).new_page()
            mobile.goto(server.url)
            mobile.wait_for_selector('#alerts [data-code="blank_letter"]')
            mobile.screenshot(path=str(phone), full_page=False)
            browser.close()
    finally:
        server.stop()
    print(f"wrote {out.relative_to(ROOT)} and {phone.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
