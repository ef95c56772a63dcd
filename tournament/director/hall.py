"""The hall as the director sees it: one `TableTile` per table, built from what the broker carries.

A tile (what the hall page shows of a table) is derived here, not in the browser, so the page stays a thin
view and the tests can read exactly what a director is told: players, scores, both clocks, whose turn, the
round and division, and the alerts that matter to a director (challenge pending or held, overtime, a flag,
camera lost, board unplugged, table offline since when).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from referee.words import Phrase, plain_fields, say
from tournament.payloads import HEADER_SEQ

# table alert codes (referee.table.api.ALERT_CODES) a director must see; their words are the director's
# (referee/words/director.py `alert.<code>`)
DIRECTOR_ALERTS = ("camera_lost", "board_lost", "time_up", "max_overtime", "lost_on_time", "journal_failed",
                   "illegal_play", "not_in_lexicon")


def tile_alert(code: str, level: str, **fields: object) -> dict[str, Any]:
    """One alert of a tile: its code and fields, which the director's page says in the event's language, and its
    English words (`text`) for whoever reads the API."""
    return {"code": code, "level": level, "text": say("director", f"alert.{code}", "en", **fields),
            "fields": plain_fields(fields)}


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def hall_time(iso: str) -> str:
    """An ISO time (the director's UTC receive time) as the hall's clock shows it: HH:MM:SS in the director
    machine's local time zone (the hall's), as the director and the players read the time."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%H:%M:%S")


# who paused, for a director's pause command that gave no name (said "the director" in the page's language)
NAMELESS = "the director"


@dataclass(frozen=True)
class Pause:
    """Who paused a table and why, from the table's journaled events: a director's `pause` command (its `by`
    and `reason`) or the players' own pause at the table."""

    by: str  # the director's name (`by` of the command), or "" for a pause at the table
    reason: str
    at: str  # the table's time of the event (ISO)

    def fields(self) -> dict[str, object]:
        """The words of the pause (`alert.paused`): who, when (the hall's clock), why."""
        by: object = Phrase("director", "pause.director") if self.by == NAMELESS else self.by
        return {"who": Phrase("director", "pause.by", {"by": by}) if self.by else Phrase("director", "pause.table"),
                "when": Phrase("director", "pause.when", {"time": hall_time(self.at)}) if self.at else "",
                "reason": Phrase("director", "pause.reason", {"reason": self.reason}) if self.reason else ""}

    def text(self) -> str:
        return say("director", "alert.paused", "en", **self.fields())


def pause_of(kind: str, data: Any, at: str, current: Pause | None) -> Pause | None:
    """The pause a table is in after one of its journaled events (`current` before it)."""
    if not isinstance(data, dict):
        return current
    if kind == "director":
        cmd = data.get("cmd")
        args = data.get("args")
        args = args if isinstance(args, dict) else {}
        if cmd == "pause":
            return Pause(str(data.get("by") or NAMELESS), str(args.get("reason") or "").strip(), at)
        if cmd in ("resume", "start", "set_players"):
            return None
    elif kind == "control":
        action = data.get("action")
        if action == "pause":
            return Pause("", "", at)
        if action in ("resume", "start", "new_game"):
            return None
    return current


@dataclass
class TableTile:
    """Everything the director knows of one table now: what its tile on the hall page shows (a table's own
    state machine is referee.table.state.TableState, which the director never sees)."""

    table: int
    name: str = ""
    online: bool = False
    offline_since: str | None = None  # the director's own receive time of the "offline" status
    game: int | None = None
    seq: int = -1
    snapshot: dict[str, Any] = field(default_factory=dict)
    round: int | None = None
    division: str | None = None
    received: float = 0.0  # director's monotonic time of the last update
    messages: list[str] = field(default_factory=list)  # acks refused, shown to the director
    pause: Pause | None = None  # who paused the current game and why, from its journaled events
    ahead: str = ""  # a snapshot far ahead of the table's events (forged, or events lost): what the tile says

    def on_event(self, seq: int, kind: str, data: Any, at: str) -> None:
        """Follow the journaled events of the table's current game (the caller's to say) for the tile."""
        if seq == HEADER_SEQ:
            self.pause = None
        self.pause = pause_of(kind, data, at, self.pause)

    def alerts(self) -> list[dict[str, Any]]:
        snap = self.snapshot
        out: list[dict[str, Any]] = []
        if not self.online:
            since = Phrase("director", "offline_since", {"time": hall_time(self.offline_since)}) \
                if self.offline_since else ""
            out.append(tile_alert("offline", "error", since=since))
        state = str(snap.get("state", ""))
        if state == "paused" and "challenge_held" not in {a.get("code") for a in snap.get("alerts") or []
                                                         if isinstance(a, dict)}:
            pause = self.pause
            out.append(tile_alert("paused", "info", **(pause.fields() if pause else
                                                        {"who": Phrase("director", "pause.plain"), "when": "",
                                                         "reason": ""})))
        pending = snap.get("pending") or {}
        codes = {a.get("code") for a in snap.get("alerts") or [] if isinstance(a, dict)}
        # the table says a held challenge with its "challenge_held" notice (and pauses its clocks)
        if "challenge_held" in codes:
            out.append(tile_alert("challenge_held", "warning"))
        elif state == "challenge" or (isinstance(pending, dict) and pending.get("challenge")):
            out.append(tile_alert("challenge", "info"))
        for player in snap.get("players") or []:
            clock = player.get("clock") if isinstance(player, dict) else None
            if isinstance(clock, dict) and int(clock.get("remaining_ms", 0)) < 0:
                out.append(tile_alert("overtime", "warning", name=player.get("name", "?")))
        for alert in snap.get("alerts") or []:
            code = alert.get("code") if isinstance(alert, dict) else None
            if code in DIRECTOR_ALERTS:
                level = "error" if code in ("camera_lost", "board_lost", "journal_failed") else "warning"
                out.append(tile_alert(str(code), level))
        if self.ahead:
            out.append(tile_alert("snapshot_ahead", "warning", text=self.ahead))
        out += [tile_alert("refused", "warning", text=text) for text in self.messages[-2:]]
        return out

    def tile(self) -> dict[str, Any]:
        """The compact view of the table the hall page draws (no score sheet: that is one table's page)."""
        snap = self.snapshot
        players = []
        for p in snap.get("players") or []:
            if not isinstance(p, dict):
                continue
            clock = p.get("clock")
            players.append({"name": str(p.get("name", "")), "score": int(p.get("score", 0)),
                            "on_turn": bool(p.get("on_turn")),
                            "clock": None if not isinstance(clock, dict) else
                            {"ms": int(clock.get("remaining_ms", 0)), "running": bool(clock.get("running"))}})
        moves = snap.get("moves") or []
        last = moves[-1] if moves and isinstance(moves[-1], dict) else None
        return {
            "table": self.table, "name": self.name or str(snap.get("table", "")) or f"Table {self.table}",
            "online": self.online, "offline_since": self.offline_since, "game": self.game, "seq": self.seq,
            "state": str(snap.get("state", "")), "round": self.round, "division": self.division,
            "players": players, "board": list(snap.get("board") or []), "last_play": list(snap.get("last_play") or []),
            "last": None if last is None else {"player": last.get("player"), "notation": last.get("notation"),
                                               "score": last.get("score")},
            "alerts": self.alerts(),
            "paused": None if self.pause is None or self.snapshot.get("state") != "paused" else
            {"by": self.pause.by, "reason": self.pause.reason, "at": self.pause.at},
        }
