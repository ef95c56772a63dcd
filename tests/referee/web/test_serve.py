"""`serve()`: the scoreboard on a real port until cancelled, then every connection closed."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from aiohttp import ClientSession


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
        task = asyncio.create_task(serve(table, "127.0.0.1", port, "4711", started=started))
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
