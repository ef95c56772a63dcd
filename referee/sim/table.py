"""`SimulatedTable`: an in-process table driven by a script, for tests, demos and the page's tests.

It is the real `LiveTable` (state machine, engine, journal if given) with a virtual board in place
of the sensors and a `ManualClock` in place of time, so a test plays a game step by step and reads
exactly what the scoreboard would show, without threads, ptys or sleeping::

    table = SimulatedTable(words=["QI", "QIS", "ZA"])
    table.control("start", {})
    table.play("8G QI")          # lay the tiles on H8..., press the mover's clock
    table.advance(15)            # the challenge window closes
    table.snapshot()["players"][0]["score"]  # 22, from the engine

The simulated hardware path (board emulator over a pty, synthetic camera, mock GPIO) is
`referee run --sim`; this class is the quick in-process stand-in for it.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.squares import Position
from referee.journal import Journal
from referee.sim.clock import ManualClock
from referee.table.api import Snapshot
from referee.table.live import LiveTable, TableClock
from referee.table.machine import TableMachine
from referee.table.picture import Cell, Doubt
from referee.table.rules import EveryWord, WordSet, table_rules
from referee.table.setup import TableSetup
from referee.table.state import TableState


def default_setup(**changes: object) -> TableSetup:
    """Two players, English, double challenge with a 15 s window, 25-minute tournament clocks."""
    base = TableSetup(table="Simulated table", players=("Anna", "Ben"), clock_mode="tournament")
    unknown = set(changes) - set(base.to_dict())
    if unknown:
        raise TypeError(f"default_setup: unknown setting(s) {', '.join(sorted(unknown))}")
    return TableSetup.from_dict({**base.to_dict(), **changes})


class SimulatedTable(LiveTable):
    """A scriptable table; see the module docstring. `words`: the lexicon (None: every word is good)."""

    def __init__(self, setup: TableSetup | None = None, *, words: Iterable[str] | None = None,
                 journal: Journal | None = None, clock: ManualClock | None = None) -> None:
        setup = setup or default_setup()
        lexicon = WordSet(words) if words is not None else EveryWord()
        rules = table_rules(setup, lexicon)
        self.manual_clock = clock or ManualClock()
        game_id = None
        if journal is not None:
            game_id = journal.new_game(setup.table, setup.kind, list(setup.players), setup.to_dict())
        super().__init__(TableMachine(setup, rules), journal=journal, game_id=game_id,
                         clock=TableClock(self.manual_clock))
        self.board: dict[str, Cell] = {}
        self.board_seen({})
        self.link("board", True)

    # --- the players' hands -----------------------------------------------------------------------

    def place(self, square: str, letter: str) -> None:
        """Put a tile down: `letter` uppercase, or `?` for a blank."""
        self.board[square.upper()] = Cell(None, blank=True) if letter == "?" else Cell(letter.upper())
        self.board_seen(dict(self.board))

    def place_doubtful(self, square: str, doubt: Doubt | None = None) -> None:
        """Put a tile down whose letter the sensors cannot read for sure (by default: the camera cannot read it)."""
        sq = square.upper()
        self.board[sq] = Cell(None, doubt=doubt or Doubt("camera_unreadable", {"square": sq}))
        self.board_seen(dict(self.board))

    def lift(self, square: str) -> None:
        self.board.pop(square.upper(), None)
        self.board_seen(dict(self.board))

    def place_word(self, move: str) -> list[str]:
        """Lay the new tiles of a GCG move, `8D QUIZ`: `.` for a tile already there, a lowercase letter
        for a blank (laid face down as `?`; its letter is named after the commit). Returns the squares laid."""
        pos_text, word = move.split()
        pos = Position.from_str(pos_text)
        laid = []
        for i, ch in enumerate(word):
            sq = pos.start.step(pos.direction, i)
            name = str(sq)
            if ch == ".":
                continue
            self.board[name] = Cell(None, blank=True) if ch.islower() else Cell(ch)
            laid.append(name)
        self.board_seen(dict(self.board))
        return laid

    def press(self, player: int | None = None) -> Snapshot:
        """The clock button of `player` (the mover by default)."""
        self.press_clock(self.machine.mover if player is None else player)
        return self.snapshot()

    def play(self, move: str) -> Snapshot:
        """Lay a GCG move, press the clock, and name any blanks (lowercase letters in `move`)."""
        pos_text, word = move.split()
        pos = Position.from_str(pos_text)
        self.place_word(move)
        snap = self.press()
        for i, ch in enumerate(word):
            if ch.islower() and self.machine.state is TableState.BLANK:
                snap = self.control("blank", {"square": str(pos.start.step(pos.direction, i)), "letter": ch})
        return snap

    def advance(self, seconds: float) -> Snapshot:
        """Let time pass (in steps, so every timer falls due at its own instant) and publish."""
        remaining = seconds
        while remaining > 0:
            due = self.next_due_ms()
            now = self.clock.now_ms()
            step = remaining if due is None else min(remaining, max(0.001, (due - now) / 1000))
            self.manual_clock.advance(step)
            remaining -= step
            self.poll()
        self.publish()
        return self.snapshot()

    def unplug(self) -> None:
        self.link("board", False)

    def replug(self) -> None:
        self.link("board", True)
        self.board_seen(dict(self.board))
