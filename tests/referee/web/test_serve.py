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
