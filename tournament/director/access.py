"""Who may command the hall: the director key behind the pages' shared guards (tournament/pagekit/guards.py).

The checks are the table scoreboard's own (the credential compared in constant time, a growing wait after
wrong tries, a budget of wrong tries shared by all sources, the CSRF token bound to the session cookie,
Origin and Sec-Fetch-Site), so both pages are guarded alike. Here they answer as the director's HTTP side
needs: `Refused` with a status, a stable code and words (referee/words/guard.py, in the event's language).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Mapping

from referee.words import Phrase, say
from tournament.pagekit.guards import (
    ControlDisabled,
    CrossSiteRequest,
    CsrfGuard,
    PinGuard,
    PinRequired,
    RateLimited,
    WrongPin,
    client_key,
)


class Refused(Exception):
    """A command refused before it reached a table: HTTP status, a stable code, words, and a wait if any."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after = retry_after


class DirectorGuard:
    """The director's credential and the page's session checks. Without a credential nobody can command
    (there is no default). Its refusals name the director key (the guard's noun "director_key"), in the
    director's language (`language`, [director] language)."""

    def __init__(self, credential: str | None, clock: Callable[[], float] = time.monotonic, *, language: str = "en",
                 **backoff: float) -> None:
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
        state = self._pins.guessing()
        if state is None:
            return None
        wrong, spent = state
        then = Phrase("director", "guessing_spent") if spent else ""
        return say("director", "guessing", self.language, wrong=wrong, then=then)

    def check(self, *, client: str | None, credential: str | None, session_id: str | None, token: str | None,
              headers: Mapping[str, str], host: str) -> None:
        """Return when the request may command; raise `Refused` saying why not."""
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
    try:
        return client is not None and ipaddress.ip_address(client.split("%", 1)[0]).is_loopback
    except ValueError:
        return False
