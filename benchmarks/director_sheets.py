"""What replaying every game's events costs the director (issue 24 row 3): events a second it applies with the
table's state machine replaying each game (referee.director_sheets.MachineReplayer) against storing them and
trusting snapshots (no replayer). A real table's game (referee.sim.table.SimulatedTable with a journal: four
plays, their clock presses and challenge windows) as the table publishes it (JournalOutbox), fed to a director
100 times as 100 tables' games. Prints one `figure: value unit` line per figure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.director_sheets import MachineReplayer  # noqa: E402
from referee.journal import Journal  # noqa: E402
from referee.sim.table import SimulatedTable  # noqa: E402
from referee.tournament_link import JournalOutbox  # noqa: E402
from tournament.director.core import Director  # noqa: E402
from tournament.director.sheets import Replayer  # noqa: E402
from tournament.director.store import Store  # noqa: E402
from tournament.outbox import Cursor  # noqa: E402
from tournament.payloads import EventMessage  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/director_sheets.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="director-sheets-"))
    journal = Journal(folder / "table.sqlite3", writer=True)
    table = SimulatedTable(journal=journal)
    table.control("start", {})
    for move in ["8G QI", "7H AX", "9F JOE", "10E WE"]:
        table.play(move)
        table.advance(20)
    events = [p.message for p in JournalOutbox(journal, 1).pending(Cursor(), 10_000)]
    journal.close()
    runs: list[tuple[str, Replayer | None]] = [("snapshots trusted", None), ("events replayed", MachineReplayer())]
    for name, replayer in runs:
        director = Director("bench", Store(folder / f"{name}.sqlite3"), replayer=replayer)
        start = time.perf_counter()
        for n in range(1, args.games + 1):
            for ev in events:
                director.on_event(EventMessage(n, ev.game, ev.seq, ev.kind, ev.data, ev.time, ev.at))
        elapsed = time.perf_counter() - start
        director.store.close()
        count = args.games * len(events)
        print(f"director, {name}: {count / elapsed:.0f} events/s ({count} events, {len(events)} per game with its "
              "header)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
