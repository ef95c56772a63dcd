"""The board and the score sheet as every view names them: premium squares, kinds of moves, whose move.

Shared by the board picture (referee/web/board_image.py), the scoreboard page, the director's pages and the
spectators' view and overlays, so a premium square is "3W" on all of them at a German table.
"""

from __future__ import annotations

from referee.words.base import Catalogue

BOARD: dict[str, dict[str, str]] = {
    # The premium squares' short names: English boards print Triple Word, Double Word, Triple/Double Letter;
    # German boards print "3-facher Wortwert", "2-facher Buchstabenwert": 3W/2W/3B/2B (W Wort, B Buchstabe).
    "premium.T": {"en": "TW", "de": "3W"},
    "premium.D": {"en": "DW", "de": "2W"},
    "premium.t": {"en": "TL", "de": "3B"},
    "premium.d": {"en": "DL", "de": "2B"},
    # ... and their long names (what a screen reader says of a square)
    "premium_name.T": {"en": "triple word", "de": "3-facher Wortwert"},
    "premium_name.D": {"en": "double word", "de": "2-facher Wortwert"},
    "premium_name.t": {"en": "triple letter", "de": "3-facher Buchstabenwert"},
    "premium_name.d": {"en": "double letter", "de": "2-facher Buchstabenwert"},
    "premium_name.start": {"en": "start square", "de": "Startfeld"},
    # a score sheet row that is not a play, as the pages name it
    "kind.pass": {"en": "pass", "de": "passt"},
    "kind.exchange": {"en": "exchange", "de": "tauscht"},
    "kind.withdrawn": {"en": "withdrawn", "de": "zurückgenommen"},
    "kind.challenge": {"en": "challenge", "de": "Zweifel"},
    "kind.penalty": {"en": "penalty", "de": "Strafe"},
    "kind.end": {"en": "end", "de": "Ende"},
    "kind.lost_turn": {"en": "lost turn", "de": "Zug verloren"},
    "kind.adjustment": {"en": "director's adjustment", "de": "Korrektur der Turnierleitung"},
    "kind.scramble": {"en": "dice back to the cup", "de": "Würfel zurück in den Becher"},
}

CATALOGUES = (Catalogue("board", BOARD),)
