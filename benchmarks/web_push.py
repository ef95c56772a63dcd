"""Scoreboard push latency: from the table publishing a snapshot to a page having it.

The real web layer (`referee.web.create_app`, its event hub and `/events`) serves the service's
`SimulatedTable` (state machine, rules engine, table clock) after a game of a dozen plays, driven from a
thread of its own as in the service. The event is a second of table time passing (`table.advance(1)`:
the clocks move, the table builds and publishes a snapshot); the clock starts before that call, so the
table's own work is included. Without the service's table (an early checkout) a stand-in table that
publishes a realistic snapshot is used, and the figures say so. Two receivers are timed:

- an SSE client in this process (aiohttp): publish -> event parsed, on one `perf_counter`;
- headless Chromium showing the page (when /usr/bin/chromium is there): publish -> the page's DOM holds the
  new snapshot (a MutationObserver on the page's `data-seq`), on the shared system clock (`time.time()` in
  Python, `Date.now()` in the page; 1 ms resolution).

Each snapshot is published after the previous one arrived, so none is merged with the next. Prints one
`figure: value unit` line per figure. Goal: within 100 ms of the event.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiohttp import ClientSession, web  # noqa: E402

from referee.web import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
EVENTS = 200
PREMIUMS = [
    "T..d...T...d..T", ".D...t...t...D.", "..D...d.d...D..", "d..D...d...D..d", "....D.....D....",
    ".t...t...t...t.", "..d...d.d...d..", "T..d...D...d..T", "..d...d.d...d..", ".t...t...t...t.",
    "....D.....D....", "d..D...d...D..d", "..D...d.d...D..", ".D...t...t...D.", "T..d...T...d..T",
]


class BenchTable:
    """A table holding one realistic snapshot; `publish()` bumps seq and a clock, like a clock second passing."""

    def __init__(self) -> None:
        board = [list("." * 15) for _ in range(15)]
        letters = "QUIZJINSWAXEHORTLDMGBPCKVYF"
        for i in range(60):  # a mid-game board: 60 tiles
            board[(i * 7) % 15][(i * 4 + i // 15) % 15] = letters[i % len(letters)]
        moves = [{"player": i % 2, "kind": "play", "notation": f"{(i % 15) + 1}{'ABCDEFGHIJKLMNO'[i % 15]} WORD",
                  "words": ["WORD", "OW"], "score": 20 + i, "total": 0} for i in range(24)]
        self._lock = threading.Lock()
        self._listeners: list[Callable[[Any], None]] = []
        self.snap: dict[str, Any] = {
            "version": 1, "table": "Table 1", "game": "standard", "edition": "english", "language": "en",
            "state": "turn", "board": ["".join(r) for r in board], "premiums": PREMIUMS,
            "last_play": ["H8", "H9", "H10"],
            "players": [{"name": "Anna", "score": 310, "on_turn": True, "rack_count": 7,
                         "clock": {"remaining_ms": 900_000, "running": True}},
                        {"name": "Ben", "score": 287, "on_turn": False, "rack_count": 7,
                         "clock": {"remaining_ms": 700_000, "running": False}}],
            "turn_timer": None, "moves": moves, "unseen": "AEEIINORSTU??", "bag": 20, "alerts": [],
            "pending": {}, "seq": 0,
        }

    def snapshot(self) -> Any:
        with self._lock:
            return copy.deepcopy(self.snap)

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def control(self, action: str, params: Any) -> Any:
        return self.snapshot()

    def advance(self, seconds: float) -> None:
        self.publish()

    def publish(self) -> int:
        with self._lock:
            self.snap["seq"] += 1
            self.snap["players"][0]["clock"]["remaining_ms"] -= 1000
            snap = copy.deepcopy(self.snap)
        for listener in self._listeners:
            listener(snap)
        return int(snap["seq"])


class Server:
    """The app on 127.0.0.1 with its own loop in a thread, as in the service."""

    def __init__(self, table: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.runner = web.AppRunner(create_app(table, None))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.port = 0

    def __enter__(self) -> Server:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)
        return self

    async def _start(self) -> None:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def sse_latencies(table: Any, port: int) -> list[float]:
    """Publish from another thread, time until this client has parsed the event."""
    latencies: list[float] = []
    async with ClientSession() as session, session.get(f"http://127.0.0.1:{port}/events") as response:
        published: dict[int, float] = {}

        async def read() -> None:
            data = b""
            while len(latencies) < EVENTS:
                line = await response.content.readline()
                if line.startswith(b"data: "):
                    data = line[6:]
                elif line == b"\n" and data:
                    seq = json.loads(data)["seq"]
                    if seq in published:
                        latencies.append((time.perf_counter() - published[seq]) * 1000)
                        arrived.set()
                    data = b""

        arrived = asyncio.Event()
        reader = asyncio.create_task(read())
        loop = asyncio.get_running_loop()
        for _ in range(EVENTS):
            arrived.clear()

            def fire() -> None:
                start = time.perf_counter()
                published[table.snapshot()["seq"] + 1] = start
                table.advance(1.0)

            await loop.run_in_executor(None, fire)  # the table's own thread
            await asyncio.wait_for(arrived.wait(), 5)
        await reader
    return latencies


def page_latencies(table: Any, port: int) -> list[float] | None:
    if not os.access(CHROMIUM, os.X_OK):
        return None
    from playwright.sync_api import sync_playwright

    latencies: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # The instrumentation below is evaluated from strings, which the page's CSP forbids for its own scripts.
        page = browser.new_context(bypass_csp=True).new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function("document.body.dataset.seq !== undefined")
        page.evaluate("""() => {
            window.__arrivals = {};
            new MutationObserver(() => { window.__arrivals[document.body.dataset.seq] = Date.now(); })
              .observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
        }""")
        for _ in range(EVENTS):
            seq = table.snapshot()["seq"] + 1
            published = time.time()
            table.advance(1.0)
            page.wait_for_function(f"window.__arrivals['{seq}'] !== undefined", polling=5, timeout=5000)
            arrived = page.evaluate(f"window.__arrivals['{seq}']")
            latencies.append(arrived - published * 1000)
        browser.close()
    return latencies


def report(name: str, values: list[float]) -> None:
    print(f"{name}_p50: {statistics.median(values):.1f} ms")
    print(f"{name}_p99: {percentile(values, 0.99):.1f} ms")
    print(f"{name}_max: {max(values):.1f} ms")


GAME = ["8G QUIZ", "I5 WAX.ER", "10F BOA.D", "5F SHO.Y", "J10 .OVE", "13G JAB.", "F10 .LEAT", "14F .OE"]


def make_table() -> tuple[Any, str]:
    """The service's simulated table after eight plays, or the stand-in when it is not there."""
    try:
        from referee.sim import ManualClock, SimulatedTable
    except ImportError:
        return BenchTable(), "stand-in table"
    table = SimulatedTable(clock=ManualClock())
    table.control("start", {})
    for move in GAME:
        table.advance(20)
        table.play(move)
        table.advance(15)
        if table.snapshot()["alerts"]:
            raise SystemExit(f"the scripted game went wrong at {move}: {table.snapshot()['alerts']}")
    return table, "SimulatedTable"


def main() -> int:
    table, kind = make_table()
    size = len(json.dumps(table.snapshot()))
    with Server(table) as server:
        print(f"table: {kind}, {len(table.snapshot()['moves'])} moves", file=sys.stderr)
        print(f"snapshot_size: {size} bytes")
        report("push_latency_sse", asyncio.run(sse_latencies(table, server.port)))
        page = page_latencies(table, server.port)
        if page is None:
            print("skipped: page latency (no chromium at /usr/bin/chromium)")
        else:
            report("push_latency_page", page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
