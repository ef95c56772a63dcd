"""How far one director goes, measured alone (issue 24, "Scale"): a recorded stream of a hall's tables fed by
another process, so the simulated tables' own cost (85-95% of the time in the 2,000-table run) is not in it.

The stream: real games played once through `referee.sim.table.SimulatedTable` (benchmarks/tournament.py's
`record_games`: liwords records from ../shared/gcg when present), as each table journals them (a board event
per tile, the clock press, the end of the challenge window) with the page snapshot after each event, given
to `--tables` tables, each starting somewhere in a game. The feeder (its own process, pinned to the second
core when there is one) publishes, per event, the event then its snapshot, as a table does, at `--rate`
events a second in the tables' order of play, each with the `published` user property. The director (its own
process, pinned to the first core) is the real one without its web page: `tournament.director.core.Director`
with the table's state machine replaying every game (`referee.director_sheets.MachineReplayer`: results come
from the events) behind `tournament.director.link.DirectorLink` (`hall_link`), on its asyncio loop, and its
SQLite store.
The broker is a real Mosquitto (no ACL: the director is measured, not the broker's checks).

For each rate: events the director applied per second, published -> applied p50/p99 (one machine's clock),
and what it had not applied 10 s after the feed stopped. A rate the director keeps up with is one where it
applies all and p99 stays small. `--tables` sets how many streams are interleaved (2,000: a hall of that size),
`--rates` the sweep (a real table sends about 0.05 events a second: 2,000 tables are about 90 events/s; the
issue's x10 hall about 900). Prints one `figure: value unit` line per figure. On a shared 2-core machine the
figures are noisy: the load average is printed first.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament.acl import DIRECTOR_USER  # noqa: E402
from tournament.testing.broker import Broker, mosquitto_path  # noqa: E402

EVENT = "alone"
FEEDER = "feeder"


def pin(core: int) -> None:
    cores = os.cpu_count() or 1
    if hasattr(os, "sched_setaffinity") and cores > 1:
        os.sched_setaffinity(0, {core % cores})


def recorded() -> list[list[tuple[int, str, dict[str, Any], dict[str, Any]]]]:
    spec = importlib.util.spec_from_file_location("bench_tournament", ROOT / "benchmarks" / "tournament.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    games, _source = module.record_games()
    return [g for g in games if g]


def stream(tables: int, games: list[Any], count: int) -> list[tuple[int, bytes, bytes]]:
    """`count` (table, event bytes, snapshot bytes), interleaved across `tables` tables in order of play."""
    from referee.sim.table import default_setup
    from tournament.payloads import HEADER_KIND, EventMessage, SnapshotMessage

    setup = default_setup(players=("A", "B")).to_dict()
    out: list[tuple[int, bytes, bytes]] = []
    cursors = {n: (1, (n * 7) % len(games[n % len(games)]), -1) for n in range(1, tables + 1)}  # game, index, seq
    while len(out) < count:
        for n in range(1, tables + 1):
            game_no, i, seq = cursors[n]
            rec = games[n % len(games)]
            if seq < 0:  # the game's header first (a table met mid-game starts its game afresh here)
                header = {"name": f"Table {n}", "kind": "standard", "players": ["A", "B"], "setup": setup}
                event = EventMessage(n, game_no, 0, HEADER_KIND, header, 0.0, "t")
                cursors[n] = (game_no, 0, 0)
                snap: dict[str, Any] = {}
            else:
                t_ms, kind, data, snap = rec[i]
                event = EventMessage(n, game_no, seq + 1, kind, data, t_ms / 1000, "t")
                cursors[n] = (game_no, i + 1, seq + 1) if i + 1 < len(rec) else (game_no + 1, 0, -1)
            out.append((n, event.to_bytes(), SnapshotMessage(n, event.game, event.seq, dict(snap)).to_bytes()))
            if len(out) >= count:
                break
    return out


def director_main(port: int, folder: str, conn: Any) -> None:
    import asyncio

    from referee.director_sheets import MachineReplayer
    from tournament.director.core import Director
    from tournament.director.link import hall_link
    from tournament.director.store import Store
    from tournament.settings import BrokerSettings

    pin(0)

    async def run() -> None:
        director = Director(EVENT, Store(Path(folder) / "director.sqlite3"), replayer=MachineReplayer())
        link = hall_link(director, BrokerSettings("127.0.0.1", port, username=DIRECTOR_USER,
                                                   password=f"pw-{DIRECTOR_USER}"))
        link.start()
        await link.wait_connected(30)
        conn.send("ready")
        loop = asyncio.get_running_loop()
        while True:
            cmd = await loop.run_in_executor(None, conn.recv)
            if cmd == "stop":
                break
            stats = link.receiver.stats
            delays = list(director._delays)
            director._delays.clear()
            rss = next((int(line.split()[1]) / 1024 for line in Path("/proc/self/status").read_text().splitlines()
                        if line.startswith("VmRSS:")), 0.0)
            conn.send({"applied": stats.applied, "delays": delays, "cpu": time.process_time(), "rss": rss})
        await link.stop()
        director.store.close()

    asyncio.run(run())


def feeder_main(port: int, items: list[tuple[int, bytes, bytes]], rate: float, conn: Any) -> None:
    from tournament import mqtt, topics
    from tournament.settings import BrokerSettings

    pin(1)
    client = mqtt.make_client(BrokerSettings("127.0.0.1", port, username=FEEDER, password=f"pw-{FEEDER}"),
                              "feeder", inflight=1000)
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    conn.recv()  # go
    start = time.monotonic()
    for k, (table, event, snap) in enumerate(items):
        due = start + k / rate
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)  # the feed's pace
        props = mqtt.publish_properties(user={"published": str(int(time.time() * 1000))})
        client.publish(topics.events(EVENT, table), event, qos=1, properties=props)
        client.publish(topics.snapshot(EVENT, table), snap, qos=1)
    took = time.monotonic() - start
    client.disconnect()
    client.loop_stop()
    conn.send(took)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/director_alone.py", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--rates", default="500,1000,2000,3000,4000", help="events a second to feed, one run each")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of feed per rate")
    args = parser.parse_args(argv)
    if mosquitto_path() is None:
        print("mosquitto is not installed: no figures", file=sys.stderr)
        return 0
    print(f"# load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    games = recorded()
    ctx = multiprocessing.get_context("spawn")
    for rate in [float(r) for r in args.rates.split(",") if r.strip()]:
        count = int(rate * args.seconds)
        items = stream(args.tables, games, count)
        folder = tempfile.mkdtemp(prefix="director-alone-")
        users = {DIRECTOR_USER: f"pw-{DIRECTOR_USER}", FEEDER: f"pw-{FEEDER}"}
        with Broker(Path(folder) / "broker", users, None, max_queued=1_000_000) as broker:
            here, there = ctx.Pipe()
            director = ctx.Process(target=director_main, args=(broker.port, folder, there))
            director.start()
            assert here.recv() == "ready"
            feed_here, feed_there = ctx.Pipe()
            feeder = ctx.Process(target=feeder_main, args=(broker.port, items, rate, feed_there))
            feeder.start()
            here.send("stats")
            before = here.recv()
            feed_here.send("go")
            delays: list[float] = []
            took: float | None = None
            deadline = float("inf")
            stats = before
            while True:
                # the director's figures every half second (its delays are kept 2,000 at a time), during the feed
                # and for up to 10 s after it
                if took is None and feed_here.poll(0.5):
                    took = float(feed_here.recv())
                    deadline = time.monotonic() + 10.0
                elif took is not None:
                    time.sleep(0.5)
                here.send("stats")
                stats = here.recv()
                delays += stats["delays"]
                if took is not None and (stats["applied"] - before["applied"] >= count
                                         or time.monotonic() > deadline):
                    break
            feeder.join(30)
            here.send("stop")
            director.join(30)
        applied = stats["applied"] - before["applied"]
        cpu = stats["cpu"] - before["cpu"]
        ordered = sorted(delays)
        p50 = statistics.median(ordered) if ordered else float("nan")
        p99 = ordered[int(0.99 * (len(ordered) - 1))] if ordered else float("nan")
        took = took or float("nan")
        print(f"# {args.tables} tables, fed {count} events (+ a snapshot each) at {rate:.0f}/s in {took:.1f} s")
        print(f"director applied at {rate:.0f} events/s: {applied} of {count} events")
        print(f"director published->applied p50 at {rate:.0f} events/s: {p50:.1f} ms")
        print(f"director published->applied p99 at {rate:.0f} events/s: {p99:.1f} ms")
        print(f"director CPU at {rate:.0f} events/s: {100 * cpu / max(took, 1e-9):.0f} % of one core")
        print(f"director memory at {rate:.0f} events/s: {stats['rss']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
