"""The hall as the director sees it: one `TableState` per table, built from what the broker carries.

A tile (what the hall page shows of a table) is derived here, not in the browser, so the page stays a thin
view and the tests can read exactly what a director is told: players, scores, both clocks, whose turn, the
round and division, and the alerts that matter to a director (challenge pending or held, overtime, a flag,
camera lost, board unplugged, table offline since when).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

# table alert codes (referee.table_api.ALERT_CODES) a director must see, and the director's words for them
DIRECTOR_ALERTS = {
    "camera_lost": "camera lost",
    "board_lost": "board unplugged",
    "time_up": "flag: time up",
    "max_overtime": "flag: overtime limit",
    "lost_on_time": "lost on time",
    "journal_failed": "cannot save the game",
    "illegal_play": "illegal play",
    "not_in_lexicon": "phony to take off",
}


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class TableState:
    """Everything the director knows of one table now."""

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

    def alerts(self) -> list[dict[str, str]]:
        snap = self.snapshot
        out: list[dict[str, str]] = []
        if not self.online:
            since = f" since {self.offline_since[11:19]} UTC" if self.offline_since else ""
            out.append({"code": "offline", "level": "error", "text": f"offline{since}"})
        state = str(snap.get("state", ""))
        pending = snap.get("pending") or {}
        codes = {a.get("code") for a in snap.get("alerts") or [] if isinstance(a, dict)}
        # the table says a held challenge with its "challenge_held" notice (and pauses its clocks)
        if "challenge_held" in codes:
            out.append({"code": "challenge_held", "level": "warning", "text": "challenge held"})
        elif state == "challenge" or (isinstance(pending, dict) and pending.get("challenge")):
            out.append({"code": "challenge", "level": "info", "text": "challenge open"})
        for player in snap.get("players") or []:
            clock = player.get("clock") if isinstance(player, dict) else None
            if isinstance(clock, dict) and int(clock.get("remaining_ms", 0)) < 0:
                out.append({"code": "overtime", "level": "warning", "text": f"overtime: {player.get('name', '?')}"})
        for alert in snap.get("alerts") or []:
            code = alert.get("code") if isinstance(alert, dict) else None
            if code in DIRECTOR_ALERTS:
                level = "error" if code in ("camera_lost", "board_lost", "journal_failed") else "warning"
                out.append({"code": str(code), "level": level, "text": DIRECTOR_ALERTS[str(code)]})
        out += [{"code": "refused", "level": "warning", "text": text} for text in self.messages[-2:]]
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
        }
