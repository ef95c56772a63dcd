"""Soak: the referee service's memory through a simulated club day and a 60 s flood, and the page under
1,100 idle connections.

Run from the project root: `.venv/bin/python benchmarks/soak.py` (about 6-10 minutes; `--quick` for a
shorter day, for a smoke run).

The real path, in one process: `TableService` of the simulated table with its page on a loopback port (the
service's own `run`: the page's loop, the table's thread, the journal's heartbeat thread), the sensor board's
firmware in the emulator behind a pseudo-terminal, the host link, the journal in SQLite on disk.

The simulated day, accelerated (stated in the output):
- games: a whole tournament game (../shared/gcg/liwords, to the racks at its end) played by the demo's robot
  players through the emulated board, one after another (the page's "new game" between them),
  `GAMES_PER_DAY` of them;
- idle: the board's heartbeats, which on a real board come once a second, sent every `HEARTBEAT_MS` ms (the
  board told so with SET_CONFIG after the games; during the games it beats once a second, as a real one),
  so `IDLE_HOURS` of idle board cost `IDLE_HOURS * 3600 * HEARTBEAT_MS / 1000` seconds here;
- the page: a phone polling /api/snapshot throughout, and one event stream open.
The referee's own 2 s journal heartbeat runs at real speed (it is not accelerated).

Resident memory (VmRSS, after a garbage collection) is taken after a warm-up game (imports, caches and the
lexicon are then in), after the day, and after the flood. The flood, 60 s: the board reporting changes as
fast as the firmware's debounce lets 40 squares change, page requests (/api/snapshot, /board.png, wrong PINs)
from 4 clients as fast as they are answered.

Then 1,100 idle connections (half of them sending a request head half-way) are opened, and a new page
request is timed: goal within 1 s.

The machine is shared by several developers (2 cores): figures are noisy; treat them as such.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import resource
import socket
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.demo import DemoDriver, RecordJudge, load_record  # noqa: E402
from referee.service import TableService  # noqa: E402
from referee.sim.parts import sim_config, sim_parts  # noqa: E402
from referee.web.limits import IDLE_TIMEOUT_S  # noqa: E402

SHARED_GAME = ROOT.parent / "shared" / "gcg" / "liwords" / "pkg_omgwords_testdata_vs_josh.gcg"
HEARTBEAT_MS = 20  # the idle board's heartbeat: 50x faster than a real board's 1 s (the firmware's fastest)
GAMES_PER_DAY = 8
IDLE_HOURS = 4.0
FLOOD_S = 60.0
IDLE_CONNECTIONS = 1100


def rss_kb() -> int:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit("no VmRSS in /proc/self/status")


def trimmed_rss_kb() -> int:
    """VmRSS after a garbage collection and glibc's `malloc_trim(0)`, which returns the heap's free pages to the
    system: what is left is memory in use, not memory the C library kept after it was freed."""
    import ctypes

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return rss_kb()


def native_memory() -> str:
    """What tracemalloc cannot see: SQLite's own allocations (`sqlite3_memory_used`, its page caches and
    statements) and the C heap (glibc's `mallinfo2`: bytes in use, and bytes freed but kept in the arenas)."""
    import ctypes

    said = []
    with contextlib.suppress(OSError, AttributeError):
        lib = ctypes.CDLL("libsqlite3.so.0")
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        said.append(f"sqlite {lib.sqlite3_memory_used() / 1024:.0f} KB")

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                          "fsmblks", "uordblks", "fordblks", "keepcost")]

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = MallInfo2
        info = libc.mallinfo2()
        said.append(f"C heap in use {info.uordblks / 1024:.0f} KB, free in arenas {info.fordblks / 1024:.0f} KB, "
                    f"mmapped {info.hblkhd / 1024:.0f} KB")
    return ", ".join(said)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Service:
    """The service with its page, run by its own `run` on a thread (as `referee run` runs it)."""

    def __init__(self, state: Path, players: tuple[str, ...]) -> None:
        self.port = free_port()
        cfg = sim_config(state_dir=state, port=self.port, fusion="sensors", clock_mode="none", players=players)
        parts = sim_parts(cfg)
        self.judge = RecordJudge()
        parts.lexicon = self.judge
        self.service = TableService(parts)
        self.service.start()
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.service.ready.wait(120):
            raise SystemExit("the service did not start within 120 s")
        deadline = time.monotonic() + 15
        while not self.service.link.picture().connected:
            if time.monotonic() > deadline:
                raise SystemExit("the emulated board did not connect within 15 s")
            time.sleep(0.01)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.service.run(self.stop))

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)
        self.service.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def play_game(svc: Service, record: Any) -> None:
    table = svc.service.table
    emu = svc.service.link.emulator
    snap = table.snapshot()
    if snap["state"] == "ended":
        for square in list(emu.board.occupied()):
            emu.lift(square)
        deadline = time.monotonic() + 15
        while table.machine.observed:
            if time.monotonic() > deadline:
                raise SystemExit("the board was not seen empty after the game")
            time.sleep(0.02)
        table.control("new_game", {})
    result = DemoDriver(svc.service, record, svc.judge, timeout_s=30).run()
    if result.mismatches or result.stopped or result.state != "ended":
        raise SystemExit(f"the demo game went wrong: {result.mismatches or 'stopped'}")


class Poller(threading.Thread):
    """A phone polling the snapshot (and, in the flood, the board picture and wrong PINs)."""

    def __init__(self, url: str, flood: bool) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.flood = flood
        self.done = threading.Event()
        self.requests = 0
        self.errors = 0

    def run(self) -> None:
        paths = ["/api/snapshot", "/board.png"] if self.flood else ["/api/snapshot"]
        n = 0
        while not self.done.is_set():
            try:
                if self.flood and n % 5 == 4:
                    req = urllib.request.Request(f"{self.url}/api/control/pause", data=b"{}", method="POST",
                                                 headers={"Content-Type": "application/json",
                                                          "X-Table-PIN": "000001"})
                    with contextlib.suppress(urllib.error.HTTPError):
                        urllib.request.urlopen(req, timeout=10).read()
                else:
                    with urllib.request.urlopen(self.url + paths[n % len(paths)], timeout=10) as r:
                        r.read()
                self.requests += 1
            except OSError:
                self.errors += 1
            n += 1
            if not self.flood:
                self.done.wait(1.0)


def board_flood(svc: Service, seconds: float) -> int:
    emu = svc.service.link.emulator
    taken = set(emu.board.occupied())  # the last game's tiles stay where they are
    squares = [sq for sq in (f"{chr(ord('A') + c)}{r}" for r in range(1, 16) for c in range(15))
               if sq not in taken][:40]
    changes = 0
    end = time.monotonic() + seconds
    up = False
    while time.monotonic() < end:
        for sq in squares:
            if up:
                emu.lift(sq)
            else:
                emu.place(sq, "E")
        changes += len(squares)
        up = not up
        time.sleep(0.04)  # the firmware's debounce (30 ms) needs the tiles to stay put a moment
    if up:
        for sq in squares:
            emu.lift(sq)
    return changes


def idle_connections_then_a_page(svc: Service) -> float:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = IDLE_CONNECTIONS + 512
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard) if hard != resource.RLIM_INFINITY else need,
                                                    hard))
    socks = []
    try:
        for n in range(IDLE_CONNECTIONS):
            s = socket.socket()
            s.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                s.connect(("127.0.0.1", svc.port))
            socks.append(s)
            if n % 2:
                with contextlib.suppress(OSError):
                    s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"{svc.url}/api/snapshot", timeout=30) as r:
            json.loads(r.read())
        return time.perf_counter() - t0
    finally:
        for s in socks:
            s.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short day (2 games, 1 idle hour), a 10 s flood")
    parser.add_argument("--connections-only", type=int, metavar="N", default=0,
                        help="only the page under 1,100 idle connections, N times (median and worst)")
    parser.add_argument("--trace", type=float, metavar="MINUTES", default=0.0,
                        help="only steady page load (a phone polling, an event stream) after one game, for "
                             "MINUTES of real time, with tracemalloc: the lines whose memory grew, and RSS a minute")
    parser.add_argument("--trace-games", type=int, metavar="N", default=0,
                        help="tracemalloc by line over N more whole games after the warm-up one, then a flood of "
                             "--trace-flood seconds (default 0: none)")
    parser.add_argument("--trace-flood", type=float, metavar="SECONDS", default=0.0)
    args = parser.parse_args()
    if args.connections_only:
        return connections_only(args.connections_only)
    if args.trace:
        return trace_steady_load(args.trace)
    if args.trace_games or args.trace_flood:
        return trace_games_and_flood(args.trace_games, args.trace_flood)
    games, idle_hours, flood_s = (2, 1.0, 10.0) if args.quick else (GAMES_PER_DAY, IDLE_HOURS, FLOOD_S)
    if not SHARED_GAME.is_file():
        raise SystemExit(f"{SHARED_GAME}: the shared tournament game is missing (a whole game, to its end)")
    record = load_record(str(SHARED_GAME))
    idle_s = idle_hours * 3600 * HEARTBEAT_MS / 1000
    print(f"# a simulated day: {games} games of {SHARED_GAME.name} at robot speed, then {idle_hours:g} h of idle "
          f"board heartbeats at {HEARTBEAT_MS} ms instead of 1 s ({idle_s:.0f} s here); a phone polling the "
          "snapshot every second and one event stream open throughout", flush=True)
    with tempfile.TemporaryDirectory(prefix="referee-soak-") as state:
        svc = Service(Path(state), tuple(p.name for p in record.players))
        stream = urllib.request.urlopen(f"{svc.url}/events", timeout=3600)  # a page's event stream, kept open
        phone = Poller(svc.url, flood=False)
        phone.start()
        try:
            play_game(svc, record)  # warm-up: imports, caches, the first game's allocations
            start_kb = rss_kb()
            native_at_start = native_memory()
            t0 = time.monotonic()
            for _ in range(games):
                play_game(svc, record)
            played_s = time.monotonic() - t0
            link = svc.service.link
            link.set_config(30, HEARTBEAT_MS)  # the idle board: heartbeats only, accelerated
            time.sleep(idle_s)
            link.set_config(30, 1000)
            day_kb = rss_kb()
            native_after_day = native_memory()
            print(f"# the day took {played_s:.0f} s of games and {idle_s:.0f} s idle; the board sent about "
                  f"{int(idle_s * 1000 / HEARTBEAT_MS)} heartbeats while idle", flush=True)

            floods = [Poller(svc.url, flood=True) for _ in range(4)]
            for f in floods:
                f.start()
            changes = board_flood(svc, flood_s / 2)
            half_kb = rss_kb()  # half-way: the second half must not add as much again (bounded)
            changes += board_flood(svc, flood_s / 2)
            for f in floods:
                f.done.set()
            for f in floods:
                f.join(30)
            flood_kb = rss_kb()
            answered = sum(f.requests for f in floods)
            print(f"# the flood: {changes} square changes sent, {answered} page requests answered "
                  f"({answered / flood_s:.0f}/s), {sum(f.errors for f in floods)} failed", flush=True)

            page_s = idle_connections_then_a_page(svc)
            queued = svc.service.link.events.qsize() if hasattr(svc.service.link.events, "qsize") else -1
        finally:
            phone.done.set()
            stream.close()
            svc.close()
    print(f"native_at_start: {native_at_start}")
    print(f"native_after_day: {native_after_day}")
    print(f"rss_at_start: {start_kb / 1024:.1f} MB")
    print(f"rss_after_day: {day_kb / 1024:.1f} MB")
    print(f"rss_half_way_through_flood: {half_kb / 1024:.1f} MB")
    print(f"rss_after_flood: {flood_kb / 1024:.1f} MB")
    print(f"growth_per_simulated_day: {(day_kb - start_kb) / 1024:.2f} MB")
    print(f"growth_in_flood: {(flood_kb - day_kb) / 1024:.2f} MB")
    print(f"growth_in_second_half_of_flood: {(flood_kb - half_kb) / 1024:.2f} MB")
    print(f"page_with_{IDLE_CONNECTIONS}_idle_connections: {page_s * 1000:.0f} ms")
    # BoardLink.events: the link's queue of every event, which the service does not read (it takes them by
    # callback); unbounded on this branch (issue 17, item 10, is the link's), so it is counted here.
    print(f"board_link_events_queued_at_end: {queued} events")
    return 0


def trace_steady_load(minutes: float, top: int = 20) -> int:
    """Where the memory of an idle table under steady page load goes: tracemalloc by line between a snapshot
    after the warm-up game and one `minutes` later, and the RSS each minute. tracemalloc sees Python's
    allocations only (not SQLite's page cache nor the C library's arenas): RSS growth it does not show is
    outside Python."""
    import tracemalloc

    record = load_record(str(SHARED_GAME))
    with tempfile.TemporaryDirectory(prefix="referee-soak-") as state:
        svc = Service(Path(state), tuple(p.name for p in record.players))
        stream = urllib.request.urlopen(f"{svc.url}/events", timeout=3600)
        phone = Poller(svc.url, flood=False)
        phone.start()
        try:
            play_game(svc, record)
            time.sleep(30)  # the page and the journal settle (the first minute's caches)
            trimmed_start_kb = trimmed_rss_kb()
            print(f"# start: rss {trimmed_start_kb / 1024:.2f} MB (trimmed), {native_memory()}", flush=True)
            tracemalloc.start(1)
            start_kb = rss_kb()
            first = tracemalloc.take_snapshot()
            rss = [start_kb]
            for _ in range(max(1, round(minutes))):
                time.sleep(60 * minutes / max(1, round(minutes)))
                rss.append(rss_kb())
                print(f"# rss {rss[-1] / 1024:.2f} MB, traced {tracemalloc.get_traced_memory()[0] / 1024:.0f} KB, "
                      f"{native_memory()}", flush=True)
            last = tracemalloc.take_snapshot()
            tracemalloc.stop()  # its own traces off the heap before the trimmed figure
            trimmed_end_kb = trimmed_rss_kb()
        finally:
            phone.done.set()
            stream.close()
            svc.close()
    skip = [tracemalloc.Filter(False, tracemalloc.__file__)]
    stats = last.filter_traces(skip).compare_to(first.filter_traces(skip), "lineno")
    grown = sum(s.size_diff for s in stats)
    print(f"rss_growth_per_minute: {(rss[-1] - start_kb) / 1024 / minutes:.3f} MB ({minutes:g} min, "
          f"{phone.requests} snapshot requests)")
    print(f"traced_growth_per_minute: {grown / 1024 / 1024 / minutes:.3f} MB")
    print(f"rss_growth_per_minute_after_malloc_trim: {(trimmed_end_kb - trimmed_start_kb) / 1024 / minutes:.3f} MB "
          "(freed heap the C library kept, given back first)")
    for stat in stats[:top]:
        print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks  {stat.traceback[0]}")
    return 0


def trace_games_and_flood(games: int, flood_s: float, top: int = 15) -> int:
    """tracemalloc by line over `games` whole games (after a warm-up one) and then over a flood of `flood_s`
    seconds: which lines hold memory a game or a flood left behind, with SQLite's and the C heap's figures."""
    import tracemalloc

    record = load_record(str(SHARED_GAME))

    def report(what: str, before: Any, after: Any, rss0: int, rss1: int) -> None:
        skip = [tracemalloc.Filter(False, tracemalloc.__file__)]
        stats = after.filter_traces(skip).compare_to(before.filter_traces(skip), "lineno")
        print(f"{what}: rss {(rss1 - rss0) / 1024:+.2f} MB, traced {sum(s.size_diff for s in stats) / 1024:+.0f} KB; "
              f"{native_memory()}")
        for stat in stats[:top]:
            print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks  {stat.traceback[0]}")

    with tempfile.TemporaryDirectory(prefix="referee-soak-") as state:
        svc = Service(Path(state), tuple(p.name for p in record.players))
        stream = urllib.request.urlopen(f"{svc.url}/events", timeout=3600)
        phone = Poller(svc.url, flood=False)
        phone.start()
        try:
            play_game(svc, record)
            print(f"# after the warm-up game: {native_memory()}", flush=True)
            tracemalloc.start(1)
            rss0, snap0 = rss_kb(), tracemalloc.take_snapshot()
            for _ in range(games):
                play_game(svc, record)
            rss1, snap1 = rss_kb(), tracemalloc.take_snapshot()
            if games:
                report(f"{games} games", snap0, snap1, rss0, rss1)
            if flood_s:
                floods = [Poller(svc.url, flood=True) for _ in range(4)]
                for f in floods:
                    f.start()
                changes = board_flood(svc, flood_s)
                for f in floods:
                    f.done.set()
                for f in floods:
                    f.join(30)
                rss2, snap2 = rss_kb(), tracemalloc.take_snapshot()
                report(f"a {flood_s:g} s flood ({changes} square changes)", snap1, snap2, rss1, rss2)
        finally:
            phone.done.set()
            stream.close()
            svc.close()
    return 0


def connections_only(times: int) -> int:
    import statistics

    with tempfile.TemporaryDirectory(prefix="referee-soak-") as state:
        svc = Service(Path(state), ("Anna", "Ben"))
        try:
            took = []
            for _ in range(times):
                took.append(idle_connections_then_a_page(svc))
                time.sleep(IDLE_TIMEOUT_S + 1)  # the server closes what is left of the last round's sockets
        finally:
            svc.close()
    print(f"page_with_{IDLE_CONNECTIONS}_idle_connections_median: {statistics.median(took) * 1000:.0f} ms")
    print(f"page_with_{IDLE_CONNECTIONS}_idle_connections_worst: {max(took) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
