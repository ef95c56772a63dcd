"""`referee director --config DIRECTOR.toml`: the tournament director's hall page, commands and results.

The service lives in tournament/director/; this module reads the configuration and hands it the
director credential's checks, which are the table scoreboard's (referee/web/security.py: constant-time
comparison, a growing wait after wrong tries, CSRF token and Origin), so both pages are guarded alike.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping
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


class DirectorGuard:
    """The director credential behind referee.web.security's PinGuard and CsrfGuard (see tournament.director.access).

    Its refusals name the director key, in the director's language (`language`, [director] language)."""

    def __init__(self, credential: str | None, clock: Callable[[], float] = time.monotonic, *, language: str = "en",
                 **backoff: float) -> None:
        from referee.web.security import CsrfGuard, PinGuard

        self._pins = PinGuard(credential, clock, noun="director_key", **backoff)  # type: ignore[arg-type]
        self._csrf = CsrfGuard()
        self.language = language

    @property
    def enabled(self) -> bool:
        return self._pins.enabled

    def token_for(self, session_id: str) -> str:
        return self._csrf.token_for(session_id)

    def guessing(self) -> str | None:
        """What the hall's alert says while someone guesses the director key (None: nobody is)."""
        from referee.words import Phrase, say

        state = self._pins.guessing()
        if state is None:
            return None
        wrong, spent = state
        then = Phrase("director", "guessing_spent") if spent else ""
        return say("director", "guessing", self.language, wrong=wrong, then=then)

    def check(self, *, client: str | None, credential: str | None, session_id: str | None, token: str | None,
              headers: Mapping[str, str], host: str) -> None:
        from referee.web.security import (
            ControlDisabled,
            CrossSiteRequest,
            PinRequired,
            RateLimited,
            WrongPin,
            client_key,
        )
        from tournament.director.access import Refused

        try:
            self._csrf.check(session_id, token, headers, host)
            # the session that gave the key before and the director's own machine (loopback) are never locked
            # out by others' wrong keys: only each source's own waits apply to them
            self._pins.check(client_key(client), credential, session_id, exempt=_loopback(client))
        except CrossSiteRequest as exc:
            raise Refused(403, "cross_site", str(exc)) from None
        except ControlDisabled as exc:
            raise Refused(403, "control_disabled", exc.text(self.language)) from None
        except RateLimited as exc:
            raise Refused(429, "rate_limited", exc.text(self.language), exc.retry_after) from None
        except PinRequired as exc:
            raise Refused(401, "key_required", exc.text(self.language)) from None
        except WrongPin as exc:
            raise Refused(403, "key_wrong", exc.text(self.language)) from None


def _loopback(client: str | None) -> bool:
    import ipaddress

    try:
        return client is not None and ipaddress.ip_address(client.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def handle(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from dataclasses import replace

    from referee.director_sheets import MachineReplayer
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
