"""The service end to end on emulated hardware: the demo through the board emulator over a pty, the board
unplugged and replugged mid-turn, and SIGKILL of a real `referee run` process mid-turn and during a
challenge. Waits are on conditions with timeouts, never fixed sleeps."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.demo import DemoDriver, RecordJudge, load_record
from referee.service import TableService
from referee.sim.parts import sim_config, sim_parts

from ..patience import patience
from .wordlists import write_word_list

pytestmark = pytest.mark.pty


def wait_for(what: str, pred: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + patience(timeout)
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.02)  # polling a condition, not waiting for time to pass
    raise AssertionError(f"timed out waiting for {what}")


class Running:
    """A `TableService` of the simulated table with its loop on a thread."""

    def __init__(self, tmp_path: Path, **config: Any) -> None:
        cfg = sim_config(state_dir=tmp_path, web=False, **config)
        parts = sim_parts(cfg)
        self.judge = RecordJudge()
        parts.lexicon = self.judge
        self.service = TableService(parts)
        self._stop = threading.Event()
        self.service.start()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        wait_for("the board link", lambda: self.service.link.picture().connected)

    def _loop(self) -> None:
        while not self._stop.wait(0.02):
            self.service.step()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.service.close()


def driver(r: Running, record: Any, timeout_s: float = 20.0, **options: Any) -> DemoDriver:
    """The demo's robot players on a running service; their wait per step is a safety net, stretched on an
    emulated machine (tests/patience.py)."""
    return DemoDriver(r.service, record, r.judge, timeout_s=patience(timeout_s), **options)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    r = Running(tmp_path, fusion="sensors", clock_mode="tournament")
    yield r
    r.close()


def test_the_builtin_demo_plays_through_the_emulated_board(running: Running) -> None:
    result = driver(running, load_record(None)).run()
    assert result.mismatches == [] and result.compared == 10
    assert result.final == [("Anna", 77), ("Ben", 17)]


def test_a_recorded_tournament_game_to_its_end(running: Running, shared_dir: Path) -> None:
    record = load_record(str(shared_dir / "gcg" / "liwords" / "pkg_omgwords_testdata_vs_josh.gcg"))
    result = driver(running, record).run()
    assert result.mismatches == []
    assert result.state == "ended" and [s for _, s in result.final] == [457, 397]


def test_a_challenge_bonus_after_going_out_is_compared_in_the_records_order(tmp_path: Path,
                                                                           shared_dir: Path) -> None:
    """frentz goes out with RIMLAN.S, is challenged wrongly (+5), then gains the racks (+16): the engine
    writes the racks first; the demo adds both up in the record's order and finds no difference."""
    record = load_record(str(shared_dir / "gcg" / "macondo" / "gcgio_testdata_vs_frentz.gcg"))
    r = Running(tmp_path, fusion="sensors", clock_mode="none", challenge="five-point",
                players=tuple(p.name for p in record.players))
    try:
        result = driver(r, record).run()
        assert result.mismatches == []
        assert result.state == "ended" and result.final == [("cesar", 439), ("frentz", 550)]
    finally:
        r.close()


def test_the_tables_own_export_with_the_bonus_after_the_racks_plays_back(tmp_path: Path, shared_dir: Path) -> None:
    """The table writes a bonus for a challenge of the going-out play after the end racks (the engine
    counts the racks at once); the demo still challenges that play, and ends on the record's scores."""
    from game.gcg import parse_gcg

    text = (shared_dir / "gcg" / "macondo" / "gcgio_testdata_vs_frentz.gcg").read_text(encoding="utf-8")
    assert ">frentz:  (challenge) +5 534\n#note lame\n>frentz:  (AHNTT) +16 550" in text
    text = text.replace(">frentz:  (challenge) +5 534\n#note lame\n>frentz:  (AHNTT) +16 550",
                        ">frentz:  (AHNTT) +16 545\n>frentz:  (challenge) +5 550")
    record = parse_gcg(text)
    r = Running(tmp_path, fusion="sensors", clock_mode="none", challenge="five-point",
                players=tuple(p.name for p in record.players))
    try:
        result = driver(r, record).run()
    finally:
        r.close()
    assert result.mismatches == [] and result.compared == 25
    assert result.final == [("cesar", 439), ("frentz", 550)]


def test_a_record_line_the_robots_cannot_act_on_shows_in_the_final_scores(tmp_path: Path) -> None:
    from game.gcg import parse_gcg

    record = parse_gcg("#player1 Anna Anna\n#player2 Ben Ben\n>Anna: ?AEIQUZ 8E QUIZ +44 44\n"
                       ">Ben: AEPRSTX H8 .AP +14 14\n>Anna:  (time) -10 34\n")
    r = Running(tmp_path, fusion="sensors", clock_mode="none")
    try:
        result = driver(r, record).run()
    finally:
        r.close()
    assert result.mismatches == ["line 5 (>Anna:  (time) -10 34): engine total 44 at the end of the record, "
                                 "record 34"]


@pytest.mark.slow
def test_the_demo_with_the_synthetic_camera_fused(tmp_path: Path) -> None:
    r = Running(tmp_path, fusion="both", clock_mode="none")
    try:
        result = driver(r, load_record(None)).run()
        assert result.mismatches == [] and result.final == [("Anna", 77), ("Ben", 17)]
        assert r.service.camera is not None and r.service.camera.frames >= 5
    finally:
        r.close()


def _with_alert(table: Any, code: str) -> dict[str, Any] | None:
    snap = table.snapshot()
    return snap if any(a["code"] == code for a in snap["alerts"]) else None


def test_unplug_mid_turn_and_replug(running: Running) -> None:
    table, emu = running.service.table, running.service.link.emulator
    table.control("start", {})
    emu.place("E8", "Q")
    emu.place("F8", "U")
    wait_for("the first tiles", lambda: "E8" in table.machine.observed and "F8" in table.machine.observed)
    emu.unplug()
    snap = wait_for("the board lost", lambda: _with_alert(table, "board_lost"))
    assert snap["state"] == "turn" and snap["moves"] == []
    running.service.request_commit(0)  # a press on the Pi's own button while the board is away
    snap = wait_for("the refusal", lambda: _with_alert(table, "commit_refused"))
    assert snap["players"][0]["score"] == 0
    emu.place("G8", "I")  # laid while the board is unplugged: seen when it is back
    emu.place("H8", "Z")
    emu.replug()
    wait_for("the board back with every tile", lambda: not any(a["code"] == "board_lost" for a in table.snapshot()[
        "alerts"]) and {"E8", "F8", "G8", "H8"} <= table.machine.observed.keys(), timeout=20)
    emu.press(0)
    snap = wait_for("the play scored", lambda: (s := table.snapshot())["players"][0]["score"] and s)
    emu.release(0)
    assert snap["moves"][-1]["notation"] == "8E QUIZ" and snap["players"][0]["score"] == 44


# --- SIGKILL of a real service process -------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """The scoreboard's HTTP API, as a script uses it (docs/api.md)."""

    def __init__(self, port: int, pin: str) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.pin = pin
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def snapshot(self) -> dict[str, Any] | None:
        try:
            with self.opener.open(self.base + "/api/snapshot", timeout=2) as r:
                return json.loads(r.read())  # type: ignore[no-any-return]
        except OSError:
            return None

    def control(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        if not self.token:
            with self.opener.open(self.base + "/api/session", timeout=5) as r:
                self.token = json.loads(r.read())["token"]
        req = urllib.request.Request(self.base + f"/api/control/{action}", data=json.dumps(params).encode(),
                                     headers={"Content-Type": "application/json", "X-Table-PIN": self.pin,
                                              "X-CSRF-Token": self.token}, method="POST")
        with self.opener.open(req, timeout=5) as r:
            return json.loads(r.read())  # type: ignore[no-any-return]


def _start(config: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("ab") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen([sys.executable, "-m", "referee", "run", "--config", str(config)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)


def _same_game(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("state", "board", "moves", "bag", "unseen", "last_play", "pending"):
        if key == "pending" and "challenge" in before["pending"]:
            continue  # its countdown is compared with the clocks below
        assert after[key] == before[key], key
    for p_before, p_after in zip(before["players"], after["players"], strict=True):
        assert (p_after["score"], p_after["on_turn"]) == (p_before["score"], p_before["on_turn"])
        # The downtime is a pause: the clock resumes from the last heartbeat (every 2 s, later on a busy
        # machine) before the kill, so it may give back a little time but never charges the downtime.
        lost = p_before["clock"]["remaining_ms"] - p_after["clock"]["remaining_ms"]
        assert -4000 <= lost <= 1500, (p_before["clock"], p_after["clock"])


@pytest.mark.slow
def test_sigkill_mid_turn_and_during_a_challenge_resumes_the_same_game(tmp_path: Path) -> None:
    from firmware_bridge import EmulatedBoard, PtyEmulator

    port = _free_port()
    words = tmp_path / "words.txt"
    write_word_list(words, ("QUIZ", "ZA", "ZAS"))
    (tmp_path / "dev").mkdir()
    emu = PtyEmulator(EmulatedBoard(width=15, height=15, coded=True, buttons=2), link_dir=tmp_path / "dev").start()
    config = tmp_path / "table.toml"
    config.write_text(f"""
[table]
name = "Kill test"
state_dir = "{tmp_path / 'state'}"
[game]
players = ["Anna", "Ben"]
lexicon = "{words}"
challenge_window_s = 600
[clocks]
mode = "tournament"
[sensors]
board = "{emu.path}"
settle_ms = 0
[web]
host = "127.0.0.1"
port = {port}
pin = "730591"
""", encoding="utf-8")
    log = tmp_path / "service.log"
    client = Client(port, "730591")
    proc = _start(config, log)
    try:
        wait_for("the service", client.snapshot, timeout=60)
        client.control("start", {})
        for sq, ch in (("E8", "Q"), ("F8", "U"), ("G8", "I")):
            emu.place(sq, ch)
        wait_for("three tiles on the page", lambda: (client.snapshot() or {}).get("board", [""] * 8)[7][4:7] == "QUI")

        # 1. killed mid-turn: three tiles down, not committed
        before = client.snapshot()
        assert before is not None
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = _start(config, log)
        wait_for("the service again", client.snapshot, timeout=60)
        client.token = ""
        after = wait_for("the tiles seen again", lambda: (s := client.snapshot()) and s["board"][7][4:7] == "QUI" and s)
        _same_game(before, after)

        # 2. the turn goes on after the restart, and is killed during the challenge window
        emu.place("H8", "Z")
        wait_for("the fourth tile", lambda: (client.snapshot() or {}).get("board", [""] * 8)[7][4:8] == "QUIZ")
        emu.press(0)
        before = wait_for("the challenge window", lambda: (s := client.snapshot()) and s["state"] == "challenge" and s)
        emu.release(0)
        assert before["players"][0]["score"] == 44
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = _start(config, log)
        after = wait_for("the service once more", client.snapshot, timeout=60)
        client.token = ""
        _same_game(before, after)

        # 3. the challenge is still open and the game goes on: Ben challenges a good play and loses his turn
        snap = client.control("challenge", {"player": 1})["snapshot"]
        assert snap["players"][0]["on_turn"] and [m["kind"] for m in snap["moves"]] == ["play", "lost_turn"]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        emu.stop()
    assert "Traceback" not in log.read_text(encoding="utf-8"), log.read_text(encoding="utf-8")[-3000:]


def test_scramble_roll_read_from_the_dice_tray_then_a_play_scored(tmp_path: Path) -> None:
    r = Running(tmp_path, kind="scramble", fusion="sensors", clock_mode="none")
    try:
        table, emu = r.service.table, r.service.link.emulator
        r.judge.phonies.clear()
        table.control("start", {})
        dice = table.machine.game.dice_set.dice
        # Seven dice into the tray, each showing a face of that die: O, A, T and four others.
        wanted = ["O", "A", "T"]
        faces: list[tuple[int, int]] = []
        for d, die in enumerate(dice):
            letters = [f.letter for f in die.faces]
            pick = next((w for w in wanted if w in letters), None)
            if pick is not None:
                wanted.remove(pick)
                faces.append((d, letters.index(pick)))
            elif len(faces) < 7 and len(faces) + len(wanted) < 7:
                faces.append((d, 0))
        assert not wanted and len(faces) == 7
        for slot, (d, f) in enumerate(faces):
            emu.roll(slot, d, f)
        snap = wait_for("the roll read from the tray", lambda: (s := table.snapshot())["state"] == "turn" and s)
        assert sorted(snap["pending"]["rolled"]) == sorted(dice[d].faces[f].letter for d, f in faces)
        for sq, ch in (("D5", "O"), ("E5", "A"), ("F5", "T")):
            emu.place(sq, ch)
        wait_for("the dice on the mat", lambda: {"D5", "E5", "F5"} <= table.machine.observed.keys())
        emu.press(0)
        snap = wait_for("the play", lambda: (s := table.snapshot())["state"] == "challenge" and s)
        emu.release(0)
        assert snap["moves"][-1]["notation"] == "5D OAT" and snap["moves"][-1]["score"] == 6
    finally:
        r.close()


def test_the_pis_own_clock_and_challenge_buttons(running: Running) -> None:
    table, emu = running.service.table, running.service.link.emulator
    sim = running.service.parts.devices.sim  # gpiozero MockFactory pins (clock buttons on 5 and 6)
    table.control("start", {})
    for sq, ch in (("E8", "Q"), ("F8", "U"), ("G8", "I"), ("H8", "Z")):
        emu.place(sq, ch)
    wait_for("the tiles", lambda: len(table.machine.observed) == 4)
    sim.press(5)
    snap = wait_for("the commit", lambda: (s := table.snapshot())["state"] == "challenge" and s)
    sim.release(5)
    assert snap["players"][0]["score"] == 44
    sim.press(26)  # the challenge button: for the player whose turn comes next (Ben)
    snap = wait_for("the challenge", lambda: (s := table.snapshot())["state"] != "challenge" and s)
    sim.release(26)
    assert [m["kind"] for m in snap["moves"]] == ["play", "lost_turn"]  # QUIZ is good (double challenge)


@pytest.mark.slow
def test_camera_lost_mid_game_the_coded_board_keeps_the_game_going(tmp_path: Path) -> None:
    r = Running(tmp_path, fusion="both", clock_mode="none")
    try:
        service, table, emu = r.service, r.service.table, r.service.link.emulator
        assert service.camera is not None
        table.control("start", {})
        for sq, ch in (("E8", "Q"), ("F8", "U"), ("G8", "I"), ("H8", "Z")):
            emu.place(sq, ch)
        wait_for("the tiles", lambda: len(table.machine.observed) == 4)
        service.camera.source.fail = True  # the camera's cable comes out
        for _ in range(service.camera.lost_after):
            service.camera.read()
        service.request_commit(0)  # the camera fails at the commit; the coded board's letters stand
        snap = wait_for("the play", lambda: (s := table.snapshot())["state"] == "challenge" and s)
        assert snap["players"][0]["score"] == 44
        assert any(a["code"] == "camera_lost" for a in snap["alerts"])
        service.camera.source.fail = False
        service.camera.read()
        wait_for("the camera back", lambda: not any(a["code"] == "camera_lost" for a in table.snapshot()["alerts"]))
    finally:
        r.close()


class _FakeDice:
    """The dice tray as the camera's DiceReader reports it (vision's own tests cover the reading)."""

    def __init__(self, letters: str, confidence: float = 0.99) -> None:
        from types import SimpleNamespace

        self.readings = [SimpleNamespace(letter=ch, confidence=confidence, uncertain=False) for ch in letters]

    def read(self, frame: Any) -> list[Any]:
        return self.readings


def test_scramble_roll_read_by_the_camera_only_when_every_die_is_sure(tmp_path: Path) -> None:
    from referee.sensors import CameraPort

    r = Running(tmp_path, kind="scramble", fusion="sensors", clock_mode="none")
    try:
        service, table = r.service, r.service.table
        table.control("start", {})
        frame_source = type("Still", (), {"read": lambda self: None, "close": lambda self: None})()
        service.camera = CameraPort(frame_source, reader=None, dice_reader=_FakeDice("OATZEE?", confidence=0.5))
        service.dice_seen()
        assert table.snapshot()["state"] == "roll"  # a doubtful die: the roll waits to be typed in
        service.camera.dice_reader = _FakeDice("OATZE")
        service.dice_seen()
        assert table.snapshot()["state"] == "roll"  # five dice seen, seven to roll
        service.camera.dice_reader = _FakeDice("OATZEE?")
        service.dice_seen()
        snap = table.snapshot()
        assert snap["state"] == "turn" and sorted(snap["pending"]["rolled"]) == sorted("OATZEE?")
    finally:
        r.close()


def test_racks_left_read_by_the_camera_one_player_at_a_time(tmp_path: Path) -> None:
    from referee.sensors import CameraPort

    r = Running(tmp_path, fusion="sensors", clock_mode="none")
    try:
        service, table = r.service, r.service.table
        table.control("start", {})
        for player in (0, 1, 0, 1, 0, 1):  # six scoreless turns end the game; both racks are asked for
            before = len(table.snapshot()["moves"])
            service.request_commit(player)
            wait_for("the pass", lambda before=before: len(table.snapshot()["moves"]) > before)
        assert table.snapshot()["pending"]["racks"] == [0, 1]
        still = type("Still", (), {"read": lambda self: None, "close": lambda self: None})()
        service.camera = CameraPort(still, reader=None)
        service.camera.rack_reader = _FakeDice("AEEIOU")  # six tiles seen, Anna holds seven
        service.rack_seen()
        assert table.snapshot()["pending"]["racks"] == [0, 1]
        service.camera.rack_reader = _FakeDice("AEEIOUS")
        service.rack_seen()
        assert table.snapshot()["pending"]["racks"] == [1]
        service.camera.rack_reader = _FakeDice("BCDFGHJ", confidence=0.4)  # doubtful: typed on the page instead
        service.rack_seen()
        assert table.snapshot()["pending"]["racks"] == [1]
        service.camera.rack_reader = _FakeDice("BCDFGHJ")
        service.rack_seen()
        snap = table.snapshot()
        assert snap["state"] == "ended" and [m["score"] for m in snap["moves"][-2:]] == [-7, -26]
    finally:
        r.close()


@pytest.mark.parametrize("name", ["scramble_basic", "scramble_advanced"])
def test_scramble_records_play_through_the_emulated_mat(tmp_path: Path, name: str) -> None:
    path = Path(__file__).resolve().parents[1] / "game" / "data" / f"{name}.gcg"
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    record = load_record(str(path))
    r = Running(tmp_path, kind=record.variant, fusion="sensors", clock_mode="none",
                players=tuple(p.name for p in record.players))
    try:
        result = driver(r, record).run()
        assert result.mismatches == [] and result.state == "ended"
        assert result.final[0][1] == record.moves[-1].total
    finally:
        r.close()


def test_a_second_referee_on_the_same_journal_is_refused(running: Running) -> None:
    from referee.journal import JournalError
    from referee.service import ServiceParts

    config = running.service.config
    with pytest.raises(JournalError, match="another referee is writing this journal"):
        TableService(ServiceParts(config=config, lexicon=running.judge, web=False))


@pytest.mark.slow
def test_the_commit_reuses_a_frame_taken_after_the_last_tile(tmp_path: Path) -> None:
    r = Running(tmp_path, fusion="both", clock_mode="none")
    try:
        service, table, emu = r.service, r.service.table, r.service.link.emulator
        cam = service.camera
        assert cam is not None
        table.control("start", {})
        for sq, ch in (("E8", "Q"), ("F8", "U"), ("G8", "I"), ("H8", "Z")):
            emu.place(sq, ch)
        wait_for("the tiles", lambda: len(table.machine.observed) == 4)
        # the board's changes woke the camera thread: it looks at the board without waiting for its interval
        wait_for("a frame after the last tile", lambda: cam.last_at is not None and cam.last_at >= service._last_change)
        readers: list[str] = []
        read = cam.read

        def counting_read() -> Any:
            readers.append(threading.current_thread().name)
            return read()

        cam.read = counting_read  # type: ignore[method-assign]
        # "lately" is 2 s of wall clock on a PC; under qemu the commit comes later than that after the frame
        service.camera_fresh_s = patience(service.camera_fresh_s)
        service.request_commit(0)
        snap = wait_for("the play", lambda: (s := table.snapshot())["state"] == "challenge" and s)
        assert snap["players"][0]["score"] == 44
        assert "referee-commit" not in readers  # the commit took no second look at an unchanged board
    finally:
        r.close()


def test_the_demo_lines_up_long_player_names(tmp_path: Path) -> None:
    import io

    from game.gcg import parse_gcg

    record = parse_gcg("#player1 Mark Mark Ogden-Whitfield\n#player2 Ann Ann\n"
                       ">Mark: ?AEIQUZ 8E QUIZ +44 44\n>Ann: AEPRSTX H8 .AP +14 14\n")
    r = Running(tmp_path, fusion="sensors", clock_mode="none", players=("Mark Ogden-Whitfield", "Ann"))
    out = io.StringIO()
    try:
        result = driver(r, record, out=out).run()
    finally:
        r.close()
    assert result.mismatches == []
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Mark Ogden-Whitfield: 8E QUIZ") and lines[1].startswith("                 Ann: H8 .AP")
    assert lines[0].index("engine") == lines[1].index("engine")


def test_a_wrong_line_is_reported_once_not_on_every_later_total(tmp_path: Path) -> None:
    from game.gcg import parse_gcg

    record = parse_gcg("#player1 Anna Anna\n#player2 Ben Ben\n>Anna: ?AEIQUZ 8E QUIZ +54 54\n"
                       ">Ben: AEPRSTX H8 .AP +14 14\n>Anna: AEIRST? 9F AT +9 63\n")
    r = Running(tmp_path, fusion="sensors", clock_mode="none")
    try:
        result = driver(r, record).run()
    finally:
        r.close()
    assert result.mismatches == ["line 3 (>Anna: ?AEIQUZ 8E QUIZ +54 54): engine total 44, record 54"]


def test_a_pass_after_the_game_ended_is_the_turn_a_wrong_challenge_lost(tmp_path: Path, shared_dir: Path) -> None:
    record = load_record(str(shared_dir / "gcg" / "macondo" / "gcgio_testdata_doug_v_emely_double_challenge.gcg"))
    r = Running(tmp_path, fusion="sensors", clock_mode="none", players=tuple(p.name for p in record.players))
    try:
        result = driver(r, record, timeout_s=5).run()
    finally:
        r.close()
    assert result.mismatches == [] and result.final == [("doug", 451), ("emely", 345)]


def test_a_wrongly_written_play_withdrawn_is_one_difference(tmp_path: Path) -> None:
    from game.gcg import parse_gcg

    record = parse_gcg("#player1 Anna Anna\n#player2 Ben Ben\n>Anna: ?AEIQUZ 8E QUIZ +44 44\n"
                       ">Ben: AEPRSTX H8 .AP +16 16\n>Ben: AEPRSTX -- -16 0\n>Anna: AEIRST? 9F AT +8 52\n")
    r = Running(tmp_path, fusion="sensors", clock_mode="none")
    try:
        result = driver(r, record).run()
    finally:
        r.close()
    assert result.mismatches == ["line 4 (>Ben: AEPRSTX H8 .AP +16 16): engine total 14, record 16"]


def test_a_resumed_game_is_not_announced_as_waiting_for_its_start(
        emulated_table_file: Callable[[str], Path]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = emulated_table_file(f'host = "127.0.0.1"\nport = {port}\npin = "730591"')

    def run_until_announced(then: Callable[[], Any]) -> str:
        proc = subprocess.Popen([sys.executable, "-m", "referee", "run", "--config", str(cfg)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert proc.stdout is not None
            line = ""
            while "sensor board emulator at" not in line:
                line = proc.stdout.readline()
                assert line, "the referee ended without naming its emulator"
            then()
            return line
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)

    client = Client(port, "730591")
    first = run_until_announced(lambda: client.control("start", {}))
    assert first.rstrip().endswith("start the game on the page")  # a real table's PIN is never printed
    assert "730591" not in first
    again = run_until_announced(lambda: None)
    assert "start the game" not in again


def test_two_players_with_one_nickname_are_told_apart_by_the_turn_order(tmp_path: Path) -> None:
    from game.gcg import parse_gcg

    record = parse_gcg("#player1 NoName Anna\n#player2 NoName Ben\n>NoName: ?AEIQUZ 8E QUIZ +44 44\n"
                       ">NoName: AEPRSTX H8 .AP +14 14\n>NoName: AEIRST? 9F AT +9 53\n")
    r = Running(tmp_path, fusion="sensors", clock_mode="none")
    try:
        result = driver(r, record, timeout_s=5).run()
    finally:
        r.close()
    assert result.mismatches == [] and result.final == [("Anna", 53), ("Ben", 14)]
