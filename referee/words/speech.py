"""What the table says aloud (referee/speech/): one sentence per kind of change, numbers already written out.

The announcer (referee/speech/phrases.py) works out from two snapshots what changed and says it with these.
"""

from __future__ import annotations

from referee.words.base import Catalogue

SPEECH: dict[str, dict[str, str]] = {
    "play": {"en": "{word}, {where}, {score}. {name}, {total}.",
             "de": "{word}, {where}, {score}. {name}, {total}."},
    "bingo": {"en": "Bingo! ", "de": "Bingo! "},
    "pass": {"en": "{name} passes.", "de": "{name} passt."},
    "exchange": {"en": "{name} exchanges {count} tiles.", "de": "{name} tauscht {count} Steine."},
    "exchange_one": {"en": "{name} exchanges one tile.", "de": "{name} tauscht einen Stein."},
    "withdrawn": {"en": "{word} is challenged off. {name} scores nothing.",
                  "de": "{word} ist angezweifelt und kein gültiges Wort. {name} bekommt keine Punkte."},
    "lost_turn": {"en": "{word} is good. {name} loses the turn.",
                  "de": "{word} ist gültig. {name} setzt einen Zug aus."},
    "bonus": {"en": "{word} is good. {name} gets {score} points.",
              "de": "{word} ist gültig. {name} bekommt {score} Punkte."},
    "penalty": {"en": "{name} loses {score} points on time.",
                "de": "{name} verliert {score} Punkte wegen Zeitüberschreitung."},
    "adjusted_up": {"en": "The director gives {name} {score} points. {name}, {total}.",
                    "de": "Die Turnierleitung gibt {name} {score} Punkte. {name}, {total}."},
    "adjusted_down": {"en": "The director takes {score} points from {name}. {name}, {total}.",
                      "de": "Die Turnierleitung zieht {name} {score} Punkte ab. {name}, {total}."},
    "challenge_open": {"en": "{name} challenges.", "de": "{name} zweifelt an."},
    "phony_off": {"en": "Take the tiles off the board.", "de": "Bitte die Steine vom Brett nehmen."},
    "minutes_left": {"en": "{name}, {minutes} minutes left.", "de": "{name}, noch {minutes} Minuten."},
    "one_minute_left": {"en": "{name}, one minute left.", "de": "{name}, noch eine Minute."},
    "time_up": {"en": "{name}, your time is up. Overtime.",
                "de": "{name}: Zeit abgelaufen, jetzt Überzeit."},
    "max_overtime": {"en": "{name} has passed the overtime limit. Call the director.",
                     "de": "{name} hat die Überzeitgrenze überschritten. Bitte die Turnierleitung rufen."},
    "lost_on_time": {"en": "{name} has passed the overtime limit and loses the game.",
                     "de": "{name} hat die Überzeitgrenze überschritten und verliert die Partie."},
    "turn_timer": {"en": "Time!", "de": "Zeit!"},
    "end_win": {"en": "Game over. {name} wins, {score} to {other}.",
                "de": "Spielende. {name} gewinnt, {score} zu {other}."},
    "end_shared": {"en": "Game over. A draw at {score}.", "de": "Spielende. Unentschieden, {score} beide."},
}


CATALOGUES = (Catalogue("speech", SPEECH),)
