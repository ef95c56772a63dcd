"""The director's HTTP application: the hall page, one table, the TV view, commands, pairings and results.

Routes (docs/director.md):

- `GET /` the hall (`?display=tv`: the broadcast view); `GET /table/{n}` one table with the director's controls
- `GET /events` server-sent `tiles` events (`?table=N`: that table's full view)
- `GET /words.js` the pages' words (referee/words/: the director's, the spectators', the board's, the states'), in
  the event's language ([director] language)
- `GET /api/tables` every tile; `GET /api/session` the page's CSRF token and whether commands are possible;
  `GET /api/stats` tables online and offline, and the delivery's figures (events applied, replays asked)
- `POST /api/command/{cmd}` `{"tables": [n, ...] | "all", "args": {...}}`: a command of the tournament network,
  behind the director credential (header `X-Director-Key`), the CSRF token and Origin checks; answers with
  every table's acknowledgement that came within `wait` seconds
- `POST /api/table/{n}/reset` forget a table's view and take its games again from its journal (director key)
- `POST /api/pairings` `{"format": "tsh" | "csv", "text": ..., "round": r, "offsets": {"B": 100}}`: read the
  round's pairings and send each table its players and first player
- `GET /gcg/{n}.gcg` the table's current game as live GCG; `GET /gcg/{n}/{game}.gcg` one game
- the broadcast's routes (`/tourney.js`, `/watch/{n}`, `/overlay/...`, the slots, the delay):
  tournament/broadcast/routes.py
- `GET /results/round/{r}.zip` (GCG of every game, results CSV/JSON, tsh lines, standings),
  `/results/round/{r}/tsh.txt`, `/results/round/{r}.csv`, `/results/round/{r}.json`, `/results/standings.csv`

Refusals are JSON `{"error": words, "code": code}` with a status saying the kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
from pathlib import Path
from typing import Any

from aiohttp import web

from referee.words import page_script
from tournament.broadcast.delay import Delay
from tournament.broadcast.routes import BROADCAST, TOURNEY_META, Broadcast, add_routes
from tournament.director.access import DirectorGuard, Refused
from tournament.director.core import Director
from tournament.director.hub import HallHub, full_view
from tournament.director.rounds import TshWatch
from tournament.director.rounds_api import add_routes as add_round_routes
from tournament.pairings import PairingsError, parse_pairings_csv, parse_tourney_js, tsh_round
from tournament.payloads import COMMANDS, PayloadError
from tournament.results import game_gcg, results_csv, results_json, round_zip, standings, standings_csv
from tournament.tsh_scores import Bye, TshEntryError, round_byes

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
SESSION_COOKIE = "director_session"
KEY_HEADER = "X-Director-Key"
TOKEN_HEADER = "X-CSRF-Token"
MAX_BODY = 4 * 1024 * 1024  # a tourney.js of a large event
_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
# commands the page may send (replay is the director's own business with the tables)
PAGE_COMMANDS = tuple(c for c in COMMANDS if c != "replay")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

DIRECTOR = web.AppKey("director", Director)
GUARD = web.AppKey("guard", DirectorGuard)
HUB = web.AppKey("hub", HallHub)
FEATURE = web.AppKey("feature", list)
WORDS = web.AppKey("words", str)
# the catalogues the director's and the spectators' pages say their words from (referee/words/)
PAGE_CATALOGUES = ("director", "broadcast", "board", "states")


def _error(status: int, code: str, message: str, retry_after: float | None = None, **extra: Any) -> web.Response:
    headers = {"Retry-After": str(math.ceil(retry_after))} if retry_after else {}
    return web.json_response({"error": message, "code": code, **extra}, status=status, headers=headers)


def _json(data: Any, **kwargs: Any) -> web.Response:
    return web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False), **kwargs)


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Cache-Control", "no-cache")
    return response


def _guard(request: web.Request) -> DirectorGuard:
    guard: DirectorGuard = request.app[GUARD]
    return guard


def _session_id(request: web.Request) -> str | None:
    sid = request.cookies.get(SESSION_COOKIE)
    return sid if sid and _SESSION_ID.match(sid) else None


async def _page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC_DIR / "hall.html")


async def _table_page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC_DIR / "table.html")


async def _words(request: web.Request) -> web.Response:
    return web.Response(text=request.app[WORDS], content_type="application/javascript", charset="utf-8")


async def _session(request: web.Request) -> web.Response:
    sid = _session_id(request)
    fresh = sid is None
    if sid is None:
        sid = secrets.token_urlsafe(24)
    guard = _guard(request)
    director = request.app[DIRECTOR]
    body = {"token": guard.token_for(sid), "control": guard.enabled, "event": director.event,
            "name": director.name, "feature": request.app[FEATURE], "commands": list(PAGE_COMMANDS),
            "reason": None if guard.enabled else "commands are off: no director credential is configured",
            "broker": director.broker_state()}
    response = _json(body, headers={"Cache-Control": "no-store"})
    if fresh:
        response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="Strict", path="/")
    return response


async def _tables(request: web.Request) -> web.Response:
    director = request.app[DIRECTOR]
    return _json([s.tile() for _, s in sorted(director.tables.items())], headers={"Cache-Control": "no-store"})


async def _stats(request: web.Request) -> web.Response:
    return _json(request.app[DIRECTOR].stats(), headers={"Cache-Control": "no-store"})


async def _table(request: web.Request) -> web.Response:
    director = request.app[DIRECTOR]
    number = int(request.match_info["n"])
    if number not in director.tables:
        return _error(404, "no_table", f"table {number} has not reported to the broker")
    return _json(full_view(director.tables[number]), headers={"Cache-Control": "no-store"})


def _authorise(request: web.Request) -> None:
    """The guard's checks; a wrong or refused key also updates the hall's alert that someone is guessing."""
    guard = _guard(request)
    try:
        guard.check(client=request.remote, credential=request.headers.get(KEY_HEADER),
                    session_id=_session_id(request), token=request.headers.get(TOKEN_HEADER),
                    headers=request.headers, host=request.host)
    except Refused as exc:
        if exc.code in ("key_wrong", "rate_limited"):
            request.app[DIRECTOR].set_notice("key_guessing", guard.guessing())
        raise


async def _body(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise Refused(400, "invalid", "send JSON (Content-Type: application/json)")
    try:
        body = json.loads(await request.read() or b"{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused(400, "invalid", f"the request body is not valid JSON ({exc})") from None
    if not isinstance(body, dict):
        raise Refused(400, "invalid", "the request body must be a JSON object")
    return body


async def _wait_acks(director: Director, command_id: str, tables: list[int], wait: float) -> None:
    """Until every table in `tables` acknowledged the command, or `wait` seconds passed."""
    sent = director.commands[command_id]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while not all(t in sent.acks for t in tables) and (left := deadline - loop.time()) > 0:
        sent.acked.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sent.acked.wait(), left)


async def _command(request: web.Request) -> web.Response:
    """POST /api/command/{cmd}: checks the command, the origin and credential, the input; then publishes."""
    cmd = request.match_info["cmd"]
    if cmd not in PAGE_COMMANDS:
        return _error(404, "unknown_command", f"unknown command {cmd!r}; the commands are {', '.join(PAGE_COMMANDS)}")
    director = request.app[DIRECTOR]
    try:
        _authorise(request)
        body = await _body(request)
        raw_tables = body.get("tables", "all")
        args = body.get("args", {})
        wait = body.get("wait", 3)
        if not isinstance(args, dict):
            raise Refused(400, "invalid", "'args' must be a JSON object")
        if not isinstance(wait, int | float) or isinstance(wait, bool) or not 0 <= wait <= 10:
            raise Refused(400, "invalid", "'wait' must be 0 to 10 seconds")
        tables: list[int] | None
        if raw_tables == "all":
            tables = None
        elif isinstance(raw_tables, list) and raw_tables and all(
                isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 9999 for t in raw_tables):
            tables = sorted(set(raw_tables))
        else:
            raise Refused(400, "invalid", "'tables' must be \"all\" or a list of table numbers (1 to 9999)")
        if cmd == "set_players" and tables is None:
            raise Refused(400, "invalid", "set_players goes to one table at a time (tables: [n])")
        sent = director.send(cmd, dict(args), tables)
    except Refused as exc:
        if exc.status in (401, 403, 429):
            log.warning("director command %s refused from %s: %s", cmd, request.remote, exc)
        return _error(exc.status, exc.code, str(exc), exc.retry_after)
    except PayloadError as exc:
        return _error(400, "invalid", str(exc))
    except RuntimeError as exc:
        return _error(503, "no_broker", str(exc))
    log.info("director command %s %s to %s from %s", cmd, args, tables or "all", request.remote)
    expected = tables if tables is not None else sorted(t for t, s in director.tables.items() if s.online)
    await _wait_acks(director, sent.id, expected, float(wait))
    return _json({"ok": True, **sent.to_dict(), "expected": expected})


async def _reset(request: web.Request) -> web.Response:
    """POST /api/table/{n}/reset: forget what the director shows of a table and take its games again from its
    journal (a tile moved to a game the table is not playing)."""
    director = request.app[DIRECTOR]
    number = int(request.match_info["n"])
    try:
        _authorise(request)
        await _body(request)
    except Refused as exc:
        return _error(exc.status, exc.code, str(exc), exc.retry_after)
    if number not in director.tables:
        return _error(404, "no_table", f"table {number} has not reported to the broker")
    forgotten = director.reset_table(number)
    log.warning("table %s reset from %s (games %s forgotten)", number, request.remote, forgotten)
    return _json({"ok": True, "table": number, "forgotten": forgotten})


async def _pairings(request: web.Request) -> web.Response:
    """POST /api/pairings: read a round from tsh's tourney.js or a CSV and send every table its players."""
    director = request.app[DIRECTOR]
    try:
        _authorise(request)
        body = await _body(request)
        fmt, text, round_ = body.get("format"), body.get("text"), body.get("round")
        offsets = body.get("offsets") or {}
        if fmt not in ("tsh", "csv") or not isinstance(text, str) or not text.strip():
            raise Refused(400, "invalid", "send {\"format\": \"tsh\" or \"csv\", \"text\": the file, \"round\": n}")
        if not isinstance(round_, int) or isinstance(round_, bool) or round_ < 1:
            raise Refused(400, "invalid", "'round' must be the round number (1, 2, ...)")
        if not isinstance(offsets, dict) or not all(isinstance(v, int) for v in offsets.values()):
            raise Refused(400, "invalid", "'offsets' maps a division to a table number offset, like {\"B\": 100}")
        byes: list[str] = []
        bye_numbers: list[Bye] | None = None
        if fmt == "tsh":
            tourney = parse_tourney_js(text)
            games, byes = tsh_round(tourney, round_,
                                    table_offsets={str(k).upper(): int(v) for k, v in offsets.items()})
            director.store.set_meta(TOURNEY_META, text)  # served back, scores filled in, as /tourney.js
            bye_numbers = round_byes(tourney, round_)
        else:
            games = [p for p in parse_pairings_csv(text) if p.round == round_]
        if not games:
            raise Refused(400, "invalid", f"no games in round {round_} of the {fmt} pairings")
        director.send_pairings(games, bye_numbers)
    except Refused as exc:
        return _error(exc.status, exc.code, str(exc), exc.retry_after)
    except PairingsError as exc:
        return _error(400, "invalid", str(exc))
    except RuntimeError as exc:
        return _error(503, "no_broker", str(exc))
    log.info("round %s pairings sent to %d tables", round_, len(games))
    return _json({"ok": True, "round": round_, "games": [g.to_dict() for g in games], "byes": byes})


def _current_game(director: Director, table: int, game: int | None) -> Any:
    """Game `game` of a table, or (None) the game the table shows now."""
    if game is None:
        state = director.tables.get(table)
        game = state.game if state is not None else None
    if game is None:
        return None
    return next(iter(director.records(table, game)), None)


async def _gcg(request: web.Request) -> web.Response:
    director = request.app[DIRECTOR]
    table = int(request.match_info["n"])
    game = int(request.match_info["game"]) if "game" in request.match_info else None
    record = _current_game(director, table, game)
    if record is None:
        return _error(404, "no_game", f"table {table} has no {'such ' if game else ''}game yet")
    record = request.app[BROADCAST].public_record(record)  # a game still played: as spectators see it
    text = await asyncio.to_thread(game_gcg, record)  # the game's sheet is read on the loop, written beside it
    return web.Response(text=text, content_type="text/plain", charset="utf-8",
                        headers={"Cache-Control": "no-store"})


def _round(request: web.Request) -> int:
    return int(request.match_info["r"])


async def _round_zip(request: web.Request) -> web.Response:
    director = request.app[DIRECTOR]
    round_ = _round(request)
    # every game's record (the standings) is read in a worker thread: with thousands of games it takes a second
    records = await asyncio.to_thread(director.records)
    if not any(r.round == round_ for r in records):
        return _error(404, "no_round", f"no game of round {round_} yet")
    tsh = director.tsh_text(round_)
    data = await asyncio.to_thread(round_zip, records, round_, tsh=tsh)
    return web.Response(body=data, content_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="round{round_:02d}.zip"'})


async def _round_tsh(request: web.Request) -> web.Response:
    """The round for tsh's addscore prompt (`?entry=both` or `spread`: another entry mode than the event's);
    the games it cannot carry are counted in the X-Tsh-Notes header and listed in the round's zip."""
    round_ = _round(request)
    try:
        text, notes = request.app[DIRECTOR].tsh_text(round_, request.query.get("entry"))
    except TshEntryError as exc:
        return _error(400, "invalid", str(exc))
    return web.Response(text=text, content_type="text/plain", charset="utf-8", headers={"X-Tsh-Notes": str(len(notes))})


async def _round_csv(request: web.Request) -> web.Response:
    round_ = _round(request)
    return web.Response(text=results_csv(request.app[DIRECTOR].records(round_=round_)),
                        content_type="text/csv", charset="utf-8")


async def _round_json(request: web.Request) -> web.Response:
    round_ = _round(request)
    return web.Response(text=results_json(request.app[DIRECTOR].records(round_=round_)),
                        content_type="application/json", charset="utf-8")


async def _standings(request: web.Request) -> web.Response:
    """Standings over the paired rounds (over every game when nothing was paired: a club night)."""
    records = await asyncio.to_thread(request.app[DIRECTOR].records)  # every game: off the loop
    paired = [r for r in records if r.round > 0]
    return web.Response(text=standings_csv(standings(paired or records)), content_type="text/csv", charset="utf-8")


def create_app(director: Director, guard: DirectorGuard, *, feature: list[int] | None = None,
               tsh: TshWatch | None = None, tsh_poll_s: float | None = None, delay: Delay | None = None,
               language: str = "", pages_language: str = "en") -> web.Application:
    """The director's application. `guard` checks the director credential and the page's session; `tsh`
    watches tsh's tourney.js for the next round (tournament/director/rounds.py); `delay` and `language` are
    the broadcast's (tournament/broadcast/); `pages_language` is the director's pages' ([director] language)."""
    app = web.Application(middlewares=[_headers], client_max_size=MAX_BODY)
    app[DIRECTOR] = director
    app[GUARD] = guard
    app[FEATURE] = list(feature or [])
    app[WORDS] = page_script(PAGE_CATALOGUES, pages_language)
    hub = HallHub(director)
    app[HUB] = hub

    async def on_shutdown(_: web.Application) -> None:
        hub.close()

    app.on_shutdown.append(on_shutdown)
    app.router.add_get("/", _page)
    app.router.add_get("/table/{n:\\d+}", _table_page)
    app.router.add_get("/events", hub.stream)
    app.router.add_get("/words.js", _words)
    app.router.add_get("/api/session", _session)
    app.router.add_get("/api/tables", _tables)
    app.router.add_get("/api/stats", _stats)
    app.router.add_get("/api/table/{n:\\d+}", _table)
    app.router.add_post("/api/command/{cmd}", _command)
    app.router.add_post("/api/pairings", _pairings)
    app.router.add_post("/api/table/{n:\\d+}/reset", _reset)
    app.router.add_get("/gcg/{n:\\d+}.gcg", _gcg)
    app.router.add_get("/gcg/{n:\\d+}/{game:\\d+}.gcg", _gcg)
    app.router.add_get("/results/round/{r:\\d+}.zip", _round_zip)
    app.router.add_get("/results/round/{r:\\d+}/tsh.txt", _round_tsh)
    app.router.add_get("/results/round/{r:\\d+}.csv", _round_csv)
    app.router.add_get("/results/round/{r:\\d+}.json", _round_json)
    app.router.add_get("/results/standings.csv", _standings)
    add_round_routes(app, director, authorise=_authorise, read_body=_body, tsh=tsh,
                     **({"tsh_poll_s": tsh_poll_s} if tsh_poll_s is not None else {}))
    app.router.add_static("/static/", STATIC_DIR, append_version=False)
    add_routes(app, director, Broadcast(director, delay=delay, language=language), _authorise, _body)
    return app
