"""`referee run`: the referee service.

Until the table service lands (issue 8) this honestly reports what exists and what does not.
"""

from __future__ import annotations

import argparse
from typing import Any

from referee import __version__


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("run", help="run the referee (on a simulated table with --simulated)")
    p.add_argument("--simulated", action="store_true", help="use a simulated table instead of real hardware")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    print(f"referee {__version__}")
    print("The table service is not built yet; this build has the project skeleton only.")
    print("See `referee --help` for the commands that exist and docs/index.md for what is coming.")
    return 0
