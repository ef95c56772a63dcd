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
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from tournament.pairings import PairingsError, parse_tourney_js, tourney_data
from tournament.results import GameRecord, split_per_pairing

if TYPE_CHECKING:
    from tournament.director.core import Director
    from tournament.director.store import StoredGame

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


class ResultCache:
    """The games the feed writes scores from, kept between writings: every game read once (the director's
    `records()`), then only the games that ended or changed since, so that writing the feed again during a
    round's last minutes does not read the whole hall from the store each time.

    `touch` runs on the director's loop, `records` in the writing thread: a lock hands the set over."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self._games: dict[tuple[int, int | None], GameRecord] | None = None
        self._touched: set[tuple[int, int]] = set()
        self._lock = threading.Lock()

    def touch(self, table: int, game: int) -> None:
        with self._lock:
            self._touched.add((table, game))

    def records(self) -> list[GameRecord]:
        with self._lock:
            touched, self._touched = self._touched, set()
        if self._games is None:
            self._games = {(r.table, r.number): r for r in self.director.records()}
            return list(self._games.values())
        for table in sorted({t for t, _ in touched}):
            games = {g for t, g in touched if t == table}
            for stored in self.director.store.games(table):
                if stored.game in games:
                    record = game_record(stored, self.director.name)
                    if record is not None:
                        self._games[(table, stored.game)] = record
        return list(self._games.values())


def game_record(stored: StoredGame, event: str) -> GameRecord | None:
    """One stored game as the director's `records()` makes it (tournament/director/core.py): the same fields,
    for one game at a time."""
    snap = stored.snapshot
    if not snap:
        return None
    players = [str(p.get("name", "")) for p in snap.get("players") or []]
    if len(players) != 2:
        return None
    result = snap.get("result") or {}
    return GameRecord(
        stored.table, stored.round or 0, stored.division or "", players,
        [int(p.get("score", 0)) for p in snap.get("players") or []],
        [dict(m) for m in snap.get("moves") or []], list(stored.ids),
        edition=str(snap.get("edition", "english")), kind=str(snap.get("game", "standard")),
        ended=snap.get("state") == "ended" and bool(result),
        winners=list(result.get("winners") or []) if isinstance(result, dict) else [],
        event=event, game=f"{stored.table}-{stored.game}", number=stored.game)


class TourneyFeed:
    """The feed of one director, written again (in a thread) when an ended game or the loaded file changed,
    never while a poller waits.

    `changed()` is told of every game that ends or whose result changes (the broadcast follows the hall for
    it); the feed is then written again half a second later (the ends of a round come in bursts), reading
    every game from the store off the event loop, since the store's reads wait for its writer, which a busy
    hall keeps busy. An answer is the last text written, at once: at most about a second behind the hall.
    Only the first answer, and the first after another tsh file was loaded, waits for the writing."""

    DEBOUNCE_S = 0.5

    def __init__(self, source: Callable[[], str | None], records: Callable[[], Any]) -> None:
        self._source = source
        self._records = records
        self.version = 0
        self.writes = 0  # how often the feed was written (for the tests and the benchmark)
        self._built: tuple[int, int, str] | None = None  # (version, hash of the tsh file, text)
        self._task: asyncio.Task[None] | None = None

    def write(self) -> tuple[int, str]:
        """The feed now: (hash of the tsh file it is written from, text). Runs in any thread."""
        source = self._source()
        if source is None:
            raise PairingsError(NO_FILE)
        self.writes += 1
        return hash(source), write_tourney_js(filled_scores(source, self._records()))

    def changed(self) -> None:
        """A game ended, or an ended game's scores changed: write the feed again soon."""
        self.version += 1
        self._schedule()

    def _schedule(self) -> None:
        if self._task is not None and not self._task.done():
            return  # the writing under way looks at the version again when it is done
        with contextlib.suppress(RuntimeError):  # no loop running (a test of the hall alone): at the next answer
            self._task = asyncio.get_running_loop().create_task(self._rewrite())

    async def _rewrite(self) -> None:
        await asyncio.sleep(self.DEBOUNCE_S)
        while self._built is None or self._built[0] != self.version:
            version = self.version
            try:
                source_hash, text = await asyncio.to_thread(self.write)
            except PairingsError:
                return  # no tsh file loaded yet: the first answer says so
            except Exception:  # a feed that cannot be written must not stop the director
                log.exception("tourney.js could not be written again; the previous one is served")
                return
            self._built = (version, source_hash, text)

    async def answer(self) -> str:
        """The feed as a poller gets it: the last text written, at once (written now only the first time)."""
        source = self._source()
        if source is None:
            raise PairingsError(NO_FILE)
        built = self._built
        if built is None or built[1] != hash(source):
            version = self.version
            source_hash, text = await asyncio.to_thread(self.write)
            self._built = (version, source_hash, text)
            return text
        if built[0] != self.version:
            self._schedule()
        return built[2]
