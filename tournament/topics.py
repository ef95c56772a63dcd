"""The MQTT topic tree of a tournament: one place that names every topic, so both ends agree.

All topics of an event live under ``scrabble/{event}/``. A table owns ``scrabble/{event}/table/{n}/``: it
publishes its events, snapshot, status and command acknowledgements there and reads only its ``cmd`` topic
(and the event-wide ``scrabble/{event}/all/cmd``). The broker's ACL (systemd/mosquitto/acl.example) grants
exactly this, so a table cannot write another table's topics or any command.

Event ids and table numbers become topic levels, so they are restricted to characters that can never be
MQTT wildcards or separators: an event id is 1-64 of ``[A-Za-z0-9_-]``, a table number 1..9999.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

ROOT = "scrabble"
MAX_TABLE = 9999
_EVENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

# What a table publishes under its own prefix; "cmd" is the one leaf it reads.
TableLeaf = Literal["events", "snapshot", "status", "ack", "cmd"]
TABLE_LEAVES: tuple[TableLeaf, ...] = ("events", "snapshot", "status", "ack", "cmd")


class TopicError(ValueError):
    """An event id, table number or topic that is not part of the tournament topic tree."""


def check_event_id(event: str) -> str:
    """Return `event` if it can be a topic level, else raise TopicError saying why."""
    if not isinstance(event, str) or not _EVENT_ID.fullmatch(event):
        raise TopicError(f"event id {event!r}: use 1 to 64 letters, digits, '-' or '_' "
                         "(it becomes an MQTT topic level)")
    return event


def check_table(table: int) -> int:
    """Return `table` if it is a table number (1..9999), else raise TopicError."""
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE:
        raise TopicError(f"table number {table!r}: must be a whole number from 1 to {MAX_TABLE}")
    return table


def table_prefix(event: str, table: int) -> str:
    return f"{ROOT}/{check_event_id(event)}/table/{check_table(table)}"


def table_topic(event: str, table: int, leaf: TableLeaf) -> str:
    """``scrabble/{event}/table/{n}/{leaf}``."""
    if leaf not in TABLE_LEAVES:
        raise TopicError(f"topic leaf {leaf!r}: one of {', '.join(TABLE_LEAVES)}")
    return f"{table_prefix(event, table)}/{leaf}"


def events(event: str, table: int) -> str:
    """Every journaled event of the table, in journal order. QoS 1, not retained."""
    return table_topic(event, table, "events")


def snapshot(event: str, table: int) -> str:
    """The table as its scoreboard page sees it. QoS 1, retained: a new subscriber sees every table at once."""
    return table_topic(event, table, "snapshot")


def status(event: str, table: int) -> str:
    """"online" while the table is connected; the broker publishes "offline" (the last will) when it is lost."""
    return table_topic(event, table, "status")


def command(event: str, table: int) -> str:
    """Director -> one table. QoS 1, not retained, with a message expiry."""
    return table_topic(event, table, "cmd")


def ack(event: str, table: int) -> str:
    """Table -> director: the outcome of each command, by the command's id. QoS 1, not retained."""
    return table_topic(event, table, "ack")


def all_command(event: str) -> str:
    """Director -> every table of the event (pause all, start the round)."""
    return f"{ROOT}/{check_event_id(event)}/all/cmd"


def all_tables(event: str, leaf: TableLeaf) -> str:
    """A subscription filter for one leaf of every table: ``scrabble/{event}/table/+/{leaf}``."""
    if leaf not in TABLE_LEAVES:
        raise TopicError(f"topic leaf {leaf!r}: one of {', '.join(TABLE_LEAVES)}")
    return f"{ROOT}/{check_event_id(event)}/table/+/{leaf}"


@dataclass(frozen=True)
class ParsedTopic:
    """A topic of the tree taken apart: which event, which table (None for ``all``), which leaf."""

    event: str
    table: int | None
    leaf: TableLeaf


def parse(topic: str) -> ParsedTopic:
    """Take a received topic apart; raise TopicError for anything outside the tournament tree."""
    parts = topic.split("/")
    if len(parts) == 5 and parts[0] == ROOT and parts[2] == "table" and parts[4] in TABLE_LEAVES:
        if not parts[3].isdigit():
            raise TopicError(f"topic {topic!r}: table level {parts[3]!r} is not a table number")
        return ParsedTopic(check_event_id(parts[1]), check_table(int(parts[3])), parts[4])
    if len(parts) == 4 and parts[0] == ROOT and parts[2] == "all" and parts[3] == "cmd":
        return ParsedTopic(check_event_id(parts[1]), None, "cmd")
    raise TopicError(f"topic {topic!r} is not part of the tournament tree ({ROOT}/EVENT/table/N/LEAF)")
