"""What the table says to players: its alerts and notices (`TABLE`) and why it refused an action (`REFUSAL_TEXTS`).

An alert's key is its code (referee/table/api.py `ALERT_CODES`): the machine, the live table and the service keep
an alert as its code and fields (`referee.table.state.Alert`), and the view says it in the table's language. A
key that is no alert's code is a part said inside another ("{why}", "{then}"). Squares come already written
(`H8, H9`); a field that is an engine error is said from its own code (referee/words/engine.py); a refusal's
`state` is the table's state, named as a German sentence names it (referee/words/states.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.words.base import Catalogue
from referee.words.states import state_name

TABLE: dict[str, dict[str, str]] = {
    "board_lost": {
        "en": "The sensor board is not answering: check its cable. The game waits.",
        "de": "Das Sensorbrett antwortet nicht: Kabel prüfen. Das Spiel wartet.",
    },
    "misfit_size": {  # {why} of board_unfit
        "en": "a {board} board cannot play {game}: it is played on {need}",
        "de": "ein Brett mit {board} Feldern kann {game} nicht spielen: es wird auf {need} gespielt",
    },
    "misfit_tray": {
        "en": "a dice tray of {slots} slot(s) cannot hold a roll of {dice} dice (without a tray, slots=0, the roll "
              "is typed on the page)",
        "de": "ein Würfelfach mit {slots} Plätzen kann keinen Wurf von {dice} Würfeln aufnehmen (ohne Fach: "
              "slots=0, der Wurf wird auf der Seite eingegeben)",
    },
    "game.standard": {"en": "the standard game", "de": "das Standardspiel"},
    "game.scramble": {"en": "Scramble", "de": "Scramble"},
    "board_unfit": {
        "en": "The sensor board cannot play this game ({why}): the table does not use it. Connect the game's "
              "board (docs/hardware-board.md). The game waits.",
        "de": "Das Sensorbrett passt nicht zu diesem Spiel ({why}): der Tisch benutzt es nicht. Bitte das Brett "
              "des Spiels anschließen (docs/hardware-board.md). Das Spiel wartet.",
    },
    "camera_lost": {
        "en": "The camera is not sending pictures: check it. {then}",
        "de": "Die Kamera liefert keine Bilder: bitte prüfen. {then}",
    },
    "game_waits": {  # what the table does without its camera ({then} of camera_lost)
        "en": "The game waits.",
        "de": "Das Spiel wartet.",
    },
    "play_goes_on": {  # ... when the sensor board is up: it says where the tiles are
        "en": "Play goes on; letters the sensor board cannot read are asked.",
        "de": "Es wird weitergespielt; Buchstaben, die das Sensorbrett nicht lesen kann, werden abgefragt.",
    },
    "camera_blind": {
        "en": "The camera cannot see the board clearly ({why}): the play was not read. Clear the board and press "
              "the clock again.",
        "de": "Die Kamera sieht das Brett nicht klar ({why}): der Zug wurde nicht gelesen. Das Brett freimachen "
              "und die Uhr erneut drücken.",
    },
    "tile_moved": {
        "en": "A tile was moved or lifted outside a turn: {squares}. Put it back.",
        "de": "Ein Stein wurde außerhalb eines Zuges bewegt oder entfernt: {squares}. Bitte zurücklegen.",
    },
    "tile_changed": {
        "en": "A different letter now lies on {squares}. Put the original tile back.",
        "de": "Auf {squares} liegt jetzt ein anderer Buchstabe. Bitte den ursprünglichen Stein zurücklegen.",
    },
    "tiles_added": {
        "en": "Tiles were put down outside a turn: {squares}. Take them off.",
        "de": "Steine wurden außerhalb eines Zuges gelegt: {squares}. Bitte wegnehmen.",
    },
    "doubtful_letter": {
        "en": "Which letter is on {squares}? {why}",
        "de": "Welcher Buchstabe liegt auf {squares}? {why}",
    },
    "blank_letter": {
        "en": "Which letter does the blank on {squares} stand for?",
        "de": "Für welchen Buchstaben steht der Blanko auf {squares}?",
    },
    "illegal_play": {
        "en": "Not a legal play: {why}. Fix the tiles and press the clock again.",
        "de": "Kein gültiger Zug: {why}. Steine korrigieren und die Uhr erneut drücken.",
    },
    "commit_refused": {
        "en": "The turn was not taken: {why}",
        "de": "Der Zug wurde nicht gewertet: {why}",
    },
    "play_lifted": {
        "en": "a tile of the play was lifted; press the clock again when the play is down",
        "de": "ein Stein des Zuges wurde hochgenommen; die Uhr erneut drücken, wenn der Zug liegt",
    },
    "board_not_clear": {
        "en": "clear the board before the start",
        "de": "vor dem Start das Brett abräumen",
    },
    "not_in_lexicon": {
        "en": "{words} not in the lexicon: take the tiles off {squares}.",
        "de": "{words} nicht im Wörterbuch: bitte die Steine von {squares} nehmen.",
    },
    "take_back": {
        "en": "Take the tiles off {squares}.",
        "de": "Bitte die Steine von {squares} nehmen.",
    },
    "remove_dice": {
        "en": "Scrambled: take the dice off {squares} and put them in the cup.",
        "de": "Durcheinander: die Würfel von {squares} in den Becher zurücklegen.",
    },
    "challenge_open": {
        "en": "{player} may challenge now.",
        "de": "{player} kann jetzt anzweifeln.",
    },
    "challenge_good": {
        "en": "Challenge: the play stands; {words} are good.",
        "de": "Anzweiflung: der Zug zählt; {words} sind gültig.",
    },
    "time_up": {
        "en": "Time is up for {player}: overtime now costs points.",
        "de": "Die Zeit von {player} ist abgelaufen: Überzeit kostet jetzt Punkte.",
    },
    "max_overtime": {
        "en": "{player} is past the overtime limit: call the director.",
        "de": "{player} hat die Überzeitgrenze überschritten: bitte die Turnierleitung rufen.",
    },
    "lost_on_time": {
        "en": "{player} passed the overtime limit and loses on time: the game is over.",
        "de": "{player} hat die Überzeitgrenze überschritten und verliert auf Zeit: die Partie ist zu Ende.",
    },
    "turn_timer": {
        "en": "The turn timer ran out.",
        "de": "Die Zugzeit ist abgelaufen.",
    },
    "roll_letters": {
        "en": "Roll the dice: {count} to roll.",
        "de": "Bitte würfeln: {count} Würfel.",
    },
    "not_rolled": {
        "en": "{letters} was not rolled.",
        "de": "{letters} wurde nicht gewürfelt.",
    },
    "journal_failed": {
        "en": "The referee cannot save the game (is the SD card full?): nothing changes until it can. "
              "Call the director.",
        "de": "Der Schiedsrichter kann die Partie nicht speichern (ist die SD-Karte voll?): bis dahin ändert "
              "sich nichts. Bitte die Turnierleitung rufen.",
    },
    "journal_malformed": {
        "en": "The saved game is damaged (the SD card lost part of the journal: {finding}). The game goes on, "
              "but a restart may lose it: call the director, who copies the journal now and restores a backup "
              "(docs/backup.md).",
        "de": "Die gespeicherte Partie ist beschädigt (die SD-Karte hat einen Teil des Journals verloren: "
              "{finding}). Die Partie geht weiter, ein Neustart kann sie aber verlieren: Bitte die Turnierleitung "
              "rufen, die das Journal jetzt sichert und eine Sicherung zurückspielt (docs/backup.md).",
    },
    "journal_held": {
        "en": "Another program is reading the journal, so the referee cannot fold the last turns into its main "
              "file (they are safe in the write-ahead log). Close that program (docs/backup.md).",
        "de": "Ein anderes Programm liest das Journal, darum kann der Schiedsrichter die letzten Züge nicht in "
              "seine Hauptdatei übernehmen (sie sind im Write-Ahead-Log sicher). Bitte das Programm schließen "
              "(docs/backup.md).",
    },
    # what the table shows for a tournament director's commands (referee/table/director.py)
    "challenge_held": {
        "en": "The director holds the challenge: the clocks are stopped.",
        "de": "Die Turnierleitung hält die Anzweiflung an: die Uhren stehen.",
    },
    "play_undone": {
        "en": "The director undid the last play ({squares}).",
        "de": "Die Turnierleitung hat den letzten Zug zurückgenommen ({squares}).",
    },
    "score_adjusted": {
        "en": "The director adjusted the score of {player} by {points} points (now {total}): {reason}",
        "de": "Die Turnierleitung hat den Punktestand von {player} um {points} Punkte korrigiert (jetzt {total}): "
              "{reason}",
    },
    "speech_failed": {
        "en": "The table cannot speak: {why}",
        "de": "Der Tisch kann nicht sprechen: {why}",
    },
    "speech_no_device": {  # {why} of speech_failed: the sound system took no sound
        "en": "no sound device takes its voice ({sound}). The game goes on without it; check the speaker "
              "(docs/speech.md).",
        "de": "kein Audiogerät nimmt die Ansage an ({sound}). Die Partie geht ohne sie weiter; bitte den "
              "Lautsprecher prüfen (docs/speech.md).",
    },
    "speech_error": {  # {why} of speech_failed: espeak-ng is missing or fails
        "en": "{error}. The game goes on without its voice; check the speaker (docs/speech.md).",
        "de": "{error}. Die Partie geht ohne Ansage weiter; bitte den Lautsprecher prüfen (docs/speech.md).",
    },
    "settings_kept": {
        "en": "This game started with other settings than the configuration has now ({changes}): it keeps its own "
              "to the end, because a game's rules and clocks cannot change while it is played. The game after it "
              "takes the new ones once the referee starts again.",
        "de": "Diese Partie hat mit anderen Einstellungen begonnen, als die Konfiguration jetzt hat ({changes}): "
              "sie behält ihre bis zum Ende, weil sich Regeln und Uhren einer laufenden Partie nicht ändern. Die "
              "Partie danach bekommt die neuen, sobald der Schiedsrichter neu startet.",
    },
    "racks_needed": {
        "en": "Game over: enter the tiles left on the racks of {players}.",
        "de": "Spielende: bitte die Reststeine von {players} eingeben.",
    },
    "director_message": {  # the director's own words, shown as written
        "en": "{text}",
        "de": "{text}",
    },
    # the journal, from the live table and the service (referee/table/live.py, referee/service.py)
    "journal_behind": {
        "en": "The board holds tiles on {count} square(s) the saved game does not know ({squares}): the journal "
              "may have lost moves. Call the director (docs/backup.md); clear the board for a new game.",
        "de": "Auf dem Brett liegen Steine auf {count} Feld(ern), die die gespeicherte Partie nicht kennt "
              "({squares}): dem Journal fehlen vielleicht Züge. Bitte die Turnierleitung rufen (docs/backup.md); "
              "für eine neue Partie das Brett abräumen.",
    },
    "journal_damaged": {
        "en": "The saved game has {count} unreadable event(s) (number {numbers}): they were skipped and the game "
              "may differ from the board. Call the director.",
        "de": "Die gespeicherte Partie hat {count} unlesbare(s) Ereignis(se) (Nummer {numbers}): sie wurden "
              "übersprungen, und die Partie kann vom Brett abweichen. Bitte die Turnierleitung rufen.",
    },
    "journal_waiting": {
        "en": "The referee cannot save the game: the SD card has not answered for {seconds} s. The clocks run "
              "on; the last change is taken once the card answers. If this lasts, call the director.",
        "de": "Der Schiedsrichter kann die Partie nicht speichern: die SD-Karte antwortet seit {seconds} s "
              "nicht. Die Uhren laufen weiter; die letzte Änderung wird übernommen, sobald die Karte antwortet. "
              "Wenn das anhält, bitte die Turnierleitung rufen.",
    },
    # the page's guard (referee/web/app.py GuessingAlert)
    "pin_guessing": {
        "en": "Someone is guessing the table PIN: {wrong} wrong PINs in the last {minutes} minutes. The phones "
              "that gave the PIN before keep control. {new}",
        "de": "Jemand rät die Tisch-PIN: {wrong} falsche PINs in den letzten {minutes} Minuten. Die Telefone, "
              "die die PIN schon eingegeben haben, steuern weiter. {new}",
    },
    "pin_guessing_director_code": {  # {new} of pin_guessing, with web.director_pin set
        "en": "A new phone gets in with the director's code.",
        "de": "Ein neues Telefon kommt mit dem Code der Turnierleitung hinein.",
    },
    "pin_guessing_wait": {  # {new} of pin_guessing, without it
        "en": "A new phone must wait until the guessing stops (a director's code, web.director_pin, lets one in "
              "at once).",
        "de": "Ein neues Telefon muss warten, bis das Raten aufhört (ein Code der Turnierleitung, "
              "web.director_pin, lässt es sofort hinein).",
    },
}


# The notices a tournament director's commands put up at the table (referee/table/director.py); a
# director's own message (`director_message`) is shown in the words the director wrote.
DIRECTOR_NOTICES = ("challenge_held", "play_undone", "score_adjusted")

# Why a control action was refused: `ControlError(code, **fields)` (referee/table/api.py) is said from these.
# A field that is an exception is the engine's reason; a `state` is named in the language; `!r` shows what was
# sent as it was sent.
REFUSAL_TEXTS: dict[str, dict[str, str]] = {
    "action_shape": {"en": "an action is a name and an object of parameters",
                     "de": "eine Aktion ist ein Name und ein Objekt mit Parametern"},
    "params_shape": {"en": "the parameters of an action must be an object",
                     "de": "die Parameter einer Aktion müssen ein Objekt sein"},
    "unknown_action": {"en": "unknown action {action!r}; the actions are {actions}",  # from referee/table/actions.py
                       "de": "unbekannte Aktion {action!r}; die Aktionen sind {actions}"},
    "unknown_event": {"en": "unknown event kind {kind!r}", "de": "unbekannte Ereignisart {kind!r}"},
    "engine": {"en": "{error}", "de": "{error}"},  # the engine's own reason, in the table's language
    "square_missing": {"en": "give the square, e.g. \"H8\"", "de": "bitte das Feld angeben, z. B. \"H8\""},
    "already_started": {"en": "the game has already started (the table is {state})",
                        "de": "das Spiel hat schon begonnen (der Tisch ist {state})"},
    "start_board_not_clear": {"en": "clear the board before the start: tiles lie on {squares}",
                              "de": "vor dem Start das Brett abräumen: Steine liegen auf {squares}"},
    "nothing_to_pause": {"en": "nothing to pause: the table is {state}",
                         "de": "nichts anzuhalten: der Tisch ist {state}"},
    "not_paused": {"en": "the game is not paused", "de": "das Spiel ist nicht angehalten"},
    "no_blank_there": {"en": "{square}: no blank waits for its letter there (waiting: {asked})",
                       "de": "{square}: dort wartet kein Blanko auf seinen Buchstaben (es warten: {asked})"},
    "no_blank_waiting": {"en": "{square}: no blank waits for its letter there (waiting: none)",
                         "de": "{square}: dort wartet kein Blanko auf seinen Buchstaben (es wartet keiner)"},
    "not_correctable": {"en": "{square}: only the tiles of the last play (or of the play being read) can be "
                              "corrected",
                        "de": "{square}: nur die Steine des letzten Zuges (oder des Zuges, der gelesen wird) "
                              "lassen sich korrigieren"},
    "correction_does_not_stand": {"en": "{square}: with {letter} there the play does not stand: {error}",
                                  "de": "{square}: mit {letter} dort gilt der Zug nicht: {error}"},
    "exchange_not_now": {"en": "an exchange is declared during one's own turn (the table is {state})",
                         "de": "getauscht wird im eigenen Zug (der Tisch ist {state})"},
    "exchange_count": {"en": "an exchange is 1 to 7 tiles, not {count!r}",
                       "de": "ein Tausch ist 1 bis 7 Steine, nicht {count!r}"},
    "exchange_tiles_down": {"en": "take your tiles off the board first: {squares}",
                            "de": "erst die Steine vom Brett nehmen: {squares}"},
    "pass_not_now": {"en": "one passes during one's own turn (the table is {state})",
                     "de": "gepasst wird im eigenen Zug (der Tisch ist {state})"},
    "pass_tiles_down": {"en": "take your tiles off the board to pass: {squares}",
                        "de": "zum Passen die Steine vom Brett nehmen: {squares}"},
    "challenge_seat": {"en": "challenge: player must be a seat from 0 to {last}, not {player!r}",
                       "de": "Anzweifeln: player muss ein Platz von 0 bis {last} sein, nicht {player!r}"},
    "no_challenge": {"en": "there is no play to challenge now", "de": "jetzt gibt es keinen Zug anzuzweifeln"},
    "own_play": {"en": "{player} cannot challenge their own play",
                 "de": "{player} kann den eigenen Zug nicht anzweifeln"},
    "challenge_words": {"en": "challenge: words is how many of the play's {count} words are challenged, 1 to "
                              "{most}, not {words!r}",
                        "de": "Anzweifeln: words ist, wie viele der {count} Wörter des Zuges angezweifelt werden, "
                              "1 bis {most}, nicht {words!r}"},
    "nothing_to_accept": {"en": "there is no play waiting to be accepted",
                          "de": "kein Zug wartet darauf, angenommen zu werden"},
    "racks_not_now": {"en": "racks are entered at the end of the game",
                      "de": "die Reststeine werden am Spielende eingegeben"},
    "racks_seat": {"en": "racks: player must be a seat still to enter: {seats}; not {player!r}",
                   "de": "Reststeine: player muss ein Platz sein, der noch fehlt: {seats}; nicht {player!r}"},
    "racks_letters": {"en": "racks: tiles must be letters, e.g. \"AEQ\" (? for a blank)",
                      "de": "Reststeine: tiles müssen Buchstaben sein, z. B. \"AEQ\" (? für einen Blanko)"},
    "racks_count": {"en": "racks: {player} has {size} tiles left, not {count}",
                    "de": "Reststeine: {player} hat noch {size} Steine, nicht {count}"},
    "racks_no_letter": {"en": "racks: this tile set has no {letter}",
                        "de": "Reststeine: dieser Steinsatz hat kein {letter}"},
    "racks_seen": {"en": "racks: {tiles} has tiles that are on the board or on another rack already",
                   "de": "Reststeine: {tiles} enthält Steine, die schon auf dem Brett oder einem anderen Bänkchen "
                         "liegen"},
    "not_scramble": {"en": "dice are rolled only in Scramble", "de": "gewürfelt wird nur bei Scramble"},
    "roll_not_now": {"en": "the dice are rolled at the start of a Scramble turn (the table is {state})",
                     "de": "gewürfelt wird zu Beginn eines Scramble-Zuges (der Tisch ist {state})"},
    "roll_count": {"en": "a roll is 1 to 7 letters of the dice (? for a blank face), not {letters!r}",
                   "de": "ein Wurf ist 1 bis 7 Buchstaben der Würfel (? für eine leere Seite), nicht {letters!r}"},
    "roll_no_face": {"en": "roll: no die shows {letter!r}", "de": "Wurf: kein Würfel zeigt {letter!r}"},
    "new_game_params": {"en": "new_game takes no parameters, not {names}",
                        "de": "new_game nimmt keine Parameter, nicht {names}"},
    "new_game_not_ended": {"en": "a new game starts once this one has ended (the table is {state})",
                           "de": "ein neues Spiel beginnt, wenn dieses zu Ende ist (der Tisch ist {state})"},
    "storage_waiting": {"en": "the table is waiting for its storage: the SD card has not answered for {seconds} s, "
                              "so nothing was done; try again once it answers",
                        "de": "der Tisch wartet auf seinen Speicher: die SD-Karte antwortet seit {seconds} s nicht, "
                              "darum wurde nichts getan; bitte erneut versuchen, sobald sie antwortet"},
    "journal_failed": {"en": "the table cannot write its journal, so nothing was changed: {error}",
                       "de": "der Tisch kann sein Journal nicht schreiben, darum wurde nichts geändert: {error}"},
    "invalid_input": {"en": "{detail}", "de": "ungültige Eingabe: {detail}"},  # the page's checks (referee/web)
    # a tournament director's commands (referee/tournament_link.py)
    "director_args": {"en": "the arguments of a director command must be an object",
                      "de": "die Angaben eines Befehls der Turnierleitung müssen ein Objekt sein"},
    "director_unknown": {"en": "unknown director command {cmd!r}",
                         "de": "unbekannter Befehl der Turnierleitung {cmd!r}"},
    "seat_not_now": {"en": "players are seated before the game starts (the table is {state})",
                     "de": "Spieler werden vor dem Spielbeginn gesetzt (der Tisch ist {state})"},
    "message_empty": {"en": "a message to the table needs a text",
                      "de": "eine Nachricht an den Tisch braucht einen Text"},
    "message_minutes": {"en": "a message is shown for 1 to 1440 minutes, not {minutes!r}",
                        "de": "eine Nachricht wird 1 bis 1440 Minuten gezeigt, nicht {minutes!r}"},
    "director_seat": {"en": "player must be a seat from 0 to {last}, not {player!r}",
                      "de": "der Spieler muss ein Platz von 0 bis {last} sein, nicht {player!r}"},
    "adjust_seconds": {"en": "seconds must be a number (negative to take time), not {seconds!r}",
                       "de": "Sekunden müssen eine Zahl sein (negativ, um Zeit abzuziehen), nicht {seconds!r}"},
    "no_game_clocks": {"en": "this table plays without game clocks (clocks.mode is not \"tournament\")",
                       "de": "dieser Tisch spielt ohne Schachuhren (clocks.mode ist nicht \"tournament\")"},
    "no_challenge_to_hold": {"en": "there is no challenge to hold (the table is {state})",
                             "de": "es gibt keine Anzweiflung zum Anhalten (der Tisch ist {state})"},
    "no_challenge_held": {"en": "no challenge is held at this table",
                          "de": "an diesem Tisch ist keine Anzweiflung angehalten"},
    "undo_not_now": {"en": "only the last play can be undone, before the next turn is played (the table is {state})",
                     "de": "nur der letzte Zug kann zurückgenommen werden, bevor der nächste gespielt ist "
                           "(der Tisch ist {state})"},
    "undo_failed": {"en": "the game does not replay without its last play: {error}",
                    "de": "das Spiel lässt sich ohne seinen letzten Zug nicht nachspielen: {error}"},
    "score_args": {"en": "correct_score takes a misread letter (square and letter) or points (player, points and "
                         "reason), not {given}",
                   "de": "correct_score nimmt einen falsch gelesenen Buchstaben (square und letter) oder Punkte "
                         "(player, points und reason), nicht {given}"},
    "adjust_not_now": {"en": "points are adjusted once the game has started",
                       "de": "Punkte werden korrigiert, wenn das Spiel begonnen hat"},
    "adjust_reason": {"en": "a points adjustment needs its reason (reason: a text)",
                      "de": "eine Punktkorrektur braucht ihren Grund (reason: ein Text)"},
    "next_game_not_now": {"en": "new players are seated before a game starts or after it ends (the table is {state})",
                          "de": "neue Spieler werden vor einem Spiel oder nach seinem Ende gesetzt "
                                "(der Tisch ist {state})"},
    "next_game_players": {"en": "this table is set up for {n} players, not {given}",
                          "de": "dieser Tisch ist für {n} Spieler eingerichtet, nicht {given}"},
    "next_game_first": {"en": "first must be the index of the player who starts, not {first}",
                        "de": "first muss die Nummer des Spielers sein, der beginnt, nicht {first}"},
    "next_game_same_name": {"en": "players {first} and {second} are both called {name!r}: the score sheet and the "
                                  "game record could not tell them apart; give each player a name of their own",
                            "de": "Spieler {first} und {second} heißen beide {name!r}: Spielbogen und "
                                  "Partieprotokoll könnten sie nicht unterscheiden; jeder Spieler braucht einen "
                                  "eigenen Namen"},
    "next_game_lookalike_name": {
        "en": "players {first} and {second} are both called {name!r} (written with look-alike letters: "
              "{letters}): the score sheet and the game record could not tell them apart; give each player a name "
              "of their own",
        "de": "Spieler {first} und {second} heißen beide {name!r} (mit gleich aussehenden Buchstaben geschrieben: "
              "{letters}): Spielbogen und Partieprotokoll könnten sie nicht unterscheiden; jeder Spieler braucht "
              "einen eigenen Namen"},
}


def _state_in_a_sentence(code: str, fields: Mapping[str, object], lang: str) -> dict[str, object]:
    """"der Tisch ist {state}": a German sentence names the state ("im Zug"); English uses its word."""
    state = fields.get("state")
    return {"state": state_name(str(state), "sentence", lang)} if state is not None else {}


CATALOGUES = (Catalogue("table", TABLE), Catalogue("refusals", REFUSAL_TEXTS, _state_in_a_sentence))
