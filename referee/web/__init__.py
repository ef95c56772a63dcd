"""The scoreboard and table control page: a live view of the game for everyone in the room, and the few
inputs sensors cannot know (a blank's letter, a correction, an exchange) for whoever holds the table PIN.

`create_app(table, pin)` builds the aiohttp application for any table that implements `TableView` and
`TableControl` (referee/table/api.py); `serve(table, host, port, pin)` runs it until cancelled. A table
that also has `gcg() -> str` (`GcgSource`) offers its game record as a download.
"""

from __future__ import annotations

from referee.web.app import Table, create_app, serve
from referee.web.records import GcgSource

__all__ = ["GcgSource", "Table", "create_app", "serve"]
