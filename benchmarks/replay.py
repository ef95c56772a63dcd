"""Replay benchmark: the shared photographed games played through the real table (`referee vision replay`).

For game12, game13 and game15 of ../shared/photos: the replay's plays against the game's record (game13 and
game15: ../shared/gcg/german; game12's record is not among them, so its plays are compared with the tiles
labels.json adds photo by photo), the turns the table asked about, the blanks the lexicon pinned, and the
seconds a game takes (calibration on the first photo included; the shipped classifier built beforehand).

    .venv/bin/python benchmarks/replay.py [--games game12,game13] [--lexicon german]

`--lexicon` names an installed lexicon (`referee lexicon install german`); without one, or when it is not
installed, blanks are never pinned (every blank is asked). Exits 0 with a 'skipped' line without the photos.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the project's packages, not this folder's benchmarks of the same names
SHARED = ROOT.parent / "shared"
GAMES = {  # game: (players in playing order, record)
    "game12": (("Anna", "Ben"), None),
    "game13": (("Timon", "Alex"), "nu19_timon-alex.gcg"),
    "game15": (("Johannes", "Stefan"), "nu19_johannes-stefan.gcg"),
}


def _label_plays(game: str) -> list[tuple[str, ...]]:
    """The tiles labels.json adds photo by photo after the empty board (one tuple per play, `H8=D`; a blank `?`)."""
    from game.squares import Square

    labels = [e for e in json.loads((SHARED / "photos" / "labels.json").read_text(encoding="utf-8"))
              if e["game"] == game]
    start = next(i for i, e in enumerate(labels) if e.get("flag") == "empty_board")
    out = []
    before = labels[start]["board"]
    for e in labels[start + 1:]:
        added = tuple(sorted(f"{Square(r, c)}={ch}" for r, row in enumerate(e["board"]) for c, ch in enumerate(row)
                             if ch != "." and before[r][c] == "."))
        before = e["board"]
        if added:
            out.append(added)
    return out


def _record_blanks(lexicon_name: str) -> tuple[int, int]:
    """Of the blanks played in the three German records, how many the lexicon pins (one letter makes every word
    of the play a word of the lexicon, cross words included), on the board the record has before the play: the
    rule `TableReading.blank_letters` applies at the table, measured where the photos do not reach the blank."""
    import itertools

    from game.events import EventKind
    from game.game import Game
    from game.gcg import decode_gcg, parse_gcg
    from game.gcg_check import replay_record
    from game.play import Placement
    from game.rules import german
    from game.tiles import Tile
    from referee import lexicon_store

    lexicon = lexicon_store.load_installed(lexicon_name)
    pinned = played = 0
    for path in sorted((SHARED / "gcg" / "german").glob("*.gcg")):
        game, _ = replay_record(parse_gcg(decode_gcg(path.read_bytes())[0]), german())
        if game is None:
            continue
        board = Game(game.rules, game.players, strict_turns=False)
        letters = sorted(ch for ch in game.rules.tiles.counts if ch != "?")
        events = game.events
        withdrawn = {i for i in range(len(events) - 1) if events[i + 1].kind is EventKind.WITHDRAWN}
        for i, e in enumerate(events):
            if e.kind is not EventKind.PLAY or i in withdrawn:
                continue
            blanks = [p for p in e.placements if p.tile.blank]
            fixed = [p for p in e.placements if not p.tile.blank]
            found: list[set[str]] = [set() for _ in blanks]
            for combo in itertools.product(letters, repeat=len(blanks)) if blanks else ():
                placed = fixed + [Placement(b.square, Tile(ch, blank=True))
                                  for b, ch in zip(blanks, combo, strict=True)]
                try:
                    scored = board.evaluate(placed)
                except ValueError:
                    continue
                if all(w.word.text in lexicon for w in scored.words):
                    for k, ch in enumerate(combo):
                        found[k].add(ch)
            played += len(blanks)
            pinned += sum(len(f) == 1 for f in found)
            board.board.place((p.square, p.tile) for p in e.placements)
    return pinned, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all three)")
    parser.add_argument("--lexicon", default="german", help="an installed lexicon ('' for none)")
    args = parser.parse_args(argv)
    if not (SHARED / "photos").is_dir():
        print(f"skipped: no photos at {SHARED / 'photos'}")
        return 0
    import cv2

    cv2.setNumThreads(1)
    from game.gcg import decode_gcg
    from referee import lexicon_store
    from referee.replay import compare_plays, recorded_plays, replay
    from vision.shipped import shipped_classifier

    lexicon = args.lexicon if args.lexicon in lexicon_store.installed() else ""
    print(f"note: lexicon {lexicon or 'none (every blank asked)'}")
    shipped_classifier("german")  # built (or loaded) once, outside the timings
    if lexicon:
        pinned, played = _record_blanks(lexicon)
        print(f"record blanks pinned by the lexicon: {pinned} of {played} blanks (three German records)")
    for game in [g for g in args.games.split(",") if g]:
        players, record = GAMES[game]
        result = replay([SHARED / "photos" / game], players, tiles="german", lexicon=lexicon)
        ours = recorded_plays(result.gcg)
        if record is not None:
            theirs = recorded_plays(decode_gcg((SHARED / "gcg" / "german" / record).read_bytes())[0])
            matched, _ = compare_plays(ours, theirs)
            total = len(theirs)
        else:
            wanted = _label_plays(game)
            got = [tuple(sorted(t.split("=")[0] + "=" + ("?" if t[-1].islower() else t[-1]) for t in p.tiles))
                   for p in ours]
            matched = sum(a == b for a, b in zip(got, wanted, strict=False))
            total = len(wanted)
        turns = [t for t in result.turns if t.turn]
        asked = [t for t in turns if t.asked]
        blind = sum("does not trust this photo" in q.why for t in asked for q in t.questions)
        notes = [n for t in result.turns for n in t.notes]
        blanks = sum(1 for t in result.turns for sq, ch in t.tiles.items() if ch.islower())
        pinned = sum("the one letter the lexicon leaves" in n for n in notes)
        print(f"{game} plays reproduced: {matched} of {total} plays")
        print(f"{game} turns asked: {len(asked)} of {len(turns)} turns")
        print(f"{game} questions: {result.questions} questions")
        print(f"{game} questions 'the camera does not trust this photo': {blind} questions")
        print(f"{game} blanks pinned by the lexicon: {pinned} of {blanks} blanks played")
        print(f"{game} seconds: {result.seconds:.1f} s")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
