"""The `referee` console script.

Each subcommand lives in its own module under `referee/commands/` and exposes
`register(subparsers)`. Discovery keeps this file from becoming the place where every
issue's work collides, and keeps start-up cheap: a command module imports its heavy
dependencies (OpenCV, pyserial) inside its handler, not at import time.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from referee import __version__
from referee import commands as commands_pkg


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee",
        description="SCRABBLE table referee: sensors, camera, clocks, rules engine and scoreboard.",
    )
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands_pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands_pkg.__name__}.{info.name}")
        module.register(sub)
    return parser


def _innermost(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The (sub)command parser that `argv` names: `referee lexicon install ...` -> the install parser."""
    for arg in argv:
        if arg.startswith("-"):
            continue
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or arg not in subs[0].choices:
            break
        parser = subs[0].choices[arg]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    given = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(given)
    if extra:
        # argparse leaves an option a subcommand does not know to the top-level parser, which printed its
        # own usage ("referee [-h] [--version] COMMAND"): the subcommand's usage says what it does take.
        _innermost(parser, given).error(f"unrecognized arguments: {' '.join(extra)}")
    handler = getattr(args, "handler", None)
    if handler is None:
        # No command is a mistake (a script calling `referee` bare must not think something ran).
        parser.print_help(sys.stderr)
        print("\nreferee: name a command, e.g. `referee run --sim`", file=sys.stderr)
        return 2
    try:
        result = handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `referee ... | head` must not end in a traceback.
        sys.stderr.close()
        return 0
    except OSError as exc:
        # a file or device a command could not open or write (its own handler had no better words)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"referee {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    return int(result or 0)


def command_name(argv0: str | None = None) -> str:
    """How to type this program again: `referee` when that name on the PATH is this program, else the path
    it was started by (`.venv/bin/referee` after `make run`), relative to the current folder when inside it."""
    given = argv0 if argv0 is not None else sys.argv[0]
    here = Path(given).resolve() if given else None
    found = shutil.which("referee")
    if found and here is not None and Path(found).resolve() == here:
        return "referee"
    if here is None or not here.exists() or here.name not in ("referee", "referee.exe"):
        return "referee"
    try:
        rel = os.path.relpath(here, Path.cwd())
    except ValueError:
        return str(here)
    return rel if not rel.startswith("..") else str(here)
