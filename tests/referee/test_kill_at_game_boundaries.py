"""The crash harness at a game's boundaries: a real `referee run` process SIGKILLed at the end of a whole game
(right after its last event, and while that event is being sent) and at a new game's start (right after
`new_game`, and right after its `start`). After each restart the game is the same one, in the same state, and
the journal holds every event once: none lost, none doubled, none out of order (issue 26: run it on every
commit that touches the journal).

The game is short but whole: six scoreless turns on the board's clock buttons, then both racks, as a two-player
English game ends [NASPA]. Waits are on conditions with timeouts, never fixed sleeps."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from referee.journal import Journal

from .test_service import Client, _free_port, _start, wait_for
from .wordlists import write_word_list

pytestmark = [pytest.mark.pty, pytest.mark.slow]

PIN = "730591"
RACKS = ((0, "AEEIOUS"), (1, "BCDFGHJ"))


class Table:
    """A `referee run` process on an emulated board, killed and started again at will."""

    def __init__(self, tmp_path: Path) -> None:
        from firmware_bridge import EmulatedBoard, PtyEmulator

        self.port = _free_port()
        words = write_word_list(tmp_path / "words.txt")
        (tmp_path / "dev").mkdir()
        self.emu = PtyEmulator(EmulatedBoard(width=15, height=15, coded=True, buttons=2),
                               link_dir=tmp_path / "dev").start()
        self.state = tmp_path / "state"
        self.config = tmp_path / "table.toml"
        self.config.write_text(f"""
[table]
name = "Boundary kill test"
state_dir = "{self.state}"
[game]
players = ["Anna", "Ben"]
lexicon = "{words}"
[sensors]
board = "{self.emu.path}"
settle_ms = 0
[web]
host = "127.0.0.1"
port = {self.port}
pin = "{PIN}"
""", encoding="utf-8")
        self.log = tmp_path / "service.log"
        self.client = Client(self.port, PIN)
        self.kills = 0
        self.proc = self._up()

    def _up(self) -> subprocess.Popen[bytes]:
        proc = _start(self.config, self.log)
        wait_for("the service", self.client.snapshot, timeout=60)
        self.client.token = ""  # a restarted referee has forgotten the session
        return proc

    def kill_and_restart(self) -> dict[str, Any]:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.kills += 1
        self.proc = self._up()
        snap = self.client.snapshot()
        assert snap is not None
        return snap

    def snap(self) -> dict[str, Any]:
        snap = self.client.snapshot()
        assert snap is not None
        return snap

    def press(self, player: int) -> None:
        """The player's clock button on an empty board: a scoreless turn."""
        moves = len(self.snap()["moves"])
        self.emu.press(player)
        wait_for("the turn taken", lambda: len((self.client.snapshot() or {}).get("moves", [])) > moves)
        self.emu.release(player)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.emu.stop()


def _journal(state: Path) -> dict[int, list[tuple[int, str, str]]]:
    """Every game's events as (seq, kind, data) from the journal file, read after the process is gone."""
    j = Journal(state / "games.sqlite3")
    try:
        return {g.id: [(seq, e.kind, e.to_json()) for seq, e in j.numbered_events(g.id)] for g in j.games()}
    finally:
        j.close()


def _same(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("state", "board", "moves", "bag", "unseen", "result"):
        assert after.get(key) == before.get(key), key
    assert [p["score"] for p in after["players"]] == [p["score"] for p in before["players"]]


def test_kills_at_the_end_of_a_whole_game_and_at_a_new_games_start_lose_and_double_nothing(tmp_path: Path) -> None:
    t = Table(tmp_path)
    try:
        t.client.control("start", {})
        for turn in range(6):
            t.press(turn % 2)
        assert t.snap()["state"] == "racks"
        t.client.control("racks", {"player": 0, "tiles": RACKS[0][1]})

        # 1. killed while the game's last event is being sent: either it was journaled (ended) or not (racks)
        sent = threading.Thread(target=lambda: _quietly(t.client.control, "racks",
                                                        {"player": 1, "tiles": RACKS[1][1]}), daemon=True)
        sent.start()
        after = t.kill_and_restart()
        sent.join(10)
        assert after["state"] in ("racks", "ended"), after["state"]
        if after["state"] == "racks":  # not journaled, so not taken: the director enters it again
            t.client.control("racks", {"player": 1, "tiles": RACKS[1][1]})
        ended = t.snap()
        assert ended["state"] == "ended" and ended["result"]

        # 2. killed right after the end: the ended game stays on the page, as it was
        _same(ended, t.kill_and_restart())

        # 3. killed right after a new game's start: the new game, waiting; the old one ended in the journal
        fresh = t.client.control("new_game", {})["snapshot"]
        assert fresh["state"] == "waiting" and fresh["moves"] == []
        _same(fresh, t.kill_and_restart())

        # 4. killed right after the new game's first event (start): it resumes on its first turn
        started = t.client.control("start", {})["snapshot"]
        _same(started, t.kill_and_restart())
        t.press(0)  # and it plays on
        assert [m["kind"] for m in t.snap()["moves"]] == ["pass"]
    finally:
        t.stop()
    assert t.kills == 4
    games = _journal(t.state)
    assert sorted(games) == [1, 2]
    for events in games.values():  # one row per event, numbered 1, 2, 3 ... without a gap or a double
        assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    kinds = [kind for _, kind, _ in games[1]]
    assert kinds.count("clock") == 6  # the six turns, once each
    racks = [data for _, kind, data in games[1] if kind == "control" and '"racks"' in data]
    assert len(racks) == 2  # each rack once, whether or not the kill caught the second
    assert [kind for _, kind, _ in games[2]].count("clock") == 1
    log = t.log.read_text(encoding="utf-8")
    assert "Traceback" not in log, log[-3000:]


def _quietly(call: Any, *args: Any) -> None:
    """A request cut off by the kill: its answer, if any, does not matter (the journal says what happened)."""
    with contextlib.suppress(OSError):
        call(*args)
