"""The cost of one game's live GCG at the director, by the number of games it holds (issue 24 row 6).

A director replaying SimTable-shaped games (tournament.testing.simhall.SimReplayer: a header, 24 plays, the end) is
filled with 118, 1,180 and 5,900 games (a 500-table event after 12 rounds), restarted (so every sheet comes
from its store, as after a restart), then asked for one game's record and GCG as `GET /gcg/N/G.gcg` does, and
for every game's records as the standings do. Prints one `figure: value unit` line per figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament.director.core import Director  # noqa: E402
from tournament.director.store import Store  # noqa: E402
from tournament.payloads import EventMessage  # noqa: E402
from tournament.results import game_gcg  # noqa: E402
from tournament.testing.simhall import SimReplayer  # noqa: E402


def fill(path: Path, games: int, tables: int = 500) -> None:
    director = Director("bench", Store(path), replayer=SimReplayer())
    for n in range(games):
        table, game = n % tables + 1, n // tables + 1
        header = {"players": [f"A{table}", f"B{table}"], "setup": {"edition": "english"}}
        director.on_event(EventMessage(table, game, 0, "game", header, 0.0, "t"))
        for seq in range(1, 25):
            director.on_event(EventMessage(table, game, seq, "control",
                                           {"action": "play", "notation": f"{seq % 15 + 1}D QUIZ", "score": seq},
                                           float(seq), "t"))
        director.on_event(EventMessage(table, game, 25, "control", {"action": "end"}, 25.0, "t"))
    director.store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/director_gcg.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[118, 1180, 5900])
    args = parser.parse_args(argv)
    for count in args.games:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "director.sqlite3"
            fill(path, count)
            director = Director("bench", Store(path), replayer=SimReplayer())
            times = []
            for i in range(20):
                table, game = i * 37 % min(count, 500) + 1, 1
                start = time.perf_counter()
                (record,) = director.records(table, game)
                game_gcg(record)
                times.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            everything = director.records()
            full = (time.perf_counter() - start) * 1000
            director.store.close()
            print(f"one game's GCG with {count} games stored: {statistics.median(times):.2f} ms (median of 20)")
            print(f"every record ({len(everything)} games, the standings) with {count} games stored: {full:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
