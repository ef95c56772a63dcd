"""What a table machine shows: its alerts, its board, its score sheet and its snapshot.

Kept apart from the state machine (referee/table/machine.py) so that the machine reads as the rules
of the table and this module as the picture of it; both are pure. The machine imports this module, never
the other way round: what a view reads of a machine is `TableFacts`.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from game.clock import GameClock, TurnTimer
from game.events import EventKind
from game.game import Game
from game.scramble import ScrambleGame
from game.squares import Direction, Square
from referee.table.anomalies import Anomaly
from referee.table.picture import Cell, squares_text
from referee.table.rules import EveryWord, TableRules
from referee.table.setup import TableSetup
from referee.table.state import Alert, LastPlay, TableState, TableTime
from referee.words import Phrase


class TableFacts(Protocol):
    """What the views read of a table machine (`TableMachine` is one): its state and what it holds."""

    setup: TableSetup
    rules: TableRules
    lang: str
    state: TableState
    paused_from: TableState | None
    time: TableTime
    game: Game
    clock: GameClock | None
    timer: TurnTimer | None
    observed: dict[str, Cell]
    links: dict[str, bool]
    by_hand: set[str]
    pending: dict[str, str | None]
    pending_blank: set[str]
    last: LastPlay | None
    takeback: set[str]
    removal: set[str]
    racks_needed: list[int]
    notices: list[Alert]

    @property
    def committed(self) -> dict[str, str]: ...

    @property
    def on_turn(self) -> int: ...

    @property
    def scramble_game(self) -> ScrambleGame | None: ...

    def anomalies(self) -> list[Anomaly]: ...


_MOVE_KINDS = {
    EventKind.PLAY: "play",
    EventKind.EXCHANGE: "exchange",
    EventKind.PASS: "pass",
    EventKind.WITHDRAWN: "withdrawn",
    EventKind.CHALLENGE_BONUS: "challenge",
    EventKind.LOST_TURN: "lost_turn",
    EventKind.TIME_PENALTY: "penalty",
    EventKind.END_RACK: "end",
    EventKind.ADJUSTMENT: "adjustment",
}
_NOTATION = {EventKind.PASS: "-", EventKind.WITHDRAWN: "--", EventKind.CHALLENGE_BONUS: "(challenge)",
             EventKind.LOST_TURN: "(lost turn)", EventKind.TIME_PENALTY: "(time)",
             EventKind.ADJUSTMENT: "(adjustment)"}


def anomaly_alert(m: TableFacts, a: Anomaly) -> Alert:
    """What is wrong on the board (referee/table/anomalies.py) as the table's alert: its code and the fields its
    words name."""
    if a.code == "camera_lost":
        board_up = m.links.get("board") is True  # then the commit goes on without the camera (TableMachine._commit)
        return Alert(a.level, a.code, fields={"then": Phrase("table", "play_goes_on" if board_up else "game_waits")})
    fields = {"squares": squares_text(set(a.squares))} if a.squares else {}
    return Alert(a.level, a.code, list(a.squares), fields)


def alerts(m: TableFacts) -> list[Alert]:
    """What is wrong at the table now: derived from the picture and the links, plus notices."""
    out = [anomaly_alert(m, a) for a in m.anomalies()]
    if m.state is TableState.BLANK:
        blanks = [sq for sq in m.pending_blank if m.pending[sq] is None]
        if blanks:
            out.append(Alert("info", "blank_letter", sorted(blanks), {"squares": squares_text(set(blanks))}))
        for sq, v in sorted(m.pending.items()):
            if v is None and sq not in m.pending_blank:
                doubt = m.observed[sq].doubt if sq in m.observed else None
                why = doubt.phrase if doubt is not None else ""
                out.append(Alert("warning", "doubtful_letter", [sq], {"squares": sq, "why": why}))
    # A phony's own alert already says which tiles to take off: one alert, not the same instruction twice.
    said = any(n.code == "not_in_lexicon" and m.takeback <= set(n.squares) for n in m.notices)
    if m.state is TableState.TAKEBACK and not said:
        out.append(Alert("info", "take_back", sorted(m.takeback), {"squares": squares_text(m.takeback)}))
    if m.state is TableState.REMOVAL:
        out.append(Alert("info", "remove_dice", sorted(m.removal), {"squares": squares_text(m.removal)}))
    if m.state is TableState.RACKS:
        names = ", ".join(m.setup.players[i] for i in m.racks_needed)
        out.append(Alert("info", "racks_needed", fields={"players": names}))
    notices = m.notices
    if m.state is TableState.ENDED:  # the clock's warnings are of a game still running ("Time is up" after a loss)
        notices = [n for n in notices if n.code not in _CLOCK_WARNINGS]
    return out + notices


_CLOCK_WARNINGS = frozenset({"time_up", "turn_timer"})


def board_rows(m: TableFacts) -> list[str]:
    h, w = m.rules.size
    grid = [["."] * w for _ in range(h)]
    shown = m.committed
    if m.last is not None and m.state in (TableState.CHALLENGE, TableState.REMOVAL):
        for sq in m.last.scrambled:
            if sq in m.observed:
                shown.setdefault(sq, m.observed[sq].letter or "?")
    if m.state in (TableState.TURN, TableState.BLANK, TableState.PAUSED, TableState.TAKEBACK):
        for sq, cell in m.observed.items():
            if sq not in shown:
                p = m.pending.get(sq)
                shown[sq] = p if p else (cell.letter if cell.sure and cell.letter else "?")
    for sq, ch in shown.items():
        s = Square.from_str(sq)
        if 0 <= s.row < h and 0 <= s.col < w:
            grid[s.row][s.col] = ch
    return ["".join(row) for row in grid]

def score_sheet(m: TableFacts) -> list[dict[str, Any]]:
    out = []
    scrambles = m.scramble_game.scrambles if m.scramble_game is not None else {}
    for i, ev in enumerate(m.game.events):
        notation = _NOTATION.get(ev.kind, ev.move)
        row = {"player": ev.player, "kind": _MOVE_KINDS.get(ev.kind, ev.kind.value), "notation": notation,
               "words": list(ev.words), "score": ev.delta, "total": ev.total}
        if ev.position is not None:  # where the play went, for whoever reads it out (not parsed from notation)
            row["square"], row["across"] = str(ev.position.start), ev.position.direction is Direction.ACROSS
        if ev.count:
            row["tiles"] = ev.count
        if ev.note:
            row["note"] = ev.note  # a director's adjustment: the reason given
        if i in scrambles and scrambles[i].removed:
            # Scramble: the dice this play sent back to the cup (the page shows them as a row of their own)
            row["scrambled"] = sorted(str(sq) for sq in scrambles[i].removed)
        out.append(row)
    return out

def result(m: TableFacts) -> dict[str, Any] | None:
    """The engine's verdict once the game is over (`ResultView` of referee/table/api.py); None before, and while
    the racks at the end are still to be entered."""
    game = m.game
    if m.state is not TableState.ENDED or not game.over or game.awaiting_racks:
        return None
    winners = game.winners()
    alive = [i for i in range(len(game.players)) if i != game.lost_on_time]
    tied = [i for i in alive if game.scores[i] == max(game.scores[j] for j in alive)]
    if game.lost_on_time is not None:
        reason = "lost_on_time"
    elif len(winners) > 1:
        reason = "shared"
    elif len(tied) > 1:
        reason = "tie_break"
    else:
        reason = "score"
    return {"winners": winners, "reason": reason}

# Nobody is marked "to play" before and after the game, nor while the table asks a letter of the play just
# ended (nobody's clock runs then: see `TableMachine.clock_holder`).
_NOBODY_ON_TURN = (TableState.WAITING, TableState.ENDED, TableState.RACKS, TableState.BLANK)


def snapshot(m: TableFacts) -> dict[str, Any]:
    """The `Snapshot` of referee/table/api.py, without `seq` (the live table numbers them)."""
    setup, game = m.setup, m.game
    players = []
    marked = m.state not in _NOBODY_ON_TURN and not (m.state is TableState.PAUSED
                                                     and m.paused_from in _NOBODY_ON_TURN)
    for i, name in enumerate(setup.players):
        clock = None
        if m.clock is not None:
            running = m.clock.state == "running" and m.clock.on_move == i
            clock = {"remaining_ms": m.clock.remaining_ms(i), "running": running}
        players.append({"name": name, "score": game.scores[i],
                        "on_turn": i == m.on_turn and marked,
                        "clock": clock, "rack_count": game.rack_sizes[i], "lost_on_time": game.lost_on_time == i})
    timer = None
    if m.timer is not None:
        timer = {"remaining_ms": math.floor(m.timer.remaining() * 1000),
                 "running": m.timer.state == "running"}
    pending: dict[str, Any] = {}
    if m.state is TableState.BLANK:
        pending["blanks"] = sorted(sq for sq in m.pending_blank if m.pending[sq] is None)
        pending["letters"] = sorted(sq for sq, v in m.pending.items()
                                    if v is None and sq not in m.pending_blank)
    if m.state in (TableState.TAKEBACK, TableState.REMOVAL):
        pending["remove"] = sorted(m.takeback | m.removal)
    if m.state is TableState.RACKS:
        pending["racks"] = list(m.racks_needed)
    if m.state is TableState.CHALLENGE and m.last is not None and m.last.deadline_ms is not None:
        pending["challenge"] = {"player": m.last.player,
                                "remaining_ms": max(0, m.last.deadline_ms - m.time.ms),
                                "words": len(m.last.words)}
    scramble = m.scramble_game
    if scramble is not None and m.state is TableState.ROLL:
        pending["roll"] = scramble.dice.to_draw()  # how many dice to roll
    if scramble is not None and setup.scramble and m.state in (TableState.TURN, TableState.BLANK):
        pending["rolled"] = "".join(f.letter for f in scramble.hand())
    committed = m.committed
    last_play = sorted(m.last.placed) if m.last is not None and all(
        sq in committed for sq in m.last.placed) else []
    return {
        "version": 1,
        "table": setup.table,
        "game": setup.kind,
        "edition": setup.edition,
        "language": setup.language,
        "state": m.state.value,
        "board": board_rows(m),
        "premiums": m.rules.premium_rows(),
        "start": str(m.rules.layout.start),
        "last_play": last_play,
        "players": players,
        "turn_timer": timer,
        "moves": score_sheet(m),
        "unseen": "" if setup.scramble else "".join(sorted(game.unseen().elements())),
        "bag": game.bag_count,
        # Scramble: the dice in the cup, numbered 1-12 as `referee dice show` prints them ([] in the standard game)
        "cup": sorted(d + 1 for d in scramble.dice.cup) if scramble is not None else [],
        "alerts": [a.view(setup.language) for a in alerts(m)],
        "pending": pending,
        "result": result(m),
        # False when the table has no word list (a simulated German table without one): every challenge then
        # fails, and the page says that challenges cannot be judged
        "judges_words": not isinstance(m.rules.lexicon, EveryWord),
    }
