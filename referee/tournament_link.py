"""A table on the tournament network: its journal published through `tournament.outbox`, and the director's
commands applied through the same journaled path as a button.

`JournalOutbox` lets the publisher read the journal (headers of new games, then events in the order they
were written) and store its acknowledged cursor in it. `TournamentLink` wires one `LiveTable` to a
`TablePublisher`: every change of the table wakes the publisher and hands it the latest snapshot (both
cheap, never blocking), and each director command becomes a journaled "director" event carrying who sent it
and the command's id (`LiveTable.director`), so a restart replays it like any other input.
"""

from __future__ import annotations

import logging
from typing import Any

from referee.journal import EventRow, Journal
from referee.table.api import ControlError, Snapshot
from referee.table.live import LiveTable
from tournament.outbox import CommandRefused, Cursor, OutboxSource, Pending, TablePublisher
from tournament.payloads import HEADER_KIND, HEADER_SEQ, CommandMessage, EventMessage
from tournament.settings import TableLinkSettings

log = logging.getLogger(__name__)

CURSOR_NAME = "tournament"


def _event(table: int, row: EventRow) -> EventMessage:
    return EventMessage(table, row.game_id, row.seq, row.kind, row.data, row.t_ms / 1000, row.wall_utc)


class JournalOutbox(OutboxSource):
    """The journal as the tournament publisher's outbox."""

    def __init__(self, journal: Journal, table: int, name: str = CURSOR_NAME) -> None:
        self.journal = journal
        self.table = table
        self.name = name

    def load_cursor(self) -> Cursor:
        game, pos = self.journal.outbox_cursor(self.name)
        return Cursor(game, pos)

    def save_cursor(self, cursor: Cursor) -> None:
        self.journal.set_outbox_cursor(self.name, cursor.game, cursor.event)

    def _header(self, game_id: int) -> EventMessage | None:
        games = self.journal.games_after(game_id - 1, 1)
        if not games or games[0].id != game_id:
            return None
        g = games[0]
        return EventMessage(self.table, g.id, HEADER_SEQ, HEADER_KIND,
                            {"name": g.table_name, "kind": g.kind, "players": list(g.players), "setup": dict(g.setup),
                             "created": g.created_utc}, 0.0, g.created_utc)

    def pending(self, after: Cursor, limit: int) -> list[Pending]:
        out: list[Pending] = []
        game = after.game
        for g in self.journal.games_after(after.game, limit):
            header = self._header(g.id)
            if header is not None:
                game = g.id
                out.append(Pending(Cursor(game, after.event), header))
        if len(out) >= limit:
            return out
        for row in self.journal.rows_after(after.event, limit - len(out)):
            out.append(Pending(Cursor(game, row.pos), _event(self.table, row)))
        return out

    def replay(self, game: int, first: int, last: int | None) -> list[EventMessage]:
        out: list[EventMessage] = []
        if first <= HEADER_SEQ:
            header = self._header(game)
            if header is None:
                return []
            out.append(header)
        if last is None or last >= 1:
            out += [_event(self.table, r) for r in self.journal.rows(game, max(first, 1), last)]
        return out


    def tail(self) -> tuple[int, int] | None:
        return self.journal.tail()


class TournamentLink:
    """One table on the broker: start it after the table is open, stop it before the journal closes."""

    def __init__(self, table: LiveTable, journal: Journal, settings: TableLinkSettings, *, name: str = "",
                 client_id: str | None = None) -> None:
        self.table = table
        self.journal = journal
        self.settings = settings
        self.publisher = TablePublisher(settings, JournalOutbox(journal, settings.table), name=name,
                                        on_command=self._command, client_id=client_id)
        self._unsubscribe = table.subscribe(self._changed)

    def start(self) -> None:
        self.publisher.start()
        self._changed(self.table.snapshot())
        log.info("tournament: table %s of %s on %s", self.settings.table, self.settings.event,
                 self.settings.broker.url)

    def stop(self) -> None:
        self._unsubscribe()
        self.publisher.stop()

    def _changed(self, snap: Snapshot) -> None:
        """A snapshot listener: runs on the table's thread, so it only hands over (no I/O)."""
        game = self.table.game_id
        seq = self.journal.last_seq(game) if game is not None else 0
        self.publisher.publish_snapshot(game, seq, dict(snap))
        self.publisher.notify()

    def _command(self, cmd: CommandMessage) -> tuple[int | None, int | None]:
        """Apply a director command as a journaled event; the journal row it became is acknowledged. A command
        id already in the current game's journal (sent again after this table restarted) is not applied twice."""
        game = self.table.game_id
        if game is not None:
            for row in self.journal.rows(game, 1):
                if row.kind == "director" and row.data.get("id") == cmd.id:
                    return game, row.seq
        try:
            if cmd.cmd == "set_players":
                self.table.next_game([str(p) for p in cmd.args["players"]], int(cmd.args.get("first", 0)),
                                     by=cmd.by, command_id=cmd.id)
            else:
                self.table.director(cmd.cmd, dict(cmd.args), by=cmd.by, command_id=cmd.id)
        except ControlError as exc:  # said in the table's language: the director shows it on the table's tile
            raise CommandRefused(exc.code, exc.text(str(self.table.snapshot().get("language", "en")))) from None
        game = self.table.game_id
        return game, (self.journal.last_seq(game) if game is not None else None)


def tournament_settings(config: Any) -> TableLinkSettings | None:
    """The checked [tournament] section of a table's configuration, or None without one."""
    value = getattr(config, "tournament", None)
    return value if isinstance(value, TableLinkSettings) else None
