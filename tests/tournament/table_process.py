"""A table process for the tests that SIGKILL one: journals N events, publishes them, prints "caught-up",
stops itself (SIGSTOP) until the test continues it, journals N more, prints "journaled", then waits to be
killed. With N = 0 it only publishes what its journal holds."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

from referee.journal import Event, Journal
from referee.tournament_link import JournalOutbox
from tournament.acl import table_user
from tournament.outbox import TablePublisher
from tournament.settings import BrokerSettings, TableLinkSettings


def main() -> None:
    path, port, event, table, pw, count = sys.argv[1:7]
    n, k = int(table), int(count)
    journal = Journal(Path(path))
    rows = journal.games()
    game = rows[-1].id if rows else journal.new_game(f"Table {n}", "standard", ["Ann", "Bob"], {})
    settings = TableLinkSettings(BrokerSettings("127.0.0.1", int(port), username=table_user(n), password=pw), event, n)
    pub = TablePublisher(settings, JournalOutbox(journal, n), save_every_s=0.0)
    pub.start()
    t = journal.resume_time(game)
    for _ in range(k):
        t += 1000
        journal.append(game, Event("clock", t, {"player": 0}))
        pub.notify()
    if k:
        pub.caught_up.wait(30)
        print("caught-up", flush=True)
        os.kill(os.getpid(), signal.SIGSTOP)
        for _ in range(k):
            t += 1000
            journal.append(game, Event("clock", t, {"player": 1}))
            pub.notify()
        print("journaled", flush=True)
    threading.Event().wait(120)  # killed by the test long before


if __name__ == "__main__":
    main()
