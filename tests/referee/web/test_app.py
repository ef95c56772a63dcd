"""The HTTP API under the page: PIN, rate limit, cross-site protection, validation, downloads.

Every refusal must leave the table untouched: the tests check that the table saw no control call and
published nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from aiohttp.test_utils import TestClient, TestServer

from referee.web import create_app
from referee.web.app import GUESSING
from referee.web.validation import ACTIONS
from referee.words import say
from referee.words.checks import catalogue, check_phrase

PIN = "390217"

VALID_PARAMS: dict[str, dict[str, Any]] = {
    "start": {}, "pause": {}, "resume": {}, "pass": {}, "accept": {},
    "blank": {"square": "H8", "letter": "E"}, "correct": {"square": "H8", "letter": "E"},
    "exchange": {"count": 3}, "challenge": {"player": 1}, "racks": {"player": 0, "tiles": "AEQ"},
    "roll": {"letters": "AEQ"}, "new_game": {},
}


@contextlib.asynccontextmanager
async def serve(table: Any, pin: str | None = PIN, **kwargs: Any) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(create_app(table, pin, **kwargs))) as client:
        yield client


async def token(client: TestClient) -> str:
    response = await client.get("/api/session")
    assert response.status == 200
    body = await response.json()
    return str(body["token"])


async def control(client: TestClient, action: str, params: Any = None, *, pin: str | None = PIN,
                  csrf: str | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    sent = {"Content-Type": "application/json"}
    if csrf is not None:
        sent["X-CSRF-Token"] = csrf
    if pin is not None:
        sent["X-Table-PIN"] = pin
    sent.update(headers or {})
    response = await client.post(f"/api/control/{action}", data=json.dumps(params if params is not None else {}),
                                 headers=sent)
    return response.status, await response.json()


def untouched(table: Any, before: Any) -> None:
    """Nothing reached the table and it published nothing: `before` is its snapshot from before the request."""
    assert table.controls == []
    assert table.snapshot() == before


def test_all_documented_actions_have_a_parser() -> None:
    assert set(ACTIONS) == set(VALID_PARAMS)


@pytest.mark.parametrize("action", sorted(VALID_PARAMS))
def test_every_control_endpoint_refuses_a_missing_or_wrong_pin(table: Any, action: str, run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as client:
            csrf = await token(client)
            status, body = await control(client, action, VALID_PARAMS[action], pin=None, csrf=csrf)
            assert (status, body["code"]) == (401, "pin_required")
            assert "PIN" in body["error"]
            status, body = await control(client, action, VALID_PARAMS[action], pin="0000", csrf=csrf)
            assert (status, body["code"]) == (403, "pin_wrong")
            status, body = await control(client, action, VALID_PARAMS[action], pin=PIN + "0", csrf=csrf)
            assert (status, body["code"]) == (403, "pin_wrong")
        untouched(table, before)

    run_async(go())


@pytest.mark.parametrize("pin", [None, ""])
def test_without_a_configured_pin_control_is_disabled_and_says_so(table: Any, pin: str | None, run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table, pin=pin) as client:
            response = await client.get("/api/session")
            session = await response.json()
            assert session["control"] is False
            assert "no PIN configured" in session["reason"]
            csrf = session["token"]
            for action, params in VALID_PARAMS.items():
                for attempt in (None, "", "0000", "390217"):
                    status, body = await control(client, action, params, pin=attempt, csrf=csrf)
                    assert (status, body["code"]) == (403, "control_disabled"), (action, attempt)
                    assert "no PIN configured" in body["error"]
        untouched(table, before)

    run_async(go())


def test_a_burst_of_wrong_pins_is_slowed_with_a_growing_wait(table: Any, clock: Any, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table, clock=clock) as client:
            csrf = await token(client)
            for _ in range(3):  # people mistype: the first three cost nothing
                assert (await control(client, "start", pin="1111", csrf=csrf))[0] == 403
            status, body = await control(client, "start", pin="1112", csrf=csrf)
            assert status == 403 and "wait 1 s" in body["error"]
            # The burst goes on: refused before the PIN is even looked at, the right one included.
            for attempt in ("1113", PIN):
                response = await client.post("/api/control/start", json={},
                                             headers={"X-CSRF-Token": csrf, "X-Table-PIN": attempt})
                assert response.status == 429
                assert response.headers["Retry-After"] == "1"
                assert (await response.json())["code"] == "rate_limited"
            waits = []
            for _ in range(4):
                clock.advance(1000)  # past any wait so far
                status, body = await control(client, "start", pin="1114", csrf=csrf)
                assert status == 403
                response = await client.post("/api/control/start", json={},
                                             headers={"X-CSRF-Token": csrf, "X-Table-PIN": "1115"})
                assert response.status == 429
                waits.append(int(response.headers["Retry-After"]))
            assert waits == [2, 4, 8, 16]
            assert table.controls == []
            clock.advance(1000)
            status, body = await control(client, "start", pin=PIN, csrf=csrf)
            assert status == 200 and body["snapshot"]["state"] == "turn"
            # A right PIN clears the record: the next typo costs nothing again.
            assert (await control(client, "pause", pin="9999", csrf=csrf))[1]["code"] == "pin_wrong"
            assert (await control(client, "pause", pin=PIN, csrf=csrf))[0] == 200

    run_async(go())


@pytest.mark.parametrize(
    ("headers", "use_token", "needle"),
    [
        ({}, False, "no session token"),
        ({"X-CSRF-Token": "0" * 64}, True, "does not match"),
        ({"X-CSRF-Token": "0" * 64}, False, "no session token"),
        ({"Sec-Fetch-Site": "cross-site"}, True, "another site"),
        ({"Origin": "http://evil.example"}, True, "another origin"),
        ({"Origin": "null"}, True, "another origin"),
    ],
)
def test_cross_site_requests_are_refused_before_the_pin(table: Any, clock: Any, headers: dict[str, str],
                                                        use_token: bool, needle: str, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table, clock=clock) as client:
            csrf = await token(client) if use_token else None
            for _ in range(6):  # a forged request never counts as a PIN attempt, right PIN or not
                status, body = await control(client, "start", pin=PIN, csrf=csrf, headers=headers)
                assert (status, body["code"]) == (403, "cross_site")
                assert needle in body["error"]
            status, _ = await control(client, "start", pin=PIN, csrf=await token(client))
            assert status == 200

    run_async(go())


def test_a_token_is_bound_to_its_session(table: Any, run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as first, serve(table) as second:
            stolen = await token(first)
            await token(second)  # the second browser has its own session cookie
            status, body = await control(second, "start", csrf=stolen)
            assert (status, body["code"]) == (403, "cross_site")
        untouched(table, before)

    run_async(go())


def test_same_origin_headers_from_the_page_are_accepted(table: Any, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table) as client:
            csrf = await token(client)
            host = f"{client.server.host}:{client.server.port}"
            status, _ = await control(client, "start", csrf=csrf,
                                      headers={"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"})
            assert status == 200
            assert table.controls == [("start", {})]

    run_async(go())


@pytest.mark.parametrize(
    ("action", "params", "field", "needle"),
    [
        ("blank", {"square": "H8"}, "letter", "one letter"),
        ("blank", {"square": "H8", "letter": "EE"}, "letter", "one letter"),
        ("blank", {"square": "H8", "letter": "7"}, "letter", "one letter"),
        ("blank", {"square": "H8", "letter": 5}, "letter", "one letter"),
        ("blank", {"square": "Z9", "letter": "E"}, "square", "off the board"),
        ("blank", {"square": "H16", "letter": "E"}, "square", "off the board"),
        ("blank", {"square": "8H", "letter": "E"}, "square", "not a square"),
        ("blank", {"letter": "E"}, "square", "name a square"),
        ("correct", {"square": "H8", "letter": "E", "score": 99}, "score", "takes no parameter"),
        ("exchange", {"count": 0}, "count", "out of range"),
        ("exchange", {"count": 8}, "count", "out of range"),
        ("exchange", {"count": "three"}, "count", "whole number"),
        ("exchange", {"count": True}, "count", "whole number"),
        ("exchange", {"count": 2.5}, "count", "whole number"),
        ("exchange", {"count": "\u00b2"}, "count", "whole number"),  # "²".isdigit() is True, int("²") fails
        ("exchange", {"count": "--5"}, "count", "whole number"),
        ("exchange", {"count": "7" * 5000}, "count", "whole number"),  # int() refuses more than 4,300 digits
        ("challenge", {"player": "\u0661"}, "player", "whole number"),  # an Arabic-Indic one
        ("challenge", {"player": 2}, "player", "out of range"),
        ("challenge", {}, "player", "whole number"),
        ("racks", {"player": 0, "tiles": "ABCDEFGH"}, "tiles", "at most 7"),
        ("racks", {"player": 0, "tiles": "A1"}, "tiles", "only letters"),
        ("start", {"now": True}, "now", "takes no parameter"),
        ("roll", {}, "letters", "type the letters the dice show"),
        ("roll", {"letters": "AE1"}, "letters", "only the letters the dice show and ? for a blank face, not 1"),
        ("roll", {"letters": "AEIOUQZX"}, "letters", "at most 7 dice"),
        ("roll", {"letters": ["A", "E"]}, "letters", "type the letters"),
        ("roll", {"letters": "AEQ", "player": 0}, "player", "takes no parameter"),
        ("new_game", {"players": ["Anna", "Ben"]}, "players", "new_game takes no parameter"),
    ],
)
def test_malformed_input_gets_a_clear_error_and_changes_nothing(table: Any, action: str, params: dict[str, Any],
                                                                field: str, needle: str, run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as client:
            status, body = await control(client, action, params, csrf=await token(client))
            assert (status, body["code"], body["field"]) == (400, "invalid", field)
            assert body["error"].startswith(f"{field}: ") and needle in body["error"]
            # the check's code and fields, for a client to say it in its own language (referee/words/checks.py)
            assert body["error"] == said_check(body["check"], field, body["fields"])
        untouched(table, before)

    run_async(go())


@pytest.mark.parametrize(
    ("body", "content_type", "needle"),
    [
        (b"{not json", "application/json", "not valid JSON"),
        (b"[1, 2]", "application/json", "JSON object"),
        (b"\"H8\"", "application/json", "JSON object"),
        (b"square=H8&letter=E", "application/x-www-form-urlencoded", "as JSON"),
        (b"\xff\xfe", "application/json", "not valid JSON"),
        (b"[" * 5000 + b"]" * 5000, "application/json", "nested too deeply"),
        (b'{"count": ' + b"7" * 5000 + b"}", "application/json", "not valid JSON"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_refused(table: Any, body: bytes, content_type: str, needle: str,
                                                     run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as client:
            response = await client.post("/api/control/blank", data=body,
                                         headers={"Content-Type": content_type, "X-Table-PIN": PIN,
                                                  "X-CSRF-Token": await token(client)})
            assert response.status == 400
            answer = await response.json()
            assert answer["code"] == "invalid" and needle in answer["error"]
            assert answer["check"].startswith(("body_", "not_an_object")) and answer["field"] == ""
            assert answer["error"] == said_check(answer["check"], "", answer["fields"])
        untouched(table, before)

    run_async(go())


def test_an_oversized_body_is_refused(table: Any, run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as client:
            response = await client.post("/api/control/racks", data=b"{" + b" " * 100_000 + b"}",
                                         headers={"Content-Type": "application/json", "X-Table-PIN": PIN,
                                                  "X-CSRF-Token": await token(client)})
            assert response.status == 413
        untouched(table, before)

    run_async(go())


def test_an_unknown_action_is_refused_with_the_list(table: Any, run_async: Any) -> None:
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as client:
            status, body = await control(client, "undo", {}, csrf=await token(client))
            assert (status, body["code"]) == (404, "unknown_action")
            assert "blank" in body["error"] and "correct" in body["error"]
        untouched(table, before)

    run_async(go())


def test_a_table_refusal_is_reported_and_the_game_unchanged(table: Any, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table) as client:
            before = table.snapshot()
            status, body = await control(client, "blank", {"square": "h8", "letter": "e"}, csrf=await token(client))
            assert (status, body["code"]) == (409, "refused")
            assert body["error"] == "H8: no blank waits for its letter there (waiting: none)"  # the table's words
            assert table.controls == [("blank", {"square": "H8", "letter": "E"})]  # cleaned before the table
            assert table.snapshot() == before

    run_async(go())


def test_a_blank_letter_and_a_correction_with_the_pin(sim_table: Any, run_async: Any) -> None:
    table = sim_table

    async def go() -> None:
        async with serve(table) as client:
            csrf = await token(client)
            assert (await control(client, "start", csrf=csrf))[0] == 200
            table.play("8H QUIZ")
            table.advance(15)
            table.place_word("K6 AD.e")  # ADZE with a blank for its E
            table.press()
            assert table.snapshot()["pending"] == {"blanks": ["K9"], "letters": []}
            status, body = await control(client, "blank", {"square": " k9 ", "letter": "e"}, csrf=csrf)
            assert status == 200 and body["snapshot"]["board"][8][10] == "e"
            assert "blanks" not in body["snapshot"]["pending"]  # no longer asked: the challenge window is open
            table.advance(15)
            table.play("9G JOE")
            table.advance(15)
            assert table.snapshot()["players"][0]["score"] == 44 + 33  # JOE, QO and UE: 33
            status, body = await control(client, "correct", {"square": "H9", "letter": "A"}, csrf=csrf)
            assert status == 200 and body["snapshot"]["board"][8][7] == "A"
            assert body["snapshot"]["players"][0]["score"] == 44 + 33  # O and A are both worth 1
            status, body = await control(client, "correct", {"square": "G9", "letter": "M"}, csrf=csrf)
            assert body["snapshot"]["players"][0]["score"] == 44 + 23  # M is worth 5 less than J

    run_async(go())


def test_gcg_download_comes_from_the_table(table: Any, run_async: Any) -> None:
    async def go() -> None:
        table.control("start", {})
        table.play("8H QUIZ")
        async with serve(table) as client:
            response = await client.get("/game.gcg")
            assert response.status == 200
            assert response.headers["Content-Disposition"] == 'attachment; filename="Simulated-table.gcg"'
            assert response.content_type == "text/plain"
            assert await response.text() == table.gcg()

    run_async(go())


def test_gcg_download_from_a_table_without_a_record_says_so(table_without_record: Any, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table_without_record) as client:
            response = await client.get("/game.gcg")
            assert response.status == 404
            body = await response.json()
            assert body["code"] == "no_record" and "keeps no game record" in body["error"]

    run_async(go())


def test_board_image_is_drawn_once_per_board_state(table: Any, run_async: Any) -> None:
    from referee.web.app import BOARD_PNG

    async def go() -> None:
        table.control("start", {})
        table.play("8H QUIZ")
        async with serve(table) as client:
            first = [await (await client.get("/board.png")).read() for _ in range(5)]
            cache = client.app[BOARD_PNG]  # type: ignore[index]
            assert cache.drawn == 1 and len(set(first)) == 1
            table.advance(15)
            table.play("H8 .A")
            second = await (await client.get("/board.png")).read()
            assert cache.drawn == 2 and second != first[0]

    run_async(go())


def test_a_bug_behind_any_route_answers_json_and_logs_no_pin(table: Any, run_async: Any,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> Any:
        raise RuntimeError("a bug")

    async def go() -> None:
        table.snapshot = broken
        async with serve(table) as client:
            response = await client.get("/api/snapshot", headers={"X-Table-PIN": PIN})
            assert response.status == 500 and response.content_type == "application/json"
            assert (await response.json())["code"] == "internal"

    run_async(go())
    assert "GET /api/snapshot failed" in caplog.text and PIN not in caplog.text


def test_board_image_is_a_png_of_the_board(table: Any, run_async: Any) -> None:
    async def go() -> None:
        table.control("start", {})
        table.play("8H QUIZ")
        async with serve(table) as client:
            response = await client.get("/board.png")
            assert response.status == 200 and response.content_type == "image/png"
            assert response.headers["Content-Disposition"].startswith("inline")
            image = cv2.imdecode(np.frombuffer(await response.read(), np.uint8), cv2.IMREAD_COLOR)
            assert image is not None and image.shape[0] == image.shape[1] > 15 * 30
            download = await client.get("/board.png?download")
            assert download.headers["Content-Disposition"].startswith("attachment")

    run_async(go())


def test_the_page_and_its_files_are_served_with_a_strict_policy(table: Any, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table) as client:
            for path, kind in (("/", "text/html"), ("/static/app.js", "javascript"), ("/static/style.css", "css")):
                response = await client.get(path)
                assert response.status == 200 and kind in response.content_type, path
                assert "script-src 'self'" in response.headers["Content-Security-Policy"]
                assert response.headers["X-Frame-Options"] == "DENY"
                assert response.headers["Cache-Control"] == "no-cache"  # revalidated: never a stale script
            response = await client.get("/api/snapshot")
            assert await response.json() == table.snapshot()
            session = await client.get("/api/session")
            cookie = session.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie

    run_async(go())


def test_the_session_hands_the_page_the_words_of_the_input_checks(table: Any, run_async: Any) -> None:
    """The page says a 400 `invalid` in its own language (which a visitor may switch) from these."""
    async def go() -> None:
        async with serve(table) as client:
            session = await (await client.get("/api/session")).json()
            words = session["input_checks"]
            assert words == catalogue() and set(words) == {"en", "de"}
            assert words["de"]["checks"]["letter_one"] == "genau einen Buchstaben eingeben, z. B. E"
            assert words["de"]["fields"]["letter"] == "Buchstabe"
            status, body = await control(client, "blank", {"square": "H8", "letter": "12"}, csrf=session["token"])
            assert (status, body) == (400, {"error": "letter: type one letter, e.g. E", "code": "invalid",
                                            "field": "letter", "check": "letter_one", "fields": {}})

    run_async(go())


def test_a_refusal_is_said_in_the_tables_language_with_its_reason(run_async: Any, sim_table: Any,
                                                                   make_sim_table: Any) -> None:
    german = make_sim_table(language="de", edition="german")
    english = sim_table

    async def go() -> None:
        for table, said in ((german, "nichts anzuhalten: der Tisch ist vor dem Start"),
                            (english, "nothing to pause: the table is waiting")):
            async with serve(table) as client:
                status, body = await control(client, "pause", {}, csrf=await token(client))
                assert (status, body["code"], body["reason"]) == (409, "refused", "nothing_to_pause")
                assert body["error"] == said

    run_async(go())


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("blank", {"square": "H8", "letter": "E"}),
        ("correct", {"square": "A1", "letter": "E"}),
        ("accept", {}),
        ("challenge", {"player": 1}),
        ("racks", {"player": 0, "tiles": "AEQ"}),
        ("start", {}),
        ("resume", {}),
    ],
)
def test_the_service_table_refuses_out_of_place_actions_and_nothing_changes(action: str, params: dict[str, Any],
                                                                             run_async: Any, sim_table: Any) -> None:
    table = sim_table
    table.control("start", {})
    table.play("8G QUIZ")
    table.advance(15)

    async def go() -> None:
        async with serve(table) as client:
            before, record = table.snapshot(), table.gcg()
            status, body = await control(client, action, params, csrf=await token(client))
            assert (status, body["code"]) == (409, "refused")
            assert body["error"] and "Traceback" not in body["error"]
            assert table.snapshot() == before and table.gcg() == record

    run_async(go())


def test_a_bug_inside_the_table_gets_a_clear_answer_not_a_bare_500(table: Any, run_async: Any,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    class Broken(type(table)):  # type: ignore[misc]
        def control(self, action: str, params: Any) -> Any:
            raise RuntimeError("boom")

    broken = Broken(table.manual_clock)

    async def go() -> None:
        async with serve(broken) as client:
            status, body = await control(client, "start", csrf=await token(client))
            assert (status, body["code"]) == (500, "internal")
            assert "could not do start" in body["error"] and "boom" not in body["error"]

    run_async(go())
    assert "boom" in caplog.text  # the details go to the log, not to the page


def test_a_roll_must_have_as_many_letters_as_the_table_asks_for(make_recorded_table: Any, run_async: Any) -> None:
    table = make_recorded_table(kind="scramble")
    table.control("start", {})  # a Scramble turn starts with a roll of all seven dice
    assert table.snapshot()["pending"]["roll"] == 7
    table.controls.clear()
    before = table.snapshot()

    async def go() -> None:
        async with serve(table) as client:
            csrf = await token(client)
            for letters, got in (("AE", 2), ("AEQZIOUN", 8), ("A E Q Z", 4)):
                status, body = await control(client, "roll", {"letters": letters}, csrf=csrf)
                assert (status, body["code"], body["field"]) == (400, "invalid", "letters")
                assert body["error"] == f"letters: the table asks for 7 dice: type 7 letters, not {got}"
            untouched(table, before)
            status, body = await control(client, "roll", {"letters": " ä q ? e r s t "}, csrf=csrf)
            assert (status, body["code"]) == (409, "refused")  # no die of the English set shows an Ä
            assert table.controls == [("roll", {"letters": "ÄQ?ERST"})]  # cleaned before the table

    run_async(go())


def test_a_table_that_cannot_start_a_new_game_says_so(table: Any, run_async: Any) -> None:
    async def go() -> None:
        async with serve(table) as client:
            before = table.snapshot()
            status, body = await control(client, "new_game", {}, csrf=await token(client))
            assert (status, body["code"]) == (409, "refused")
            assert body["error"] == "a new game starts once this one has ended (the table is waiting)"  # its words
            assert table.snapshot() == before

    run_async(go())


def scramble_table(journal: Any = None, **setup: Any) -> Any:
    sim = pytest.importorskip("referee.sim")
    return sim.SimulatedTable(sim.default_setup(kind="scramble", **setup), clock=sim.ManualClock(), journal=journal)


@pytest.mark.parametrize(
    ("letters", "status", "needle"),
    [
        ("QUIZ", 400, "letters: the table asks for 7 dice: type 7 letters, not 4"),
        ("QUIZAEB1", 400, "letters: only the letters the dice show and ? for a blank face, not 1"),
        ("QUIZAEÖ", 409, "roll: no die shows 'Ö'"),  # an English table's dice have no umlauts
        ("QQQQQQQ", 409, "the dice left in the cup cannot show Q10 Q10"),  # there is one Q die
    ],
)
def test_the_service_table_refuses_a_roll_it_cannot_take_and_nothing_changes(letters: str, status: int, needle: str,
                                                                            run_async: Any) -> None:
    table = scramble_table()
    table.control("start", {})
    assert table.snapshot()["pending"] == {"roll": 7}

    async def go() -> None:
        async with serve(table) as client:
            before, record = table.snapshot(), table.gcg()
            got, body = await control(client, "roll", {"letters": letters}, csrf=await token(client))
            assert got == status and needle in body["error"] and "Traceback" not in body["error"]
            assert table.snapshot() == before and table.gcg() == record

    run_async(go())


def test_a_roll_and_a_new_game_on_the_service_table(tmp_path: Path, run_async: Any) -> None:
    from referee.journal import Journal

    journal = Journal(tmp_path / "games.sqlite3")
    table = scramble_table(journal, scramble_target=10)
    table.control("start", {})
    first = table.game_id

    async def go() -> None:
        async with serve(table) as client:
            csrf = await token(client)
            status, body = await control(client, "new_game", {}, csrf=csrf)
            assert (status, body["code"]) == (409, "refused")  # the game is still on
            assert body["error"] == "a new game starts once this one has ended (the table is roll)"
            status, body = await control(client, "roll", {"letters": "q u i z a e b"}, csrf=csrf)
            assert status == 200 and body["snapshot"]["state"] == "turn"
            assert body["snapshot"]["pending"]["rolled"] == "QUIZAEB"
            table.play("5E QUIZ")  # past the target of 10: the game ends once the challenge window closes
            table.advance(15)
            assert table.snapshot()["state"] == "ended"
            status, body = await control(client, "new_game", {}, csrf=csrf)
            assert status == 200 and body["snapshot"]["state"] == "waiting"
            assert body["snapshot"]["moves"] == [] and [p["score"] for p in body["snapshot"]["players"]] == [0, 0]
            status, body = await control(client, "new_game", {}, csrf=csrf)  # once is enough
            assert (status, body["code"]) == (409, "refused")

    run_async(go())
    # The journal holds the finished game and the new one, which is the table's now.
    games = journal.games()
    assert [g.id for g in games] == [first, table.game_id] and table.game_id != first
    assert games[0].ended_utc is not None and games[1].ended_utc is None and games[1].events > 0
    journal.close()


async def _settled(client: TestClient) -> None:
    """Until the alert matches the guessing now (each change runs on a worker thread)."""
    while (change := client.app[GUESSING].update()) is not None:
        await change


def test_someone_guessing_is_an_alert_on_the_page_and_a_new_phone_gets_in_with_the_directors_code(
        table: Any, run_async: Any) -> None:
    from referee.sim import ManualClock

    clock = ManualClock(0.0)

    async def go() -> None:
        async with serve(table, clock=clock, free_attempts=1000, director_pin="8046173529") as guesser:
            csrf = await token(guesser)
            for n in range(30):
                status, _ = await control(guesser, "pause", pin=f"{n:06}", csrf=csrf)
                assert status == 403
            status, body = await control(guesser, "pause", pin=f"{31:06}", csrf=csrf)
            assert (status, body["code"]) == (403, "pin_wrong") and "director's code" in body["error"]
            await _settled(guesser)
            alerts = [a for a in table.snapshot()["alerts"] if a["code"] == "pin_guessing"]
            assert len(alerts) == 1 and alerts[0]["text"].startswith("Someone is guessing the table PIN: 30 wrong "
                                                                     "PINs in the last 10 minutes.")
            assert "with the director's code" in alerts[0]["text"]
            guesser.session.cookie_jar.clear()  # a new phone: a session of its own
            csrf = await token(guesser)
            status, body = await control(guesser, "start", pin=PIN, csrf=csrf)
            assert status == 403  # the table PIN is not looked at while the budget is spent
            status, body = await control(guesser, "start", pin="8046173529", csrf=csrf)
            assert status == 200, body
            clock.now = 601.0  # the guessing has stopped for a whole window: the alert goes
            await _settled(guesser)
            assert not [a for a in table.snapshot()["alerts"] if a["code"] == "pin_guessing"]

    run_async(go())


@pytest.mark.parametrize(("host", "status"), [
    ("attacker.example", 421), ("attacker.example:8080", 421), ("rebind.127.0.0.1.nip.io:8080", 421),
    ("127.0.0.1:8080", 200), ("192.168.1.40:8080", 200), ("[::1]:8080", 200), ("[fe80::1%25eth0]:8080", 200),
    ("localhost:8080", 200), ("table3.club.example", 200), ("TABLE3.club.example.:8080", 200),
])
def test_a_request_naming_another_host_is_refused_421_dns_rebinding(
        table: Any, run_async: Any, host: str, status: int) -> None:
    async def go() -> None:
        async with serve(table, allowed_hosts=["table3.club.example"]) as client:
            response = await client.get("/api/snapshot", headers={"Host": host})
            assert response.status == status
            if status == 421:
                assert (await response.json())["code"] == "wrong_host"
                before = table.snapshot()
                csrf = await token(client)
                code, body = await control(client, "start", pin=PIN, csrf=csrf,
                                           headers={"Host": host, "Origin": f"http://{host}"})
                assert (code, body["code"]) == (421, "wrong_host")
                untouched(table, before)

    run_async(go())


def test_the_pis_own_names_are_answered(table: Any, run_async: Any) -> None:
    from tournament.pagekit.guards import own_names

    async def go() -> None:
        async with serve(table) as client:
            for name in own_names():
                response = await client.get("/api/snapshot", headers={"Host": f"{name}:8080"})
                assert response.status == 200, name

    run_async(go())


def said_check(check: str, field: str, fields: dict[str, object]) -> str:
    """A check's English, as the API's `error` gives it."""
    p = check_phrase(check, field, **fields)
    return say(p.catalogue, p.code, "en", **p.fields)
