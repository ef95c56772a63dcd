"""`serve()`: the scoreboard on a real port until cancelled, then every connection closed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any

from aiohttp import ClientSession, CookieJar


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_runs_until_cancelled_and_closes_open_streams(sim_table: Any, run_async: Any) -> None:
    from referee.web import serve

    table = sim_table

    async def go() -> None:
        port = free_port()
        started = asyncio.Event()
        task = asyncio.create_task(serve(table, "127.0.0.1", port, "390217", started=started))
        await asyncio.wait_for(started.wait(), 10)
        async with ClientSession() as session:
            response = await session.get(f"http://127.0.0.1:{port}/api/session")
            assert (await response.json())["control"] is True
            stream = await session.get(f"http://127.0.0.1:{port}/events")
            assert (await stream.content.readline()).startswith(b"retry:")
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)
            rest = await asyncio.wait_for(stream.content.read(), 10)  # the stream ends, it is not left hanging
            assert b"event: snapshot" in rest
            stream.close()
        assert table._listeners == []

    run_async(go())


def test_a_wrong_pin_is_one_log_line(table: Any, run_async: Any, caplog: Any) -> None:
    from referee.web import serve

    async def go() -> None:
        port = free_port()
        started = asyncio.Event()
        task = asyncio.create_task(serve(table, "127.0.0.1", port, "390217", started=started))
        await asyncio.wait_for(started.wait(), 10)
        base = f"http://127.0.0.1:{port}"
        async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as session:  # keep the session cookie
            token = (await (await session.get(f"{base}/api/session")).json())["token"]
            caplog.clear()
            response = await session.post(f"{base}/api/control/pause", data="{}", headers={
                "Content-Type": "application/json", "X-CSRF-Token": token, "X-Table-PIN": "111111"})
            assert response.status == 403 and (await response.json())["code"] == "pin_wrong"
            task.cancel()  # the server stopped: every line it would write about the request is written
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)
            lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "referee"))]
        assert [r.getMessage() for r in lines] == ["wrong table PIN from 127.0.0.1 for pause"]

    with caplog.at_level(logging.INFO):  # as `referee run` logs (the access log decides at the start)
        run_async(go())


def test_one_source_cannot_hold_the_pages_connections_others_keep_theirs(table: Any, run_async: Any) -> None:
    """460 event streams from one address once held the page (cap 512); a source now keeps at most 64, its
    own oldest closed first, and the streams of other sources are never touched."""
    from referee.web import serve
    from referee.web.limits import MAX_PER_SOURCE

    async def stream_from(source: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        assert (await reader.readline()).startswith(b"HTTP/1.1 200")
        return reader, writer

    async def still_open(reader: asyncio.StreamReader) -> bool:
        with contextlib.suppress(TimeoutError):
            while True:  # what the stream sent so far, then EOF if it was closed
                chunk = await asyncio.wait_for(reader.read(65536), 0.05)
                if not chunk:
                    return False
        return True

    async def go() -> None:
        port = free_port()
        started = asyncio.Event()
        task = asyncio.create_task(serve(table, "127.0.0.1", port, "390217", started=started))
        await asyncio.wait_for(started.wait(), 10)
        players = [await stream_from("127.0.0.1", port) for _ in range(5)]  # the players' pages
        flood = [await stream_from("127.0.0.2", port) for _ in range(3 * MAX_PER_SOURCE)]
        try:
            open_flood = [await still_open(r) for r, _ in flood]
            assert sum(open_flood) == MAX_PER_SOURCE
            assert open_flood[-MAX_PER_SOURCE:] == [True] * MAX_PER_SOURCE  # the newest kept, the oldest gone
            assert all([await still_open(r) for r, _ in players])
            async with ClientSession() as session:  # and a new page from the players' side is answered
                response = await session.get(f"http://127.0.0.1:{port}/api/snapshot")
                assert response.status == 200
        finally:
            for _, w in players + flood:
                w.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)

    run_async(go())


def test_a_closed_connection_is_not_held_by_its_first_request_check(run_async: Any) -> None:
    """Each connection gets a 15 s check that it sent a request; left to run after the close, it kept every
    closed connection of the last 15 s alive (628 handlers and their buffers after a 20 s flood of reconnects,
    benchmarks/soak.py --trace-flood). Closed now means freed."""
    import gc

    from aiohttp import web

    from referee.web.limits import ConnectionGuard, runner_settings

    async def hello(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def go() -> None:
        app = web.Application()
        app.router.add_get("/", hello)
        runner = web.AppRunner(app, **runner_settings())
        await runner.setup()
        assert runner.server is not None
        server = runner.server
        guard = ConnectionGuard(server)

        def alive() -> set[int]:  # connection handlers still in memory (they take no weakref)
            gc.collect()
            return {id(o) for o in gc.get_objects() if type(o).__name__ == "RequestHandler"}

        before = alive()  # other tests' servers, if any

        listener = await asyncio.get_running_loop().create_server(guard, "127.0.0.1", 0)
        port = listener.sockets[0].getsockname()[1]
        try:
            for _ in range(20):  # a client that reconnects for every request, as urllib does
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                assert (await reader.read()).endswith(b"ok")
                writer.close()
                await writer.wait_closed()
            for _ in range(200):  # the server's side of each close (a condition, not a wait for time)
                if not server.connections:
                    break
                await asyncio.sleep(0.01)
            assert not server.connections and alive() - before == set()
        finally:
            listener.close()
            await listener.wait_closed()
            await runner.cleanup()

    run_async(go())
