"""`referee director --config DIRECTOR.toml`: the tournament director's hall page, commands and results.

The service lives in tournament/director/; this module reads the configuration and hands the service the
table's state machine to replay every game with (referee/director_sheets.py). The director key's checks are
the table scoreboard's own (tournament/pagekit/guards.py, behind tournament/director/access.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "director", help="the tournament director: every table from the broker on one page",
        description="Serve the director's hall page: every table of the event from the MQTT broker, the director's "
                    "commands, pairings in (tsh tourney.js or CSV) and results out (tsh lines, CSV, GCG zip).")
    p.add_argument("--config", required=True, type=Path, metavar="DIRECTOR.toml")
    p.add_argument("--port", type=int, help="override [director] port")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from dataclasses import replace

    from referee.director_sheets import MachineReplayer
    from tournament.director.access import DirectorGuard
    from tournament.director.config import DirectorConfigError, load
    from tournament.director.service import serve

    try:
        config = load(args.config)
    except DirectorConfigError as exc:
        print(f"referee director: {exc}", file=sys.stderr)
        return 2
    if args.port is not None:
        config = replace(config, port=args.port)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(config, DirectorGuard(config.credential, language=config.pages_language),
                          MachineReplayer()))
    except OSError as exc:
        print(f"referee director: cannot listen on {config.host}:{config.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    return 0
