"""The broadcast's HTTP side on the director's app, fed the real table's snapshots (no broker): what
spectators see, the delay on an injected clock (never the director's own view), the slots and the delay
behind the director key, the live GCG through the delay, and the stream of a slot following its table."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tournament.broadcast.delay import Delay

from .cast_server import KEY, CastServer, played, real_table

MOVES = ["8G QI", "7H AX", "9F JOE", "10E WE"]


class Client:
    """Keeps the session cookie and sends the CSRF token, as the hall page does."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = self.get("/api/session")[1]["token"]

    def get(self, path: str) -> tuple[int, Any]:
        try:
            with self.opener.open(self.base + path, timeout=10) as response:
                body = response.read()
                kind = response.headers.get("Content-Type", "")
                return response.status, json.loads(body) if "json" in kind else body.decode()
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def post(self, path: str, data: Any, key: str | None = KEY) -> tuple[int, Any]:
        request = urllib.request.Request(self.base + path, json.dumps(data).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        request.add_header("X-CSRF-Token", self.token)
        if key is not None:
            request.add_header("X-Director-Key", key)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


def views(base: str, query: str) -> Iterator[dict[str, Any]]:
    """The `view` events of a stream, one by one (the socket's timeout bounds every wait)."""
    with urllib.request.urlopen(f"{base}/broadcast/events?{query}", timeout=10) as response:
        event = ""
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "view":
                yield json.loads(line[6:])


@pytest.fixture
def cast(tmp_path: Path) -> Iterator[Any]:
    servers: list[CastServer] = []

    def start(**kwargs: Any) -> CastServer:
        server = CastServer(tmp_path / f"cast{len(servers)}", **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def test_spectators_see_the_game_without_the_racks_and_the_feed_needs_a_tsh_file(cast: Any) -> None:
    server = cast()
    shots = played(real_table(), MOVES)
    server.online(3)
    for shot in shots:
        shot["moves"] = [{**m, "rack": "QIXYZAB"} for m in shot["moves"]]  # a table that sends racks
        server.show(3, shot)
    client = Client(server.url)
    status, view = client.get("/api/watch/3")
    final = shots[-1]
    assert status == 200 and [m["notation"] for m in view["moves"]] == MOVES
    assert all("rack" not in m for m in view["moves"])  # what the mover kept is not the spectators' business
    assert view["board"] == final["board"] and view["premiums"] == final["premiums"]
    assert view["unseen"] == final["unseen"] and view["bag"] == final["bag"] and len(view["unseen"]) > view["bag"]
    assert view["last_play"] == final["last_play"] and view["last"]["notation"] == "10E WE"
    assert view["spread"] == final["players"][0]["score"] - final["players"][1]["score"]
    assert view["to_play"] == 0 and view["values"]["Q"] == 10
    assert client.get("/api/watch/4") == (404, {"error": "table 4 has not reported to the broker",
                                                 "code": "no_table"})
    status, body = client.get("/tourney.js")
    assert status == 404 and body["code"] == "no_tsh_file" and "tourney.js" in body["error"]


def test_a_delay_in_moves_holds_back_the_overlay_and_the_live_gcg_never_the_director(cast: Any) -> None:
    server = cast()
    client = Client(server.url)
    shots = played(real_table(), MOVES)
    server.online(3)
    server.show(3, shots[0])
    assert client.post("/api/broadcast/delay", {"moves": 2}, key=None)[1]["code"] == "key_required"
    assert client.post("/api/broadcast/delay", {"moves": 2}, key="wrong-key")[1]["code"] == "key_wrong"
    assert client.post("/api/broadcast/delay", {"moves": 2, "seconds": 3})[1]["code"] == "invalid"
    assert client.post("/api/broadcast/delay", {"moves": 2}) == (200, {"ok": True,
                                                                       "delay": {"moves": 2, "seconds": 0}})
    for shot in shots[1:]:
        server.show(3, shot)
    status, view = client.get("/api/watch/3")
    assert status == 200
    assert [m["notation"] for m in view["moves"]] == MOVES[:2] and view["delay"]["moves"] == 2
    assert view["board"] == shots[2]["board"]
    assert not any(p["clock"]["running"] for p in view["players"])
    live = client.get("/gcg/3.gcg")[1]
    assert "7H AX" in live and "9F JOE" not in live and "#incomplete" in live
    (brief,) = client.get("/api/watch")[1]  # every table in brief: through the delay as well
    assert [p["score"] for p in brief["players"]] == [p["score"] for p in shots[2]["players"]]
    director_view = client.get("/api/table/3")[1]  # the director's own: everything, at once
    assert [m["notation"] for m in director_view["moves"]] == MOVES
    assert client.get("/api/broadcast")[1]["delay"] == {"moves": 2, "seconds": 0}


def test_a_delay_in_seconds_on_the_directors_clock(cast: Any) -> None:
    server = cast(delay=Delay(seconds=120))
    client = Client(server.url)
    shots = played(real_table(), MOVES)
    server.online(3)
    server.show(3, shots[0])
    server.tick(30)
    for shot in shots[1:]:
        server.show(3, shot)  # every move at t = 30 s
    stream = views(server.url, "table=3")
    first = next(stream)
    assert first["delay"]["waiting"] and first["moves"] == [] and first["board"] == shots[0]["board"]
    server.tick(90)  # 120 s after the first picture: the empty board of the start
    shown = next(stream)
    assert not (shown["delay"] or {}).get("waiting") and shown["moves"] == []
    server.tick(30)  # 120 s after the moves
    shown = next(stream)
    assert [m["notation"] for m in shown["moves"]] == MOVES
    assert client.get("/api/table/3")[1]["moves"][-1]["notation"] == "10E WE"


def test_a_slot_follows_the_table_the_director_aims_it_at(cast: Any) -> None:
    server = cast()
    client = Client(server.url)
    server.online(3)
    server.online(4)
    server.show(3, played(real_table(("Ann", "Bo")), MOVES[:1])[-1])
    server.show(4, played(real_table(("Cy", "Di")), MOVES[:2])[-1])
    stream = views(server.url, "slot=2")
    assert next(stream) == {"table": None, "empty": True, "slot": 2}
    assert client.post("/api/broadcast/slot/2", {"table": 3}, key=None)[1]["code"] == "key_required"
    assert client.post("/api/broadcast/slot/2", {"table": "three"})[1]["code"] == "invalid"
    assert client.post("/api/broadcast/slot/99", {"table": 3})[1]["code"] == "invalid"
    assert client.post("/api/broadcast/slot/2", {"table": 3}) == (200, {"ok": True, "slot": 2, "table": 3})
    view = next(stream)
    assert view["table"] == 3 and view["players"][0]["name"] == "Ann"
    client.post("/api/broadcast/slot/2", {"table": 4})
    view = next(stream)
    assert view["table"] == 4 and view["players"][0]["name"] == "Cy"
    server.show(4, played(real_table(("Cy", "Di")), MOVES[:3])[-1])  # the table plays on: the slot shows it
    assert len(next(stream)["moves"]) == 3
    assert client.get("/api/broadcast")[1]["slots"] == {"2": 4}
    # the slots are the director's store's: a director started again on it aims them as before
    assert server.store.meta("broadcast_slots") == {"2": 4}


def test_the_feed_follows_the_games_as_they_end(cast: Any, wait: Any) -> None:
    """The tsh file in the store, two games of its round 2 (tables 1 and 2 of division A): the first answer
    reads every game, later ones only the games that ended since."""
    from tournament.pairings import parse_tourney_js, tsh_round

    fixture = (Path(__file__).parents[1] / "fixtures" / "tourney.js").read_text(encoding="utf-8")
    server = cast()
    client = Client(server.url)
    games = {g.table: g for g in tsh_round(parse_tourney_js(fixture), 2, table_offsets={"B": 10})[0]}
    server.call(lambda: server.store.set_meta("tourney_js", fixture))
    for table in (1, 2):
        game = games[table]
        server.call(lambda g=game: server.store.assign_game(g.table, 1, 2, g.division, list(g.ids)))
        server.online(table)
    shots = {t: played(real_table(games[t].players), MOVES[:2])[-1] for t in (1, 2)}

    def ended(shot: dict[str, Any]) -> dict[str, Any]:
        return {**shot, "state": "ended", "result": {"winners": [0], "reason": "score"}}

    server.show(1, ended(shots[1]))
    server.show(2, shots[2])
    feed = parse_tourney_js(client.get("/tourney.js")[1])
    a, b = games[1].ids
    assert a is not None and b is not None
    assert [feed.divisions["A"][a].scores[1], feed.divisions["A"][b].scores[1]] == \
        [p["score"] for p in shots[1]["players"]]
    writes = server.broadcast.feed.writes
    server.show(2, ended(shots[2]))
    c, d = games[2].ids
    assert c is not None and d is not None

    def scores() -> list[int]:
        text = client.get("/tourney.js")[1]
        division = parse_tourney_js(text).divisions["A"]
        return [division[c].scores[1] if len(division[c].scores) > 1 else -1, division[d].scores[1]
                if len(division[d].scores) > 1 else -1]

    wait(lambda: scores() == [p["score"] for p in shots[2]["players"]], what="table 2's scores in the feed")
    assert server.broadcast.feed.writes == writes + 1


def test_the_slots_and_the_delay_stay_over_a_restart_of_the_director(tmp_path: Path) -> None:
    first = CastServer(tmp_path / "state")
    try:
        client = Client(first.url)
        assert client.post("/api/broadcast/slot/3", {"table": 12})[0] == 200
        assert client.post("/api/broadcast/delay", {"seconds": 90})[0] == 200
    finally:
        first.stop()
    again = CastServer(tmp_path / "state", delay=Delay(moves=1))  # the file says 1 move; the page said 90 s
    try:
        info = Client(again.url).get("/api/broadcast")[1]
        assert info["slots"] == {"3": 12} and info["delay"] == {"moves": 0, "seconds": 90}
    finally:
        again.stop()
