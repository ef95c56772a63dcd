"""A round that runs itself, without a broker: the director's HTTP side on aiohttp's test server with a fake
sender. Pairings from a spreadsheet's CSV, the round's progress, closing it, results the director enters for
a dead table (kept apart, marked), and the next round loaded from tsh's tourney.js when tsh has paired it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from tournament.director.app import create_app
from tournament.director.core import Director
from tournament.director.store import Store

FIXTURES = Path(__file__).parents[1] / "fixtures"
Sent = list[tuple[int | None, str, dict[str, Any], str]]


class OpenGuard:
    """Lets every request command: these tests are about rounds, not about the key (test_app.py is)."""

    enabled = True

    def token_for(self, session_id: str) -> str:
        return "token"

    def check(self, *, client: str | None, credential: str | None, session_id: str | None, token: str | None,
              headers: Mapping[str, str], host: str) -> None:
        return None


def make(tmp_path: Path) -> tuple[Director, Sent]:
    sent: Sent = []
    director = Director("ev", Store(tmp_path / "d.sqlite3"), name="Club Night")
    director.sender = lambda table, cmd, args, cid: sent.append((table, cmd, args, cid))
    return director, sent


def with_client(director: Director, body: Callable[[TestClient[Any, Any]], Awaitable[Any]], **app: Any) -> Any:
    """Run `body` against the director's app on a loop of its own thread (see test_core.py: why a thread)."""
    async def run() -> Any:
        async with TestClient(TestServer(create_app(director, OpenGuard(), **app))) as client:
            return await body(client)

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(run())).result(timeout=60)


async def post(client: TestClient[Any, Any], path: str, data: Any) -> tuple[int, Any]:
    response = await client.post(path, json=data)
    return response.status, await response.json()


def test_pairings_csv_from_a_spreadsheet_over_http(tmp_path: Path) -> None:
    """A Mac's CR-only CSV and a German spreadsheet's semicolon CSV, sent as the hall page sends them."""
    director, sent = make(tmp_path)
    mac = "round,table,player1,player2,first\r1,1,Ann,Ben,1\r1,2,Cid,Dan,2\r"
    german = "\ufeffRunde;Tisch;Spieler1;Spieler2;Beginnt\r\n2;1;Jörg Groß;Ümit Öz;2\r\n2;2;Eva;Frank;1\r\n"

    async def body(client: TestClient[Any, Any]) -> list[tuple[int, Any]]:
        return [await post(client, "/api/pairings", {"format": "csv", "text": mac, "round": 1}),
                await post(client, "/api/pairings", {"format": "csv", "text": german, "round": 2})]

    (s1, b1), (s2, b2) = with_client(director, body)
    assert (s1, [g["players"] for g in b1["games"]]) == (200, [["Ann", "Ben"], ["Cid", "Dan"]])
    assert (s2, [g["players"] for g in b2["games"]]) == (200, [["Jörg Groß", "Ümit Öz"], ["Eva", "Frank"]])
    assert [(t, a["players"], a["first"]) for t, cmd, a, _ in sent][-2:] == [
        (1, ["Jörg Groß", "Ümit Öz"], 1), (2, ["Eva", "Frank"], 0)]
