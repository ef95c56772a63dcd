"""`referee hall init` and `referee hall start` (issue 25 item 2): a hall in one command.

The files are checked by the programs that read them (the table's and the director's configuration
parsers, mosquitto_passwd's hashes through a real Mosquitto, OpenCV reading the sheet's QR code), and the
whole hall is run end to end: init, `hall start` with a real Mosquitto and the director, four real tables
(`referee run --config`), a round paired and played, the results downloaded, the hall page looked at in
Chromium. Waits are on conditions with time limits, never on the clock.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main as referee_main
from referee.config import parse_config
from referee.hall.kit import HallError, HallPlan, parse_divisions, write_kit
from tournament.director.config import load as load_director
from tournament.testing.broker import free_port, mosquitto_path

from ..patience import patience
from ..referee.wordlists import write_word_list

needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason="mosquitto is not installed (make system-deps)")


def _wait_for(what: str, pred: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + patience(timeout)
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.1)  # polling a condition of other processes, not waiting for time to pass
    raise AssertionError(f"timed out waiting for {what}")


# --- the files ---------------------------------------------------------------------------------------------

def test_divisions_are_consecutive_tables_that_add_up() -> None:
    a, b = parse_divisions("A:12,b:8", 20)
    assert (a.name, a.tables[0], a.tables[-1]) == ("A", 1, 12)
    assert (b.name, b.tables[0], b.tables[-1]) == ("B", 13, 20)
    with pytest.raises(HallError, match="the divisions have 19 tables, --tables says 20"):
        parse_divisions("A:12,B:7", 20)
    with pytest.raises(HallError, match="'B' is not NAME:TABLES"):
        parse_divisions("A:12,B", 20)
    with pytest.raises(HallError, match="division A is named twice"):
        parse_divisions("A:10,a:10", 20)


@needs_mosquitto
def test_init_writes_files_the_referee_and_the_director_accept(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hall"
    assert referee_main(["hall", "init", "--tables", "20", "--divisions", "A:12,B:8", "--out", str(out),
                         "--event", "spring-open", "--name", "Spring Open"]) == 0
    said = capsys.readouterr().out
    assert "division B: tables 13-20, pairings offset B=12" in said
    pins = set()
    for n in range(1, 21):
        folder = out / "tables" / f"table-{n}"
        data = tomllib.loads((folder / "table.toml").read_text(encoding="utf-8"))
        assert data["tournament"]["credentials"] == "/etc/referee/broker.credentials"  # where the Pi keeps it
        data["tournament"]["credentials"] = str(folder / "broker.credentials")  # as if copied there
        config = parse_config(data, source=str(folder / "table.toml"))
        assert config.tournament is not None and config.tournament.table == n
        assert config.tournament.event == "spring-open" and config.tournament.broker.username == f"table-{n}"
        assert (folder / "broker.credentials").read_text().startswith(f"table-{n}:")
        assert (folder / "broker.credentials").stat().st_mode & 0o077 == 0
        assert config.table.name == f"Table {n}"
        assert f"(division {'A' if n <= 12 else 'B'})" in (folder / "table.toml").read_text().splitlines()[0]
        pins.add(config.web.pin)
        assert (out / "sheets" / f"table-{n}.png").is_file()
    assert len(pins) == 20  # a PIN of its own for every table
    director = load_director(out / "director" / "director.toml")
    assert director.event == "spring-open" and director.credential
    assert director.broker.username == "director"
    acl = (out / "broker" / "tournament.acl").read_text()
    assert "user table-20" in acl and "topic write scrabble/spring-open/table/20/events" in acl
    hashed = (out / "broker" / "tournament.passwd").read_text().splitlines()
    assert len(hashed) == 22 and all(line.split(":", 1)[1].startswith("$") for line in hashed)  # no clear text


@needs_mosquitto
def test_init_again_keeps_logins_pins_and_the_key(tmp_path: Path) -> None:
    plan = HallPlan(tables=2, event="club", trial=True, lexicon="words.txt")
    first = write_kit(plan, tmp_path)
    login = (tmp_path / "tables" / "table-1" / "broker.credentials").read_text()
    key = (tmp_path / "director" / "director.key").read_text()
    second = write_kit(HallPlan(tables=3, event="club", trial=True, lexicon="words.txt"), tmp_path)
    assert {n: second.pins[n] for n in (1, 2)} == first.pins
    assert (tmp_path / "tables" / "table-1" / "broker.credentials").read_text() == login
    assert (tmp_path / "director" / "director.key").read_text() == key
    assert 3 in second.pins


@needs_mosquitto
def test_the_sheet_shows_the_pin_and_a_qr_code_of_the_page(tmp_path: Path) -> None:
    import cv2

    kit = write_kit(HallPlan(tables=3, event="club", page_url="http://scrabble-{n}.local:8080/"), tmp_path)
    image = cv2.imread(str(tmp_path / "sheets" / "table-3.png"))
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text == kit.urls[3] == "http://scrabble-3.local:8080/"
    assert kit.pins[3] in (tmp_path / "tables" / "table-3" / "table.toml").read_text()


def test_bad_options_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert referee_main(["hall", "init", "--tables", "0", "--out", str(tmp_path)]) == 2
    assert "referee hall: --tables 0: give 1 to 999 tables" in capsys.readouterr().err
    assert referee_main(["hall", "init", "--tables", "2", "--out", str(tmp_path), "--event", "a b"]) == 2
    assert "referee hall: --event 'a b':" in capsys.readouterr().err
    assert referee_main(["hall", "start", str(tmp_path / "nowhere")]) == 1
    assert "hall.toml: cannot read it" in capsys.readouterr().err


@needs_mosquitto
def test_logins_is_the_old_tournament_acl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert referee_main(["hall", "logins", "--event", "open-2026", "--tables", "1-3", "--acl", str(tmp_path / "acl"),
                         "--passwords", str(tmp_path / "passwd"), "--credentials-dir", str(tmp_path / "cred")]) == 0
    assert "3 tables" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "cred").iterdir()) == [
        "director.credentials", "table-1.credentials", "table-2.credentials", "table-3.credentials",
        "viewer.credentials"]


# --- the whole hall ----------------------------------------------------------------------------------------

class Api:
    """A page's HTTP API as a script uses it: the session cookie and token, the PIN or the director key."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        self.base = base.rstrip("/")
        self.headers = headers
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def get(self, path: str) -> Any:
        try:
            with self.opener.open(self.base + path, timeout=5) as r:
                body = r.read()
                return json.loads(body) if r.headers.get_content_type() == "application/json" else body.decode()
        except OSError:
            return None

    def post(self, path: str, body: dict[str, Any]) -> Any:
        if not self.token:
            self.token = self.get("/api/session")["token"]
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": self.token,
                                              **self.headers})
        try:
            with self.opener.open(req, timeout=15) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{path}: {exc.code} {exc.read().decode(errors='replace')}") from None


def _free_block(count: int) -> int:
    """A base port whose next `count` ports are all free now (the trial's pages)."""
    for _ in range(50):
        base = free_port()
        if base + count > 65535:
            continue
        sockets = []
        try:
            for i in range(1, count + 1):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", base + i))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise AssertionError("no block of free ports")


def _free_outside(base: int, count: int) -> int:
    """A free port that is none of the pages' ports base+1 .. base+count (none is bound yet)."""
    while True:
        port = free_port()
        if not base < port <= base + count:
            return port


@pytest.fixture
def started_hall(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make system-deps)")
    words = tmp_path / "words.txt"
    write_word_list(words, ["QI", "ZA", "QUIZ"])  # padded to the minimum a table takes (issue 26)
    out = tmp_path / "hall"
    pages = _free_block(4)
    broker_port, director_port = _free_outside(pages, 4), _free_outside(pages, 4)
    while director_port == broker_port:
        director_port = _free_outside(pages, 4)
    assert referee_main(["hall", "init", "--tables", "4", "--divisions", "A:2,B:2", "--out", str(out), "--trial",
                         "--event", "club-night", "--name", "Club Night", "--lexicon", str(words),
                         "--broker-port", str(broker_port), "--director-port", str(director_port),
                         "--page-port", str(pages)]) == 0
    proc = subprocess.Popen([sys.executable, "-m", "referee", "hall", "start", str(out), "--tables", "1-4"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    assert proc.stdout is not None
    seen: list[str] = []
    while not any("Ctrl-C stops them" in line for line in seen):
        line = proc.stdout.readline()
        assert line, "referee hall start ended: " + "".join(seen)
        seen.append(line)
    try:
        yield out, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        proc.stdout.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_hall_from_init_to_results(started_hall: tuple[Path, subprocess.Popen[str]], browser: Any,
                                     tmp_path: Path) -> None:
    out, proc = started_hall
    hall = tomllib.loads((out / "hall.toml").read_text())
    key = (out / "director" / "director.key").read_text().strip()
    director = Api(f"http://127.0.0.1:{hall['director_port']}", {"X-Director-Key": key})
    def four_online() -> bool:
        if proc.poll() is not None:  # a process of the hall ended: say what the tables and the director said
            logs = [*sorted((out / "tables").glob("*/referee.out")), out / "director" / "director.out"]
            raise AssertionError("referee hall start ended: " + "\n".join(
                f"{log}: {log.read_text(errors='replace')[-800:]}" for log in logs if log.is_file()))
        return len([x for x in director.get("/api/tables") or [] if x.get("online")]) == 4

    _wait_for("four tables online at the director", four_online, timeout=90)

    pairings = "round,table,player1,player2,first,division\n" + "".join(
        f"1,{n},Ann {n},Ben {n},1,{'A' if n <= 2 else 'B'}\n" for n in range(1, 5))
    answer = director.post("/api/pairings", {"format": "csv", "text": pairings, "round": 1})
    assert answer["ok"] and len(answer["games"]) == 4

    tables: dict[int, Api] = {}
    for n in range(1, 5):
        config = tomllib.loads((out / "tables" / f"table-{n}" / "table.toml").read_text())
        tables[n] = Api(f"http://127.0.0.1:{config['web']['port']}", {"X-Table-PIN": config["web"]["pin"]})
        _wait_for(f"table {n}'s new game with its pairing", lambda t=tables[n], n=n: (s := t.get("/api/snapshot"))
                  and [p["name"] for p in s["players"]] == [f"Ann {n}", f"Ben {n}"])
    started = director.post("/api/command/start", {"tables": "all", "args": {}, "wait": 10})
    assert sorted(started["acked"]) == [1, 2, 3, 4] if "acked" in started else started["ok"]
    for n, api in tables.items():
        _wait_for(f"table {n} started", lambda api=api: api.get("/api/snapshot")["state"] == "turn")
        for _ in range(6):  # six scoreless turns end the game
            api.post("/api/control/pass", {})
        _wait_for(f"table {n} asking the racks", lambda api=api: api.get("/api/snapshot")["state"] == "racks")
        api.post("/api/control/racks", {"player": 0, "tiles": "AEINRST" if n % 2 else "QZXJKVW"})
        api.post("/api/control/racks", {"player": 1, "tiles": "QZXJKVW" if n % 2 else "AEINRST"})
        snap = _wait_for(f"table {n} ended", lambda api=api: (s := api.get("/api/snapshot"))["state"] == "ended" and s)
        assert snap["result"] is not None

    # the director hears each table's end in its own time: wait until every game of the round is in
    _wait_for("every game of the round ended at the director",
              lambda: (r := director.get("/results/round/1.json")) and sum(g["ended"] for g in r["games"]) == 4)
    # CSV pairings carry no tsh player numbers: tsh's text holds no line for them (tsh would leave its prompt at
    # a line it does not understand), and the header counts the games to enter by hand (listed in the zip)
    with director.opener.open(director.base + "/results/round/1/tsh.txt", timeout=5) as answer:
        assert answer.headers["X-Tsh-Notes"] == "4" and answer.read().decode() == ""
    csv_text = director.get("/results/round/1.csv")
    for n in range(1, 5):
        assert f"Ann {n}" in csv_text and f"Ben {n}" in csv_text

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(director.base + "/")
        expect = pytest.importorskip("playwright.sync_api").expect
        expect(page.locator(".tile")).to_have_count(4, timeout=15000)
        shots = Path(os.environ.get("REFEREE_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "hall-after-round-1.png"), full_page=True)
        table_page = browser.new_page(viewport={"width": 390, "height": 844})
        table_page.goto(tables[3].base + "/")
        table_page.wait_for_selector("#board")
        table_page.screenshot(path=str(shots / "hall-table-3-ended.png"), full_page=True)
        table_page.close()
    finally:
        page.close()

    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0
    with pytest.raises(OSError):  # the broker is gone with it
        socket.create_connection(("127.0.0.1", hall["broker_port"]), timeout=1).close()


@needs_mosquitto
def test_a_trial_broker_listens_on_loopback_and_a_halls_on_every_interface(tmp_path: Path) -> None:
    write_kit(HallPlan(tables=1, trial=True, lexicon="w.txt"), tmp_path / "trial")
    write_kit(HallPlan(tables=1), tmp_path / "hall")
    assert "listener 1883 127.0.0.1\n" in (tmp_path / "trial" / "broker" / "trial.conf").read_text()
    assert "listener 1883\n" in (tmp_path / "hall" / "broker" / "trial.conf").read_text()
