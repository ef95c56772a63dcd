"""Each game's figures for the broadcast and the reports afterwards: bingos, the highest play, the spread.

Read from the score sheet the director holds (the table snapshot's `moves`, tournament/results.py): a bingo is
a play that put down seven tiles (the notation's letters outside the ones played through: `8D W(O)RDIEST`),
not taken back; a play taken back (its `withdrawn` row after it) is no play, neither a bingo nor the highest.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

RACK_SIZE = 7


def tiles_put_down(notation: str) -> int:
    """How many tiles a play's notation puts down: `8D WO.D` puts down 3, `8D W(O)D` 2 (the O was on the board)."""
    parts = notation.split()
    word = parts[-1] if len(parts) >= 2 else ""
    word = re.sub(r"\([^)]*\)", "", word).replace(".", "")
    return sum(1 for ch in word if ch.isalpha() or ch == "?")


def _standing_plays(moves: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays that stand: a play followed (at once) by its `withdrawn` row is left out."""
    out = []
    for i, move in enumerate(moves):
        if move.get("kind") != "play":
            continue
        following = moves[i + 1] if i + 1 < len(moves) else None
        if following is not None and following.get("kind") == "withdrawn" and \
                following.get("player") == move.get("player"):
            continue
        out.append(move)
    return out


def game_stats(moves: Sequence[dict[str, Any]], scores: Sequence[int], players: int = 2) -> dict[str, Any]:
    """Per player: bingos (how many and which), the highest play, plays made; and the game's spread
    (first player's score minus the second's). Deterministic, so the JSON of a round reads the same twice."""
    per: list[dict[str, Any]] = [{"bingos": 0, "bingo_plays": [], "highest": None, "plays": 0}
                                 for _ in range(players)]
    for move in _standing_plays(moves):
        player = int(move.get("player", 0))
        if not 0 <= player < players:
            continue
        row: dict[str, Any] = per[player]
        notation = str(move.get("notation", "")).strip()
        score = int(move.get("score", 0))
        row["plays"] += 1
        if tiles_put_down(notation) >= RACK_SIZE:
            row["bingos"] += 1
            row["bingo_plays"].append({"notation": notation, "score": score})
        if row["highest"] is None or score > row["highest"]["score"]:
            row["highest"] = {"notation": notation, "score": score}
    best = max((r["highest"] for r in per if r["highest"] is not None), key=lambda h: h["score"], default=None)
    return {"players": per, "bingos": sum(r["bingos"] for r in per), "highest": best,
            "spread": scores[0] - scores[1] if len(scores) == 2 else 0}


STATS_FIELDS = ["round", "division", "table", "player1", "score1", "bingos1", "highest1", "highest_score1",
                "player2", "score2", "bingos2", "highest2", "highest_score2", "spread"]


def stats_csv(games: Sequence[tuple[int, str, int, Sequence[str], Sequence[int], Sequence[dict[str, Any]]]]) -> str:
    """One line per game (round, division, table, players, scores, score sheet): both players' bingos and
    highest play, and the spread; for the round's zip, beside results.csv."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(STATS_FIELDS)
    for round_, division, table, players, scores, moves in games:
        if len(players) != 2 or len(scores) != 2:
            continue
        stats = game_stats(moves, scores)
        cells: list[Any] = [round_, division, table]
        for i in range(2):
            mine = stats["players"][i]
            high = mine["highest"] or {"notation": "", "score": ""}
            cells += [players[i], scores[i], mine["bingos"], high["notation"], high["score"]]
        writer.writerow([*cells, stats["spread"]])
    return buffer.getvalue()
