"""What the simulated table's terminal says about the game: every move and its score, every question the table
asks (a blank's letter, a doubtful letter, the racks at the end, a roll), every alert and verdict (not a legal
play, a phony taken back, a challenge that fails, time up) and the game's end, in the table's language.

The page shows all of this already; a family playing at the terminal (`referee run --sim`) should not need it.
`Narrator` is a table listener: it compares each snapshot with the one before and says only what changed, with
the console command that answers a question ("type blank H8 E"), so nothing is said twice when the table
publishes its clocks every second.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from referee.words import say
from referee.words.terminal import TERMINAL

log = logging.getLogger(__name__)

def move_line(move: Mapping[str, Any], players: list[str], language: str = "en") -> str:
    """One move as the terminal prints it: `Anna: 8D HOUSE (HOUSE) +24, total 24`."""
    index = int(move.get("player", 0))
    name = players[index] if 0 <= index < len(players) else f"#{index}"
    kind = str(move.get("kind", "play"))
    notation = str(move.get("notation", ""))
    if kind == "play":
        words = ", ".join(move.get("words") or [])
        what = f"{notation} ({words})" if words else notation
    else:
        word = say("terminal", f"kind.{kind}", language) if f"kind.{kind}" in TERMINAL else kind
        shown = notation if notation and notation not in ("-", "--") and kind not in ("pass", "lost_turn") else ""
        what = f"{word} {shown}".strip()
        if move.get("note"):
            what += f" ({move['note']})"
    return say("terminal", "move", language, name=name, what=what, score=int(move.get("score", 0)),
               total=int(move.get("total", 0)))


def result_line(snap: Mapping[str, Any], language: str = "en") -> str:
    """The end as the terminal prints it: the final scores and who won (the engine's verdict, never computed)."""
    players = snap.get("players") or []
    scores = ", ".join(f"{p['name']} {p['score']}" for p in players)
    result = snap.get("result") or {}
    winners = [players[i]["name"] for i in result.get("winners", []) if 0 <= i < len(players)]
    if result.get("reason") == "shared" or len(winners) > 1:
        verdict = say("terminal", "result_shared", language, names=" & ".join(winners))
    elif winners:
        verdict = say("terminal", "result_wins", language, name=winners[0])
    else:
        verdict = ""
    return say("terminal", "game_over", language, scores=scores, verdict=verdict)


class Narrator:
    """A table listener that says what changed (see the module docstring). `out` gets one message at a time
    (it may hold several lines); it runs on the table's thread, so it must be quick and never raise."""

    def __init__(self, out: Callable[[str], None], language: str = "en") -> None:
        self.out = out
        self.language = language
        self._moves = -1  # moves already told; -1: nothing seen yet (the first snapshot tells only the state)
        self._alerts: set[tuple[str, str]] = set()
        self._pending: dict[str, Any] = {}
        self._state = ""
        self._lock = threading.Lock()
        self._mover: int | None = None  # whose turn it was last told (or seen)

    def __call__(self, snap: Mapping[str, Any]) -> None:
        try:
            with self._lock:  # the table's thread, and the first look from the console's start
                for message in self.changes(snap):
                    self.out(message)
        except Exception:  # a listener must not raise into the table
            log.exception("the terminal could not tell the table's news")

    def changes(self, snap: Mapping[str, Any]) -> list[str]:
        """What is new in `snap` since the last snapshot, as the lines to print (and remembered as told)."""
        lang = self.language
        said: list[str] = []
        players = [str(p["name"]) for p in snap.get("players") or []]
        moves = list(snap.get("moves") or [])
        first = self._moves < 0
        if first or len(moves) < self._moves:  # the first look, or another game (a new game, an undo)
            self._moves = len(moves)
        for move in moves[self._moves:]:
            said.append(move_line(move, players, lang))
        self._moves = len(moves)
        alerts = [(str(a.get("code", "")), str(a.get("text", ""))) for a in snap.get("alerts") or []]
        said.extend(f"! {words}" for code, words in alerts if (code, words) not in self._alerts)
        self._alerts = set(alerts)
        pending = dict(snap.get("pending") or {})
        state = str(snap.get("state", ""))
        if state != self._state:  # the new state first ("the game has started"), then what it asks for
            line = self._state_line(state, snap, first)
            if line:
                said.append(line)
        for key in sorted(pending):
            if key == "challenge":
                new = (key not in self._pending or state != self._state
                       or self._pending[key].get("player") != pending[key].get("player"))
            else:
                new = self._pending.get(key) != pending[key]
            if new and pending[key]:
                hint = self._hint(key, pending[key], snap, players)
                if hint:
                    said.append(hint)
        self._pending = pending
        mover = next((i for i, p in enumerate(snap.get("players") or []) if p.get("on_turn")), None)
        if state in ("turn", "roll") and mover is not None:
            # (from waiting or paused, the state's own line has named the mover already)
            if mover != self._mover and not first and self._state not in ("waiting", "paused"):
                said.append(say("terminal", "to_move", lang, name=players[mover]))
            self._mover = mover
        self._state = state
        return said

    def _hint(self, key: str, value: Any, snap: Mapping[str, Any], players: list[str]) -> str:
        """How to answer what the table waits for, with the console's own command."""
        lang = self.language
        if key == "blanks":
            return say("terminal", "hint_blank", lang, square=value[0])
        if key == "letters":
            return say("terminal", "hint_letter", lang, square=value[0])
        if key == "racks":
            seat = int(value[0])
            views = snap.get("players") or []
            known = views[seat].get("rack_count") if seat < len(views) else None
            count = f"{known} " if isinstance(known, int) else ""
            example = "AEIRST?"[:known] if isinstance(known, int) and known else "AEQ"
            return say("terminal", "hint_racks", lang, seat=seat, name=players[seat] if seat < len(players) else seat,
                       count=count, example=example)
        if key == "challenge":
            seconds = max(0, int(value.get("remaining_ms", 0)) // 1000)
            return say("terminal", "hint_challenge", lang, seconds=seconds)
        if key == "roll":
            return say("terminal", "hint_roll", lang, count=value)
        if key == "rolled":
            return say("terminal", "rolled", lang, letters=value)
        if key == "remove":
            return say("terminal", "hint_remove", lang, lifts=", ".join(f"lift {square}" for square in value))
        return ""

    def _state_line(self, state: str, snap: Mapping[str, Any], first: bool) -> str:
        lang = self.language
        if state == "waiting":
            return say("terminal", "hint_start", lang)
        if state == "paused":
            return say("terminal", "paused", lang)
        if state == "ended":
            return result_line(snap, lang)
        if self._state in ("waiting", "paused") and not first and state in ("turn", "roll"):
            players = snap.get("players") or []
            mover = next((p["name"] for p in players if p.get("on_turn")), "")
            return say("terminal", "started" if self._state == "waiting" else "resumed", lang, name=mover)
        return ""
