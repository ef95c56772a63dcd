"""A live table read from outside the package: `LiveTable.reading()` yields a `TableReading`.

The service, its outputs and the demo driver ask a running table small questions (whose turn, how many dice
to roll, the tiles on a rack). They ask them here, under the table's lock, instead of taking the lock and
walking the machine and the engine's `Game` themselves: the package can change inside, and a reader can
never change the game by mistake (this class has no way to).
"""

from __future__ import annotations

import itertools

from game.board import Board
from game.clock import GameClock, TurnTimer
from game.errors import RefereeError
from game.play import Placement
from game.scramble.dice import Die
from game.squares import Square
from game.tiles import Tile
from referee.table.machine import TableMachine
from referee.table.picture import Cell
from referee.table.state import TableState


class TableReading:
    """The table as it stands, for the length of a `with table.reading() as r:` block (the table's lock is
    held; nothing changes it meanwhile). Used after the block, it raises `RuntimeError`: a reading kept for
    later would show a game that moved on."""

    def __init__(self, machine: TableMachine) -> None:
        self._machine: TableMachine | None = machine

    def close(self) -> None:
        self._machine = None

    @property
    def _m(self) -> TableMachine:
        if self._machine is None:
            raise RuntimeError("a table reading is valid only inside its `with table.reading()` block")
        return self._machine

    @property
    def state(self) -> TableState:
        return self._m.state

    @property
    def players(self) -> tuple[str, ...]:
        return self._m.setup.players

    @property
    def scramble(self) -> bool:
        return self._m.setup.scramble

    @property
    def kind(self) -> str:
        """The game's kind as journaled ("standard", "scramble", "scramble-advanced"): what board it needs."""
        return self._m.setup.kind

    @property
    def on_turn(self) -> int:
        """Whose turn it is for the players (during a challenge window, the next player: their clock runs)."""
        return self._m.on_turn

    @property
    def racks_needed(self) -> tuple[int, ...]:
        """At the end: the seats whose tiles left are still to be entered, in the order the page asks."""
        return tuple(self._m.racks_needed)

    def rack_size(self, player: int) -> int:
        return self._m.game.rack_sizes[player]

    @property
    def dice_to_draw(self) -> int:
        """Scramble: how many dice the mover rolls now; 0 in the standard game."""
        game = self._m.scramble_game
        return game.dice.to_draw() if game is not None else 0

    @property
    def dice(self) -> tuple[Die, ...]:
        """Scramble: the game's dice (their faces, to read a tray); () in the standard game."""
        game = self._m.scramble_game
        return game.dice_set.dice if game is not None else ()

    @property
    def cup(self) -> frozenset[int]:
        """Scramble: the dice (0-based, as `DiceSet.dice`) in the cup now; empty in the standard game."""
        game = self._m.scramble_game
        return game.dice.cup if game is not None else frozenset()

    @property
    def hand(self) -> str:
        """Scramble: the letters of the faces in the mover's hand this turn; "" in the standard game."""
        game = self._m.scramble_game
        return "".join(f.letter for f in game.hand()) if game is not None else ""

    @property
    def committed(self) -> dict[str, str]:
        """The board as the game has it: square -> letter, lowercase a blank (a copy, the caller's to keep)."""
        return self._m.committed

    def last_picture(self) -> dict[str, Cell]:
        """The board's last picture the table took (and journaled): what lay on it, pending tiles included."""
        return dict(self._m.observed)

    def board(self) -> Board:
        """A copy of the board as the game has it (the copy is the caller's to change)."""
        return self._m.game.board.copy()

    @property
    def table_ms(self) -> int:
        """The table time (ms) the reading stands at: what its clocks were read at."""
        return self._m.time.ms

    @property
    def timing(self) -> GameClock | TurnTimer | None:
        """What the LED faces show: the game clocks, else the turn timer, else None. Read it inside the block."""
        m = self._m
        return m.clock if m.clock is not None else m.timer

    @property
    def notice_codes(self) -> frozenset[str]:
        """The codes of the notices up (what happened: a time up, a phony), not of the derived alerts."""
        return frozenset(a.code for a in self._m.notices)

    @property
    def in_trouble(self) -> bool:
        """An error-level alert is up (a lost link, a moved tile, a refused commit...)."""
        return any(a.level == "error" for a in self._m.alerts())

    # Two blanks are as many as any edition has; past that the letters to try grow as 30^n.
    MAX_BLANKS_TRIED = 2

    def blank_letters(self) -> dict[str, tuple[str, ...]]:
        """While the table asks for a blank's letter: for each blank asked about, the letters it may stand for
        so that every word the play makes (its cross words too) is in the table's lexicon, in alphabetical
        order. A blank with exactly one letter is pinned by the lexicon; with none, the play is a phony
        whatever the blank stands for (or the lexicon lacks the word). Empty when no blank is asked about, when
        another letter of the play is still in doubt (its words are not known yet), or past two blanks."""
        m = self._m
        if m.state is not TableState.BLANK:
            return {}
        blanks = sorted((sq for sq in m.pending_blank if m.pending[sq] is None), key=Square.from_str)
        rest = {sq: v for sq, v in m.pending.items() if sq not in blanks}
        if not blanks or len(blanks) > self.MAX_BLANKS_TRIED or any(v is None for v in rest.values()):
            return {}
        fixed = [Placement(Square.from_str(sq), Tile.from_str(str(v))) for sq, v in rest.items()]
        letters = sorted(ch for ch in m.rules.ruleset.tiles.counts if ch != "?")
        lexicon = m.rules.lexicon
        found: dict[str, set[str]] = {sq: set() for sq in blanks}
        for combo in itertools.product(letters, repeat=len(blanks)):
            placed = fixed + [Placement(Square.from_str(sq), Tile(ch, blank=True))
                              for sq, ch in zip(blanks, combo, strict=True)]
            try:
                scored = m.game.evaluate(placed)
            except RefereeError:  # not a legal placement: no letter mends that, the table says so once judged
                return {}
            if all(w.word.text in lexicon for w in scored.words):
                for sq, ch in zip(blanks, combo, strict=True):
                    found[sq].add(ch)
        return {sq: tuple(sorted(found[sq])) for sq in blanks}
