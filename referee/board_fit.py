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

ROLL_DICE = 7  # a Scramble roll: seven dice, or all that remain [SCRAMBLE]; a tray reads a roll once it holds it

_GAME_NAMES = {"standard": ("the standard game", "das Standardspiel"),
               "scramble": ("Scramble", "Scramble"),
               "scramble-advanced": ("Scramble", "Scramble")}


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

    def said(self, language: str = "en") -> str:
        """The reason in the table's language, one clause (no full stop), for a refusal or an alert."""
        de = language == "de"
        game = _GAME_NAMES.get(self.kind, (self.kind, self.kind))[1 if de else 0]
        board, need = f"{self.width}x{self.height}", f"{self.need_width}x{self.need_height}"
        if self.wrong_size:
            if de:
                return f"ein Brett mit {board} Feldern kann {game} nicht spielen: es wird auf {need} gespielt"
            return f"a {board} board cannot play {game}: it is played on {need}"
        if de:
            return (f"ein Würfelfach mit {self.slots} Plätzen kann keinen Wurf von {ROLL_DICE} Würfeln aufnehmen "
                    f"(ohne Fach: slots=0, der Wurf wird auf der Seite eingegeben)")
        return (f"a dice tray of {self.slots} slot(s) cannot hold a roll of {ROLL_DICE} dice (without a tray, "
                f"slots=0, the roll is typed on the page)")

    def __str__(self) -> str:
        return self.said("en")


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
