"""What a spectator may see of a table: its snapshot without what belongs to the director or the players.

The director's tile (tournament/director/hall.py) carries the director's alerts (who paused, phony to take
off, a refused command); a spectator sees the game: board, premiums, last play, score sheet, unseen tiles and
bag, clocks, who is to play, the spread. A score sheet row's `rack` (the mover's whole rack, when the table
sends it) is left out: after the play it tells what the mover kept.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from game.errors import NotationError
from game.play import Play
from game.squares import COLUMNS
from game.tiles import load_tile_set, tile_set_names
from tournament.director.hall import TableTile

# score-sheet fields a spectator sees (a row's `rack` is not among them)
MOVE_FIELDS = ("player", "kind", "notation", "words", "score", "total", "note")


def _clock(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        return None
    return {"ms": int(raw.get("remaining_ms", 0)), "running": bool(raw.get("running"))}


@cache
def tile_values(edition: str) -> dict[str, int]:
    """What each letter is worth in `edition` (the engine's tile set), for the tiles the pages draw; empty for
    what has no tile set (Scramble's dice)."""
    return dict(load_tile_set(edition).values) if edition in tile_set_names() else {}


def spectator_view(state: TableTile) -> dict[str, Any]:
    """One table as every public page and overlay draws it (docs/director.md, "Broadcasting the event")."""
    snap = state.snapshot
    players: list[dict[str, Any]] = []
    for p in snap.get("players") or []:
        if isinstance(p, dict):
            players.append({"name": str(p.get("name", "")), "score": int(p.get("score", 0)),
                            "on_turn": bool(p.get("on_turn")), "clock": _clock(p.get("clock")),
                            "rack_count": p.get("rack_count")})
    moves = [{k: m[k] for k in MOVE_FIELDS if k in m} for m in snap.get("moves") or [] if isinstance(m, dict)]
    last = next((m for m in reversed(moves) if m.get("kind") in ("play", "exchange", "pass", "withdrawn")), None)
    to_play = next((i for i, p in enumerate(players) if p["on_turn"]), None)
    return {
        "table": state.table, "name": state.name or str(snap.get("table", "")) or f"Table {state.table}",
        "online": state.online, "game": state.game, "seq": state.seq, "round": state.round,
        "division": state.division, "state": str(snap.get("state", "")), "kind": str(snap.get("game", "standard")),
        "edition": str(snap.get("edition", "english")), "language": str(snap.get("language", "en")),
        "players": players, "to_play": to_play,
        "spread": players[0]["score"] - players[1]["score"] if len(players) == 2 else 0,
        "board": list(snap.get("board") or []), "premiums": list(snap.get("premiums") or []),
        "start": str(snap.get("start") or "H8"), "last_play": list(snap.get("last_play") or []),
        "moves": moves, "last": last, "unseen": str(snap.get("unseen") or ""), "bag": snap.get("bag"),
        "result": snap.get("result"), "values": tile_values(str(snap.get("edition", "english"))), "delay": None,
    }


def waiting_view(view: dict[str, Any], delay: dict[str, Any]) -> dict[str, Any]:
    """What spectators see while nothing of the game is old enough yet: who plays, an empty board, no score."""
    out = dict(view)
    out.update({"players": [{**p, "score": 0, "on_turn": False, "clock": None} for p in view["players"]],
                "board": ["." * len(r) for r in view["board"]], "last_play": [], "moves": [], "last": None,
                "unseen": "", "bag": None, "spread": 0, "to_play": None, "result": None,
                "delay": {**delay, "waiting": True}})
    return out


TURN_KINDS = ("play", "exchange", "pass", "withdrawn", "lost_turn")


def _placed(notation: str) -> list[tuple[int, int, str]] | None:
    """The (row, column, letter) of the tiles a play's notation put down; None when it cannot be read."""
    try:
        cells = Play.from_str(notation).cells()
    except NotationError:
        return None
    return [(sq.row, sq.col, ch) for sq, ch, through in cells if not through]


def rewound(view: dict[str, Any], rows: int) -> dict[str, Any] | None:
    """`view` as it was `rows` score-sheet rows earlier, worked out from the view alone: the tiles of the plays
    since taken off the board (and back among the unseen tiles), the scores and the last play of then.

    For a delay in moves when no picture of then is kept (the delay set during a game, a director started
    again): the clocks of then are not known, so none are shown. None when a play since cannot be taken back
    exactly (its notation unreadable, or its tiles not where it says): then nothing is shown early."""
    moves = list(view["moves"])
    keep, gone = moves[:max(0, len(moves) - rows)], moves[max(0, len(moves) - rows):]
    board = [list(r) for r in view["board"]]
    returned: list[str] = []
    for i in range(len(gone) - 1, -1, -1):
        move = gone[i]
        if move.get("kind") != "play":
            continue
        following = gone[i + 1] if i + 1 < len(gone) else None
        if following is not None and following.get("kind") == "withdrawn":
            continue  # its tiles came off the board already
        placed = _placed(str(move.get("notation", "")))
        if placed is None:
            return None
        for row, col, ch in placed:
            if not (0 <= row < len(board) and 0 <= col < len(board[row])) or board[row][col] != ch:
                return None
            board[row][col] = "."
            returned.append("?" if ch.islower() else ch.upper())
    players = view["players"]
    unseen = "".join(sorted(view["unseen"] + "".join(returned)))
    bag = view.get("bag")
    if isinstance(bag, int):
        bag = bag + len(returned) if bag > 0 else max(0, len(unseen) - 7 * len(players))
    totals = [0] * len(players)
    for move in keep:
        player = move.get("player")
        if isinstance(player, int) and 0 <= player < len(totals):
            totals[player] = int(move.get("total", 0))
    turns = [m for m in keep if m.get("kind") in TURN_KINDS]
    last = turns[-1] if turns else None
    if last is not None and len(players) == 2:
        to_play: int | None = 1 - int(last.get("player", 0))
    elif moves:
        to_play = int(moves[0].get("player", 0))
    else:
        to_play = view.get("to_play")
    last_play: list[str] = []
    if keep and keep[-1].get("kind") == "play":
        placed = _placed(str(keep[-1].get("notation", ""))) or []
        last_play = [f"{COLUMNS[col]}{row + 1}" for row, col, _ in placed]
    out = dict(view)
    out.update({"board": ["".join(r) for r in board], "moves": keep, "last": last, "last_play": last_play,
                "unseen": unseen, "bag": bag, "to_play": to_play, "state": "turn", "result": None,
                "spread": totals[0] - totals[1] if len(totals) == 2 else 0,
                "players": [{**p, "score": totals[i], "on_turn": i == to_play, "clock": None}
                            for i, p in enumerate(players)]})
    return out
