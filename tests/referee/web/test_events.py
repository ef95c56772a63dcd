"""Server-sent events: the current snapshot on connect, every new one pushed, clean shutdown."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from referee.web import create_app
from referee.web.events import SNAPSHOT, encode_event
from tournament.pagekit.hub import Page


async def next_event(response: ClientResponse) -> dict[str, Any]:
    """Read one SSE message (skipping comments and the retry line) and return its fields."""
    fields: dict[str, Any] = {}
    while True:
        line = (await asyncio.wait_for(response.content.readline(), 5)).decode().rstrip("\n")
        if not line:
            if "data" in fields:
                fields["data"] = json.loads(fields["data"])
                return fields
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(": ")
        fields[key] = value


def test_a_page_gets_the_current_snapshot_then_every_new_one(sim_table: Any, run_async: Any) -> None:
    table = sim_table
    table.control("start", {})
    seq = table.snapshot()["seq"]

    async def go() -> None:
        async with TestClient(TestServer(create_app(table, "390217"))) as client:
            response = await client.get("/events")
            assert response.headers["Content-Type"].startswith("text/event-stream")
            first = await next_event(response)
            assert (first["event"], first["id"], first["data"]) == ("snapshot", str(seq), table.snapshot())
            # The table publishes from its own thread, as the service does: the tiles, then the clock press.
            thread = threading.Thread(target=table.place_word, args=("8H QI",))
            thread.start()
            second = await next_event(response)
            thread.join()
            assert second["id"] == str(seq + 1)
            thread = threading.Thread(target=table.press)
            thread.start()
            while not (event := await next_event(response))["data"]["moves"]:  # the press may publish more than once
                pass
            thread.join()
            assert event["data"]["players"][0]["score"] == 22
            assert event["data"]["moves"][-1]["notation"] == "8H QI"
            table.advance(1.5)
            third = await next_event(response)
            assert int(third["id"]) > int(event["id"]) and third["data"]["seq"] == int(third["id"])
            response.close()

    run_async(go())


def test_every_open_page_gets_the_snapshot(sim_table: Any, run_async: Any) -> None:
    table = sim_table
    table.control("start", {})
    table.play("8H QI")
    table.advance(15)  # the challenge window closes: the turn is Ben's

    async def go() -> None:
        async with TestClient(TestServer(create_app(table, None))) as client:
            streams = [await client.get("/events") for _ in range(3)]
            for stream in streams:
                await next_event(stream)
            table.lift("H8")  # a tile of the last play lifted outside its turn
            for stream in streams:
                event = await next_event(stream)
                assert event["data"]["alerts"][0]["code"] == "tile_moved"
                stream.close()

    run_async(go())


def test_the_server_shuts_down_cleanly_with_pages_open(sim_table: Any, run_async: Any) -> None:
    table = sim_table

    async def go() -> None:
        client = TestClient(TestServer(create_app(table, None)))
        await client.start_server()
        stream = await client.get("/events")
        await next_event(stream)
        await asyncio.wait_for(client.close(), 10)
        table.publish()  # after the server is gone the table's listener is removed: nothing to deliver to

    run_async(go())
    assert table._listeners == []


def test_a_slow_page_gets_the_newest_snapshot_not_a_backlog(run_async: Any) -> None:
    async def go() -> None:
        client = Page()
        for seq in (3, 4, 5):
            client.offer(SNAPSHOT, (seq, f"message {seq}".encode()), order=seq)
        client.offer(SNAPSHOT, (4, b"late"), order=4)  # an older snapshot never replaces a newer one
        assert await client.next(1) == {SNAPSHOT: (5, b"message 5")}
        assert await client.next(0.01) is None  # nothing new: time for a keep-alive

    run_async(go())


def test_an_event_is_one_sse_message_with_the_seq_as_id() -> None:
    message = encode_event({"seq": 7, "table": "Tisch 1 – Jürgen"})  # type: ignore[typeddict-item]
    text = message.decode()
    assert text.startswith("id: 7\nevent: snapshot\ndata: ")
    assert text.endswith("\n\n") and text.count("\n") == 4
    assert json.loads(text.split("data: ", 1)[1]) == {"seq": 7, "table": "Tisch 1 – Jürgen"}
