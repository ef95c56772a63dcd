"""A round that runs itself: how far it is ("round 1: 18 of 20 finished"), closing it, and the next round's
pairings loaded from tsh's tourney.js as soon as tsh has paired it.

The round is the one the director last sent pairings for (the store's meta `round`). A pairing is
*finished* when its table's game ended or the director entered its result (tournament/director/entered.py),
*playing* while its game runs, *waiting* before the game reached the director. A round is *done* when every
pairing is finished, or when the director closed it (a table that cannot finish: its result is entered by
hand, before or after closing).

`TshWatch` looks at tsh's `tourney.js` (DIRECTOR.toml `tsh_file`) whenever asked (`check`, every few seconds
from the service's loop): when the file holds the pairings of the round after the current one and the
current one is done, it sends them to the tables as "Send pairings" would; before that it says on the hall
page that the next round waits. A file tsh is still writing (it cannot be read) is tried again at the next
change of the file.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tournament.director import entered
from tournament.director.core import Director
from tournament.pairings import PairingsError, parse_tourney_js, tsh_round

log = logging.getLogger(__name__)

CLOSED_KEY = "closed_rounds"
FINISHED = ("finished", "entered")


def current_round(director: Director) -> int | None:
    value = director.store.meta("round")
    return value if isinstance(value, int) else None


def closed_rounds(director: Director) -> list[int]:
    return [int(r) for r in director.store.meta(CLOSED_KEY, [])]


def close_round(director: Director, round_: int, *, reopen: bool = False) -> dict[str, Any]:
    """Close a round (no longer waited for: the next one may come), or open it again."""
    if not director.store.pairings(round_):
        raise ValueError(f"round {round_} has no pairings")
    closed = set(closed_rounds(director))
    closed = closed - {round_} if reopen else closed | {round_}
    director.store.set_meta(CLOSED_KEY, sorted(closed))
    done = progress(director, round_)
    assert done is not None  # the round has pairings
    log.info("round %d %s by %s: %s", round_, "opened again" if reopen else "closed", director.by, done["text"])
    return done


def progress(director: Director, round_: int | None = None) -> dict[str, Any] | None:
    """Round `round_` (default the current one): every pairing's status, how many finished, closed or not."""
    round_ = current_round(director) if round_ is None else round_
    if round_ is None:
        return None
    pairings = director.store.pairings(round_)
    entries = {e.table: e for e in entered.load(director.store) if e.round == round_}
    tables = []
    for pairing in pairings:
        number = int(pairing["table"])
        state = director.tables.get(number)
        entry = entries.get(number)
        scores: list[int] | None = None
        if entry is not None:
            status, scores = "entered", list(entry.scores)
        elif state is not None and state.round == round_ and state.game is not None:
            game_state = str(state.snapshot.get("state", ""))
            status = "finished" if game_state == "ended" else "waiting" if game_state in ("", "waiting") \
                else "playing"
            scores = [int(p.get("score", 0)) for p in state.snapshot.get("players") or [] if isinstance(p, dict)]
        else:  # the table moved on (or never reported): its game of this round, if the director holds one
            status, scores = _stored_status(director, number, round_)
        tables.append({"table": number, "division": pairing["division"], "players": list(pairing["players"]),
                       "status": status, "scores": scores, "online": bool(state and state.online),
                       "entered": None if entry is None else {"by": entry.by, "at": entry.at, "reason": entry.reason,
                                                              "corrections": entry.corrections}})
    finished = sum(t["status"] in FINISHED for t in tables)
    by_hand = sum(t["status"] == "entered" for t in tables)
    closed = round_ in closed_rounds(director)
    text = f"round {round_}: {finished} of {len(tables)} finished"
    if by_hand:
        text += f" ({by_hand} entered by the director)"
    if closed:
        text += " · closed"
    return {"round": round_, "paired": len(tables), "finished": finished, "entered": by_hand, "closed": closed,
            "done": closed or (bool(tables) and finished == len(tables)), "text": text,
            "unfinished": [t["table"] for t in tables if t["status"] not in FINISHED], "tables": tables}


def _stored_status(director: Director, table: int, round_: int) -> tuple[str, list[int] | None]:
    """A pairing's status from the director's store, for a table whose game now is not the round's (one
    table's games only: the hall page asks every 2 s). As in the results: the last game that ended counts."""
    games = [g for g in director.store.games(table) if g.round == round_ and g.snapshot]
    ended = [g for g in games if g.snapshot and g.snapshot.get("state") == "ended" and g.snapshot.get("result")]
    shown = ended[-1] if ended else games[-1] if games else None
    if shown is None or not shown.snapshot:
        return "waiting", None
    scores = [int(p.get("score", 0)) for p in shown.snapshot.get("players") or [] if isinstance(p, dict)]
    return ("finished" if ended else "playing"), scores


@dataclass
class TshWatch:
    """tsh's tourney.js, looked at on each `check`: the next round's pairings sent once the current is done."""

    director: Director
    path: Path
    offsets: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    waiting: int | None = None  # a round tsh has paired that waits for the current one
    loaded: int | None = None  # the last round this watch sent
    _seen: tuple[int, int] | None = None  # (mtime_ns, size) of the file last read

    def state(self) -> dict[str, Any]:
        if self.error:
            text = f"tsh: {self.error}"
        elif self.waiting is not None:
            text = f"tsh has paired round {self.waiting}: sent when round {self.waiting - 1} is finished or closed"
        elif self.loaded is not None:
            text = f"round {self.loaded} pairings loaded from tsh"
        else:
            text = f"watching {self.path.name} for the next round"
        return {"file": str(self.path), "error": self.error, "waiting": self.waiting, "loaded": self.loaded,
                "text": text}

    def check(self) -> int | None:
        """Look at the file (when it changed, or a round waited); send the next round when it may go. Returns
        the round sent, if any."""
        try:
            stat = self.path.stat()
        except OSError as exc:
            self._fail(f"cannot read {self.path} ({exc.strerror or exc})")
            return None
        seen = (stat.st_mtime_ns, stat.st_size)
        if seen == self._seen and self.waiting is None:
            return None
        try:
            text = self.path.read_text(encoding="utf-8")
            tourney = parse_tourney_js(text, self.path.name)
        except (OSError, UnicodeDecodeError, PairingsError) as exc:
            self._seen = seen  # tsh may be writing it: tried again when it changes
            self._fail(str(exc))
            return None
        self._seen = seen
        self.error = None
        current = current_round(self.director)
        following = 1 if current is None else current + 1
        try:
            games, byes = tsh_round(tourney, following, table_offsets=self.offsets)
        except PairingsError as exc:
            self._fail(str(exc))
            return None
        if not games:
            self.waiting = None
            return None
        done = current is None or (progress(self.director, current) or {}).get("done", False)
        if not done:
            if self.waiting != following:
                log.info("tsh has paired round %d: sent when round %s is finished or closed", following, current)
            self.waiting = following
            return None
        try:
            self.director.send_pairings(games)
        except RuntimeError as exc:  # the broker is away: tried again at the next check
            self.director.store.set_meta("round", current)  # still the current one: not sent, not begun
            self.waiting = following
            self._fail(f"round {following} not sent yet: {exc}")
            return None
        self.waiting, self.loaded = None, following
        log.info("round %d pairings loaded from %s and sent to %d tables%s", following, self.path, len(games),
                 f"; byes: {', '.join(byes)}" if byes else "")
        return following

    def _fail(self, why: str) -> None:
        if why != self.error:
            log.warning("tsh file: %s", why)
        self.error = why
