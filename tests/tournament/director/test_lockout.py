"""Wrong director keys never lock the director out (issue 24 row 5): 33 wrong keys from 11 addresses spent the
global budget and the real key got 429 for about 600 s, pairings included, the only remedy a restart. The
session that gave the key before and the director's own machine go on; a new session elsewhere waits; every
page shows that someone is guessing. The clock is injected: no test waits on the wall clock."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tournament.director.access import DirectorGuard, Refused
from tournament.director.core import Director
from tournament.director.store import Store

KEY = "hall-key-2026"
HOST = "127.0.0.1:8090"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def check(guard: DirectorGuard, client: str, key: str, session: str) -> None:
    token = guard.token_for(session)
    guard.check(client=client, credential=key, session_id=session, token=token, headers={}, host=HOST)


def guess(guard: DirectorGuard, clock: Clock) -> None:
    """33 wrong keys from 11 addresses, each address at the pace its own waits allow."""
    for n in range(33):
        with pytest.raises(Refused):
            check(guard, f"10.0.0.{n % 11 + 1}", f"wrong-{n}", f"attacker-session-{n:04d}-xxxxxxxx")
        clock.now += 1.0


def test_the_directors_session_and_console_are_never_locked_out() -> None:
    clock = Clock()
    guard = DirectorGuard(KEY, clock)
    director_session = "director-session-0123456789"
    check(guard, "192.168.1.20", KEY, director_session)  # the director's tablet, before the attack
    guess(guard, clock)
    with pytest.raises(Refused) as refused:
        check(guard, "192.168.1.30", KEY, "new-session-abcdefghijklmnop")
    assert refused.value.status == 429  # a new session elsewhere waits, as before
    check(guard, "192.168.1.20", KEY, director_session)  # the tablet goes on
    check(guard, "127.0.0.1", KEY, "console-session-abcdefghijk")  # and so does the director's own machine
    assert guard.guessing() is not None and "guessing the director key: 30 wrong keys" in str(guard.guessing())


def test_every_page_shows_that_someone_is_guessing(tmp_path: Path) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from tournament.director.app import create_app

    clock = Clock()
    guard = DirectorGuard(KEY, clock, base_delay=0.5, max_delay=0.5)
    director = Director("ev", Store(tmp_path / "d.sqlite3"))
    director.sender = lambda *args: None

    async def run() -> tuple[dict[str, Any], int]:
        async with TestClient(TestServer(create_app(director, guard))) as client:
            session = await (await client.get("/api/session")).json()
            for n in range(12):  # from this machine: its own waits only (the clock moved past each)
                response = await client.post("/api/command/pause", json={"tables": "all"},
                                             headers={"X-Director-Key": f"wrong-{n}", "X-CSRF-Token": session["token"]})
                assert response.status in (403, 429)
                clock.now += 1
            stats = await (await client.get("/api/stats")).json()
            events = await client.get("/events")
            line, kind = b"", b""
            while not (line.startswith(b"data:") and kind == b"event: notices\n"):
                if line.startswith(b"event:"):
                    kind = line
                line = await events.content.readline()
            events.close()
            ok = await client.post("/api/command/pause", json={"tables": "all"},
                                   headers={"X-Director-Key": KEY, "X-CSRF-Token": session["token"]})
            return {"stats": stats, "stream": line}, ok.status

    with ThreadPoolExecutor(max_workers=1) as pool:
        seen, status = pool.submit(lambda: asyncio.run(run())).result(timeout=60)
    assert "guessing the director key" in seen["stats"]["notices"]["key_guessing"]
    assert b"guessing the director key" in seen["stream"]
    assert status == 200
    director.store.close()


def test_the_guards_refusals_name_the_director_key_in_the_events_language() -> None:
    """The guard once reworded the table's PIN messages with str.replace("PIN", "key") ("too many wrong keys at
    this table"): it now names what it guards, in English and German."""
    clock = Clock()
    english, german = DirectorGuard(KEY, clock), DirectorGuard(KEY, clock, language="de")
    said: dict[str, list[str]] = {"en": [], "de": []}
    for lang, guard in (("en", english), ("de", german)):
        with pytest.raises(Refused) as refused:
            check(guard, "10.0.0.1", "", "session-0123456789abcdef")
        said[lang].append(str(refused.value))
        for n in range(5):
            with pytest.raises(Refused) as refused:
                check(guard, "10.0.0.1", f"wrong-{n}", "session-0123456789abcdef")
            said[lang].append(str(refused.value))
    assert said["en"][:3] == ["this needs the director key", "wrong director key (2 more tries before a wait)",
                              "wrong director key (1 more tries before a wait)"]
    assert said["en"][4] == "wrong director key: wait 1 s before the next try"
    assert said["en"][5] == "too many wrong director keys: wait 1 s before the next try"
    assert said["de"][:2] == ["dafür ist der Schlüssel der Turnierleitung nötig",
                              "falscher Schlüssel der Turnierleitung (noch 2 Versuche bis zu einer Wartezeit)"]
    assert not any("PIN" in text or "key" in text for text in said["de"])
    guess(german, clock)
    assert german.guessing() is not None and str(german.guessing()).startswith(
        "jemand rät den Schlüssel der Turnierleitung: ")
