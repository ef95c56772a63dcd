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

import json
import logging
import re
from collections.abc import Iterable
from typing import Any

from tournament.pairings import PairingsError, parse_tourney_js, tourney_data
from tournament.results import GameRecord, split_per_pairing

log = logging.getLogger(__name__)

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

    `signature` is cheap (the tables' states and scores, no store read): while it stays the same, the
    last text is served as it is, so a poller every few seconds costs the hall nothing."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._text = ""

    def text(self, source: str | None, signature: tuple[Any, ...], records: Any) -> str:
        """The feed for the loaded tsh file `source`; `records()` is called only when something changed."""
        if source is None:
            raise PairingsError("no tsh file is loaded: send a round's pairings from tsh's tourney.js first")
        key = (hash(source), signature)
        if key != self._key:
            self._text = write_tourney_js(filled_scores(source, records()))
            self._key = key
        return self._text
