"""The simulated hall's tables keep the real table's contract with the director: the same director commands,
played on a `SimTable` and on the real table (`referee.sim.SimulatedTable`, through the table's own command
path `TournamentLink`), are applied or refused alike (with the same refusal code and words), and leave what
the director reads alike: the state, whose turn, the scores, the score sheet's rows, which clocks run, what a
command did to a clock, and the director's notices (their codes, fields and words). A change to either side
that the other does not follow fails here, so the director's tests on simulated tables keep testing what real
tables do.

No broker: each side takes the commands directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.journal import Journal
from referee.sim.table import SimulatedTable, default_setup
from referee.table.machine import DIRECTOR
from referee.tournament_link import TournamentLink
from tournament.outbox import CommandRefused
from tournament.payloads import CommandMessage
from tournament.settings import BrokerSettings, TableLinkSettings
from tournament.testing.simhall import SimTable

PLAYERS = ("Anna", "Ben")
# the notices a director's command leaves on the table (the director's tile shows them)
NOTICES = {"director_message", "challenge_held", "score_adjusted", "play_undone"}

# (what happens, the command or action, its arguments): the same on both sides
SCRIPT: list[tuple[str, str, dict[str, Any]]] = [
    ("command", "set_players", {"players": ["Cleo", "Dan"], "first": 1}),
    ("command", "message", {"text": "Round 2 starts at 14:00", "minutes": 3}),
    ("command", "resume", {}),
    ("command", "pause", {}),
    ("command", "undo", {}),
    ("command", "hold", {"hold": True}),
    ("command", "correct_score", {"player": 0, "points": 5, "reason": "too early"}),
    ("command", "adjust_time", {"player": 3, "seconds": 5}),
    ("command", "correct_score", {"square": "h8", "letter": "A"}),
    ("command", "start", {}),
    ("command", "start", {}),
    ("command", "set_players", {"players": ["Cleo", "Dan"], "first": 0}),
    ("command", "pause", {}),
    ("command", "pause", {}),
    ("command", "undo", {}),
    ("command", "resume", {}),
    ("action", "play", {"move": "8G QI", "score": 22, "squares": ["G8", "H8"]}),
    ("command", "hold", {"hold": True}),
    ("command", "hold", {"hold": True}),
    ("command", "hold", {"hold": False}),
    ("command", "hold", {"hold": False}),
    ("action", "window closes", {}),
    ("command", "hold", {"hold": True}),
    ("command", "correct_score", {"player": 1, "points": -10, "reason": "phone rang"}),
    ("command", "correct_score", {"player": 2, "points": -10, "reason": "nobody"}),
    ("command", "adjust_time", {"player": 0, "seconds": -60}),
    ("command", "adjust_time", {"player": 1, "seconds": 30}),
    ("command", "undo", {}),
    ("command", "undo", {}),
    ("command", "set_players", {"players": ["Cleo", "Dan"], "first": 0}),
    ("action", "tiles lifted", {}),
    ("command", "pause", {}),
    ("command", "resume", {}),
    ("command", "message", {"text": "   ", "minutes": 5}),
]


class RealSide:
    """The real table: its engine, machine and journal, commands through the table's tournament link."""

    def __init__(self, folder: Path) -> None:
        self.journal = Journal(folder / "table.sqlite3")
        self.table = SimulatedTable(default_setup(players=PLAYERS), journal=self.journal)
        self.link = TournamentLink(self.table, self.journal, TableLinkSettings(BrokerSettings("127.0.0.1", 1),
                                                                               "contract", 1))
        self.laid: list[str] = []

    def command(self, command: CommandMessage) -> tuple[bool, str | None, str | None]:
        try:
            self.link._command(command)
        except CommandRefused as exc:
            return False, exc.code, str(exc)
        return True, None, None

    def act(self, action: str, args: dict[str, Any]) -> None:
        if action == "play":
            self.laid = self.table.play(args["move"])["last_play"]
        elif action == "window closes":
            self.table.advance(15)
        elif action == "tiles lifted":
            for square in self.laid:
                self.table.lift(square)

    def snapshot(self) -> dict[str, Any]:
        return dict(self.table.snapshot())

    def close(self) -> None:
        self.journal.close()


class SimSide:
    """The simulated hall's table, off the broker."""

    def __init__(self) -> None:
        self.table = SimTable("contract", 1, BrokerSettings("127.0.0.1", 1), players=PLAYERS)

    def command(self, command: CommandMessage) -> tuple[bool, str | None, str | None]:
        ack = self.table.command(command)
        return ack.ok, ack.code, ack.error

    def act(self, action: str, args: dict[str, Any]) -> None:
        if action == "play":
            self.table.play(args["move"], args["score"], args["squares"], challenge=True)
        elif action == "window closes":
            self.table.close_challenge()
        elif action == "tiles lifted":
            self.table.take_back()

    def snapshot(self) -> dict[str, Any]:
        return self.table.snapshot()

    def close(self) -> None:
        pass


def seen(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What the director reads of a table's snapshot (clock times apart: a real table's run while it plays)."""
    return {"state": snapshot["state"],
            "players": [(p["name"], p["score"], p["on_turn"], p["clock"]["running"]) for p in snapshot["players"]],
            "moves": [(m["player"], m["kind"], m["score"]) for m in snapshot["moves"]],
            "notices": {a["code"]: (a["text"], a["fields"], a["squares"]) for a in snapshot["alerts"]
                        if a["code"] in NOTICES | {"take_back"}}}


def clocks(snapshot: dict[str, Any]) -> list[int]:
    return [int(p["clock"]["remaining_ms"]) for p in snapshot["players"]]


@pytest.fixture
def sides(tmp_path: Path) -> Any:
    real, sim = RealSide(tmp_path), SimSide()
    yield real, sim
    real.close()
    sim.close()


def test_the_simulated_table_answers_the_directors_commands_as_the_real_table(sides: Any) -> None:
    real, sim = sides
    assert seen(sim.snapshot()) == seen(real.snapshot())
    outcomes = []
    for n, (what, name, args) in enumerate(SCRIPT):
        if what == "action":
            real.act(name, args)
            sim.act(name, args)
            assert seen(sim.snapshot()) == seen(real.snapshot()), f"step {n}: after {name}"
            continue
        command = CommandMessage(f"c-{n}", "Chief TD", name, dict(args))  # type: ignore[arg-type]
        before = {side: clocks(side.snapshot()) for side in (real, sim)}
        got = {side: side.command(command) for side in (real, sim)}
        assert got[sim] == got[real], f"step {n}: {name} {args}"
        after = {side: clocks(side.snapshot()) for side in (real, sim)}
        changed = {side: [a - b for a, b in zip(after[side], before[side], strict=True)] for side in (real, sim)}
        assert changed[sim] == changed[real], f"step {n}: {name} {args} changed the clocks"
        assert seen(sim.snapshot()) == seen(real.snapshot()), f"step {n}: after {name} {args}"
        outcomes.append(got[real])
    # the script walks both outcomes of every command it sends, and every command of the real table's
    # `DIRECTOR`: nothing here passes by refusing everything, and a command the machine gains fails here
    sent = [name for what, name, _ in SCRIPT if what == "command"]
    assert {name for name, (ok, _code, _words) in zip(sent, outcomes, strict=True) if ok} == set(DIRECTOR)
    assert len({code for ok, code, _words in outcomes if not ok}) >= 10


def test_a_command_sent_again_is_answered_alike_and_applied_once(sides: Any) -> None:
    real, sim = sides
    for side in (real, sim):
        side.command(CommandMessage("start-1", "Chief TD", "start", {}))
    command = CommandMessage("time-1", "Chief TD", "adjust_time", {"player": 0, "seconds": 60})
    for side in (real, sim):
        assert side.command(command) == (True, None, None)
        assert side.command(command) == (True, None, None)
    assert clocks(sim.snapshot()) == clocks(real.snapshot()) == [25 * 60_000 + 60_000, 25 * 60_000]
