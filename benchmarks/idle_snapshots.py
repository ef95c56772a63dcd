"""Snapshots an idle or ended table puts on the broker (issue 24 row 13): the service pushes the page's snapshot
once a second (its counter moving, nothing else), and the publisher used to send every push, retained: about
485 a second at 500 tables, 18 times the events' bytes. Now only a changed snapshot goes out.

The real publisher (`tournament.outbox.TablePublisher` over a real journal, one `PublisherLoop` for all) and a
real Mosquitto (`tournament.testing.broker`). Each of `--tables` tables has an ended game; its snapshot is
pushed `--pushes` times, `--every` seconds apart (the service: 1 s; shorter here to keep the run short, never
under the publisher's 0.2 s interval), and a subscriber counts what reaches it. Prints one `figure: value unit`
line per figure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.journal import Journal  # noqa: E402
from referee.tournament_link import JournalOutbox  # noqa: E402
from tournament import mqtt, topics  # noqa: E402
from tournament.acl import DIRECTOR_USER, acl_text, table_user  # noqa: E402
from tournament.outbox import TablePublisher  # noqa: E402
from tournament.publisher_loop import PublisherLoop  # noqa: E402
from tournament.settings import BrokerSettings, TableLinkSettings  # noqa: E402
from tournament.testing.broker import Broker, mosquitto_path  # noqa: E402

EVENT = "bench-idle"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/idle_snapshots.py", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--pushes", type=int, default=20)
    parser.add_argument("--every", type=float, default=0.25)
    args = parser.parse_args(argv)
    if mosquitto_path() is None:
        print("mosquitto is not installed: no figures", file=sys.stderr)
        return 0
    folder = Path(tempfile.mkdtemp(prefix="idle-snapshots-"))
    numbers = range(1, args.tables + 1)
    users = {u: f"pw-{u}" for u in (DIRECTOR_USER, *(table_user(n) for n in numbers))}
    received = {"count": 0, "bytes": 0}
    lock = threading.Lock()
    with Broker(folder / "broker", users, acl_text(EVENT, numbers)) as broker:
        watcher = mqtt.make_client(BrokerSettings(broker.host, broker.port, username=DIRECTOR_USER,
                                                  password=f"pw-{DIRECTOR_USER}"), "watcher")

        def on_message(_c: Any, _u: Any, message: Any) -> None:
            if message.payload:
                with lock:
                    received["count"] += 1
                    received["bytes"] += len(message.payload)

        watcher.on_message = on_message
        watcher.connect(broker.host, broker.port)
        watcher.subscribe(topics.all_tables(EVENT, "snapshot"), 1)
        watcher.loop_start()
        loop = PublisherLoop(name="idle-publishers")
        tables = []
        for n in numbers:
            journal = Journal(folder / f"table{n}.sqlite3")
            game = journal.new_game(f"Table {n}", "standard", ["Ann", "Bob"], {})
            settings = TableLinkSettings(BrokerSettings(broker.host, broker.port, username=table_user(n),
                                                        password=f"pw-{table_user(n)}"), EVENT, n)
            publisher = TablePublisher(settings, JournalOutbox(journal, n), save_every_s=0.0)
            publisher.start(loop)
            tables.append((journal, game, publisher))
        deadline = time.monotonic() + 30
        while not all(p.connected for _, _, p in tables) and time.monotonic() < deadline:
            time.sleep(0.05)  # a benchmark waiting for its connections, bounded
        body = {"state": "ended", "players": [{"name": "Ann", "score": 412, "clock": {"remaining_ms": 61000,
                                                                                   "running": False}},
                                              {"name": "Bob", "score": 377, "clock": {"remaining_ms": 5000,
                                                                                   "running": False}}],
                "moves": [{"player": i % 2, "notation": "8D QUIZ", "score": 30} for i in range(24)],
                "board": ["." * 15] * 15, "result": {"winners": [0], "reason": "score"}}
        start = time.monotonic()
        for push in range(args.pushes):
            for _journal, game, publisher in tables:
                publisher.publish_snapshot(game, 0, dict(body, seq=push))
            time.sleep(max(0.0, start + (push + 1) * args.every - time.monotonic()))
        time.sleep(1.0)  # the last pushes reach the subscriber
        for journal, _game, publisher in tables:
            publisher.stop()
            journal.close()
        loop.stop()
        watcher.disconnect()
        watcher.loop_stop()
    pushes = args.tables * args.pushes
    per_table = received["count"] / args.tables
    print(f"snapshot pushes by the service: {pushes} ({args.tables} idle tables x {args.pushes})")
    print(f"snapshots on the broker: {received['count']} ({per_table:.1f} per table)")
    print(f"snapshot bytes on the broker: {received['bytes']} B ({received['bytes'] / max(1, received['count']):.0f} B "
          "each)")
    print(f"snapshots sent per push of an unchanged picture: {received['count'] / pushes:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
