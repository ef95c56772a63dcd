"""The scoreboard's HTTP application: the page, its event stream, its small API and the downloads.

Routes (documented for users of the API in docs/api.md):

- `GET /` the page; `GET /static/...` its script and style; `GET /words.js` its words (referee/words/)
- `GET /events` server-sent events, one `snapshot` event per table snapshot
- `GET /api/snapshot` the current snapshot as JSON
- `GET /api/session` the control token for this browser session and whether control is possible
- `POST /api/control/{action}` a control action, behind the PIN (header `X-Table-PIN`) and the token
- `GET /game.gcg` the game as GCG; `GET /board.png` the board as a picture

Every refusal is JSON `{"error": message, "code": code}` with a status that says the kind, so the page
and scripts can both act on it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from referee.table.api import ControlError, Snapshot, TableControl, TableView
from referee.web.board_image import board_png
from referee.web.download_names import attachment
from referee.web.events import SnapshotHub
from referee.web.limits import (
    ACCEPT_BATCH,
    BODY_TIMEOUT_S,
    MAX_CONNECTIONS,
    MAX_PER_SOURCE,
    ConnectionGuard,
    deepen,
    listening_socket,
    runner_settings,
)
from referee.web.records import GcgSource
from referee.web.validation import ACTIONS, InvalidInput, parse_control
from referee.words import Phrase, page_script
from referee.words.checks import catalogue as input_checks
from tournament.pagekit.guards import (
    ControlDisabled,
    CrossSiteRequest,
    CsrfGuard,
    HostGuard,
    PermissionDenied,
    PinGuard,
    PinRequired,
    RateLimited,
    WrongPin,
    client_key,
    own_names,
)

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
SESSION_COOKIE = "referee_session"
STORAGE_RETRY_S = 5  # Retry-After of an action refused while the SD card holds a write (storage_waiting)
PIN_HEADER = "X-Table-PIN"
TOKEN_HEADER = "X-CSRF-Token"
MAX_BODY = 16 * 1024
_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class Table(TableView, TableControl, Protocol):
    """What the web layer needs of a table: a view to show and control to act on."""


class GuessingAlert:
    """The page's alert that someone is guessing the PIN: shown on every view of the table (its snapshot's
    alerts) once a third of the wrong-PIN budget is spent, gone when the window has room again.

    The table's `set_alert` takes the table's lock, which a journal write may hold for as long as the SD card
    stalls: it runs on a worker thread, never on the page's loop, and only when the alert's words change."""

    def __init__(self, table: Any, pins: PinGuard) -> None:
        self._table = table
        self._pins = pins
        self._shown: dict[str, Any] | None = None
        self._busy = False
        self._pending: asyncio.Future[None] | None = None

    def fields(self) -> dict[str, Any] | None:
        """What the alert names now (referee/words/table.py `pin_guessing`), None while nobody guesses."""
        state = self._pins.guessing()
        if state is None:
            return None
        minutes = max(1, round(self._pins.global_window / 60))
        new = "pin_guessing_director_code" if self._pins.has_director_code else "pin_guessing_wait"
        return {"wrong": state[0], "minutes": minutes, "new": Phrase("table", new)}

    def update(self) -> asyncio.Future[None] | None:
        """Show, change or take away the alert to match the guessing now; the future of the worker's change
        (None when nothing changes)."""
        set_alert = getattr(self._table, "set_alert", None)
        if set_alert is None:
            return None
        if self._busy:
            return self._pending
        fields = self.fields()
        if fields == self._shown:
            return None
        self._shown = fields
        self._busy = True

        def show() -> None:
            try:
                if fields is None:
                    self._table.clear_alert("pin_guessing")
                else:
                    set_alert("pin_guessing", level="warning", **fields)
            except Exception:  # the alert is a courtesy: it must never take the page down
                log.exception("the alert that someone is guessing the PIN could not be shown")
            finally:
                self._busy = False

        try:
            self._pending = asyncio.get_running_loop().run_in_executor(None, show)
            return self._pending
        except RuntimeError:  # no loop (a direct call in a test): show it now
            show()
            return None


HUB = web.AppKey("hub", SnapshotHub)
TABLE = web.AppKey("table", object)
PINS = web.AppKey("pins", PinGuard)
HOSTS = web.AppKey("hosts", HostGuard)
GUESSING = web.AppKey("guessing", GuessingAlert)
CSRF = web.AppKey("csrf", CsrfGuard)


class BoardPictureCache:
    """The last board picture, kept until the board changes: drawing one costs about 8 ms of a core, and
    159 requests a second took 1.25 cores when every request drew it anew."""

    def __init__(self) -> None:
        self._key = ""
        self._png = b""
        self._lock = asyncio.Lock()
        self.drawn = 0

    @staticmethod
    def key(snapshot: Snapshot) -> str:
        return json.dumps([snapshot.get(k) for k in ("board", "premiums", "last_play")], separators=(",", ":"))

    async def get(self, snapshot: Snapshot) -> bytes:
        key = self.key(snapshot)
        async with self._lock:  # requests that arrive while it is drawn wait for that one drawing
            if key != self._key:
                self._png = await asyncio.to_thread(board_png, snapshot)
                self._key = key
                self.drawn += 1
            return self._png


BOARD_PNG = web.AppKey("board_png", BoardPictureCache)


def _error(status: int, code: str, message: str, **extra: Any) -> web.Response:
    headers = {}
    if "retry_after" in extra:
        headers["Retry-After"] = str(math.ceil(extra["retry_after"]))
    return web.json_response({"error": message, "code": code, **extra}, status=status, headers=headers)


def _json(data: Any, **kwargs: Any) -> web.Response:
    return web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False), **kwargs)


@web.middleware
async def _errors(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    """Any bug behind a route answers JSON like every other refusal, never aiohttp's plain-text 500; the log
    gets the traceback and the route, never the request's headers (they carry the PIN)."""
    try:
        response: web.StreamResponse = await handler(request)
        return response
    except web.HTTPException:
        raise
    except Exception:
        log.exception("%s %s failed", request.method, request.path)
        return _error(500, "internal", "the referee could not answer: an internal error (it is in the log)")


@web.middleware
async def _known_host(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    """421 for a request that names another host than this Pi (DNS rebinding: tournament/pagekit/guards.py)."""
    if not request.app[HOSTS].allows(request.headers.get("Host")):
        return _error(421, "wrong_host", "this is a table referee, and it answers only to its own names and "
                                         "addresses (web.allowed_hosts adds one)")
    response: web.StreamResponse = await handler(request)
    return response


@web.middleware
async def _security_headers(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith("/static/"):
        # Revalidate (cheap: Last-Modified) so a table updated in the morning never serves yesterday's script.
        response.headers.setdefault("Cache-Control", "no-cache")
    return response


def _table(request: web.Request) -> Table:
    # The key holds `object`: AppKey takes a concrete class, and `Table` is a Protocol; create_app stores one.
    table: Table = request.app[TABLE]  # type: ignore[assignment]  # see the line above
    return table


def _session_id(request: web.Request) -> str | None:
    sid = request.cookies.get(SESSION_COOKIE)
    return sid if sid and _SESSION_ID.match(sid) else None


async def _index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


# the page's words (referee/words/): its own, the board's and the states'; the page says them in its language
WORDS_SCRIPT = page_script(("page", "board", "states"))


async def _words(request: web.Request) -> web.Response:
    return web.Response(text=WORDS_SCRIPT, content_type="application/javascript", charset="utf-8",
                        headers={"Cache-Control": "no-cache"})


async def _snapshot(request: web.Request) -> web.Response:
    return _json(_table(request).snapshot(), headers={"Cache-Control": "no-store"})


async def _session(request: web.Request) -> web.Response:
    """The control token of this browser's session (made on first visit), and whether control is on."""
    sid = _session_id(request)
    fresh = sid is None
    if sid is None:
        sid = CsrfGuard.new_session_id()
    pins = request.app[PINS]
    body = {
        "token": request.app[CSRF].token_for(sid),
        "control": pins.enabled,
        "reason": None if pins.enabled else "control is disabled: this table has no PIN configured (set web.pin)",
        "actions": {name: list(action.fields) for name, action in ACTIONS.items()},
        "input_checks": input_checks(),  # the words of a 400 `invalid` answer's `check`, by language
    }
    response = _json(body, headers={"Cache-Control": "no-store"})
    if fresh:
        response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="Strict", path="/")
    return response


async def _read_params(request: web.Request) -> Any:
    if not request.can_read_body:
        return {}
    if request.content_type != "application/json":
        if not request.content_type:
            raise InvalidInput("", "body_content_type_missing")
        raise InvalidInput("", "body_content_type", content_type=request.content_type)
    try:
        raw = await asyncio.wait_for(request.read(), BODY_TIMEOUT_S)
    except TimeoutError:
        raise web.HTTPRequestTimeout(text=json.dumps({"error": f"the request body did not arrive within "
                                                              f"{BODY_TIMEOUT_S:.0f} s", "code": "timeout"}),
                                     content_type="application/json") from None
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except RecursionError:
        raise InvalidInput("", "body_too_deep") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput("", "body_not_json", reason=str(exc)) from None


async def _control(request: web.Request) -> web.Response:
    """POST /api/control/{action}: checks in order the action, the origin, the PIN, the input, then asks the table."""
    action = request.match_info["action"]
    if action not in ACTIONS:
        return _error(404, "unknown_action", f"unknown action {action!r}; the actions are {', '.join(ACTIONS)}")
    try:
        request.app[CSRF].check(_session_id(request), request.headers.get(TOKEN_HEADER), request.headers,
                                request.host)
        request.app[PINS].check(client_key(request.remote), request.headers.get(PIN_HEADER), _session_id(request))
    except CrossSiteRequest as exc:
        return _error(403, "cross_site", str(exc))
    except ControlDisabled as exc:
        return _error(403, "control_disabled", str(exc))
    except RateLimited as exc:
        # Not logged: the wrong PIN that started the wait was, and a guesser hammering 429s would fill the SD card.
        _ = request.app[GUESSING].update()
        return _error(429, "rate_limited", str(exc), retry_after=exc.retry_after)
    except PinRequired as exc:
        return _error(401, "pin_required", str(exc))
    except WrongPin as exc:
        log.warning("wrong table PIN from %s for %s", request.remote, action)
        _ = request.app[GUESSING].update()
        return _error(403, "pin_wrong", str(exc))
    table = _table(request)
    try:
        params = parse_control(action, await _read_params(request), table.snapshot())
    except InvalidInput as exc:
        # `error` is the English; `check` and `fields` let the page (and any client) say it in its own language.
        return _error(400, "invalid", str(exc), field=exc.field, check=exc.check, fields=exc.fields)
    try:
        # The table may score a play against a lexicon: keep the loop (and every event stream) moving.
        snapshot = await asyncio.to_thread(table.control, action, params)
    except ControlError as exc:
        # Said in the table's language; `reason` is the refusal's code (referee/words/table.py REFUSAL_TEXTS).
        language = str(table.snapshot().get("language", "en"))
        if exc.code == "storage_waiting":  # nothing was done: the SD card holds a write; not the action's fault
            return _error(503, "storage_waiting", exc.text(language), reason=exc.code, retry_after=STORAGE_RETRY_S)
        return _error(409, "refused", exc.text(language), reason=exc.code)
    except PermissionDenied as exc:
        return _error(403, "refused", str(exc))
    except Exception:  # a bug in the table must not leave the page with a bare "500"
        log.exception("control %s %s failed inside the table", action, params)
        return _error(500, "internal", f"the referee could not do {action}: an internal error (it is in the log)")
    log.info("control %s %s from %s", action, params, request.remote)
    return _json({"ok": True, "action": action, "snapshot": snapshot})


async def _gcg(request: web.Request) -> web.Response:
    table = _table(request)
    if not isinstance(table, GcgSource):
        return _error(404, "no_record", "this table keeps no game record, so there is no GCG to download")
    text = await asyncio.to_thread(table.gcg)
    disposition = attachment(str(table.snapshot().get("table", "game")), ".gcg")
    return web.Response(text=text, content_type="text/plain", charset="utf-8",
                        headers={"Content-Disposition": disposition,
                                 "Cache-Control": "no-store"})


async def _board(request: web.Request) -> web.Response:
    snapshot: Snapshot = _table(request).snapshot()
    if not snapshot.get("board"):
        return _error(404, "no_board", "the table has no board yet")
    png = await request.app[BOARD_PNG].get(snapshot)
    disposition = "attachment" if "download" in request.query else "inline"
    return web.Response(body=png, content_type="image/png",
                        headers={"Content-Disposition": f'{disposition}; filename="board-{snapshot.get("seq", 0)}.png"',
                                 "Cache-Control": "no-store"})


def create_app(
    table: Table,
    pin: str | None,
    *,
    clock: Callable[[], float] = time.monotonic,
    free_attempts: int = 3,
    base_delay: float = 1.0,
    max_delay: float = 300.0,
    director_pin: str | None = None,
    allowed_hosts: Iterable[str] = (),
) -> web.Application:
    """The scoreboard application for `table`.

    `pin` is the table PIN from the configuration; None or "" means no PIN, and then control is disabled
    (there is no default PIN). `director_pin` (web.director_pin) lets a new phone in while someone guesses
    the table PIN (tournament/pagekit/guards.py). `clock` times the waits after wrong PINs; tests hand in a fake one.
    A request must name this Pi in `Host`: an IP address, one of its own names, or one of `allowed_hosts`.
    """
    app = web.Application(middlewares=[_known_host, _security_headers, _errors], client_max_size=MAX_BODY)
    app[HOSTS] = HostGuard([*own_names(), *allowed_hosts])
    hub = SnapshotHub(table)
    app[HUB] = hub
    app[TABLE] = table
    app[PINS] = PinGuard(pin or None, clock, free_attempts=free_attempts, base_delay=base_delay,
                         max_delay=max_delay, director_pin=director_pin or None)
    app[GUESSING] = GuessingAlert(table, app[PINS])
    app[CSRF] = CsrfGuard()
    app[BOARD_PNG] = BoardPictureCache()

    async def clear_guessing_alert() -> None:
        while True:  # the alert goes once the window has room again, with no request to notice it
            await asyncio.sleep(5.0)
            _ = app[GUESSING].update()

    tasks: list[asyncio.Task[None]] = []

    async def on_startup(_: web.Application) -> None:
        hub.start()
        tasks.append(asyncio.create_task(clear_guessing_alert()))

    async def on_shutdown(_: web.Application) -> None:
        hub.stop()
        for task in tasks:
            task.cancel()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.router.add_get("/", _index)
    app.router.add_get("/events", hub.stream)
    app.router.add_get("/words.js", _words)
    app.router.add_get("/api/snapshot", _snapshot)
    app.router.add_get("/api/session", _session)
    app.router.add_post("/api/control/{action}", _control)
    app.router.add_get("/game.gcg", _gcg)
    app.router.add_get("/board.png", _board)
    app.router.add_static("/static/", STATIC_DIR, append_version=False)
    return app


async def serve(table: Table, host: str, port: int, pin: str | None, *, started: asyncio.Event | None = None,
                max_connections: int = MAX_CONNECTIONS, director_pin: str | None = None,
                allowed_hosts: Iterable[str] = (), per_source: int = MAX_PER_SOURCE) -> None:
    """Serve the scoreboard for `table` until cancelled, then close every connection cleanly.

    `started` is set once the port is open, for a caller (the service's readiness, a test) that must not guess.
    At most `max_connections` are kept open, and idle or half-sent ones are closed (referee/web/limits.py).
    """
    app = create_app(table, pin, director_pin=director_pin, allowed_hosts=[host, *allowed_hosts])
    runner = web.AppRunner(app, **runner_settings())
    await runner.setup()
    server: asyncio.AbstractServer | None = None
    try:
        assert runner.server is not None
        guard = ConnectionGuard(runner.server, max_connections, per_source)
        # A deep accept queue: a burst of connections beyond it has its SYNs dropped, and a phone's request
        # caught in that burst waits a whole TCP retransmission (1 s) before it is even seen.
        sock = listening_socket(host, port)
        server = await asyncio.get_running_loop().create_server(guard, sock=sock, backlog=ACCEPT_BATCH)
        deepen(sock)
        if started is not None:
            started.set()
        log.info("scoreboard at http://%s:%d/ (control %s)", host, port, "on" if pin else "off: no PIN configured")
        await asyncio.Event().wait()
    finally:
        if server is not None:
            server.close()
        await runner.cleanup()
