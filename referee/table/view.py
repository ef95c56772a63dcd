"""What a table machine shows: its alerts, its board, its score sheet and its snapshot.

Kept apart from the state machine (referee/table/machine.py) so that the machine reads as the rules
of the table and this module as the picture of it; both are pure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from game.events import EventKind
from game.squares import Square
from referee.table.messages import text
from referee.table.picture import squares_text

if TYPE_CHECKING:
    from referee.table.machine import Alert, TableMachine

_MOVE_KINDS = {
    EventKind.PLAY: "play",
    EventKind.EXCHANGE: "exchange",
    EventKind.PASS: "pass",
    EventKind.WITHDRAWN: "withdrawn",
    EventKind.CHALLENGE_BONUS: "challenge",
    EventKind.LOST_TURN: "lost_turn",
    EventKind.TIME_PENALTY: "penalty",
    EventKind.END_RACK: "end",
}
_NOTATION = {EventKind.PASS: "-", EventKind.WITHDRAWN: "--", EventKind.CHALLENGE_BONUS: "(challenge)",
             EventKind.LOST_TURN: "(lost turn)", EventKind.TIME_PENALTY: "(time)"}


def alerts(m: TableMachine) -> list[Alert]:
    """What is wrong at the table now: derived from the picture and the links, plus notices."""
    from referee.table.machine import Alert

    out: list[Alert] = []
    if m.links.get("board") is False:
        out.append(Alert("error", "board_lost", text("board_lost", m.lang)))
    if m.links.get("camera") is False:
        board_up = m.links.get("board") is True  # then the commit goes on without the camera (TableMachine._commit)
        out.append(Alert("error", "camera_lost", text("camera_lost_board_up" if board_up else "camera_lost", m.lang)))
    if m.links.get("board") is not False:
        committed = m.committed
        still_there = m.takeback | m.removal | (m.last.scrambled if m.last else set())
        lifted = [sq for sq in committed if sq not in m.observed]
        lifted += [sq for sq in m.pending if sq not in m.observed]
        if lifted:
            out.append(Alert("error", "tile_moved", text("tile_moved", m.lang, squares=squares_text(
                set(lifted))), sorted(lifted)))
        changed = [sq for sq, ch in committed.items()
                   if sq in m.observed and sq not in m.by_hand and not ch.islower()
                   and m.observed[sq].sure and m.observed[sq].letter != ch]
        if changed:
            out.append(Alert("error", "tile_changed", text("tile_changed", m.lang, squares=squares_text(
                set(changed))), sorted(changed)))
        if m.state not in ("turn", "waiting"):
            extra = [sq for sq in m.observed
                     if sq not in committed and sq not in m.pending and sq not in still_there]
            if extra:
                out.append(Alert("warning", "tiles_added", text("tiles_added", m.lang, squares=squares_text(
                    set(extra))), sorted(extra)))
    if m.state == "blank":
        blanks = [sq for sq in m.pending_blank if m.pending[sq] is None]
        if blanks:
            out.append(Alert("info", "blank_letter", text("blank_letter", m.lang,
                                                          squares=squares_text(set(blanks))), sorted(blanks)))
        for sq, v in sorted(m.pending.items()):
            if v is None and sq not in m.pending_blank:
                why = m.observed[sq].doubt if sq in m.observed else ""
                out.append(Alert("warning", "doubtful_letter", text("doubtful_letter", m.lang, squares=sq,
                                                                    why=why), [sq]))
    if m.state == "takeback":
        out.append(Alert("info", "take_back", text("take_back", m.lang,
                                                   squares=squares_text(m.takeback)), sorted(m.takeback)))
    if m.state == "removal":
        out.append(Alert("info", "remove_dice", text("remove_dice", m.lang,
                                                     squares=squares_text(m.removal)), sorted(m.removal)))
    if m.state == "racks":
        names = ", ".join(m.setup.players[i] for i in m.racks_needed)
        out.append(Alert("info", "racks_needed", text("racks_needed", m.lang, players=names)))
    return out + m.notices

def board_rows(m: TableMachine) -> list[str]:
    h, w = m.rules.size
    grid = [["."] * w for _ in range(h)]
    shown = m.committed
    if m.last is not None and m.state in ("challenge", "removal"):
        for sq in m.last.scrambled:
            if sq in m.observed:
                shown.setdefault(sq, m.observed[sq].letter or "?")
    if m.state in ("turn", "blank", "paused", "takeback"):
        for sq, cell in m.observed.items():
            if sq not in shown:
                p = m.pending.get(sq)
                shown[sq] = p if p else (cell.letter if cell.sure and cell.letter else "?")
    for sq, ch in shown.items():
        s = Square.from_str(sq)
        if 0 <= s.row < h and 0 <= s.col < w:
            grid[s.row][s.col] = ch
    return ["".join(row) for row in grid]

def score_sheet(m: TableMachine) -> list[dict[str, Any]]:
    out = []
    for ev in m.game.events:
        notation = _NOTATION.get(ev.kind, ev.move)
        out.append({"player": ev.player, "kind": _MOVE_KINDS.get(ev.kind, ev.kind.value), "notation": notation,
                    "words": list(ev.words), "score": ev.delta, "total": ev.total})
    return out

def result(m: TableMachine) -> dict[str, Any] | None:
    """The engine's verdict once the game is over (`ResultView` of referee/table/api.py); None before, and while
    the racks at the end are still to be entered."""
    game = m.game
    if m.state != "ended" or not game.over or game.awaiting_racks:
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

def snapshot(m: TableMachine) -> dict[str, Any]:
    """The `Snapshot` of referee/table/api.py, without `seq` (the live table numbers them)."""
    setup, game = m.setup, m.game
    players = []
    for i, name in enumerate(setup.players):
        clock = None
        if m.clock is not None:
            running = m.clock.state == "running" and m.clock.on_move == i
            clock = {"remaining_ms": m.clock.remaining_ms(i), "running": running}
        players.append({"name": name, "score": game.scores[i],
                        "on_turn": i == m.on_turn and m.state not in ("waiting", "ended", "racks"),
                        "clock": clock, "rack_count": game.rack_sizes[i], "lost_on_time": game.lost_on_time == i})
    timer = None
    if m.timer is not None:
        timer = {"remaining_ms": math.floor(m.timer.remaining() * 1000),
                 "running": m.timer.state == "running"}
    pending: dict[str, Any] = {}
    if m.state == "blank":
        pending["blanks"] = sorted(sq for sq in m.pending_blank if m.pending[sq] is None)
        pending["letters"] = sorted(sq for sq, v in m.pending.items()
                                    if v is None and sq not in m.pending_blank)
    if m.state in ("takeback", "removal"):
        pending["remove"] = sorted(m.takeback | m.removal)
    if m.state == "racks":
        pending["racks"] = list(m.racks_needed)
    if m.state == "challenge" and m.last is not None and m.last.deadline_ms is not None:
        pending["challenge"] = {"player": m.last.player,
                                "remaining_ms": max(0, m.last.deadline_ms - m.time.ms),
                                "words": len(m.last.words)}
    if m.state == "roll":
        pending["roll"] = game.dice.to_draw()  # type: ignore[attr-defined]  # how many dice to roll
    if setup.scramble and m.state in ("turn", "blank"):
        pending["rolled"] = "".join(f.letter for f in game.hand())  # type: ignore[attr-defined]
    committed = m.committed
    last_play = sorted(m.last.placed) if m.last is not None and all(
        sq in committed for sq in m.last.placed) else []
    return {
        "version": 1,
        "table": setup.table,
        "game": setup.kind,
        "edition": setup.edition,
        "language": setup.language,
        "state": m.state,
        "board": board_rows(m),
        "premiums": m.rules.premium_rows(),
        "last_play": last_play,
        "players": players,
        "turn_timer": timer,
        "moves": score_sheet(m),
        "unseen": "" if setup.scramble else "".join(sorted(game.unseen().elements())),
        "bag": game.bag_count,
        "alerts": [a.view() for a in alerts(m)],
        "pending": pending,
        "result": result(m),
    }
