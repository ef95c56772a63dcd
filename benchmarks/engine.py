"""Rules engine benchmark: validate+score time per play over every real record, and ENABLE load cost.

Run from the project root: `.venv/bin/python benchmarks/engine.py`. Prints one `figure: value unit`
line per figure. Reads ../shared (the GCG records and ENABLE); exits 0 with a 'skipped' message
when it is absent. The machine is shared: figures are medians over repeats, treat small changes as noise.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from game.board import Board  # noqa: E402
from game.errors import RefereeError  # noqa: E402
from game.gcg import MoveKind, decode_gcg, parse_gcg  # noqa: E402
from game.gcg_check import check_record, rules_for_record  # noqa: E402
from game.lexicon import Lexicon  # noqa: E402
from game.play import Play  # noqa: E402
from game.rules import german, naspa  # noqa: E402
from game.scoring import score  # noqa: E402
from game.squares import Square  # noqa: E402
from game.validation import validate  # noqa: E402

BATCH = 10  # each play is validated and scored BATCH times in a row; the batch mean is one timing
BATCHES = 3  # the least disturbed of this many batches is the play's sample (the machine is shared)


def play_times() -> list[float]:
    """Seconds per validate+score, one sample per play line of every record (the board as it was then)."""
    samples: list[float] = []
    for path in sorted((SHARED / "gcg").glob("*/*.gcg")):
        record = parse_gcg(decode_gcg(path.read_bytes())[0])
        default = german() if path.parent.name == "german" else naspa()
        rules, _ = rules_for_record(record, default)
        if rules is None:
            continue
        board = Board(rules.layout)
        last: list[Square] = []
        for mv in record.moves:
            if mv.kind is MoveKind.WITHDRAWN and last:
                board.remove(last)
                last = []
                continue
            if mv.kind is not MoveKind.PLAY:
                continue
            placements = Play.from_str(mv.move).placements(board)
            try:
                best = float("inf")
                for _ in range(BATCHES):
                    start = time.perf_counter()
                    for _ in range(BATCH):
                        score(validate(board, placements, rules), rules)
                    best = min(best, (time.perf_counter() - start) / BATCH)
                samples.append(best)
            except RefereeError:
                pass  # a play the engine refuses is not a timing sample; the record checker reports it
            board.place((p.square, p.tile) for p in placements)
            last = [p.square for p in placements]
    return samples


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    if not SHARED.is_dir():
        print(f"skipped: shared data not found at {SHARED}")
        return 0
    gc.collect()
    best = play_times()
    print(f"plays timed: {len(best)} plays")
    print(f"validate+score median: {statistics.median(best) * 1e6:.1f} us")
    print(f"validate+score p99: {percentile(best, 0.99) * 1e6:.1f} us")

    start = time.perf_counter()
    games = 0
    for path in sorted((SHARED / "gcg").glob("*/*.gcg")):
        default = german() if path.parent.name == "german" else naspa()
        check_record(parse_gcg(decode_gcg(path.read_bytes())[0]), default)
        games += 1
    print(f"gcg check of all records: {(time.perf_counter() - start) * 1e3:.0f} ms for {games} games")

    enable = SHARED / "lexicons" / "enable2k.txt"
    if not enable.is_file():
        print("skipped: ENABLE not found, no lexicon figures")
        return 0
    raw = enable.read_bytes()
    start = time.perf_counter()
    lexicon, _ = Lexicon.from_word_list(raw, "enable")
    print(f"ENABLE compile from word list: {(time.perf_counter() - start) * 1e3:.0f} ms")
    compiled = lexicon.to_compiled()
    del lexicon
    loads = []
    for _ in range(5):
        gc.collect()
        start = time.perf_counter()
        loaded = Lexicon.from_compiled(compiled)
        loads.append(time.perf_counter() - start)
        del loaded
    print(f"ENABLE load (compiled) median: {statistics.median(loads) * 1e3:.0f} ms")
    gc.collect()
    tracemalloc.start()
    loaded = Lexicon.from_compiled(compiled)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"ENABLE memory held: {current / 2**20:.1f} MB")
    print(f"ENABLE memory peak while loading: {peak / 2**20:.1f} MB")
    words = ["JUICE", "QAT", "BRUNCHIFY", "OUTDUEL", "ZZZ"] * 2000
    start = time.perf_counter()
    for w in words:
        _ = w in loaded
    print(f"lexicon lookup: {(time.perf_counter() - start) / len(words) * 1e9:.0f} ns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
