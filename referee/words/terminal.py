"""What `referee run`, `referee demo` and the simulated table's console print in the terminal.

Apart from the table's own words (referee/words/table.py) because these talk about the program (where the page
is, how to type board commands, where the journal went), not about the game; a German table gets them in German
like everything else a player reads. A `state` field is the table's state, named as the status line names it
(referee/words/states.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.words.base import Catalogue
from referee.words.states import state_name

TERMINAL: dict[str, dict[str, str]] = {
    "status": {"en": "game {game} {state}: {players}{where}", "de": "Partie {game} {state}: {players}{where}"},
    "page": {"en": "; page {url}", "de": "; Seite {url}"},
    "watch": {"en": "watch the scoreboard at {url}", "de": "die Anzeigetafel steht unter {url}"},
    "listens": {"en": "the scoreboard listens on {where}", "de": "die Anzeigetafel ist erreichbar über {where}"},
    "emulator": {"en": "sensor board emulator at {path}", "de": "Sensorbrett-Emulator unter {path}"},
    "relaid": {"en": "the resumed game's {count} tile(s) lie on the emulated board again, as the journal left them",
               "de": "die {count} Stein(e) der fortgesetzten Partie liegen wieder auf dem emulierten Brett, wie "
                     "das Journal sie verlassen hat"},
    "start": {"en": "; start the game on the page", "de": "; das Spiel auf der Seite starten"},
    "start_pin": {"en": "; start the game on the page (PIN {pin})",
                  "de": "; das Spiel auf der Seite starten (PIN {pin})"},
    "type_here": {"en": "type commands for the board and the table here (word 8E QUIZ, press 0, start, pass, "
                        "challenge, help)",
                  "de": "hier Befehle für das Brett und den Tisch eingeben (word 8E QUIZ, press 0, start, pass, "
                        "challenge, help)"},
    "log_file": {"en": "the log goes to {path} (warnings also here)",
                 "de": "das Protokoll steht in {path} (Warnungen auch hier)"},
    "journal": {"en": "the game is saved in the journal {path}", "de": "die Partie ist im Journal {path} gespeichert"},
    "export": {"en": "export it as GCG: {command}", "de": "als GCG exportieren: {command}"},
    "help": {
        "en": ("the board:  place H8 Q   lay a tile (a letter, ? for a blank)       lift H8   take it off\n"
               "            word 8E QUIZ lay a GCG move's new tiles (lowercase: a blank)\n"
               "            press 0      player 0's clock button (press 1 starts the game)\n"
               "            unplug       pull the board's USB cable                 replug    plug it back\n"
               "            clear        every tile off the board (before the next game)\n"
               "the table:  start  pause  resume  pass  accept  new (the next game, once one has ended)\n"
               "            exchange 3   challenge (or challenge PLAYER [WORDS])   blank H8 E   correct H8 E\n"
               "            racks 0 AEQ  the tiles left on player 0's rack at the end\n"
               "Scramble:   roll         a random roll of the dice in the cup into the tray (emptied first)\n"
               "            roll clear   take the dice out of the tray\n"
               "            roll SLOT DIE FACE   one die into the tray: slot 1-7, die 1-12 as `referee dice show`\n"
               "                         numbers them, face 1-6 in that order (or the face's letter)\n"
               "            help         this list"),
        "de": ("das Brett:  place H8 Q   einen Stein legen (Buchstabe, ? für einen Blanko)   lift H8   wegnehmen\n"
               "            word 8E QUIZ die neuen Steine eines GCG-Zuges legen (klein: ein Blanko)\n"
               "            press 0      die Uhrtaste von Spieler 0 (press 1 startet die Partie)\n"
               "            unplug       das USB-Kabel des Bretts ziehen            replug    wieder einstecken\n"
               "            clear        alle Steine vom Brett nehmen (vor der nächsten Partie)\n"
               "der Tisch:  start  pause  resume  pass  accept  new (die nächste Partie, wenn eine zu Ende ist)\n"
               "            exchange 3   challenge (oder challenge SPIELER [WÖRTER])   blank H8 E   correct H8 E\n"
               "            racks 0 AEQ  die Reststeine von Spieler 0 am Ende\n"
               "Scramble:   roll         ein zufälliger Wurf der Würfel aus dem Becher ins Würfelfach (vorher "
               "geleert)\n"
               "            roll clear   die Würfel aus dem Würfelfach nehmen\n"
               "            roll FACH WÜRFEL SEITE   ein Würfel ins Fach: Fach 1-7, Würfel 1-12 wie\n"
               "                         `referee dice show` sie zählt, Seite 1-6 in dieser Reihenfolge (oder ihr\n"
               "                         Buchstabe)\n"
               "            help         diese Liste"),
    },
    "roll_range": {"en": "{what} {value!r}: give a number from 1 to {last}",
                   "de": "{what} {value!r}: bitte eine Zahl von 1 bis {last}"},
    "roll_slot": {"en": "slot", "de": "Fach"},
    "roll_die": {"en": "die", "de": "Würfel"},
    "roll_face": {"en": "face", "de": "Seite"},
    "roll_not_in_cup": {"en": "die {die} is not in the cup (on the mat or in hand); the cup holds {cup}",
                        "de": "Würfel {die} ist nicht im Becher (auf dem Spielfeld oder in der Hand); im Becher: "
                              "{cup}"},
    "roll_twice": {"en": "die {die} already lies in slot {slot}: one die, one slot",
                   "de": "Würfel {die} liegt schon in Fach {slot}: ein Würfel, ein Fach"},
    "roll_no_face": {"en": "die {die} has no face {letter} (its faces: {faces})",
                     "de": "Würfel {die} hat keine Seite {letter} (seine Seiten: {faces})"},
    "roll_not_scramble": {"en": "this table plays with tiles, not dice", "de": "dieser Tisch spielt mit Steinen, "
                                                                                "nicht mit Würfeln"},
    "roll_not_now": {"en": "the table does not wait for a roll now", "de": "der Tisch wartet jetzt auf keinen Wurf"},
    "usage": {"en": "{cmd}: type {usage}", "de": "{cmd}: bitte so eingeben: {usage}"},
    "unknown": {"en": "unknown command {line!r}; type help",
                "de": "unbekannter Befehl {line!r}; help zeigt die Befehle"},
    "press_number": {"en": "press: {arg!r} is not a button number; type {usage}",
                     "de": "press: {arg!r} ist keine Tastennummer; bitte so eingeben: {usage}"},
    "press_not_turn": {"en": "press {button}: that is {name}'s button, and it is {mover}'s turn (press {on_turn})",
                       "de": "press {button}: das ist die Taste von {name}, am Zug ist {mover} (press {on_turn})"},
    "failed": {"en": "{cmd}: {error}", "de": "{cmd}: {error}"},
    # what the simulated table's terminal says about the game (referee/sim/narrator.py)
    "move": {"en": "{name}: {what} {score:+d}, total {total}", "de": "{name}: {what} {score:+d}, Stand {total}"},
    "game_over": {"en": "game over: {scores}{verdict}\n  type clear (every tile off the board), then new for the "
                        "next game",
                  "de": "Partie zu Ende: {scores}{verdict}\n  clear (alle Steine vom Brett), dann new für die "
                        "nächste Partie eingeben"},
    "result_wins": {"en": "; {name} wins", "de": "; {name} gewinnt"},
    "result_shared": {"en": "; a tie ({names})", "de": "; unentschieden ({names})"},
    "hint_start": {"en": "the game waits for its start: type start (or press the second player's button, 1)",
                   "de": "die Partie wartet auf den Start: start eingeben (oder die Taste des zweiten Spielers, "
                         "press 1)"},
    "started": {"en": "the game has started: {name} to move", "de": "die Partie läuft: {name} ist am Zug"},
    "resumed": {"en": "the game goes on: {name} to move", "de": "die Partie geht weiter: {name} ist am Zug"},
    "to_move": {"en": "{name} to move", "de": "{name} ist am Zug"},
    "paused": {"en": "the game is paused: type resume", "de": "die Partie ist angehalten: resume eingeben"},
    "hint_blank": {"en": "  type blank {square} E (the letter the blank stands for)",
                   "de": "  blank {square} E eingeben (der Buchstabe, für den der Blanko steht)"},
    "hint_letter": {"en": "  type correct {square} E (the letter on {square})",
                    "de": "  correct {square} E eingeben (der Buchstabe auf {square})"},
    "hint_racks": {"en": "  type racks {seat} and the {count}tiles left on {name}'s rack, ? for a blank: "
                         "racks {seat} {example}",
                   "de": "  racks {seat} und die {count}Reststeine von {name} eingeben, ? für einen Blanko: "
                         "racks {seat} {example}"},
    "hint_challenge": {"en": "  the play may be challenged for {seconds} s: type challenge, or accept to let it "
                             "stand",
                       "de": "  der Zug kann {seconds} s lang angezweifelt werden: challenge eingeben, oder accept, "
                             "damit er zählt"},
    "hint_roll": {"en": "  roll {count} dice: type roll (a random roll), or roll clear and then roll SLOT DIE FACE "
                        "for each die",
                  "de": "  {count} Würfel werfen: roll eingeben (zufällig), oder roll clear und dann roll FACH "
                        "WÜRFEL SEITE für jeden Würfel"},
    "rolled": {"en": "rolled: {letters}", "de": "gewürfelt: {letters}"},
    "hint_remove": {"en": "  type {lifts}", "de": "  {lifts} eingeben"},
    # referee demo (a German record plays on a German table)
    "demo_starting": {"en": "starting the simulated table (sensor board emulator, {camera}, mock LEDs and buttons)...",
                      "de": "der simulierte Tisch startet (Sensorbrett-Emulator, {camera}, simulierte LEDs und "
                            "Tasten)..."},
    "demo_camera": {"en": "synthetic camera", "de": "synthetische Kamera"},
    "demo_no_camera": {"en": "no camera", "de": "ohne Kamera"},
    "demo_watch": {"en": "watch the game at {url} (table PIN {pin})",
                   "de": "die Partie läuft unter {url} (Tisch-PIN {pin})"},
    "demo_line": {"en": "{name}: {move:<16} engine {shown:<22} total {total:>4}   record {record:>4}",
                  "de": "{name}: {move:<16} Regelwerk {shown:<22} Stand {total:>4}   Partieformular {record:>4}"},
    "demo_stopped": {"en": "stopped after {moves} move{s}: {scores}",
                     "de": "angehalten nach {moves} Zug/Zügen: {scores}"},
    "demo_ended": {"en": "game ended", "de": "Partie zu Ende"},
    "demo_stops_early": {"en": "the record stops before the end of the game",
                         "de": "das Partieformular endet vor dem Spielende"},
    "demo_played": {"en": "{moves} moves played, {how}: {scores}", "de": "{moves} Züge gespielt, {how}: {scores}"},
    "demo_differ_one": {"en": "1 total differs from the record:",
                        "de": "1 Stand weicht vom Partieformular ab:"},
    "demo_differ": {"en": "{n} totals differ from the record:", "de": "{n} Stände weichen vom Partieformular ab:"},
    "demo_agree": {"en": "every one of {n} totals agrees with the record (scores from the engine, not the record)",
                   "de": "alle {n} Stände stimmen mit dem Partieformular überein (Punkte vom Regelwerk, nicht vom "
                         "Partieformular)"},
    "demo_serving": {"en": "still serving {url}; Ctrl-C to stop", "de": "die Seite bleibt unter {url}; Strg-C beendet"},
    "demo_doubted": {"en": "  the camera doubted {square}: {letter} entered on the page",
                     "de": "  die Kamera war bei {square} unsicher: {letter} auf der Seite eingegeben"},
    "demo_late_pass": {"en": "  line {line}: a pass after the game ended: the turn a wrong challenge lost",
                       "de": "  Zeile {line}: ein Passen nach dem Spielende: der Zug, den eine falsche Anzweiflung "
                             "gekostet hat"},
    "stall_note": {"en": "  ! cannot save: the SD card has not answered for {seconds} s",  # referee/outputs.py
                   "de": "  ! Speichern nicht möglich: die SD-Karte antwortet seit {seconds} s nicht"},
    # what each kind of move is called in the simulated table's move line (referee/sim/narrator.py)
    "kind.exchange": {"en": "exchange", "de": "tauscht"},
    "kind.pass": {"en": "pass", "de": "passt"},
    "kind.withdrawn": {"en": "play withdrawn", "de": "Zug zurückgenommen"},
    "kind.challenge": {"en": "challenge", "de": "Anzweiflung"},
    "kind.penalty": {"en": "penalty", "de": "Strafe"},
    "kind.end": {"en": "tiles left", "de": "Reststeine"},
    "kind.lost_turn": {"en": "loses the turn", "de": "verliert den Zug"},
    "kind.adjustment": {"en": "director's adjustment", "de": "Korrektur der Turnierleitung"},
    # where the page listens (referee/web/addresses.py page_urls)
    "listens_everywhere": {"en": "every address of this machine ({host}), port {port}",
                           "de": "jede Adresse dieses Rechners ({host}), Port {port}"},
    "listens_on": {"en": "{host}, port {port}", "de": "{host}, Port {port}"},
    "listens_here_only": {"en": "{host}, port {port} (this machine only)",
                          "de": "{host}, Port {port} (nur dieser Rechner)"},
}


def _status_line_state(code: str, fields: Mapping[str, object], lang: str) -> dict[str, object]:
    """The status line names the table's state its own way in German ("am Zug"); English uses its word."""
    state = fields.get("state")
    return {"state": state_name(str(state), "line", lang)} if code == "status" and state is not None else {}


CATALOGUES = (Catalogue("terminal", TERMINAL, _status_line_state),)
