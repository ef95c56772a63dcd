"""Fixtures for the scoreboard tests: the table, a live server in a thread, and Chromium.

`table` is the real simulated table (`referee.sim.SimulatedTable`, recording the controls that reach it).
`fake_table`/`FakeTable` is the older scripted stand-in, kept only where a test reaches its situation in one
call (the browser tests of test_page.py, a correction scored on plain tile values, a Scramble roll of three
dice): it implements `TableView` and `TableControl` (and `gcg()`) the simple way, publishing from the
calling thread as the real table does from its own.
"""

from __future__ import annotations

import asyncio
import copy
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from aiohttp import web

from referee.sim import ManualClock, SimulatedTable, default_setup
from referee.table.api import ControlError, Snapshot
from referee.table.setup import TableSetup
from referee.web import create_app


class FakeRefusal(ControlError):
    """The fake table's refusals, in its own words (the real table's have codes: referee/table/messages.py)."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_input", detail=message)


# Debian's Chromium; REFEREE_CHROMIUM names another build (or a missing path, to check the clean skip).
CHROMIUM = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PIN = "390217"

VALUES = {**dict.fromkeys("AEILNORSTU", 1), **dict.fromkeys("DG", 2), **dict.fromkeys("BCMP", 3),
          **dict.fromkeys("FHVWY", 4), "K": 5, "J": 8, "X": 8, "Q": 10, "Z": 10}
PREMIUMS = [
    "T..d...T...d..T", ".D...t...t...D.", "..D...d.d...D..", "d..D...d...D..d", "....D.....D....",
    ".t...t...t...t.", "..d...d.d...d..", "T..d...D...d..T", "..d...d.d...d..", ".t...t...t...t.",
    "....D.....D....", "d..D...d...D..d", "..D...d.d...D..", ".D...t...t...D.", "T..d...T...d..T",
]


def cell(square: str) -> tuple[int, int]:
    """Row and column index of a square like "H8"."""
    return int(square[1:]) - 1, ord(square[0]) - ord("A")


class FakeTable:
    """A scriptable table: two players, game clocks on an injected clock, a board, moves and alerts."""

    def __init__(self, clock: ManualClock, players: tuple[str, ...] = ("Anna", "Ben"), minutes: float = 25.0,
                 language: str = "en") -> None:
        self.clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Callable[[Snapshot], None]] = []
        self.controls: list[tuple[str, dict[str, Any]]] = []
        self.seq = 0
        self.state = "waiting"
        self.board = [["."] * 15 for _ in range(15)]
        self.names = list(players)
        self.scores = [0] * len(players)
        self.racks = [7] * len(players)
        self.lost_on_time: int | None = None
        self.result: dict[str, Any] | None = None  # the engine's verdict, set by a test once the game has ended
        self.remaining = [minutes * 60.0] * len(players)
        self.on_turn = 0
        self.started_at: float | None = None
        self.moves: list[dict[str, Any]] = []
        self.last_play: list[str] = []
        self.alerts: list[dict[str, Any]] = []
        self.pending: dict[str, Any] = {}
        self.bag = 100 - 7 * len(players)
        self.unseen = ("AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWW"
                       "XYYZ??")
        self.language = language
        self.turn_timer: dict[str, Any] | None = None
        self._published = self._build()

    # --- TableView -----------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        with self._lock:
            return copy.deepcopy(self._build())

    def subscribe(self, listener: Callable[[Snapshot], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # --- TableControl --------------------------------------------------------------------------
    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot:
        with self._lock:
            self.controls.append((action, dict(params)))
            if action == "start":
                if self.state != "waiting":
                    raise FakeRefusal("the game has already started")
                self.state = "turn"
                self.started_at = self.clock()
            elif action == "pause":
                if self.state != "turn":
                    raise FakeRefusal("nothing to pause: no turn is running")
                self._stop_clock()
                self.state = "paused"
            elif action == "resume":
                if self.state != "paused":
                    raise FakeRefusal("the game is not paused")
                self.state = "turn"
                self.started_at = self.clock()
            elif action in ("blank", "correct"):
                self._letter(action, params["square"], params["letter"])
            elif action == "pass":
                self.commit([], "-", [], 0)
                return self.snapshot()
            elif action == "exchange":
                self.commit([], "-" + "?" * params["count"], [], 0, kind="exchange")
                return self.snapshot()
            else:
                raise FakeRefusal(f"the fake table does not do {action}")
            self.publish()
            return self.snapshot()

    def gcg(self) -> str:
        with self._lock:
            lines = [f"#player1 {self.names[0]} {self.names[0]}", f"#player2 {self.names[1]} {self.names[1]}"]
            for m in self.moves:
                lines.append(f">{self.names[m['player']]}: {m['notation']} +{m['score']} {m['total']}")
            return "\n".join(lines) + "\n"

    # --- scripting -----------------------------------------------------------------------------
    def publish(self) -> None:
        """Publish a snapshot to every listener, from the calling thread (the table's thread in the service)."""
        with self._lock:
            self.seq += 1
            snap = self._build()
            self._published = snap
            listeners = list(self._listeners)
        for listener in listeners:
            listener(copy.deepcopy(snap))

    def tick(self, seconds: float) -> None:
        """Let the injected clock run and publish, as the table does when a clock second passes."""
        self.clock.advance(seconds)
        self.publish()

    def play(self, tiles: str, notation: str, words: list[str], score: int | None = None,
             blanks: tuple[str, ...] = ()) -> None:
        """Commit a play written as "H8=Q H9=U ..." (lowercase for a blank); `blanks` wait for their letter."""
        placed: list[str] = []
        with self._lock:
            for item in tiles.split():
                square, letter = item.split("=")
                r, c = cell(square)
                self.board[r][c] = letter
                placed.append(square)
            if score is None:
                score = sum(VALUES.get(self.board[cell(s)[0]][cell(s)[1]], 0) for s in placed)
            if blanks:
                self.pending = {"blanks": list(blanks)}
                self.state = "blank"
        self.commit(placed, notation, words, score)

    def commit(self, placed: list[str], notation: str, words: list[str], score: int, kind: str = "play") -> None:
        with self._lock:
            player = self.on_turn
            self._stop_clock()
            self.scores[player] += score
            self.moves.append({"player": player, "kind": kind if placed or kind != "play" else "pass",
                               "notation": notation, "words": words, "score": score, "total": self.scores[player]})
            self.last_play = placed
            self.bag = max(0, self.bag - len(placed))
            self.on_turn = (player + 1) % len(self.names)
            if self.state != "blank":
                self.state = "turn"
            self.started_at = self.clock()
        self.publish()

    def alert(self, code: str, text: str, squares: list[str], level: str = "warning") -> None:
        with self._lock:
            self.alerts = [{"level": level, "code": code, "text": text, "squares": squares}]
        self.publish()

    # --- internals -----------------------------------------------------------------------------
    def _stop_clock(self) -> None:
        if self.started_at is not None:
            self.remaining[self.on_turn] -= self.clock() - self.started_at
            self.started_at = None

    def _letter(self, action: str, square: str, letter: str) -> None:
        r, c = cell(square)
        if self.board[r][c] == ".":
            raise FakeRefusal(f"{square}: there is no tile on this square")
        if action == "blank":
            if square not in self.pending.get("blanks", []):
                raise FakeRefusal(f"{square}: no blank waits for its letter here")
            self.board[r][c] = letter.lower()
            self.pending["blanks"].remove(square)
            if not self.pending["blanks"]:
                self.pending = {}
                self.state = "turn"
            return
        old = self.board[r][c]
        if old.islower():
            raise FakeRefusal(f"{square}: a blank scores nothing; set its letter with blank")
        if square in self.last_play and self.moves:
            move = self.moves[-1]
            delta = VALUES.get(letter, 0) - VALUES.get(old, 0)
            move["score"] += delta
            move["total"] += delta
            self.scores[move["player"]] += delta
        self.board[r][c] = letter
        self.alerts = [a for a in self.alerts if square not in a["squares"]]

    def _build(self) -> Snapshot:
        now = self.clock()
        players = []
        for i, name in enumerate(self.names):
            running = self.started_at is not None and i == self.on_turn and self.state == "turn"
            left = self.remaining[i] - (now - self.started_at if running and self.started_at is not None else 0)
            players.append({"name": name, "score": self.scores[i], "on_turn": i == self.on_turn and
                            self.state not in ("waiting", "ended"),
                            "clock": {"remaining_ms": round(left * 1000), "running": running},
                            "rack_count": self.racks[i], "lost_on_time": i == self.lost_on_time})
        return {
            "version": 1, "table": "Table 1", "game": "standard",
            "edition": "german" if self.language == "de" else "english", "language": self.language,
            "state": self.state, "board": ["".join(row) for row in self.board], "premiums": list(PREMIUMS),
            "start": "H8",
            "last_play": list(self.last_play), "players": players, "turn_timer": copy.deepcopy(self.turn_timer),
            "moves": copy.deepcopy(self.moves), "unseen": self.unseen, "bag": self.bag,
            "alerts": copy.deepcopy(self.alerts), "pending": copy.deepcopy(self.pending),
            "result": copy.deepcopy(self.result), "seq": self.seq,
        }


class TableWithoutRecord:
    """A table that keeps no game record: everything of the simulated table except `gcg()`."""

    def __init__(self, table: SimulatedTable) -> None:
        self._table = table

    def snapshot(self) -> Snapshot:
        return self._table.snapshot()

    def subscribe(self, listener: Callable[[Snapshot], None]) -> Callable[[], None]:
        return self._table.subscribe(listener)

    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot:
        return self._table.control(action, params)


def run_in_thread(coro: Any) -> Any:
    """Run a coroutine to the end on a fresh event loop in its own thread, and return its result.

    Playwright's sync API keeps an event loop running on the main thread while the session's browser is
    open, so `asyncio.run` there would refuse; a thread of its own keeps the async tests independent of it.
    """
    result: list[Any] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=target, name="async-test")
    thread.start()
    thread.join(120)
    if thread.is_alive():
        raise TimeoutError("the async test did not finish within 120 s")
    if error:
        raise error[0]
    return result[0]


@pytest.fixture
def run_async() -> Callable[[Any], Any]:
    return run_in_thread


class RecordedTable(SimulatedTable):
    """The simulated table, keeping every control that reached it: the page's tests check that a refused
    request never gets to the table, and that what does is cleaned first."""

    def __init__(self, clock: ManualClock, setup: TableSetup | None = None) -> None:
        super().__init__(setup, clock=clock)
        self.controls: list[tuple[str, dict[str, Any]]] = []

    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot:
        self.controls.append((action, dict(params)))
        return super().control(action, params)


@pytest.fixture
def table(clock: ManualClock) -> RecordedTable:
    """The page's table: the real one on a virtual board (see referee/sim/table.py), waiting to start."""
    return RecordedTable(clock)


@pytest.fixture
def make_recorded_table(clock: ManualClock) -> Callable[..., RecordedTable]:
    """More recorded tables on `clock`, with other settings of `default_setup` (`kind="scramble"`, ...)."""
    return lambda **changes: RecordedTable(clock, default_setup(**changes))


@pytest.fixture
def fake_table(clock: ManualClock) -> FakeTable:
    """The scripted stand-in the browser tests still use to reach a situation in one call."""
    return FakeTable(clock)


@pytest.fixture
def make_table(clock: ManualClock) -> Callable[..., FakeTable]:
    """Make a fake table on the test's clock with other players or language."""
    return lambda **kwargs: FakeTable(clock, **kwargs)


@pytest.fixture
def table_without_record(table: RecordedTable) -> TableWithoutRecord:
    return TableWithoutRecord(table)


class LiveServer:
    """The scoreboard app served on 127.0.0.1 by its own event loop in a thread, like in the service."""

    def __init__(self, app: web.Application) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.runner = web.AppRunner(app)
        self.port = 0
        self._thread = threading.Thread(target=self.loop.run_forever, name="scoreboard", daemon=True)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> None:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


@pytest.fixture
def live_server() -> Iterator[Callable[..., LiveServer]]:
    """Start scoreboard servers for a table: `live_server(table, pin=PIN, clock=...)`; all stopped after."""
    servers: list[LiveServer] = []

    def start(table: Any, pin: str | None = PIN, **kwargs: Any) -> LiveServer:
        server = LiveServer(create_app(table, pin, **kwargs))
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


class Scoreboard:
    """What the browser tests check on the page, the same way for the fake and the simulated table.

    The page's own clock is Playwright's fake clock, paused at `open`: the page then shows exactly the
    server's clock values, and a test moves the page's time on with `page.clock.run_for` when it checks
    the animation between pushes. `within_ms` is how soon a push must be on the page.
    """

    within_ms = 1000

    def __init__(self, expect: Any) -> None:
        self.expect = expect

    @staticmethod
    def clock_text(ms: int) -> str:
        """The page's clock format: minutes and seconds, rounded up while time is left, minus in overtime."""
        s = -((-ms) // 1000)
        text = f"{abs(s) // 60}:{abs(s) % 60:02d}"
        return f"\u2212{text}" if s < 0 else text

    def open(self, page: Any, url: str) -> None:
        page.clock.install()
        page.goto(url)
        page.clock.pause_at(10_000_000_000)  # the browser's clock stands still unless the test moves it
        self.expect(page.locator("#connection")).to_have_attribute("data-connected", "true", timeout=5000)

    def check_players(self, page: Any, table: Any) -> None:
        """Every score and clock on the page equals the table's, within `within_ms` of the push."""
        for i, player in enumerate(table.snapshot()["players"]):
            card = page.locator(f"#player-{i}")
            self.expect(card.locator(".score")).to_have_text(str(player["score"]), timeout=self.within_ms)
            if player["clock"] is not None:
                self.expect(card.locator(".clock")).to_have_text(self.clock_text(player["clock"]["remaining_ms"]),
                                                                 timeout=self.within_ms)
            on_turn = re.compile(r"\bon-turn\b") if player["on_turn"] else re.compile(r"^player$")
            self.expect(card).to_have_class(on_turn, timeout=self.within_ms)


@pytest.fixture
def ui(browser: Any) -> Scoreboard:
    return Scoreboard(pytest.importorskip("playwright.sync_api").expect)
