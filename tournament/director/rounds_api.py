"""The director's HTTP routes for running a round (docs/director.md, "A round that runs itself"):

- `GET /api/hall` what the hall page shows above the tiles: the broker (reached or not, and why), the current
  round's progress ("round 1: 18 of 20 finished") and the tsh file's state
- `GET /api/round/{r}` one round: every pairing's status (waiting, playing, finished, entered)
- `POST /api/round/close` `{"round": r}` (`"reopen": true` to open it again)
- `POST /api/result` `{"round": r, "table": t, "scores": [a, b], "reason": "..."}`: a result the director
  enters (or corrects) for a table whose Pi is dead; `{"round": r, "table": t, "withdraw": true}` takes it back

The POSTs are behind the director key, as every command is; `authorise` and `read_body` are the
application's own checks (tournament/director/app.py hands them in, so this module does not import it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tournament.director import entered
from tournament.director.access import Refused
from tournament.director.core import Director
from tournament.director.rounds import TshWatch, close_round, progress

log = logging.getLogger(__name__)

TSH_POLL_S = 3.0  # how often the tsh file is looked at

ROUNDS_TSH = web.AppKey("rounds_tsh", object)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


def _refusal(exc: Refused) -> web.Response:
    return _json({"error": str(exc), "code": exc.code}, exc.status)


def _int_field(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise Refused(400, "invalid", f"'{key}' must be a number (1, 2, ...)")
    return value


def add_routes(app: web.Application, director: Director, *, authorise: Callable[[web.Request], None],
               read_body: Callable[[web.Request], Awaitable[dict[str, Any]]], tsh: TshWatch | None = None,
               tsh_poll_s: float = TSH_POLL_S) -> None:
    """Register the routes; with `tsh`, the file is looked at every `tsh_poll_s` seconds while serving."""
    app[ROUNDS_TSH] = tsh

    async def hall(request: web.Request) -> web.Response:
        return _json({"broker": director.broker_state(), "round": _summary(progress(director)),
                      "tsh": tsh.state() if tsh is not None else None})

    async def round_view(request: web.Request) -> web.Response:
        done = progress(director, int(request.match_info["r"]))
        if done is None or not done["paired"]:
            return _json({"error": f"round {request.match_info['r']} has no pairings", "code": "no_round"}, 404)
        return _json(done)

    async def close(request: web.Request) -> web.Response:
        try:
            authorise(request)
            body = await read_body(request)
            round_ = _int_field(body, "round")
            try:
                done = close_round(director, round_, reopen=bool(body.get("reopen")))
            except ValueError as exc:
                raise Refused(400, "invalid", str(exc)) from None
        except Refused as exc:
            return _refusal(exc)
        if tsh is not None:
            tsh.check()  # a round tsh paired meanwhile goes now
        return _json({"ok": True, **done})

    async def result(request: web.Request) -> web.Response:
        try:
            authorise(request)
            body = await read_body(request)
            round_, table = _int_field(body, "round"), _int_field(body, "table")
            try:
                if body.get("withdraw"):
                    entry = entered.withdraw(director.store, round_, table)
                    log.info("round %d table %d: the result entered by %s withdrawn", round_, table, entry.by)
                else:
                    entry = entered.enter(director.store, round_, table, body.get("scores"), by=director.by,
                                          reason=body.get("reason") or "")
                    log.info("round %d table %d: %s %d - %d %s entered by %s%s", round_, table, entry.players[0],
                             entry.scores[0], entry.scores[1], entry.players[1], entry.by,
                             f" ({entry.reason})" if entry.reason else "")
            except entered.EntryError as exc:
                raise Refused(400, "invalid", str(exc)) from None
        except Refused as exc:
            return _refusal(exc)
        if tsh is not None:
            tsh.check()
        return _json({"ok": True, "withdrawn": bool(body.get("withdraw")), "round": progress(director, round_)})

    async def watch_tsh(app: web.Application) -> Any:
        task = asyncio.create_task(_poll(tsh, tsh_poll_s)) if tsh is not None else None
        yield
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app.cleanup_ctx.append(watch_tsh)
    app.router.add_get("/api/hall", hall)
    app.router.add_get("/api/round/{r:\\d+}", round_view)
    app.router.add_post("/api/round/close", close)
    app.router.add_post("/api/result", result)


def _summary(done: dict[str, Any] | None) -> dict[str, Any] | None:
    """The current round for the hall line: without the per-table list, but with the tables not finished."""
    if done is None:
        return None
    return {k: v for k, v in done.items() if k != "tables"} | {
        "waiting_for": [{"table": t["table"], "players": t["players"], "status": t["status"], "online": t["online"]}
                        for t in done["tables"] if t["status"] not in ("finished", "entered")],
        "entered_results": [{"table": t["table"], "scores": t["scores"], "by": t["entered"]["by"]}
                            for t in done["tables"] if t["status"] == "entered"]}


async def _poll(tsh: TshWatch | None, every_s: float) -> None:
    while tsh is not None:
        try:
            tsh.check()
        except Exception:  # a watch that failed once must not stop the next round from loading
            log.exception("tsh file: the check failed")
        await asyncio.sleep(every_s)
