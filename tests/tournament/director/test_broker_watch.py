"""A director with a wrong broker address says so, on the page and in the log, as a table does ("cannot
reach broker ... retrying"): it used to serve a green "live" hall of 0 tables and log nothing. Loopback only:
the broker's port has nothing listening until the test starts Mosquitto on it."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from tournament.acl import DIRECTOR_USER, acl_text
from tournament.director.core import Director
from tournament.director.link import hall_link
from tournament.director.store import Store
from tournament.settings import BrokerSettings
from tournament.testing.broker import Broker, mosquitto_path

from .conftest import EVENT, password, settings, wait_for

pytestmark = pytest.mark.slow


def test_the_director_says_it_cannot_reach_its_broker_and_when_it_does(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    broker = Broker(tmp_path / "broker", {DIRECTOR_USER: password(DIRECTOR_USER)}, acl_text(EVENT, [1]))  # not started
    director = Director(EVENT, Store(tmp_path / "d.sqlite3"))
    link = hall_link(director, settings(broker, DIRECTOR_USER))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    caplog.set_level(logging.INFO, logger="tournament.director.broker_watch")
    try:
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(5)
        loop.call_soon_threadsafe(link.start)
        wait_for(lambda: director.broker_state()["tries"] >= 2, 20, "two refused connects")
        state = director.broker_state()
        assert state["connected"] is False and "Connection refused" in state["error"] and state["since"]
        assert state["text"] == f"cannot reach broker {broker.url}: {state['error']}; retrying"
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert warnings == [f"director: cannot reach broker {broker.url} ({state['error']}); retrying every 1 s"]
        broker.start()  # the right broker comes up (or the address is mended): the director connects
        wait_for(lambda: director.broker_state()["connected"], 20, "the director to reach the broker")
        assert director.broker_state()["text"] == f"broker {broker.url}: connected"
        assert any("reached after" in r.getMessage() for r in caplog.records)
    finally:
        asyncio.run_coroutine_threadsafe(link.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
        director.store.close()
        broker.stop()


def test_a_refused_login_is_said_too(broker: Any, tmp_path: Path) -> None:
    director = Director(EVENT, Store(tmp_path / "d.sqlite3"))
    link = hall_link(director, BrokerSettings(broker.host, broker.port, username=DIRECTOR_USER, password="wrong"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        loop.call_soon_threadsafe(link.start)
        wait_for(lambda: (director.broker_state()["error"] or "").startswith("the broker refused the login"), 20,
                 "the refused login")
        assert "Not authorized" in director.broker_state()["error"] or "Bad user" in director.broker_state()["error"]
    finally:
        asyncio.run_coroutine_threadsafe(link.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
        director.store.close()


@pytest.mark.browser
def test_the_hall_page_says_the_broker_is_out_of_reach(tmp_path: Path, page: Any) -> None:
    """The page a director opens with a wrong broker address: red, with the address and the reason, not a
    green "live" over 0 tables."""
    from aiohttp import web

    from tournament.director.access import DirectorGuard
    from tournament.director.app import create_app
    from tournament.testing.broker import free_port

    expect = pytest.importorskip("playwright.sync_api").expect
    port = free_port()  # nothing listens there: the wrong address
    director = Director(EVENT, Store(tmp_path / "d.sqlite3"))
    link = hall_link(director, BrokerSettings("127.0.0.1", port, username=DIRECTOR_USER, password="x"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    runner = web.AppRunner(create_app(director, DirectorGuard("hall-key-2026")))

    async def start() -> int:
        link.start()
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return int(runner.addresses[0][1])

    try:
        http = asyncio.run_coroutine_threadsafe(start(), loop).result(10)
        page.goto(f"http://127.0.0.1:{http}/")
        broker = page.locator("#broker")
        expect(broker).to_have_attribute("data-connected", "false")
        expect(broker).to_have_text(re.compile(rf"^cannot reach broker mqtt://127\.0\.0\.1:{port}: .*Connection "
                                               r"refused; retrying$"), timeout=10000)
        assert broker.evaluate("(b) => getComputedStyle(b).backgroundColor") == "rgb(255, 92, 92)"  # the error red
        page.screenshot(path="/tmp/28b/no-broker.png")
    finally:
        asyncio.run_coroutine_threadsafe(link.stop(), loop).result(10)
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
        director.store.close()
