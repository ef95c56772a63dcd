"""Who may command the hall: what the director's HTTP side asks of its guard, without knowing how it checks.

The checks themselves (the credential compared in constant time, a growing wait after wrong tries, the CSRF
token bound to the session cookie, Origin and Sec-Fetch-Site) are the table scoreboard's, in
referee/web/security.py; `referee director` hands them in through this protocol, so the tournament package
never imports the table's service.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Refused(Exception):
    """A command refused before it reached a table: HTTP status, a stable code, words, and a wait if any."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after = retry_after


class Guard(Protocol):
    """The director's credential and the page's session checks."""

    @property
    def enabled(self) -> bool:
        """False when no credential is configured: then nobody can command (there is no default)."""

    def token_for(self, session_id: str) -> str: ...

    def guessing(self) -> str | None:
        """Words for the hall's alert while someone guesses the director credential, else None."""

    def check(self, *, client: str | None, credential: str | None, session_id: str | None, token: str | None,
              headers: Mapping[str, str], host: str) -> None:
        """Return when the request may command; raise `Refused` saying why not."""
