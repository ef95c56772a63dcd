"""A round that runs itself, without a broker: the director's HTTP side on aiohttp's test server with a fake
sender. Pairings from a spreadsheet's CSV, the round's progress, closing it, results the director enters for
a dead table (kept apart, marked), and the next round loaded from tsh's tourney.js when tsh has paired it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from tournament.director.app import create_app
from tournament.director.core import Director
from tournament.director.store import Store

FIXTURES = Path(__file__).parents[1] / "fixtures"
Sent = list[tuple[int | None, str, dict[str, Any], str]]


class OpenGuard:
    """Lets every request command: these tests are about rounds, not about the key (test_app.py is)."""

    enabled = True

    def token_for(self, session_id: str) -> str:
        return "token"

    def check(self, *, client: str | None, credential: str | None, session_id: str | None, token: str | None,
              headers: Mapping[str, str], host: str) -> None:
        return None


def make(tmp_path: Path) -> tuple[Director, Sent]:
    sent: Sent = []
    director = Director("ev", Store(tmp_path / "d.sqlite3"), name="Club Night")
    director.sender = lambda table, cmd, args, cid: sent.append((table, cmd, args, cid))
    return director, sent


def with_client(director: Director, body: Callable[[TestClient[Any, Any]], Awaitable[Any]], *, guard: Any = None,
                **app: Any) -> Any:
    """Run `body` against the director's app on a loop of its own thread (see test_core.py: why a thread)."""
    async def run() -> Any:
        async with TestClient(TestServer(create_app(director, guard or OpenGuard(), **app))) as client:
            return await body(client)

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(run())).result(timeout=60)


async def post(client: TestClient[Any, Any], path: str, data: Any) -> tuple[int, Any]:
    response = await client.post(path, json=data)
    return response.status, await response.json()


def test_pairings_csv_from_a_spreadsheet_over_http(tmp_path: Path) -> None:
    """A Mac's CR-only CSV and a German spreadsheet's semicolon CSV, sent as the hall page sends them."""
    director, sent = make(tmp_path)
    mac = "round,table,player1,player2,first\r1,1,Ann,Ben,1\r1,2,Cid,Dan,2\r"
    german = "\ufeffRunde;Tisch;Spieler1;Spieler2;Beginnt\r\n2;1;Jörg Groß;Ümit Öz;2\r\n2;2;Eva;Frank;1\r\n"

    async def body(client: TestClient[Any, Any]) -> list[tuple[int, Any]]:
        return [await post(client, "/api/pairings", {"format": "csv", "text": mac, "round": 1}),
                await post(client, "/api/pairings", {"format": "csv", "text": german, "round": 2})]

    (s1, b1), (s2, b2) = with_client(director, body)
    assert (s1, [g["players"] for g in b1["games"]]) == (200, [["Ann", "Ben"], ["Cid", "Dan"]])
    assert (s2, [g["players"] for g in b2["games"]]) == (200, [["Jörg Groß", "Ümit Öz"], ["Eva", "Frank"]])
    assert [(t, a["players"], a["first"]) for t, cmd, a, _ in sent][-2:] == [
        (1, ["Jörg Groß", "Ümit Öz"], 1), (2, ["Eva", "Frank"], 0)]


def _tourney_with_rounds(rounds: int) -> str:
    """The fixture tourney.js as tsh writes it after pairing `rounds` rounds (the later ones not paired yet)."""
    import json

    from tournament.pairings import tourney_data

    data = tourney_data((FIXTURES / "tourney.js").read_text(encoding="utf-8"))
    for division in data["divisions"]:
        for player in division["players"][1:]:
            player["pairings"] = player["pairings"][:rounds]
            player["scores"] = player["scores"][:rounds - 1]
            for key in ("p12", "board"):
                if key in player.get("etc", {}):
                    player["etc"][key] = player["etc"][key][:rounds]
    return "newt=" + json.dumps(data, ensure_ascii=False) + ";"


def _play(director: Director, table: int, players: list[str], scores: tuple[int, int] | None) -> None:
    """A table's game of its pairing reaching the director: its header, then (with scores) its end."""
    from tournament.payloads import EventMessage, SnapshotMessage

    game = (director.tables[table].game or 0) + 1 if table in director.tables else 1
    director.on_event(EventMessage(table, game, 0, "game", {"players": players, "name": f"Table {table}"}, 0.0, "t"))
    state = "ended" if scores else "turn"
    snap = {"state": state, "players": [{"name": n, "score": s} for n, s in zip(players, scores or (0, 0),
                                                                                strict=True)],
            "moves": [{"kind": "play", "player": 0, "notation": "8D QUIZ", "score": scores[0] if scores else 0,
                       "total": scores[0] if scores else 0}],
            "result": {"winners": [0 if scores[0] > scores[1] else 1]} if scores else None}
    director.on_snapshot(SnapshotMessage(table, game, 5, snap))


def test_a_round_from_tsh_to_a_result_entered_for_a_dead_table(tmp_path: Path) -> None:
    from tournament.director.rounds import TshWatch, progress

    director, sent = make(tmp_path)
    tourney = tmp_path / "tourney.js"
    tourney.write_text(_tourney_with_rounds(1), encoding="utf-8")
    watch = TshWatch(director, tourney, {"B": 10})
    assert watch.check() == 1  # no round yet: round 1 goes at once
    seated = {t: a["players"] for t, cmd, a, _ in sent if cmd == "set_players"}
    assert sorted(seated) == [1, 2, 11, 12, 21, 22]
    for table, players in seated.items():
        if table != 22:  # table 22's Pi is dead: nothing of its game reaches the director
            _play(director, table, players, (400 + table, 350) if table != 12 else None)
    done = progress(director)
    assert done is not None and done["text"] == "round 1: 4 of 6 finished" and done["unfinished"] == [12, 22]
    _play(director, 12, seated[12], (377, 390))  # table 12 finishes
    assert watch.check() is None and watch.waiting is None  # tsh has not paired round 2

    tourney.write_text(_tourney_with_rounds(2), encoding="utf-8")  # tsh pairs round 2
    assert watch.check() is None and watch.waiting == 2
    assert watch.state()["text"] == "tsh has paired round 2: sent when round 1 is finished or closed"
    before = len(sent)

    async def body(client: TestClient[Any, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"hall": await (await client.get("/api/hall")).json()}
        out["close"] = await post(client, "/api/round/close", {"round": 1})
        out["hall2"] = await (await client.get("/api/hall")).json()
        out["unpaired"] = await post(client, "/api/result", {"round": 1, "table": 9, "scores": [1, 2]})
        out["bad"] = await post(client, "/api/result", {"round": 1, "table": 22, "scores": [1, "x"]})
        out["enter"] = await post(client, "/api/result", {"round": 1, "table": 22, "scores": [350, 420],
                                                          "reason": "its Pi is dead; scores from the players' sheet"})
        out["correct"] = await post(client, "/api/result", {"round": 1, "table": 22, "scores": [352, 420]})
        out["csv"] = await (await client.get("/results/round/1.csv")).text()
        out["tsh"] = await (await client.get("/results/round/1/tsh.txt")).text()
        out["zip"] = await (await client.get("/results/round/1.zip")).read()
        out["round1"] = await (await client.get("/api/round/1")).json()
        return out

    out = with_client(director, body, tsh=watch)
    assert out["hall"]["round"]["text"] == "round 1: 5 of 6 finished"
    assert [t["table"] for t in out["hall"]["round"]["waiting_for"]] == [22]
    assert out["hall"]["tsh"]["waiting"] == 2 and out["hall"]["broker"]["connected"] is False
    status, closed = out["close"]
    assert status == 200 and closed["closed"] and closed["text"] == "round 1: 5 of 6 finished · closed"
    # closing round 1 let round 2 go: every table of tsh's round 2 got its players
    assert sorted(t for t, cmd, _, _ in sent[before:] if cmd == "set_players") == [1, 2, 11, 12, 22]
    assert out["hall2"]["round"]["text"] == "round 2: 0 of 5 finished" and out["hall2"]["tsh"]["loaded"] == 2
    assert out["unpaired"][0] == 400 and "table 9 has no pairing in round 1" in out["unpaired"][1]["error"]
    assert out["bad"][0] == 400 and "Jürgen Groß's score must be a whole number" in out["bad"][1]["error"]
    status, entry = out["enter"]
    assert status == 200 and entry["round"]["text"] == "round 1: 6 of 6 finished (1 entered by the director) · closed"
    row22 = next(t for t in out["correct"][1]["round"]["tables"] if t["table"] == 22)
    assert row22["status"] == "entered" and row22["scores"] == [352, 420]
    assert row22["entered"]["by"] == "director" and row22["entered"]["corrections"] == 1
    assert row22["entered"]["reason"] == ""  # a correction says its own reason (none here)
    rows = out["csv"].splitlines()
    assert rows[0].endswith(",game,entered_by") and len(rows) == 7
    row = next(r for r in rows if r.startswith("1,2,22,"))
    assert row.startswith("1,2,22,Ayşe Özdemir,352,Jürgen Groß,420,") and row.endswith(",22-director,director")
    assert sum(r.endswith(",director") for r in rows) == 1  # the tables' own results are unmarked
    # tsh's addscore takes the entered result as any other (no comment line: tsh would leave its prompt there);
    # the round's notes say where it came from
    assert "\n4 352 3 420\n" in out["tsh"] and "#" not in out["tsh"]
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(out["zip"])) as archive:
        gcg = [n for n in archive.namelist() if n.startswith("round01/gcg/")]
        notes = archive.read("round01/tsh-notes.txt").decode("utf-8")
    assert "table 22: Ayşe Özdemir 352 - Jürgen Groß 420: entered by director, not sent by the table" in notes
    assert len(gcg) == 5 and not any("table022" in n for n in gcg)  # no score sheet for the entered result
    assert [t["status"] for t in out["round1"]["tables"]] == ["finished"] * 5 + ["entered"]
    # table 1 starts its round 2 game: round 1 still says it finished (from the director's store)
    round2 = {t: a["players"] for t, cmd, a, _ in sent[before:] if cmd == "set_players"}
    _play(director, 1, round2[1], None)
    assert director.tables[1].round == 2
    done = progress(director, 1)
    assert done is not None and done["tables"][0]["status"] == "finished" and done["tables"][0]["scores"] == [401, 350]
    again = progress(director)
    assert again is not None and again["text"] == "round 2: 0 of 5 finished"
    assert [t["status"] for t in again["tables"]][:2] == ["playing", "waiting"]


def test_an_entered_result_replaces_the_tables_own_and_can_be_withdrawn(tmp_path: Path) -> None:
    from tournament.pairings import Pairing
    from tournament.results import results_json

    director, _ = make(tmp_path)
    director.send_pairings([Pairing(1, 5, "A", ("Ann", "Ben"), 0)])
    _play(director, 5, ["Ann", "Ben"], (300, 310))  # the table's own result, scored wrong on paper

    async def body(client: TestClient[Any, Any]) -> list[tuple[int, Any]]:
        return [await post(client, "/api/result", {"round": 1, "table": 5, "scores": [330, 310],
                                                   "reason": "ruling: a 30-point play was missed"}),
                (200, results_json(director.records())),
                await post(client, "/api/result", {"round": 1, "table": 5, "withdraw": True}),
                (200, results_json(director.records())),
                await post(client, "/api/result", {"round": 1, "table": 5, "withdraw": True})]

    (_, entered), (_, replaced), (_, withdrawn), (_, restored), again = with_client(director, body)
    import json

    assert entered["ok"] and entered["round"]["text"] == "round 1: 1 of 1 finished (1 entered by the director)"
    games, aside = json.loads(replaced)["games"], json.loads(replaced)["abandoned"]
    assert [(g["score1"], g["winner"], g["entered_by"]) for g in games] == [(330, "Ann", "director")]
    assert [(g["game"], g["status"]) for g in aside] == [("5-1", "replaced")]  # the table's record is kept
    assert withdrawn["withdrawn"] is True
    assert [(g["score1"], g["entered_by"]) for g in json.loads(restored)["games"]] == [(300, "")]
    assert again[0] == 400 and "no result entered by the director for table 5" in again[1]["error"]


def test_a_tsh_file_being_written_or_missing_is_said_and_read_again(tmp_path: Path, caplog: Any) -> None:
    from tournament.director.rounds import TshWatch

    director, sent = make(tmp_path)
    tourney = tmp_path / "tourney.js"
    watch = TshWatch(director, tourney, {"B": 10})
    assert watch.check() is None and watch.state()["text"].startswith(f"tsh: cannot read {tourney}")
    full = _tourney_with_rounds(1)
    tourney.write_text(full[: len(full) // 2], encoding="utf-8")  # tsh is still writing it
    assert watch.check() is None and "tourney.js: not tsh's tourney.js (Unterminated string" in (watch.error or "")
    assert sent == []
    director.sender = None  # the broker is away: nothing sent, tried again at the next look
    tourney.write_text(full, encoding="utf-8")
    assert watch.check() is None and watch.waiting == 1
    assert watch.state()["text"].startswith("tsh: round 1 not sent yet: the director is not connected")
    director.sender = lambda table, cmd, args, cid: sent.append((table, cmd, args, cid))
    assert watch.check() == 1 and watch.error is None and len(sent) == 6
    assert watch.check() is None and len(sent) == 6  # once
    assert sum("tsh file:" in r.getMessage() for r in caplog.records) == 3  # each new reason once


def test_closing_and_entering_need_the_director_key(tmp_path: Path) -> None:
    from tournament.director.access import DirectorGuard
    from tournament.pairings import Pairing

    director, _ = make(tmp_path)
    director.send_pairings([Pairing(1, 5, "A", ("Ann", "Ben"), 0)])

    async def body(client: TestClient[Any, Any]) -> list[int]:
        return [(await client.post(path, json=data)).status for path, data in (
            ("/api/round/close", {"round": 1}), ("/api/result", {"round": 1, "table": 5, "scores": [1, 2]}))]

    assert with_client(director, body, guard=DirectorGuard("hall-key-2026")) == [403, 403]  # no CSRF token
    assert director.store.meta("closed_rounds") is None and director.store.meta("entered_results") is None
