"""`/tourney.js` in tsh's own form: the loaded tsh file, with each ended game's scores filled in.

tsh's `JSON` command writes `newt={...};` on one line (tournament/pairings.py reads it). Woogles' broadcast
poller, and every other tool that reads tsh's file, wants exactly that file; the director knows each game's
score the moment its table ends it. So the feed is the file the director was given (players, pairings,
boards, firsts, config: everything kept as tsh wrote it) with `scores[r]` of both players of every ended game
of round r+1 set to the table's final scores. A game still being played leaves the file's scores as they are.

tsh writes an absent value as `undefined`; the feed does too (a JSON `null` would be a change of form for a
reader written for tsh's files), outside strings only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from tournament.pairings import PairingsError, parse_tourney_js, tourney_data
from tournament.results import GameRecord, split_per_pairing

log = logging.getLogger(__name__)

NO_FILE = "no tsh file is loaded: send a round's pairings from tsh's tourney.js first"
_NULL = re.compile(r'"(?:[^"\\]|\\.)*"|\bnull\b', re.DOTALL)


def write_tourney_js(data: dict[str, Any]) -> str:
    """`data` as tsh writes it: `newt=` + one line of JSON with `undefined` for every absent value + `;`."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    body = _NULL.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "undefined", body)
    return f"newt={body};\n"


def filled_scores(text: str, records: Iterable[GameRecord], source: str = "tourney.js") -> dict[str, Any]:
    """The tsh file `text` as a dict, with the scores of every ended game of `records` written in.

    A game counts when it ended, belongs to a round (paired from tsh: its players have tsh numbers), and the
    file pairs those two players in that round in that division; anything else is left out with a log line
    (a game of pairings the file does not hold, for example after the director loaded another file)."""
    data = tourney_data(text, source)
    names = list(parse_tourney_js(text, source).divisions)  # the divisions' names, in the file's order
    divisions = dict(zip(names, data["divisions"], strict=True))
    for record in split_per_pairing(records)[0]:
        a, b = record.ids[0], record.ids[1]
        if not record.ended or record.round < 1 or a is None or b is None or len(record.scores) != 2:
            continue
        division = divisions.get(record.division)
        r = record.round - 1
        players = division.get("players") if division else None
        if not isinstance(players, list) or not all(0 < n < len(players) for n in (a, b)):
            log.info("tourney.js: table %s (round %s, division %s) is not in the loaded file", record.table,
                     record.round, record.division)
            continue
        pa, pb = players[a], players[b]
        if not (_paired(pa, r) == b and _paired(pb, r) == a):
            log.info("tourney.js: players %s and %s of division %s are not paired in round %s of the loaded file",
                     a, b, record.division, record.round)
            continue
        for player, score in ((pa, record.scores[0]), (pb, record.scores[1])):
            scores = player.get("scores")
            if not isinstance(scores, list):
                scores = player["scores"] = []
            while len(scores) <= r:
                scores.append(None)
            scores[r] = score
    return data


def _paired(player: Any, r: int) -> int | None:
    pairings = player.get("pairings") if isinstance(player, dict) else None
    if isinstance(pairings, list) and r < len(pairings) and isinstance(pairings[r], int):
        return int(pairings[r])
    return None


class TourneyFeed:
    """The feed of one director, written again only when the file or an ended game changed.

    `signature` is cheap (the ended games and their scores, no store read): while it stays the same, the last
    text is served as it is, so a poller every few seconds costs the hall nothing. When it changed, the feed is
    written again in a thread (reading every game from the store waits for the store's writer, which a busy
    hall keeps busy); an answer waits `FRESH_WAIT_S` for it at most and is otherwise the previous text, one
    result behind for a moment, so the feed always answers quickly. The first answer always waits."""

    FRESH_WAIT_S = 0.05

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._text: str | None = None
        self._building: tuple[tuple[Any, ...], asyncio.Task[str]] | None = None

    def text(self, source: str | None, signature: tuple[Any, ...], records: Callable[[], Any]) -> str:
        """The feed for the loaded tsh file `source`, written now when something changed."""
        if source is None:
            raise PairingsError(NO_FILE)
        key = (hash(source), signature)
        if key != self._key or self._text is None:
            self._text = write_tourney_js(filled_scores(source, records()))
            self._key = key
        return self._text

    async def answer(self, source: str | None, signature: tuple[Any, ...], records: Callable[[], Any]) -> str:
        """As `text`, on the event loop: the writing in a thread, the answer never waiting long for it."""
        if source is None:
            raise PairingsError(NO_FILE)
        key = (hash(source), signature)
        if key == self._key and self._text is not None:
            return self._text
        if self._building is None or self._building[0] != key:
            def write() -> str:
                return write_tourney_js(filled_scores(source, records()))

            task = asyncio.get_running_loop().create_task(asyncio.to_thread(write))
            self._building = (key, task)
            task.add_done_callback(functools.partial(self._built, key))
        task = self._building[1]
        if self._text is None:
            return await asyncio.shield(task)
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(asyncio.shield(task), self.FRESH_WAIT_S)
        return self._text

    def _built(self, key: tuple[Any, ...], task: asyncio.Task[str]) -> None:
        if self._building is not None and self._building[1] is task:
            self._building = None
        if not task.cancelled() and task.exception() is None:
            self._text, self._key = task.result(), key
