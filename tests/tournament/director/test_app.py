"""The director's HTTP side on a real broker: commands behind the director key, pairings in, results out."""

from __future__ import annotations

import http.cookiejar
import io
import json
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

from referee.words import say
from tournament.testing.simhall import SimTable

from ...referee.gcg_strict import check_strictly

FIXTURES = Path(__file__).parents[1] / "fixtures"
pytestmark = pytest.mark.slow


class Client:
    """A browser-like HTTP client: keeps the session cookie and sends the CSRF token it was given."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = self.get("/api/session")[1]["token"]

    def get(self, path: str) -> tuple[int, Any]:
        with self.opener.open(self.base + path, timeout=10) as response:
            body = response.read()
            kind = response.headers.get("Content-Type", "")
            return response.status, json.loads(body) if "json" in kind else body

    def post(self, path: str, data: Any, *, key: str | None = None, token: bool = True,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(self.base + path, json.dumps(data).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        if key is not None:
            request.add_header("X-Director-Key", key)
        if token:
            request.add_header("X-CSRF-Token", self.token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with self.opener.open(request, timeout=15) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


def test_commands_are_refused_without_the_director_key(director_server: Any, sim_tables: Any) -> None:
    (table,) = sim_tables([9])
    server = director_server(free_attempts=2, base_delay=30.0)
    client = Client(server.url)
    command = {"tables": "all", "args": {}}
    assert client.post("/api/command/pause", command)[0:1] == (401,)
    assert client.post("/api/command/pause", command, key="wrong-key-1")[1]["code"] == "key_wrong"
    status, body = client.post("/api/command/pause", command, key="hall-key-2026", token=False)
    assert (status, body["code"]) == (403, "cross_site")
    status, body = client.post("/api/command/pause", command, key="hall-key-2026",
                               headers={"Origin": "http://evil.example"})
    assert (status, body["code"]) == (403, "cross_site")
    assert client.post("/api/command/pause", command, key="wrong-key-2")[1]["code"] == "key_wrong"
    status, body = client.post("/api/command/pause", command, key="wrong-key-3")
    assert (status, body["code"]) == (403, "key_wrong") and "wait 30 s" in body["error"]
    status, body = client.post("/api/command/pause", command, key="hall-key-2026")  # even the right key waits
    assert (status, body["code"]) == (429, "rate_limited")
    assert table.applied == []  # nothing reached the table
    status, body = client.post("/api/command/replay", command, key="hall-key-2026")
    assert (status, body["code"]) == (404, "unknown_command")


def test_without_a_credential_there_is_no_command_at_all(director_server: Any, sim_tables: Any) -> None:
    (table,) = sim_tables([8])
    server = director_server(credential=None)
    client = Client(server.url)
    assert client.get("/api/session")[1]["control"] is False
    status, body = client.post("/api/command/pause", {"tables": [8]}, key="anything-at-all")
    assert (status, body["code"]) == (403, "control_disabled")
    assert table.applied == []


def test_a_command_reaches_its_table_and_comes_back_acknowledged(director_server: Any, sim_tables: Any) -> None:
    tables = sim_tables([1, 2])
    server = director_server()
    client = Client(server.url)
    status, body = client.post("/api/command/adjust_time", {"tables": [2], "args": {"player": 1, "seconds": -60}},
                               key="hall-key-2026")
    assert status == 200 and body["acks"] == {"2": {"ok": True, "error": None, "code": None}}
    assert tables[1].players[1]["clock"]["remaining_ms"] == 25 * 60000 - 60000 and tables[0].applied == []
    status, body = client.post("/api/command/undo", {"tables": [1]}, key="hall-key-2026")
    assert body["acks"]["1"] == {"ok": False, "code": "undo_not_now",
                                 "error": say("refusals", "undo_not_now", "en", state="waiting")}
    status, body = client.post("/api/command/correct_score", {"tables": [1], "args": {"player": 0}},
                               key="hall-key-2026")
    assert (status, body["code"]) == (400, "invalid") and "points" in body["error"]


def test_a_round_from_tourney_js_to_the_tsh_lines_and_the_zip(director_server: Any, sim_tables: Any, wait: Any,
                                                              table_moves: list[dict[str, Any]], tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    tables: list[SimTable] = sim_tables([1, 2, 11, 12])
    server = director_server()
    client = Client(server.url)
    # a binary file read as text and sent as CSV: a refusal that says why, not HTTP 500 and a traceback
    noise = bytes((i * 97 + 13) % 256 for i in range(4000)).decode("latin-1")
    status, body = client.post("/api/pairings", {"format": "csv", "text": noise, "round": 1}, key="hall-key-2026")
    assert (status, body["code"]) == (400, "invalid") and "not a CSV text file" in body["error"]
    text = (FIXTURES / "tourney.js").read_text(encoding="utf-8")
    status, body = client.post("/api/pairings", {"format": "tsh", "text": text, "round": 1, "offsets": {"B": 10}},
                               key="hall-key-2026")
    assert status == 200, body
    assert body["byes"] == ["A Brett Cappelletto"]
    # every table got its players for the round, first player first, as a new game
    wait(lambda: all(t.game == 2 for t in tables), what="every table to start the round's game")
    assert [p["name"] for p in tables[1].players] == ["Jackson Smylie", "Will Anderson"]
    assert [p["name"] for p in tables[2].players] == ["Anna Müller", "Dirk Fischer"]
    wait(lambda: server.call(lambda: all(server.director.tables[t.number].round == 1 for t in tables)),
         what="the director to put every game in round 1")
    # table 1 leaves its round's game empty and starts another with the same players: the real one
    with tables[0].lock:
        tables[0]._new_game([p["name"] for p in tables[0].players], 0)
        tables[0].flush()
    wait(lambda: server.call(lambda: server.director.tables[1].game) == 3, what="table 1's second game")
    status, body = client.post("/api/command/start", {"tables": "all"}, key="hall-key-2026")
    assert sorted(body["acks"]) == ["1", "11", "12", "2"]
    for table in tables:
        for move in table_moves:
            table.play(move["notation"], move["score"], kind=move["kind"])
        table.end()
    wait(lambda: server.call(lambda: all(server.director.tables[t.number].snapshot.get("state") == "ended"
                                         for t in tables)), what="every game to end at the director")
    tsh = client.get("/results/round/1/tsh.txt")[1].decode()
    # tsh's addscore command per division, its game lines, the bye (player 5, 50), a blank line to leave it
    assert tsh == "a 1 A\n1 48 2 37\n4 48 3 37\n5 50\n\na 1 B\n1 48 4 37\n3 48 2 37\n\n"
    both = client.get("/results/round/1/tsh.txt?entry=both")[1].decode()
    assert both.splitlines()[:4] == ["a 1 A", "1 48 2 37 11", "4 48 3 37 11", "5 50"]
    status, data = client.get("/results/round/1.zip")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path / "zip")
    gcg = sorted((tmp_path / "zip/round01/gcg").iterdir())
    assert len(gcg) == 4
    assert "#description Test Open, round 1, division B, table 12" in gcg[-1].read_text(encoding="utf-8").splitlines()
    # every line of every record is one Macondo's reader takes (issue 24 row 7)
    assert [check_strictly(f.read_text(encoding="utf-8")).problems for f in gcg] == [[]] * 4
    assert gcg[0].name == "round01-A-table001-game3-Nigel_Richards-Joey_Krafchick.gcg"
    assert [f.name for f in (tmp_path / "zip/round01/abandoned").iterdir()] == [
        "round01-A-table001-game2-Nigel_Richards-Joey_Krafchick.gcg"]
    rows = (tmp_path / "zip/round01/results.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 5 and sum(",1-" in row for row in rows) == 1  # one row for table 1: its game 3
    from referee.cli import main as referee_main

    assert referee_main(["gcg", "check", str(tmp_path / "zip/round01/gcg")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "checked 4 games, 24 plays, 0 mismatches"
    live = client.get("/gcg/11.gcg")[1].decode()
    assert "#player1 Anna_Müller Anna Müller" in live and ">Anna_Müller: IQ 8G QI +22 22" in live
    assert check_strictly(live).problems == []


def test_a_restarted_director_comes_back_with_every_event(director_server: Any, sim_tables: Any, wait: Any) -> None:
    tables: list[SimTable] = sim_tables([3, 4])
    first = director_server(state="hall")
    tables[0].play("8D QUIZ", 30)

    def stored(server: Any, table: SimTable) -> bool:
        return bool(server.call(lambda: server.store.event_seqs(table.number, 1)) ==
                    list(range(len(table.journal[1]))))

    wait(lambda: stored(first, tables[0]), what="table 3's events at the director")
    first.stop()
    tables[0].play("9D AB", 5)  # while the director is away
    tables[1].play("8D ZAX", 19)
    again = director_server(state="hall")
    assert again.call(lambda: again.director.tables[3].snapshot["players"][0]["score"]) == 30  # from its store
    wait(lambda: stored(again, tables[0]) and stored(again, tables[1]), what="every event after the restart")
    wait(lambda: again.call(lambda: again.director.tables[4].tile()["players"][0]["score"]) == 19,
         what="table 4's score after the restart")
    wait(lambda: again.call(lambda: [p["score"] for p in again.director.tables[3].tile()["players"]]) == [30, 5],
         what="table 3's move made while the director was away")


def test_after_a_restart_the_hall_is_whole_within_seconds(director_server: Any, sim_tables: Any, wait: Any) -> None:
    """A restarted director (a clean stop too) re-joined its kept session with "retained only for a new
    subscription": no retained status came, every tile stayed offline for ever and "Start the round" reached
    0 of 0 tables. A new process asks for the retained statuses and snapshots on its first subscription."""
    tables: list[SimTable] = sim_tables([5, 6])
    first = director_server(state="hall")
    wait(lambda: first.call(lambda: all(first.director.tables[t].online for t in (5, 6)
                                        if t in first.director.tables) and len(first.director.tables) == 2),
         what="both tables online at the first director")
    tables[0].play("8D QUIZ", 30)
    first.stop()
    again = director_server(state="hall")
    wait(lambda: again.call(lambda: [s.online for _, s in sorted(again.director.tables.items())]) == [True, True],
         timeout=5, what="every table online within seconds of the restart")
    client = Client(again.url)
    status, body = client.post("/api/command/start", {"tables": "all"}, key="hall-key-2026")
    assert status == 200 and body["expected"] == [5, 6] and sorted(body["acks"]) == ["5", "6"]


def test_a_command_while_the_broker_is_down_is_refused_not_applied_later(
        director_server: Any, sim_tables: Any, broker: Any, wait: Any) -> None:
    """With the broker down, a command was answered `ok: true` and applied 164 s later, past the documented
    120 s expiry (paho queues it in the director's process, where no expiry runs). It is refused at once."""
    (table,) = sim_tables([8])
    server = director_server()
    client = Client(server.url)
    broker.kill()
    wait(lambda: not server.link.client.is_connected(), what="the director to see the broker gone")
    status, body = client.post("/api/command/pause", {"tables": [8]}, key="hall-key-2026")
    assert (status, body["code"]) == (503, "no_broker") and "broker" in body["error"]
    broker.start()
    wait(lambda: server.link.client.is_connected() and table.connected.is_set(), timeout=20,
         what="the director and the table back on the broker")
    # (start, not resume: as a real table, the simulated one refuses a resume of a game that is not paused)
    status, body = client.post("/api/command/start", {"tables": [8]}, key="hall-key-2026")
    assert status == 200 and [c.cmd for c in table.applied] == ["start"]  # the refused pause never came
