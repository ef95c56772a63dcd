"""The project's base error.

Every failure a player or a user can cause has its own class, a subclass of both
`RefereeError` and `ValueError`, so callers can catch one kind precisely or all of them
at once, and code written against `ValueError` keeps working.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error the project raises on purpose."""
