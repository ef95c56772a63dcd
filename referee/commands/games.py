"""`referee games`: the games in a table's journal.

    referee games list [--config FILE | --state-dir DIR]
    referee games export ID --gcg [-o FILE] [--config FILE | --state-dir DIR]
    referee games backup FILE [--config FILE | --state-dir DIR]

The export replays the journal through the state machine, so the record is exactly the game the
table refereed (scores from the engine), written as standard GCG.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

DEFAULT_STATE_DIR = "/var/lib/referee"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("games", help="list the journal's games or export one as GCG")
    games = p.add_subparsers(dest="games_command", metavar="ACTION", required=True)
    ls = games.add_parser("list", help="every game in the journal, newest last")
    ex = games.add_parser("export", help="write one game as a record")
    ex.add_argument("id", type=int, help="the game's number (from `referee games list`)")
    ex.add_argument("--gcg", action="store_true", required=True, help="as GCG (the only format so far)")
    ex.add_argument("-o", "--output", help="file to write (default: standard output)")
    bk = games.add_parser("backup", help="copy the whole journal (its write-ahead log too) into one file, "
                                         "safely while the referee runs")
    bk.add_argument("dest", help="the file to write (an SQLite database; an existing file is replaced, never by a "
                                 "damaged journal; never the live journal's own files)")
    for q in (ls, ex, bk):
        where = q.add_mutually_exclusive_group()
        where.add_argument("--config", metavar="FILE", help="the table's configuration (its state_dir)")
        where.add_argument("--state-dir", metavar="DIR",
                           help=f"the folder of games.sqlite3 (default {DEFAULT_STATE_DIR})")
    ls.set_defaults(handler=handle_list)
    ex.set_defaults(handler=handle_export)
    bk.set_defaults(handler=handle_backup)


def handle_backup(args: argparse.Namespace) -> int:
    """Copy the journal with SQLite's backup API: the database file alone misses the turn being played (it is
    in the write-ahead log until the next committed turn), and a file copy during a write may be torn.

    Refused onto the live journal's own files (the copy would replace the game being played under the running
    referee). The journal is checked first (`PRAGMA quick_check`): a damaged one never replaces a sound copy;
    with no sound copy at the destination it is still copied (what can be saved is saved) and the exit status
    says it is damaged. The copy is checked too before it replaces the destination."""
    from game.errors import RefereeError
    from referee.journal import file_is_sound, journal_file_named

    dest = Path(args.dest)
    try:
        source = _journal_path(args)
        own = journal_file_named(dest, source)
        if own is not None:
            print(f"referee games: {dest} is the live journal's own file {own}: a backup there would replace the "
                  "game being played; name a file outside the state folder (docs/backup.md)", file=sys.stderr)
            return 1
        journal = _open(args)
        if journal is None:
            return 1
        try:
            damage = journal.quick_check()
            if damage and file_is_sound(dest):
                print(f"referee games: {source} is damaged (quick_check: {damage[0]}): not backed up over the sound "
                      f"copy {dest}; back it up to another file and restore a backup (docs/backup.md)",
                      file=sys.stderr)
                return 1
            tmp = dest.with_name(dest.name + ".part")
            tmp.unlink(missing_ok=True)
            journal.backup(tmp)
            if not damage and not file_is_sound(tmp):
                tmp.unlink(missing_ok=True)
                print(f"referee games: the copy at {tmp} failed its check; {dest} was left as it was",
                      file=sys.stderr)
                return 1
            tmp.replace(dest)  # a backup is either whole or not there
            games = len(journal.games()) if not damage else 0
        finally:
            journal.close()
    except (RefereeError, OSError) as exc:
        print(f"referee games: {exc}", file=sys.stderr)
        return 1
    if damage:
        print(f"referee games: {source} is damaged (quick_check: {damage[0]}); copied as it is to {dest}, to save "
              "what can be saved: restore a backup (docs/backup.md)", file=sys.stderr)
        return 1
    print(f"referee games: {games} game(s) backed up to {args.dest}")
    return 0


def _journal_path(args: argparse.Namespace) -> Path:
    if args.config:
        from referee.config import load_config

        return Path(load_config(args.config).table.state_dir) / "games.sqlite3"
    return Path(args.state_dir or DEFAULT_STATE_DIR) / "games.sqlite3"


def _open(args: argparse.Namespace) -> Any:
    from referee.journal import Journal

    path = _journal_path(args)
    if not path.is_file():
        print(f"referee games: no journal at {path}", file=sys.stderr)
        return None
    return Journal(path)


def handle_list(args: argparse.Namespace) -> int:
    from game.errors import RefereeError

    try:
        journal = _open(args)
    except RefereeError as exc:
        print(f"referee games: {exc}", file=sys.stderr)
        return 2
    if journal is None:
        return 2
    from referee.journal import JournalError
    from referee.table.records import replay_game

    damaged = False
    try:
        rows = journal.games()
    except JournalError as exc:  # a game's players or setup that are not JSON: named, no traceback
        print(f"referee games: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print("no games in the journal")
    for g in rows:
        status = f"ended {g.ended_utc}" if g.ended_utc else "not finished"
        try:
            scores = replay_game(journal, g.id).game.scores
            result = " v ".join(f"{name} {score}" for name, score in zip(g.players, scores, strict=True))
        except JournalError as exc:  # a damaged game: listed, and the damage said on its own line
            print(f"referee games: {exc}", file=sys.stderr)
            result, damaged = f"{' v '.join(g.players)} (damaged: see above)", True
        except RefereeError as exc:  # e.g. a void-rule game whose lexicon is not on this machine
            result = f"{' v '.join(g.players)} (scores: {exc})"
        print(f"{g.id:>4}  {g.created_utc}  {g.table_name}  {g.kind}  {result}  {g.events} events, {status}")
    return 2 if damaged else 0


def handle_export(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from referee.table.records import export_gcg

    try:
        journal = _open(args)
        if journal is None:
            return 2
        text = export_gcg(journal, args.id)
    except RefereeError as exc:
        print(f"referee games: {exc}", file=sys.stderr)
        return 2
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"referee games: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
