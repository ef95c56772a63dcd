"""`referee hall`: a tournament hall's files in one command, and the hall run on one machine for a trial.

    referee hall init --tables 20 [--divisions A:12,B:8] --out DIR [--event ID] [--trial] ...
    referee hall start DIR [--tables 1-4]
    referee hall logins --event ID --tables 1-40 --acl F --passwords F --credentials-dir D [--bridge USER]
    referee hall logins --venue EVENT=LOGIN ... --acl F --passwords F --credentials-dir D   (a central broker)

`init` writes the broker's configuration, ACL and password file, one configuration and login per table, the
director's configuration, key and login, and a sheet to print per table (referee/hall/kit.py lists the
files). `start` runs the broker and the director of such a folder (and, for a trial, some of its tables).
`logins` is the broker side alone, for a hall whose table files are kept by hand (it was
`python -m tournament.acl`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

PROG = "referee hall"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "hall", help="a tournament hall: every file in one command (init), broker and director on one machine (start)",
        description="A tournament hall's broker, tables and director, set up in one command (docs/director.md).")
    hall_sub = p.add_subparsers(dest="hall_command", metavar="SUBCOMMAND")

    init = hall_sub.add_parser("init", help="write the broker, table, director files and a sheet per table",
                               description="Write every file a hall needs into one folder (docs/director.md).")
    init.add_argument("--tables", type=int, required=True, metavar="N", help="how many tables (numbered 1 to N)")
    init.add_argument("--divisions", metavar="A:12,B:8",
                      help="divisions on consecutive tables (A on 1-12, B on 13-20); the counts add up to --tables")
    init.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write (created)")
    init.add_argument("--event", default="hall", help="the event id: letters, digits, - and _ (default hall)")
    init.add_argument("--name", default="", help="the event's name on the pages, sheets and GCG records")
    init.add_argument("--broker-host", default="hall-broker.local",
                      help="the broker's name on the hall's network (default hall-broker.local)")
    init.add_argument("--broker-port", type=int, default=1883, help="the broker's port (default 1883)")
    init.add_argument("--director-port", type=int, default=8090, help="the director's page port (default 8090)")
    init.add_argument("--page-url", default="http://table-{n}.local:8080/",
                      help="a table's page, {n} its number: the QR code on its sheet (default %(default)s)")
    init.add_argument("--lexicon", default="enable",
                      help="the tables' lexicon: a name installed with `referee lexicon install`, or a path")
    init.add_argument("--language", choices=("en", "de"), default="en", help="the tables' language (de: German tiles)")
    init.add_argument("--trial", action="store_true",
                      help="tables for one machine: emulated boards, pages on 127.0.0.1 at --page-port + N")
    init.add_argument("--page-port", type=int, default=8100, help="--trial: table N's page port is this + N")
    init.set_defaults(handler=handle_init)

    start = hall_sub.add_parser("start", help="run the broker and the director of a hall folder until Ctrl-C",
                                description="Run the broker and the director of a folder written by `referee hall "
                                            "init`, on this machine (a trial, or a hall whose broker is this laptop).")
    start.add_argument("folder", type=Path, metavar="DIR")
    start.add_argument("--tables", metavar="1-4", help="--trial folders: also run these tables (1-4, or 1,3)")
    start.set_defaults(handler=handle_start)

    logins = hall_sub.add_parser("logins", help="only the broker's ACL, password file and one login file per user",
                                 description="Write a hall's Mosquitto ACL, password file and credentials files.")
    logins.add_argument("--event", help="event id, e.g. open-2026 (a hall's broker)")
    logins.add_argument("--tables", help="table numbers, e.g. 1-40 or 1-20,31-40 (a hall's broker)")
    logins.add_argument("--venue", action="append", default=[], metavar="EVENT_ID=BRIDGE_LOGIN",
                        help="a central broker instead: one venue (its own event id) and its bridge's login; "
                             "repeat per venue")
    logins.add_argument("--acl", type=Path, required=True, help="ACL file to write (Mosquitto's acl_file)")
    logins.add_argument("--passwords", type=Path, required=True, help="password file to write (password_file)")
    logins.add_argument("--credentials-dir", type=Path, required=True,
                        help="folder for one USER.credentials file per user, to copy to each Pi")
    logins.add_argument("--bridge", help="also a user for a venue bridge (on a central broker)")
    logins.set_defaults(handler=handle_logins)
    p.set_defaults(handler=lambda args: _no_subcommand(p))


def _no_subcommand(p: argparse.ArgumentParser) -> int:
    p.print_usage(sys.stderr)
    print(f"{PROG}: name a subcommand: init, start or logins", file=sys.stderr)
    return 2


def _fail(message: str, code: int = 2) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return code


def handle_init(args: argparse.Namespace) -> int:
    from referee.hall.kit import HallError, HallPlan, parse_divisions, write_kit

    try:
        divisions = parse_divisions(args.divisions, args.tables) if args.divisions else ()
        plan = HallPlan(tables=args.tables, event=args.event, name=args.name, divisions=divisions,
                        broker_host=args.broker_host, broker_port=args.broker_port, director_port=args.director_port,
                        page_url=args.page_url, lexicon=args.lexicon, language=args.language, trial=args.trial,
                        page_port=args.page_port)
        kit = write_kit(plan, args.out)
    except HallError as exc:
        return _fail(str(exc))
    except FileNotFoundError as exc:  # mosquitto_passwd
        return _fail(str(exc), 1)
    except subprocess.CalledProcessError as exc:
        return _fail(f"mosquitto_passwd failed: {exc.stderr.decode(errors='replace').strip() or exc}", 1)
    out = kit.folder
    print(f"{PROG}: {args.tables} tables of {plan.name or plan.event} written to {out}")
    print(f"  broker:   {out / 'broker'} (tournament.conf, .acl and .passwd for /etc/mosquitto/; trial.conf for "
          "`referee hall start`)")
    print(f"  tables:   {out / 'tables'}/table-N/ (table.toml and broker.credentials"
          + (", to run with `referee run --config`)" if plan.trial else ", to copy to each Pi's /etc/referee/)"))
    print(f"  director: {out / 'director'}/director.toml (its key in director.key)")
    print(f"  sheets:   {out / 'sheets'}/table-N.png, one to print for each table (its PIN and page)")
    for d in plan.divisions:
        offset = f", pairings offset {d.name}={d.first - 1}" if d.first > 1 else ""
        print(f"  division {d.name}: tables {d.first}-{d.first + d.count - 1}{offset}")
    print(f"next: referee hall start {out}" + (f" --tables 1-{min(args.tables, 4)}" if plan.trial else
                                                 " (broker and director on this machine), or install the broker "
                                                 "files (docs/director.md)"))
    return 0


def handle_start(args: argparse.Namespace) -> int:
    from referee.hall.kit import HallError
    from referee.hall.start import run_until_stopped, start_hall
    from tournament.acl import parse_tables

    try:
        tables = parse_tables(args.tables) if args.tables else []
    except ValueError as exc:
        return _fail(f"--tables: {exc}")
    try:
        hall = start_hall(args.folder, with_tables=tables)
    except HallError as exc:
        return _fail(str(exc), 1)
    print(f"{PROG}: the broker and the director are running; the director's page: {hall.director_url} (key in "
          f"{hall.folder / 'director' / 'director.key'})", flush=True)
    for n in tables:
        print(f"{PROG}: table {n} is running (its output: {hall.folder / 'tables' / f'table-{n}' / 'referee.out'})",
              flush=True)
    print(f"{PROG}: Ctrl-C stops them", flush=True)
    return run_until_stopped(hall, lambda line: print(f"{PROG}: {line}", file=sys.stderr, flush=True))


def handle_logins(args: argparse.Namespace) -> int:
    from tournament import topics
    from tournament.acl import parse_tables, parse_venues, write_central, write_hall

    if args.venue:
        try:
            files = write_central(parse_venues(args.venue), args.acl, args.passwords, args.credentials_dir)
        except (ValueError, OSError, subprocess.CalledProcessError) as exc:
            return _fail(str(exc))
        print(f"{PROG} logins: central broker for {len(args.venue)} venues: {args.acl}, {args.passwords}, "
              f"{len(files)} credentials files in {args.credentials_dir}")
        return 0
    if not args.event or not args.tables:
        return _fail("logins: give --event and --tables (a hall's broker), or --venue EVENT_ID=LOGIN (a central one)")
    try:
        topics.check_event_id(args.event)
        tables = parse_tables(args.tables)
        files = write_hall(args.event, tables, args.acl, args.passwords, args.credentials_dir, bridge=args.bridge)
    except (ValueError, OSError, subprocess.CalledProcessError) as exc:
        return _fail(str(exc))
    print(f"{PROG} logins: {len(tables)} tables: {args.acl}, {args.passwords}, {len(files)} credentials files in "
          f"{args.credentials_dir}")
    return 0
