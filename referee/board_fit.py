"""Whether a sensor board can play the table's game: its size against the game's board, its dice tray against a roll.

A Scramble game on a 15x15 board, or a standard game on the 9x9 mat, once started and waited for tiles on squares
the game does not have (or never saw the ones it has). The board's HELLO is within the protocol's ranges either way
(`firmware_bridge.limits`), so the link alone cannot tell: this module says what the game needs, and the
configuration (an emulated board, known before anything starts) and the service (a real board's HELLO, told by
the link, which then refuses it as it refuses a board outside the protocol) both ask it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from referee.words import Phrase, say

ROLL_DICE = 7  # a Scramble roll: seven dice, or all that remain [SCRAMBLE]; a tray reads a roll once it holds it

@cache
def game_board_size(kind: str) -> tuple[int, int]:
    """(width, height) of the board `kind` ("standard", "scramble", "scramble-advanced") is played on: its layout."""
    from game.layout import load_layout

    layout = load_layout("standard" if kind == "standard" else "scramble")
    return layout.width, layout.height


@dataclass(frozen=True, slots=True)
class BoardMisfit:
    """Why a board cannot play a game: the board's size and tray, and what the game needs."""

    kind: str
    width: int
    height: int
    need_width: int
    need_height: int
    slots: int = 0

    @property
    def wrong_size(self) -> bool:
        return (self.width, self.height) != (self.need_width, self.need_height)

    @property
    def phrase(self) -> Phrase:
        """The reason, one clause (no full stop), for a refusal or an alert (referee/words/table.py)."""
        board, need = f"{self.width}x{self.height}", f"{self.need_width}x{self.need_height}"
        if self.wrong_size:
            game = Phrase("table", "game.standard" if self.kind == "standard" else "game.scramble")
            return Phrase("table", "misfit_size", {"board": board, "game": game, "need": need})
        return Phrase("table", "misfit_tray", {"slots": self.slots, "dice": ROLL_DICE})

    def __str__(self) -> str:
        p = self.phrase
        return say(p.catalogue, p.code, "en", **p.fields)


def board_misfit(kind: str, width: int, height: int, slots: int = 0) -> BoardMisfit | None:
    """Why a `width` x `height` board with `slots` tray slots cannot play `kind`; None when it can.

    The size must be the game's own: squares are named from the top-left corner, so a bigger board would
    report tiles on squares the game does not have, a smaller one never the rest of the game's. A Scramble tray
    must hold a whole roll (the table reads the roll once the tray holds as many dice as were rolled); no tray
    is fine (the camera or the page gives the roll), and a standard game ignores one."""
    need_width, need_height = game_board_size(kind)
    if (width, height) != (need_width, need_height):
        return BoardMisfit(kind, width, height, need_width, need_height, slots)
    if kind != "standard" and 0 < slots < ROLL_DICE:
        return BoardMisfit(kind, width, height, need_width, need_height, slots)
    return None
