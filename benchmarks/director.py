"""The director's hall under 500 tables: table event -> director page DOM, director memory, page memory.

Everything is the real code path: a Mosquitto with the event's ACL and a user per table
(tournament.testing.broker, tournament.acl); `referee director --config` as its own process (its memory is
read from /proc); 500 simulated tables (tournament.testing.simhall.SimTable: game header, events, retained
snapshots, statuses, command acks; one paho client each, 150 to a process: paho waits with select(), which
stops at 1024 descriptors); headless Chromium
(/usr/bin/chromium) showing the hall page (`/`, 60 tables per page: only one page of tiles is in the DOM).

Play: every table makes a move every `PACE_S` seconds on average (accelerated: a real table moves about every
40 s), so the director takes 500 / PACE_S moves a second, each an event and a snapshot. For the tables on
the page's first page, the time from the table publishing a move (`time.time()` just before) to the page's
DOM holding it (the tile's `data-shown-at`, `Date.now()` when the tile was drawn, matched by the snapshot's
seq) is collected; both clocks are this machine's system clock (1 ms resolution).

"The hall stays responsive" is measured in the page: the main thread's long tasks (PerformanceObserver
`longtask`, > 50 ms) during the run, and the time from clicking "next page" to the next page's 60 tiles
being drawn, while the 500 tables play on.

The broadcast (tournament/broadcast/, docs/director.md "Broadcasting the event"): before play, a tsh
`tourney.js` pairing every table is sent as round 1's pairings; `OVERLAYS` overlay pages
(`/overlay/N?fields=` all of them, 1920x1080) are open beside the hall page, and the time from a table
publishing a move to that overlay's DOM holding it (its `data-shown-at`, matched by seq) is collected; a poller
asks `/tourney.js` every 0.2 s while the hall plays (about one game in fifty ends at each move's turn, so the
feed is written again as results come in) and the time of each answer is collected.

Prints one `figure: value unit` line per figure. Goal: p99 < 500 ms (page and overlay), `/tourney.js` p99 <
100 ms.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament.acl import DIRECTOR_USER, VIEWER_USER, acl_text, table_user  # noqa: E402
from tournament.settings import BrokerSettings  # noqa: E402
from tournament.testing.broker import Broker, mosquitto_path  # noqa: E402
from tournament.testing.simhall import SimTable  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
OVERLAYS = int(os.environ.get("DIRECTOR_BENCH_OVERLAYS", "8"))
END_CHANCE = 0.02  # a move's turn ends the table's game instead (it then plays no more)
TABLES = int(os.environ.get("DIRECTOR_BENCH_TABLES", "500"))
PACE_S = float(os.environ.get("DIRECTOR_BENCH_PACE_S", "5"))
RUN_S = float(os.environ.get("DIRECTOR_BENCH_RUN_S", "30"))
EVENT = "bench-open"
KEY = "bench-director-key"
WORDS = ["QUIZ", "JAB", "OX", "ZAX", "AXE", "WEN", "FEZ", "JOT", "VEX", "HEX", "QI", "ZA", "KA"]

OBSERVE = """
() => {
  window.__shown = [];
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
    .observe({ type: "longtask", buffered: true });
  new MutationObserver((records) => {
    for (const r of records) {
      const node = r.target;
      if (r.attributeName === "data-shown-at") {
        window.__shown.push([Number(node.dataset.table), Number(node.dataset.seq), Number(node.dataset.shownAt)]);
      }
    }
  }).observe(document.getElementById("hall"), { attributes: true, subtree: true, attributeFilter: ["data-shown-at"] });
}
"""


OBSERVE_OVERLAY = """
() => {
  window.__shown = [];
  const root = document.getElementById("overlay");
  new MutationObserver(() => {
    window.__shown.push([Number(root.dataset.table), Number(root.dataset.seq), Number(root.dataset.shownAt)]);
  }).observe(root, { attributes: true, attributeFilter: ["data-shown-at"] });
}
"""


def tsh_file(tables: int) -> str:
    """A tsh `tourney.js` (the form tsh's JSON command writes) with one division whose round 1 pairs player
    2n-1 with 2n at board n: every table of the benchmark gets a pairing."""
    players: list[Any] = [None]
    for n in range(1, 2 * tables + 1):
        other = n + 1 if n % 2 else n - 1
        players.append({"id": n, "name": f"Player{n:04d}, Bench", "rating": 1500, "pairings": [other], "scores": [],
                        "etc": {"board": [(n + 1) // 2], "p12": [1 if n % 2 else 2]}})
    data = {"config": {"event_name": "Bench Open", "currency_symbol": None},
            "divisions": [{"name": "A", "players": players}]}
    body = json.dumps(data, separators=(",", ":")).replace("null", "undefined")
    return f"newt={body};\n"


def send_pairings(url: str, text: str) -> None:
    """POST /api/pairings as the hall page does: the session cookie, its CSRF token, the director key."""
    import http.cookiejar

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with opener.open(url + "api/session", timeout=30) as response:
        token = json.loads(response.read())["token"]
    request = urllib.request.Request(url + "api/pairings", json.dumps({"format": "tsh", "text": text, "round": 1})
                                     .encode(), method="POST")
    for name, value in (("Content-Type", "application/json"), ("X-CSRF-Token", token), ("X-Director-Key", KEY)):
        request.add_header(name, value)
    with opener.open(request, timeout=120) as response:
        assert response.status == 200


def tourney_poller(url: str, times: list[float], stop: Any) -> None:
    """Ask /tourney.js every 0.2 s, as a broadcast site's poller would (far more often than Woogles' 300 s)."""
    pause = threading.Event()
    while not stop.is_set():
        started = time.perf_counter()
        with urllib.request.urlopen(url + "tourney.js", timeout=30) as response:
            response.read()
        times.append((time.perf_counter() - started) * 1000)
        pause.wait(0.2)


PER_PROCESS = 150  # paho waits with select(): about 3 descriptors a client, and select stops at 1024


def play_tables(numbers: list[int], host: str, port: int, ready: Any, go: Any, stop: Any, out: Any) -> None:
    """A worker process: its share of the tables connect, then play at the hall's pace until told to stop;
    sends back when each move was published ((table, seq) -> ms since the epoch)."""
    tables = []
    for n in numbers:
        settings = BrokerSettings(host, port, username=table_user(n), password=f"pw-{table_user(n)}")
        table = SimTable(EVENT, n, settings, players=(f"Player {n}A", f"Player {n}B"))
        table.connect()
        tables.append(table)
        if len(tables) % 50 == 0:  # in batches, as a hall's Pis boot: not hundreds of logins in one burst
            for t in tables[-50:]:
                t.connected.wait(120)
    ok = all(t.connected.wait(120) for t in tables)
    ready.put((numbers[0], ok))
    go.wait()
    published: dict[tuple[int, int], float] = {}
    rng = random.Random(numbers[0])
    interval = PACE_S / len(tables)
    nxt = time.monotonic()
    while not stop.is_set():
        table = tables[rng.randrange(len(tables))]
        if table.state == "ended":
            stop.wait(max(0.0, nxt - time.monotonic()))
            nxt += interval
            continue
        if rng.random() < END_CHANCE and table.number > OVERLAYS:  # the overlays' tables play on
            table.end()
            nxt += interval
            continue
        word = rng.choice(WORDS)
        row = rng.randrange(1, 16)
        squares = [f"{chr(ord('A') + c)}{row}" for c in range(len(word))]
        with table.lock:
            published[(table.number, len(table.journal[table.game]))] = time.time() * 1000
            table.play(f"{row}A {word}", rng.randrange(2, 60), squares)
        nxt += interval
        stop.wait(max(0.0, nxt - time.monotonic()))
    out.put(published)
    for table in tables:
        table.stop()


def sse_probe(url: str, seen: dict[tuple[int, int], float], stop: Any) -> None:
    """An event-stream client beside the page: when each (table, seq) left the director, to tell the
    director's share of the latency from the browser's."""
    kind = ""
    with urllib.request.urlopen(url + "events", timeout=30) as stream:
        for raw in stream:
            if stop.is_set():
                return
            line = raw.decode()
            if line.startswith("event: "):
                kind = line[7:].strip()
            elif line.startswith("data: ") and kind == "tiles":  # (a "broker" event says the link's state)
                now = time.time() * 1000
                for tile in json.loads(line[6:]):
                    seen.setdefault((int(tile["table"]), int(tile["seq"])), now)


def broker_probe(broker: Any, seen: dict[tuple[int, int], float]) -> Any:
    """A plain subscriber (the broker's read-only `viewer` user) to every table's snapshot: when each (table, seq)
    left the broker, to tell the tables' and the broker's share of the latency from the director's."""
    from tournament import mqtt, topics

    client = mqtt.make_client(BrokerSettings(broker.host, broker.port, username=VIEWER_USER,
                                             password=f"pw-{VIEWER_USER}"), "bench-probe")

    def on_message(_client: Any, _userdata: Any, message: Any) -> None:
        now = time.time() * 1000
        body = json.loads(message.payload)
        seen.setdefault((int(body["table"]), int(body["seq"])), now)

    client.on_connect = lambda c, *_: c.subscribe(topics.all_tables(EVENT, "snapshot"), 1)
    client.on_message = on_message
    mqtt.connect_async(client, BrokerSettings(broker.host, broker.port), clean_start=True)
    return client


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (/proc/PID/stat, clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) / 1024 if match else float("nan")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="benchmarks/director.py", description=__doc__.split("\n")[0],
        epilog="Set by the environment: DIRECTOR_BENCH_TABLES (500), DIRECTOR_BENCH_PACE_S (5: a move per table "
               "every 5 s on average), DIRECTOR_BENCH_RUN_S (30). Prints one 'figure: value unit' line per figure.")
    parser.parse_args(argv)
    if mosquitto_path() is None:
        print("mosquitto is not installed: no figures", file=sys.stderr)
        return 0
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="director-bench-"))
    users = {u: f"pw-{u}" for u in (DIRECTOR_USER, VIEWER_USER, *(table_user(n) for n in range(1, TABLES + 1)))}
    broker = Broker(folder / "broker", users, acl_text(EVENT, range(1, TABLES + 1)))
    broker.start()
    director: subprocess.Popen[str] | None = None
    workers: list[Any] = []
    try:
        (folder / "key.txt").write_text(KEY + "\n")
        (folder / "cred.txt").write_text(f"{DIRECTOR_USER}:pw-{DIRECTOR_USER}\n")
        (folder / "DIRECTOR.toml").write_text(
            f'[director]\nevent = "{EVENT}"\nport = 0\ncredential_file = "key.txt"\n'
            f'[broker]\nbroker = "{broker.url}"\ncredentials = "cred.txt"\n')
        director = subprocess.Popen([sys.executable, "-m", "referee", "director", "--config",
                                     str(folder / "DIRECTOR.toml")], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        assert director.stdout is not None
        url = director.stdout.readline().split(" ", 1)[1].strip()
        rss_idle = rss_mib(director.pid)

        started = time.monotonic()
        ctx = multiprocessing.get_context("spawn")
        ready, out = ctx.Queue(), ctx.Queue()
        go, stop = ctx.Event(), ctx.Event()
        numbers = list(range(1, TABLES + 1))
        shares = [numbers[i:i + PER_PROCESS] for i in range(0, TABLES, PER_PROCESS)]
        for share in shares:
            worker = ctx.Process(target=play_tables, args=(share, broker.host, broker.port, ready, go, stop, out))
            worker.start()
            workers.append(worker)
        for _ in shares:
            first, ok = ready.get(timeout=300)
            if not ok:
                raise RuntimeError(f"the tables from {first} did not all connect within 120 s")
        print(f"tables: {TABLES} count")
        print(f"table processes: {len(shares)} count")
        print(f"tables connected in: {time.monotonic() - started:.1f} s")
        send_pairings(url, tsh_file(TABLES))  # round 1 from tsh: every table starts the paired game

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox",
                                                                         "--disable-gpu"])
            # bypass_csp: the page forbids eval, which Playwright's wait_for_function uses
            page = browser.new_page(viewport={"width": 1600, "height": 1000}, bypass_csp=True)
            page.goto(url)
            page.wait_for_function(f"document.querySelectorAll('.tile').length === {min(60, TABLES)} && "
                                   f"document.getElementById('summary').textContent.startsWith('{TABLES} tables')",
                                   timeout=60000)
            page.evaluate(OBSERVE)
            observing_since = time.time() * 1000
            overlays = []
            for n in range(1, OVERLAYS + 1):
                overlay = browser.new_page(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
                overlay.goto(f"{url}overlay/{n}?fields=board,names,scores,clocks,last,unseen,spread,turn")
                overlay.wait_for_function(f"document.getElementById('overlay').dataset.table === '{n}'",
                                          timeout=60000)
                overlay.evaluate(OBSERVE_OVERLAY)
                overlays.append(overlay)
            feed_times: list[float] = []
            probe_seen: dict[tuple[int, int], float] = {}
            broker_seen: dict[tuple[int, int], float] = {}
            probe = broker_probe(broker, broker_seen)
            probe_stop = threading.Event()
            threading.Thread(target=sse_probe, args=(url, probe_seen, probe_stop), daemon=True).start()
            threading.Thread(target=tourney_poller, args=(url, feed_times, probe_stop), daemon=True).start()
            cpu_before, wall_before = cpu_s(director.pid), time.monotonic()
            go.set()
            time.sleep(RUN_S)  # the benchmark's run: the tables play at their pace meanwhile
            clicked = time.time() * 1000
            page.evaluate("document.getElementById('next').click()")
            page.wait_for_function("document.querySelector('.tile') && document.querySelector('.tile').dataset.table"
                                   " === '61'", timeout=10000)
            switched = page.evaluate("Math.max(...[...document.querySelectorAll('.tile')]"
                                     ".map((t) => Number(t.dataset.shownAt)))") - clicked
            stop.set()
            played_s = time.monotonic() - wall_before
            cpu_share = (cpu_s(director.pid) - cpu_before) / played_s
            published: dict[tuple[int, int], float] = {}
            for _ in shares:
                published.update(out.get(timeout=60))
            probe_stop.set()
            probe.disconnect()
            probe.loop_stop()
            with urllib.request.urlopen(url + "api/stats", timeout=10) as response:
                stats = json.loads(response.read())
            shown = page.evaluate("window.__shown")
            overlay_shown = [row for overlay in overlays for row in overlay.evaluate("window.__shown")]
            long_tasks = page.evaluate("window.__long")
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            rss_run = rss_mib(director.pid)
            browser.close()

        # When each move was first drawn: a tile drawn again with the same picture (its table's status, the
        # round's progress, a page of tiles shown again) is not the move arriving. Since a table publishes its
        # snapshot only when it changed (issue 24 #13), such a draw carries an old seq, and counting it measured
        # how long ago the table last moved (p99 11-14 s), not the page's delay.
        hall_first: dict[tuple[int, int], float] = {}
        for table, seq, at in shown:
            key = (int(table), int(seq))
            hall_first[key] = min(at, hall_first.get(key, at))
        # Only moves published once the page watched: a tile drawn for the first time later shows a move made
        # before, which the page never had the chance to show.
        # ... and only drawings before the switch to the next page of tiles (its own figure below): the tiles of
        # tables 61-120 drawn then show moves made up to the run's length before, never on the page till then.
        latencies = [at - published[key] for key, at in hall_first.items()
                     if key in published and published[key] >= observing_since and at < clicked]
        first_shown: dict[tuple[int, int], float] = {}  # a picture drawn again (a status change) is not a move
        for t, q, at in overlay_shown:
            key = (int(t), int(q))
            first_shown[key] = min(at, first_shown.get(key, at))
        to_overlay = [at - published[key] for key, at in first_shown.items() if key in published]
        to_broker = [at - published[key] for key, at in broker_seen.items() if key in published]
        to_stream = [at - published[key] for key, at in probe_seen.items() if key in published]
        moves = len(published)
        print(f"moves published: {moves} count")
        print(f"moves per second (hall): {moves / played_s:.0f} 1/s")
        print(f"director CPU share: {100 * cpu_share:.0f} %")
        print(f"machine load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
        print(f"event to page DOM samples (first page): {len(latencies)} count")
        if latencies:
            print(f"event to page DOM p50: {statistics.median(latencies):.0f} ms")
            print(f"event to page DOM p99: {pct(latencies, 0.99):.0f} ms")
            print(f"event to page DOM max: {max(latencies):.0f} ms")
        if to_broker:
            print(f"event to a plain subscriber p50 (tables and broker): {statistics.median(to_broker):.0f} ms")
            print(f"event to a plain subscriber p99 (tables and broker): {pct(to_broker, 0.99):.0f} ms")
        if to_stream:
            print(f"event to director event stream p50 (all tables): {statistics.median(to_stream):.0f} ms")
            print(f"event to director event stream p99 (all tables): {pct(to_stream, 0.99):.0f} ms")
        own = stats.get("event_to_director_ms")
        if own:
            print(f"event to the director's loop p50 (last {own['count']} events): {own['p50']:.0f} ms")
            print(f"event to the director's loop p99 (last {own['count']} events): {own['p99']:.0f} ms")
        delivery = stats["delivery"]
        print(f"director replays asked: {delivery.get('replay_requests', 0)} count")
        print(f"director duplicates dropped: {delivery.get('duplicates', 0)} count")
        print(f"director events missing at the end: {delivery.get('missing', 0)} count")
        print(f"director process memory idle: {rss_idle:.0f} MiB")
        print(f"director process memory with {TABLES} tables: {rss_run:.0f} MiB")
        print(f"page JS heap: {metrics.get('JSHeapUsedSize', 0) / 2**20:.1f} MiB")
        print(f"page DOM nodes: {metrics.get('Nodes', 0):.0f} count")
        print(f"page long tasks (>50 ms) during the run: {len(long_tasks)} count")
        print(f"page longest task: {max(long_tasks, default=0):.0f} ms")
        print(f"page switch to the next 60 tiles: {switched:.0f} ms")
        print(f"move played to overlay DOM samples ({OVERLAYS} overlays): {len(to_overlay)} count")
        if to_overlay:
            print(f"move played to overlay DOM p50: {statistics.median(to_overlay):.0f} ms")
            print(f"move played to overlay DOM p99: {pct(to_overlay, 0.99):.0f} ms")
        print(f"/tourney.js answers while the hall plays: {len(feed_times)} count")
        if feed_times:
            # the first answer writes the feed from every game of the store; the others get the last one written
            print(f"/tourney.js first answer (every game read): {feed_times[0]:.1f} ms")
            print(f"/tourney.js p50: {statistics.median(feed_times[1:] or feed_times):.1f} ms")
            print(f"/tourney.js p99: {pct(feed_times[1:] or feed_times, 0.99):.1f} ms")
    finally:
        for worker in workers:
            worker.join(30)
            if worker.is_alive():
                worker.terminate()
                worker.join(5)
        if director is not None:
            director.send_signal(signal.SIGINT)
            try:
                director.wait(15)
            except subprocess.TimeoutExpired:
                director.kill()
                director.wait(5)
            if director.stdout is not None:
                director.stdout.close()
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
