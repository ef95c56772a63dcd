"""`referee gcg check`: replay GCG records through the rules engine and report every score it disagrees with.
`referee gcg board FILE [--line N]`: the engine's board at a line of a record (to look into a mismatch).

Output (stable: checks outside the project parse it): one line per mismatch,
`FILE:LINE: recorded R, computed C: WHY`, notes and skipped files on lines starting `note:` and
`skipped:`, and the last line `checked G games, P plays, M mismatches`. Exit 2 when a file is not a game record
(unreadable, or refused: no moves, more than 4 players, past the move or size cap, not a regular file), else 1
when M > 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("gcg", help="game records (GCG): check scores against the engine")
    gsub = p.add_subparsers(dest="gcg_command", metavar="ACTION", required=True)
    check = gsub.add_parser(
        "check",
        help="replay records, recompute every score, print mismatches",
        description="Replay each GCG record through the rules engine and compare every score and running total.",
    )
    check.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER", help="a .gcg file or a folder of them")
    check.add_argument("--tiles", choices=["english", "german"], default="english",
                       help="edition for records without a #variant pragma (default: english, tournament rules)")
    check.add_argument("--quiet", action="store_true", help="print mismatches and the summary only, no notes")
    check.add_argument("--lexicon", metavar="NAME",
                       help="also judge every play's words with this installed lexicon (reported as notes)")
    check.add_argument("--data-dir", type=Path, help="data folder of the installed lexicons")
    check.set_defaults(handler=handle_check)

    board = gsub.add_parser("board", help="replay a record and print the board, scores and racks at a line",
                            description="Replay a GCG record through the engine up to a line and print the board.")
    board.add_argument("path", metavar="FILE", type=Path)
    board.add_argument("--line", type=int, help="stop after this line of the file (default: the whole record)")
    board.add_argument("--tiles", choices=["english", "german"], default="english")
    board.set_defaults(handler=handle_board)


def _files(paths: list[str]) -> tuple[list[Path], list[str]]:
    """The records to check, and a one-line reason for each path that cannot be one. A folder's files that are
    not regular (a FIFO, a device) are left out; one named itself is refused, before anything reads it."""
    files: list[Path] = []
    missing: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".gcg" and p.is_file()))
        elif path.is_file():
            files.append(path)
        elif path.exists():
            missing.append(f"{raw}: is not a regular file (a device, a FIFO or a socket), not a game record")
        else:
            missing.append(f"{raw}: no such file or folder")
    return files, missing


def handle_board(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from game.errors import RefereeError
    from game.gcg_check import replay_record
    from game.rules import german, naspa
    from referee.input_files import load_game_record

    try:
        record = load_game_record(args.path)
        if args.line is not None:
            record = replace(record, moves=[m for m in record.moves if m.line <= args.line])
        # a file that parses to nothing (random bytes, an empty file) is refused here, in one line
        game, result = replay_record(record, german() if args.tiles == "german" else naspa())
    except OSError as exc:
        print(f"referee gcg board: {args.path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except RefereeError as exc:
        print(f"referee gcg board: {args.path}: {str(exc).removeprefix(f'{args.path}: ')}", file=sys.stderr)
        return 2
    if game is None:
        print(f"skipped: {result.skipped}")
        return 1
    print(game.board)
    for i, name in enumerate(game.players):
        print(f"{name}: {game.scores[i]}")
    print(f"bag: {game.bag_count} tiles; unseen: {''.join(sorted(game.unseen().elements()))}")
    for m in result.mismatches:
        print(f"{args.path}:{m.line}: recorded {m.recorded}, computed {m.computed}: {m.why}")
    return 0


def handle_check(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from game.gcg_check import check_record
    from game.rules import german, naspa
    from referee.input_files import load_game_record

    default = german() if args.tiles == "german" else naspa()
    lexicon = None
    if args.lexicon:
        from referee import lexicon_store

        try:
            lexicon = lexicon_store.load_installed(args.lexicon, args.data_dir)
        except RefereeError as exc:
            print(f"referee gcg check: {exc}", file=sys.stderr)
            return 2
    files, missing = _files(args.paths)
    for line in missing:
        print(f"referee gcg check: {line}", file=sys.stderr)
    if missing:
        return 2
    games = plays = mismatches = refused = 0
    for path in files:
        try:
            record = load_game_record(path)
            result = check_record(record, default, lexicon)
        except OSError as exc:
            print(f"{path}: unreadable: {exc.strerror or exc}")
            mismatches += 1
            refused += 1
            continue
        except RefereeError as exc:  # also a file that is no game: no moves, 10,000 players, 100,000 passes, 50 MB
            print(f"{path}: unreadable: {str(exc).removeprefix(f'{path}: ')}")
            mismatches += 1
            refused += 1
            continue
        if result.skipped:
            print(f"skipped: {path}: {result.skipped}")
            continue
        games += 1
        plays += result.plays
        if not args.quiet:
            for note in result.notes:
                print(f"note: {path}: {note}")
        for m in result.mismatches:
            print(f"{path}:{m.line}: recorded {m.recorded}, computed {m.computed}: {m.why}")
        mismatches += len(result.mismatches)
    print(f"checked {games} games, {plays} plays, {mismatches} mismatches")
    return 2 if refused else 1 if mismatches else 0
