"""The coalescing hub both pages stream through: the newest message per key, never a backlog, keys in the order
they first came, a keep-alive when nothing came, and every stream ended by `close()`."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from tournament.pagekit.hub import Hub, Page


def run(coroutine: Coroutine[Any, Any, None]) -> None:
    """On a loop of its own, in a thread of its own (another test may have left a loop running here)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, coroutine).result(timeout=30)


def test_a_page_holds_the_newest_message_of_each_key_in_the_order_the_keys_came() -> None:
    async def go() -> None:
        page = Page(want=7)
        page.offer(3, "table 3, move 1")
        page.offer("broker", "down")
        page.offer(3, "table 3, move 2")  # replaces move 1, keeps table 3's place
        page.offer(5, "table 5, move 1")
        assert await page.next(1) == {3: "table 3, move 2", "broker": "down", 5: "table 5, move 1"}
        page.offer("snapshot", "seq 9", order=9)
        page.offer("snapshot", "seq 8", order=8)  # an older one never replaces a newer one
        assert await page.next(1) == {"snapshot": "seq 9"}
        assert await page.next(0.01) is None  # nothing new: time for a keep-alive
        assert page.want == 7

    run(go())


def test_a_stream_writes_the_first_message_then_each_batch_and_keepalives_and_ends_on_close() -> None:
    async def go() -> None:
        hub = Hub(keepalive_s=0.05)

        def render(batch: dict[Hashable, Any]) -> bytes | None:
            return None if "nothing" in batch else f"data: {sorted(map(str, batch.values()))}\n\n".encode()

        async def events(request: web.Request) -> web.StreamResponse:
            return await hub.serve(request, Page(), lambda: b"retry: 1000\n\n", render)

        app = web.Application()
        app.router.add_get("/events", events)
        async with TestClient(TestServer(app)) as client:
            response = await client.get("/events")
            assert response.headers["Content-Type"] == "text/event-stream; charset=utf-8"
            assert await response.content.readline() == b"retry: 1000\n"
            await response.content.readline()
            (page,) = hub.pages
            page.offer(1, "one")
            page.offer(1, "uno")
            page.offer(2, "two")
            assert await response.content.readline() == b"data: ['two', 'uno']\n"
            await response.content.readline()
            assert await response.content.readline() == b": keepalive\n"  # nothing came within 0.05 s
            await response.content.readline()
            page.offer("nothing", "-")  # rendered as nothing: a keep-alive goes instead
            assert await response.content.readline() == b": keepalive\n"
            hub.close()
            assert await asyncio.wait_for(response.content.read(), 5) == b"\n"
            assert hub.pages == set()

    run(go())
