"""The rules engine's errors in the players' language, rendered from what the error carries.

The engine (`game/`) words every error in English and also hands over its kind (`err.code`), which
of the kind's messages it is (`err.reason`) and the values the message names (`err.fields`). This
module holds one English and one German template per message and fills them from those fields, so
a changed English wording can never silently fall back to English at a German table: a test walks
every error class of the engine and every reason it declares and fails on a missing text.

The English templates give the engine's own text word for word (a test compares them); the German
ones use the words a German club uses: Blanko, Bänkchen, Wörterbuch, anzweifeln.

Errors that carry no code known here (a project error raised outside the engine) are shown with
their own message. An error is said as a field of another phrase: `say("refusals", "engine", lang, error=err)`,
or "Not a legal play: {why}" with the error as `why` (referee/words/__init__.py says how).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from game.errors import RefereeError
from referee.words.base import Catalogue
from referee.words.states import state_name

Template = dict[str, str]

TEXTS: dict[str, Template] = {
    # --- data files --------------------------------------------------------------------------
    "data.dice_detail": {
        "en": "{source}: not a dice set file ({detail})",
        "de": "{source}: keine Würfelsatz-Datei ({detail})",
    },
    "data.dice_die": {
        "en": "{source}: die {number}: {detail}",
        "de": "{source}: Würfel {number}: {detail}",
    },
    "data.dice_file": {
        "en": "{source}: not a dice set file (it holds no JSON object with name, language and dice)",
        "de": "{source}: keine Würfelsatz-Datei (kein JSON-Objekt mit name, language und dice)",
    },
    "data.dice_key": {
        "en": "{source}: not a dice set file (it has no {key!r} key)",
        "de": "{source}: keine Würfelsatz-Datei (der Eintrag {key!r} fehlt)",
    },
    "data.dice_provisional": {
        "en": "{source}: 'provisional' must be true or false",
        "de": "{source}: 'provisional' muss true oder false sein",
    },
    "data.dice_set_count": {
        "en": "dice set {name!r}: has {count} dice, a Scramble set has {per_set}",
        "de": "Würfelsatz {name!r}: hat {count} Würfel, ein Scramble-Satz hat {per_set}",
    },
    "data.dice_set_value": {
        "en": "dice set {name!r}: {letter} is worth {value} on die {first} but {other} on die {number}; "
              "a letter has one value in a set",
        "de": "Würfelsatz {name!r}: {letter} zählt {value} auf Würfel {first}, aber {other} auf Würfel {number}; "
              "ein Buchstabe hat in einem Satz nur einen Wert",
    },
    "data.dice_values": {
        "en": "rule set {name!r}: the tile values of {letters} differ from the dice {dice!r}; "
              "build the rules with scramble_rules(dice)",
        "de": "Regelsatz {name!r}: die Werte von {letters} weichen von den Würfeln {dice!r} ab; "
              "die Regeln mit scramble_rules(dice) bauen",
    },
    "data.journal_entry": {
        "en": "journal entry {entry!r} is malformed ({detail})",
        "de": "Journaleintrag {entry!r} ist fehlerhaft ({detail})",
    },
    "data.layout_empty": {
        "en": "layout {name!r}: no squares",
        "de": "Brettplan {name!r}: keine Felder",
    },
    "data.layout_file": {
        "en": "{source}: not a layout file ({detail})",
        "de": "{source}: keine Brettplan-Datei ({detail})",
    },
    "data.layout_kinds": {
        "en": "layout {name!r}: row {row} has unknown square kinds {kinds}",
        "de": "Brettplan {name!r}: Zeile {row} hat unbekannte Feldarten {kinds}",
    },
    "data.layout_row_width": {
        "en": "layout {name!r}: row {row} has {count} squares, row 1 has {width}",
        "de": "Brettplan {name!r}: Zeile {row} hat {count} Felder, Zeile 1 hat {width}",
    },
    "data.layout_start": {
        "en": "layout {name!r}: needs exactly one start square '*', has {count}",
        "de": "Brettplan {name!r}: braucht genau ein Startfeld '*', hat {count}",
    },
    "data.layout_too_wide": {
        "en": "layout {name!r}: more than 26 columns cannot be named",
        "de": "Brettplan {name!r}: mehr als 26 Spalten lassen sich nicht benennen",
    },
    "data.no_dice": {
        "en": "rule set {name!r}: Scramble needs a dice set",
        "de": "Regelsatz {name!r}: Scramble braucht einen Würfelsatz",
    },
    "data.no_dice_set": {
        "en": "no dice set named {name!r} (have: {known})",
        "de": "kein Würfelsatz namens {name!r} (vorhanden: {known})",
    },
    "data.no_layout": {
        "en": "no layout named {name!r}",
        "de": "kein Brettplan namens {name!r}",
    },
    "data.no_tile_set": {
        "en": "no tile set named {name!r} (have: {known})",
        "de": "kein Steinsatz namens {name!r} (vorhanden: {known})",
    },
    "data.not_scramble": {
        "en": "rule set {name!r} is not a Scramble rule set (use game.scramble.scramble_rules)",
        "de": "Regelsatz {name!r} ist kein Scramble-Regelsatz (game.scramble.scramble_rules verwenden)",
    },
    "data.rules_options": {
        "en": "rule set: unknown options {options}",
        "de": "Regelsatz: unbekannte Optionen {options}",
    },
    "data.rules_value": {
        "en": "rule set: {detail} in {raw}",
        "de": "Regelsatz: {detail} in {raw}",
    },
    "data.scramble_rules": {
        "en": "Scramble rule set: {detail}",
        "de": "Scramble-Regelsatz: {detail}",
    },
    "data.target": {
        "en": "rule set {name!r}: the winning score must be positive, not {target}",
        "de": "Regelsatz {name!r}: die Siegpunktzahl muss positiv sein, nicht {target}",
    },
    "data.tile_entry": {
        "en": "{source}: tile {letter!r} needs a [count, value] of non-negative integers",
        "de": "{source}: Stein {letter!r} braucht [Anzahl, Wert] als ganze Zahlen ab 0",
    },
    "data.tile_file": {
        "en": "{source}: not a tile set file ({detail})",
        "de": "{source}: keine Steinsatz-Datei ({detail})",
    },
    "data.tile_letter": {
        "en": "{source}: {letter!r} is not an uppercase letter or '?'",
        "de": "{source}: {letter!r} ist kein Großbuchstabe und kein '?'",
    },
    "data.turn_seconds": {
        "en": "rule set {name!r}: the turn time must be positive, not {seconds}",
        "de": "Regelsatz {name!r}: die Zugzeit muss positiv sein, nicht {seconds}",
    },
    # --- notation ----------------------------------------------------------------------------
    "notation.blank_face": {
        "en": "a blank face is worth 0, not {value}",
        "de": "eine Blanko-Seite zählt 0, nicht {value}",
    },
    "notation.die_face": {
        "en": "{text!r} is not a die face: write a letter and its value, like Q10 or ?0",
        "de": "{text!r} ist keine Würfelseite: Buchstabe und Wert schreiben, etwa Q10 oder ?0",
    },
    "notation.die_faces": {
        "en": "a die has {per_die} faces, not {count}: {die}",
        "de": "ein Würfel hat {per_die} Seiten, nicht {count}: {die}",
    },
    "notation.die_letter": {
        "en": "{letter!r} is not a die letter: use one uppercase letter or ? for a blank",
        "de": "{letter!r} ist kein Würfelbuchstabe: einen Großbuchstaben oder ? für den Blanko verwenden",
    },
    "notation.eszett": {
        "en": "ß has no tile: play S and S",
        "de": "für ß gibt es keinen Stein: S und S legen",
    },
    "notation.face_item": {
        "en": "{item!r} is not a face: write [letter, value] or 'Q10'",
        "de": "{item!r} ist keine Würfelseite: [Buchstabe, Wert] oder 'Q10' schreiben",
    },
    "notation.face_negative": {
        "en": "face {letter}: a value cannot be negative ({value})",
        "de": "Seite {letter}: ein Wert kann nicht negativ sein ({value})",
    },
    "notation.gcg_nick": {
        "en": "line {line}: {nick!r} is not a player of this game",
        "de": "Zeile {line}: {nick!r} spielt in dieser Partie nicht mit",
    },
    "notation.no_letters": {
        "en": "{play}: no letters",
        "de": "{play}: keine Buchstaben",
    },
    "notation.parentheses": {
        "en": "{play}: unbalanced parentheses",
        "de": "{play}: Klammern nicht paarweise",
    },
    "notation.placement": {
        "en": "{text!r} is not a placement: write square=letter, like H8=A (lowercase for a blank)",
        "de": "{text!r} ist keine Steinangabe: Feld=Buchstabe schreiben, etwa H8=A (klein für einen Blanko)",
    },
    "notation.play": {
        "en": "{text!r} is not a play: write position and word, like 8D WORD",
        "de": "{text!r} ist kein Zug: Position und Wort schreiben, etwa 8D WORT",
    },
    "notation.play_letter": {
        "en": "{play}: {char!r} is not a letter",
        "de": "{play}: {char!r} ist kein Buchstabe",
    },
    "notation.position": {
        "en": "{text!r} is not a position: write row then column for across (8D), column then row for down (D8)",
        "de": "{text!r} ist keine Position: waagrecht erst Zeile, dann Spalte (8D), senkrecht erst Spalte, "
              "dann Zeile (D8)",
    },
    "notation.position_row": {
        "en": "{text!r} is not a position: rows count from 1",
        "de": "{text!r} ist keine Position: Zeilen zählen ab 1",
    },
    "notation.rack_char": {
        "en": "{char!r} in rack {rack!r} is not a tile",
        "de": "{char!r} auf dem Bänkchen {rack!r} ist kein Stein",
    },
    "notation.square": {
        "en": "{text!r} is not a square: write a column letter and a row number, like H8",
        "de": "{text!r} ist kein Feld: Spaltenbuchstabe und Zeilennummer schreiben, etwa H8",
    },
    "notation.square_row": {
        "en": "{text!r} is not a square: rows count from 1",
        "de": "{text!r} ist kein Feld: Zeilen zählen ab 1",
    },
    "notation.tile": {
        "en": "{text!r} is not a tile: write one letter, lowercase for a blank",
        "de": "{text!r} ist kein Stein: einen Buchstaben schreiben, klein für einen Blanko",
    },
    # --- placing tiles -----------------------------------------------------------------------
    "empty_play": {
        "en": "no tiles were placed",
        "de": "es wurden keine Steine gelegt",
    },
    "empty_play.no_main_word": {
        "en": "a scored play has a main word; this one has none",
        "de": "ein gewerteter Zug hat ein Hauptwort; dieser hat keins",
    },
    "off_board.play": {
        "en": "{play}: {square} is off the board",
        "de": "{play}: {square} liegt außerhalb des Bretts",
    },
    "off_board.square": {
        "en": "{square}: off the board",
        "de": "{square}: außerhalb des Bretts",
    },
    "off_board.squares": {
        "en": "{squares}: off the board (the board is {width}x{height})",
        "de": "{squares}: außerhalb des Bretts (das Brett hat {width}x{height} Felder)",
    },
    "off_board.take_back": {
        "en": "{square}: no tile to take back",
        "de": "{square}: dort liegt kein Stein zum Zurücknehmen",
    },
    "occupied_square": {
        "en": "{square}: already holds {tile}",
        "de": "{square}: dort liegt schon {tile}",
    },
    "duplicate_square": {
        "en": "{square}: two tiles placed on one square",
        "de": "{square}: zwei Steine auf einem Feld",
    },
    "not_in_line": {
        "en": "{squares}: tiles are not in one line",
        "de": "{squares}: die Steine liegen nicht in einer Reihe",
    },
    "gap": {
        "en": "{span}: there is a gap at {square}",
        "de": "{span}: bei {square} ist eine Lücke",
    },
    "not_connected": {
        "en": "{span}: the play does not touch any tile on the board",
        "de": "{span}: der Zug berührt keinen Stein auf dem Brett",
    },
    "start_square": {
        "en": "{span}: the first play must cover the start square {start}",
        "de": "{span}: der erste Zug muss das Startfeld {start} bedecken",
    },
    "first_play_too_short.min_letters": {
        "en": "{span}: the first word needs at least {count} letters",
        "de": "{span}: das erste Wort braucht mindestens {count} Buchstaben",
    },
    "first_play_too_short.single_tile": {
        "en": "{span}: a single tile forms no word",
        "de": "{span}: ein einzelner Stein bildet kein Wort",
    },
    "blank_without_letter": {
        "en": "{square}: say which letter the blank stands for",
        "de": "{square}: für welchen Buchstaben steht der Blanko?",
    },
    "unknown_letter.not_in_set": {
        "en": "{square}: the {tile_set} tile set has no letter {letter}",
        "de": "{square}: der Steinsatz »{tile_set}« hat keinen Buchstaben {letter}",
    },
    "unknown_letter.not_letter": {
        "en": "{square}: {letter!r} is not a letter",
        "de": "{square}: {letter!r} ist kein Buchstabe",
    },
    "play_through_mismatch.empty": {
        "en": "{play}: {square} is empty, but the play goes through a tile there",
        "de": "{play}: {square} ist leer, aber der Zug geht dort durch einen Stein",
    },
    "play_through_mismatch.holds": {
        "en": "{play}: {square} holds {tile}, not {letter}",
        "de": "{play}: auf {square} liegt {tile}, nicht {letter}",
    },
    "not_on_rack.exchange": {
        "en": "exchange {exchanged}: {tiles} not on the rack {rack}",
        "de": "Tausch {exchanged}: {tiles} nicht auf dem Bänkchen {rack}",
    },
    "not_on_rack.face_not_in_hand": {
        "en": "{square}: {face} is not among the faces in hand ({hand})",
        "de": "{square}: {face} ist nicht unter den Würfeln in der Hand ({hand})",
    },
    "not_on_rack.passed_dice": {
        "en": "rack {rack}: the dice passed on ({passed}) include {tiles}, not in the rack",
        "de": "Bänkchen {rack}: die weitergegebenen Würfel ({passed}) enthalten {tiles}, das nicht auf dem "
              "Bänkchen ist",
    },
    "not_on_rack.played": {
        "en": "{play}: {tiles} not on the rack {rack}",
        "de": "{play}: {tiles} nicht auf dem Bänkchen {rack}",
    },
    "not_on_rack.too_many": {
        "en": "{play}: {count} tiles played, but {player} holds only {held}",
        "de": "{play}: {count} Steine gelegt, aber {player} hat nur {held}",
    },
    "not_in_bag.play": {
        "en": "{play}: {left} left unseen",
        "de": "{play}: {left} ungesehen",
    },
    "not_in_bag.rack": {
        "en": "rack {rack}: {tiles} not among the unseen tiles",
        "de": "Bänkchen {rack}: {tiles} nicht unter den ungesehenen Steinen",
    },
    "not_in_bag.racks": {
        "en": "racks {racks}: together more {tiles} than unseen",
        "de": "Bänkchen {racks}: zusammen mehr {tiles} als ungesehen",
    },
    "not_in_lexicon.one": {
        "en": "{words} is not in the lexicon",
        "de": "{words} steht nicht im Wörterbuch",
    },
    "not_in_lexicon.many": {
        "en": "{words} are not in the lexicon",
        "de": "{words} stehen nicht im Wörterbuch",
    },
    # --- turns -------------------------------------------------------------------------------
    "not_your_turn": {
        "en": "it is {turn}'s turn, not {player}'s",
        "de": "{turn} ist am Zug, nicht {player}",
    },
    "exchange_not_allowed.bag_too_small": {
        "en": "exchange refused: {bag} tiles in the bag, the rules need {needed}",
        "de": "Tausch abgelehnt: {bag} Steine im Beutel, die Regeln verlangen {needed}",
    },
    "exchange_not_allowed.more_than_bag": {
        "en": "exchange of {count} tiles refused: only {bag} in the bag",
        "de": "Tausch von {count} Steinen abgelehnt: nur {bag} im Beutel",
    },
    "exchange_not_allowed.no_tiles": {
        "en": "an exchange needs at least one tile",
        "de": "ein Tausch braucht mindestens einen Stein",
    },
    "exchange_not_allowed.say_tiles": {
        "en": "with a known rack, say which tiles are exchanged",
        "de": "bei bekanntem Bänkchen angeben, welche Steine getauscht werden",
    },
    "exchange_not_allowed.scramble": {
        "en": "Scramble has no exchange: every turn rolls new dice",
        "de": "Scramble kennt keinen Tausch: jeder Zug würfelt neu",
    },
    "challenge.already": {
        "en": "{player} has already challenged this play",
        "de": "{player} hat diesen Zug schon angezweifelt",
    },
    "challenge.cannot_challenge": {
        "en": "player {challenger} cannot challenge {player}'s play",
        "de": "Spieler {challenger} kann den Zug von {player} nicht anzweifeln",
    },
    "challenge.forced_play": {
        "en": "a forced play has no words the lexicon can judge: give the verdict",
        "de": "ein erzwungener Zug hat keine Wörter, die das Wörterbuch prüfen kann: bitte entscheiden",
    },
    "challenge.no_lexicon": {
        "en": "no lexicon to judge the challenge: give the verdict",
        "de": "kein Wörterbuch, um die Anzweiflung zu prüfen: bitte entscheiden",
    },
    "challenge.nothing_pending": {
        "en": "there is no play to challenge (a play may be challenged only before the next turn)",
        "de": "es gibt keinen Zug zum Anzweifeln (ein Zug kann nur vor dem nächsten Zug angezweifelt werden)",
    },
    "challenge.void": {
        "en": "under the void rule the lexicon judges every play; there is nothing to challenge",
        "de": "nach der Void-Regel prüft das Wörterbuch jeden Zug; es gibt nichts anzuzweifeln",
    },
    "challenge.void_needs_lexicon": {
        "en": "the void challenge rule needs a lexicon to judge every play",
        "de": "die Void-Regel braucht ein Wörterbuch, das jeden Zug prüft",
    },
    "challenge.word_count": {
        "en": "{words} words challenged, but the play formed {formed} word(s)",
        "de": "{words} Wörter angezweifelt, aber der Zug bildete {formed} Wort/Wörter",
    },
    "challenge.word_count_none": {
        "en": "{words} words challenged, but the play formed no word(s)",
        "de": "{words} Wörter angezweifelt, aber der Zug bildete kein Wort",
    },
    "game_over.end_racks": {
        "en": "cannot score the racks at the end: {detail}",
        "de": "die Reststeine am Ende lassen sich nicht werten: {detail}",
    },
    "game_over.lost_on_time": {
        "en": "{player} has already lost on time",
        "de": "{player} hat schon auf Zeit verloren",
    },
    "game_over.no_end_rack": {
        "en": "the engine gives {player} no end-of-game rack adjustment",
        "de": "die Auswertung gibt {player} keine Reststein-Wertung am Spielende",
    },
    "game_over.not_ended": {
        "en": "the engine has not ended the game: nobody went out and the scoreless turns are below the limit",
        "de": "die Partie ist nicht zu Ende: niemand hat ausgelegt und die Nullzüge liegen unter der Grenze",
    },
    "game_over.not_waiting_racks": {
        "en": "the game is not waiting for the racks at its end",
        "de": "die Partie wartet nicht auf die Reststeine",
    },
    "game_over.over": {
        "en": "the game is over ({why})",
        "de": "die Partie ist zu Ende ({why})",
    },
    "adjustment.points": {
        "en": "an adjustment is a whole number of points from -{most} to {most}, not 0: {points!r}",
        "de": "eine Korrektur ist eine ganze Punktzahl von -{most} bis {most}, nicht 0: {points!r}",
    },
    "adjustment.reason": {
        "en": "an adjustment needs its reason, at most {most} characters",
        "de": "eine Korrektur braucht ihren Grund, höchstens {most} Zeichen",
    },
    "correction.no_play": {
        "en": "there is no play to take back or correct",
        "de": "es gibt keinen Zug, der zurückgenommen oder korrigiert werden kann",
    },
    "correction.not_in_play": {
        "en": "{square} is not a tile of the last play, {play}",
        "de": "{square} ist kein Stein des letzten Zuges, {play}",
    },
    "correction.turn_since": {
        "en": "{play} is no longer the last turn: a turn has been played since",
        "de": "{play} ist nicht mehr der letzte Zug: seitdem wurde weitergespielt",
    },
    "player.count": {
        "en": "{count} players: the {rules} rules are for {min} to {max}",
        "de": "{count} Spieler: die Regeln »{rules}« sind für {min} bis {max}",
    },
    "player.draws": {
        "en": "draws {draws}: one tile per player, a letter or ?",
        "de": "gezogen {draws}: ein Stein pro Spieler, ein Buchstabe oder ?",
    },
    "player.no_player": {
        "en": "there is no player {player}",
        "de": "es gibt keinen Spieler {player}",
    },
    "player.racks_needed": {
        "en": "the racks of {players} are still needed",
        "de": "die Reststeine von {players} fehlen noch",
    },
    "player.unknown_action": {
        "en": "unknown action {action!r} in the journal",
        "de": "unbekannte Aktion {action!r} im Journal",
    },
    # --- Scramble dice -----------------------------------------------------------------------
    "roll.cup_cannot_show": {
        "en": "the dice left in the cup cannot show {wanted}",
        "de": "die Würfel im Becher können {wanted} nicht zeigen",
    },
    "roll.dice_count": {
        "en": "{count} dice accounted for, a set has {per_set}",
        "de": "{count} Würfel erfasst, ein Satz hat {per_set}",
    },
    "roll.die_twice": {
        "en": "a die is in two places at once: cup {cup}, out {out}",
        "de": "ein Würfel ist an zwei Stellen zugleich: Becher {cup}, draußen {out}",
    },
    "roll.no_face": {
        "en": "no die of the set {dice_set!r} has the face {face}",
        "de": "kein Würfel des Satzes {dice_set!r} hat die Seite {face}",
    },
    "roll.nobody_rolled": {
        "en": "nobody rolled for the first play",
        "de": "niemand hat um den ersten Zug gewürfelt",
    },
    "roll.not_in_alphabet": {
        "en": "{letter} is not in the alphabet {alphabet}",
        "de": "{letter} ist nicht im Alphabet {alphabet}",
    },
    "roll.rack_empty_hand": {
        "en": "rack {rack}: the dice in hand show nothing",
        "de": "Bänkchen {rack}: in der Hand liegen keine Würfel",
    },
    "roll.rack_not_hand": {
        "en": "rack {rack}: the dice in hand show {hand}",
        "de": "Bänkchen {rack}: die Würfel in der Hand zeigen {hand}",
    },
    "roll.roll_count": {
        "en": "{read} dice read, but the player rolls {to_draw} ({hand} in hand, {cup} in the cup, "
              "never more than {max} in all)",
        "de": "{read} Würfel gelesen, aber es werden {to_draw} gewürfelt ({hand} in der Hand, {cup} im Becher, "
              "nie mehr als {max} insgesamt)",
    },
    "roll_order.not_rolled": {
        "en": "{player} has not rolled the dice yet",
        "de": "{player} hat noch nicht gewürfelt",
    },
    "roll_order.rolled_twice": {
        "en": "{player} has already rolled this turn",
        "de": "{player} hat in diesem Zug schon gewürfelt",
    },
    # --- clocks ------------------------------------------------------------------------------
    "clock.adjustment": {
        "en": "a clock adjustment must be a finite number of seconds, not {value!r}",
        "de": "eine Uhrkorrektur muss eine endliche Zahl von Sekunden sein, nicht {value!r}",
    },
    "clock.budget_zero": {
        "en": "game clock: the budget per player must be more than 0 seconds",
        "de": "Spieluhr: die Bedenkzeit pro Spieler muss mehr als 0 Sekunden sein",
    },
    "clock.cannot_pause": {
        "en": "the game clock cannot pause: it is {state}",
        "de": "die Spieluhr kann nicht anhalten: sie ist {state}",
    },
    "clock.cannot_resume": {
        "en": "the game clock cannot resume: it is {state}, not paused",
        "de": "die Spieluhr kann nicht weiterlaufen: sie ist {state}, nicht angehalten",
    },
    "clock.cannot_start": {
        "en": "the game clock cannot start: it is already {state}",
        "de": "die Spieluhr kann nicht starten: sie ist schon {state}",
    },
    "clock.cannot_switch": {
        "en": "the game clock cannot switch: it is {state}",
        "de": "die Spieluhr kann nicht umschalten: sie ist {state}",
    },
    "clock.countdown": {
        "en": "a countdown needs a finite number of seconds, not {value!r}",
        "de": "ein Countdown braucht eine endliche Zahl von Sekunden, nicht {value!r}",
    },
    "clock.no_player": {
        "en": "there is no player {player!r} at this table (seats 0 to {last})",
        "de": "an diesem Tisch gibt es keinen Spieler {player!r} (Plätze 0 bis {last})",
    },
    "clock.on_max_overtime": {
        "en": "game clock: on_max_overtime must be 'flag' or 'lose', not {value!r}",
        "de": "Spieluhr: on_max_overtime muss 'flag' oder 'lose' sein, nicht {value!r}",
    },
    "clock.overtime_ms": {
        "en": "overtime must be whole milliseconds, not {value!r}",
        "de": "die Überzeit muss in ganzen Millisekunden angegeben sein, nicht {value!r}",
    },
    "clock.penalty_negative": {
        "en": "the overtime penalty must not be negative, not {points} points a minute",
        "de": "der Überzeitabzug darf nicht negativ sein, nicht {points} Punkte pro Minute",
    },
    "clock.penalty_setting": {
        "en": "game clock: penalty_points_per_minute must be a whole number, 0 or more, not {value!r}",
        "de": "Spieluhr: penalty_points_per_minute muss eine ganze Zahl ab 0 sein, nicht {value!r}",
    },
    "clock.players": {
        "en": "game clock: a game has 2 to 4 players, not {value!r}",
        "de": "Spieluhr: eine Partie hat 2 bis 4 Spieler, nicht {value!r}",
    },
    "clock.saved_config": {
        "en": "saved game clock: bad config ({detail})",
        "de": "gespeicherte Spieluhr: fehlerhafte Einstellungen ({detail})",
    },
    "clock.saved_field_bool": {
        "en": "saved clock: field {key!r} must be true or false, got {value!r}",
        "de": "gespeicherte Uhr: Feld {key!r} muss true oder false sein, ist aber {value!r}",
    },
    "clock.saved_field_mapping": {
        "en": "saved clock: field {key!r} must be a mapping, got {value!r}",
        "de": "gespeicherte Uhr: Feld {key!r} muss eine Zuordnung sein, ist aber {value!r}",
    },
    "clock.saved_field_number": {
        "en": "saved clock: field {key!r} must be a finite number, got {value!r}",
        "de": "gespeicherte Uhr: Feld {key!r} muss eine endliche Zahl sein, ist aber {value!r}",
    },
    "clock.saved_kind": {
        "en": "saved {kind}: the record is a {found!r}, not a {kind!r}",
        "de": "gespeichert {kind}: der Eintrag ist {found!r}, nicht {kind!r}",
    },
    "clock.saved_list": {
        "en": "saved game clock: {key!r} must be a list of {length} values, got {value!r}",
        "de": "gespeicherte Spieluhr: {key!r} muss eine Liste von {length} Werten sein, ist aber {value!r}",
    },
    "clock.saved_loser": {
        "en": "saved game clock: loser must be a seat from 0 to {last} or null, not {value!r}",
        "de": "gespeicherte Spieluhr: loser muss ein Platz von 0 bis {last} oder null sein, nicht {value!r}",
    },
    "clock.saved_needs_mover": {
        "en": "saved game clock: a {state} clock needs the player on move",
        "de": "gespeicherte Spieluhr: eine Uhr im Zustand {state} braucht den Spieler am Zug",
    },
    "clock.saved_not_mapping": {
        "en": "saved {kind}: expected a mapping, got {type}",
        "de": "gespeichert {kind}: eine Zuordnung erwartet, erhalten {type}",
    },
    "clock.saved_on_move": {
        "en": "saved game clock: on_move must be a seat from 0 to {last} or null, not {value!r}",
        "de": "gespeicherte Spieluhr: on_move muss ein Platz von 0 bis {last} oder null sein, nicht {value!r}",
    },
    "clock.saved_state": {
        "en": "saved game clock: unknown state {value!r}",
        "de": "gespeicherte Spieluhr: unbekannter Zustand {value!r}",
    },
    "clock.saved_timer_state": {
        "en": "saved turn timer: unknown state {value!r}",
        "de": "gespeicherte Zugzeituhr: unbekannter Zustand {value!r}",
    },
    "clock.saved_version": {
        "en": "saved {kind}: unsupported version {version!r} (this build reads version 1)",
        "de": "gespeichert {kind}: Version {version!r} wird nicht unterstützt (diese Version liest Version 1)",
    },
    "clock.setting": {
        "en": "game clock: {name} must be a number of seconds, 0 or more, not {value!r}",
        "de": "Spieluhr: {name} muss eine Zahl von Sekunden ab 0 sein, nicht {value!r}",
    },
    "clock.timer_cannot_pause": {
        "en": "the turn timer cannot pause: it is {state}",
        "de": "die Zugzeituhr kann nicht anhalten: sie ist {state}",
    },
    "clock.timer_cannot_resume": {
        "en": "the turn timer cannot resume: it is {state}, not paused",
        "de": "die Zugzeituhr kann nicht weiterlaufen: sie ist {state}, nicht angehalten",
    },
    "clock.turn_seconds": {
        "en": "turn timer: the time per turn must be positive seconds, not {value!r}",
        "de": "Zugzeituhr: die Zeit pro Zug muss eine positive Zahl von Sekunden sein, nicht {value!r}",
    },
    "clock.unknown_settings": {
        "en": "game clock: unknown setting(s) {names}",
        "de": "Spieluhr: unbekannte Einstellung(en) {names}",
    },
    # --- lexicons, records, variants ---------------------------------------------------------
    "lexicon.binary": {
        "en": "{name}: a binary file, not a plain word list",
        "de": "{name}: eine Binärdatei, keine einfache Wortliste",
    },
    "lexicon.damaged": {
        "en": "{name}: a damaged {kind} file ({detail})",
        "de": "{name}: eine beschädigte {kind}-Datei ({detail})",
    },
    "lexicon.not_a_list": {
        "en": "{name}: {what}",
        "de": "{name}: {what}",
    },
    "lexicon.rejects": {
        "en": "{name}: {rejected} of {content} lines ({share:.0%}) are not words; this does not look like a word list "
              "({summary})",
        "de": "{name}: {rejected} von {content} Zeilen ({share:.0%}) sind keine Wörter; das ist keine Wortliste",
    },
    "lexicon.too_big": {
        "en": "{name}: unpacks to more than {limit} MB: not a word list",
        "de": "{name}: entpackt mehr als {limit} MB: keine Wortliste",
    },
    "lexicon.too_few": {
        "en": "{name}: only {words} words, a lexicon has at least {min_words} ({summary})",
        "de": "{name}: nur {words} Wörter, ein Wörterbuch hat mindestens {min_words}",
    },
    "lexicon.compiled_empty": {
        "en": "compiled lexicon {name!r} is empty",
        "de": "das übersetzte Wörterbuch {name!r} ist leer",
    },
    "lexicon.not_compiled": {
        "en": "not a compiled lexicon (recompile it with `referee lexicon install`)",
        "de": "kein übersetztes Wörterbuch (mit `referee lexicon install` neu übersetzen)",
    },
    "lexicon.no_words": {
        "en": "{name}: no words found ({words} words from {lines} lines ({encoding}); {duplicates} duplicates, "
              "{comments} comments, {rejected} lines rejected)",
        "de": "{name}: keine Wörter gefunden ({words} Wörter aus {lines} Zeilen ({encoding}); {duplicates} doppelt, "
              "{comments} Kommentare, {rejected} Zeilen abgelehnt)",
    },
    "gcg.move_nick": {
        "en": "line {line}: a move line needs '>nick:' ({text!r})",
        "de": "Zeile {line}: eine Zugzeile braucht '>Kürzel:' ({text!r})",
    },
    "gcg.no_score": {
        "en": "line {line}: no score and total found in {text!r}",
        "de": "Zeile {line}: keine Punkte und kein Stand in {text!r}",
    },
    "gcg.not_gcg": {
        "en": "no #player lines and no moves (lines starting with '>'): not a GCG record",
        "de": "keine #player-Zeilen und keine Züge (Zeilen mit '>'): keine GCG-Partie",
    },
    "gcg.not_move": {
        "en": "line {line}: {token!r} is not a move",
        "de": "Zeile {line}: {token!r} ist kein Zug",
    },
    "gcg.not_position": {
        "en": "line {line}: {token!r} is not a position (like 8D or D8)",
        "de": "Zeile {line}: {token!r} ist keine Position (wie 8D oder D8)",
    },
    "gcg.player_nick": {
        "en": "line {line}: #{key} needs a nickname",
        "de": "Zeile {line}: #{key} braucht ein Kürzel",
    },
    "gcg.rack_move": {
        "en": "line {line}: cannot tell rack and move apart in {text!r}",
        "de": "Zeile {line}: Bänkchen und Zug lassen sich in {text!r} nicht trennen",
    },
    "gcg.too_long": {
        "en": "the record has {lines} lines, more than the {limit} a game record can need: not a game's record",
        "de": "die Partie hat {lines} Zeilen, mehr als die {limit}, die eine Partie braucht: keine Partie",
    },
    "gcg.score_digits": {
        "en": "line {line}: {token!r} is not a score (more than {digits} digits)",
        "de": "Zeile {line}: {token!r} ist keine Punktzahl (mehr als {digits} Ziffern)",
    },
    "gcg.utf16": {
        "en": "a UTF-16 file that does not decode ({why} at byte {at})",
        "de": "eine UTF-16-Datei, die sich nicht lesen lässt ({why} bei Byte {at})",
    },
    "unknown_variant": {
        "en": "unknown variant {name!r} (known: {known})",
        "de": "unbekannte Variante {name!r} (bekannt: {known})",
    },
}

def _unseen_left(fields: Mapping[str, object], lang: str) -> dict[str, object]:
    """`left` for "8E QQ: only 1 Q left unseen" from the (letter, unseen count) pairs the engine gives."""
    pairs = fields.get("unseen", ())
    parts = []
    for letter, count in pairs if isinstance(pairs, tuple | list) else ():
        if lang == "de":
            parts.append(f"nur noch {count} {letter}" if count else f"kein {letter}")
        else:
            parts.append(f"only {count} {letter}" if count else f"no {letter}")
    return {"left": ", ".join(parts)}


def _clock_state(fields: Mapping[str, object], lang: str) -> dict[str, object]:
    """A clock's state ("running"), as the language names it ("am Laufen")."""
    state = fields.get("state")
    return {"state": state_name(state, "clock", lang)} if isinstance(state, str) else {}


# What a file given as a word list is instead, in German (English: the engine's own words).
_NOT_A_LIST_DE = {
    "zip": "ein ZIP-Archiv: bitte entpacken und die Wortliste darin angeben",
    "pdf": "ein PDF-Dokument, keine einfache Wortliste",
    "png": "ein PNG-Bild, keine Wortliste",
    "jpeg": "ein JPEG-Bild, keine Wortliste",
    "elf": "ein Programm (ELF), keine Wortliste",
    "sqlite": "eine SQLite-Datenbank, keine Wortliste",
    "7z": "ein 7-Zip-Archiv: bitte entpacken und die Wortliste darin angeben",
    "rar": "ein RAR-Archiv: bitte entpacken und die Wortliste darin angeben",
    "compiled": "ein schon übersetztes Wörterbuch: bitte die Wortliste installieren, aus der es entstand",
}


def _not_a_list(fields: Mapping[str, object], lang: str) -> dict[str, object]:
    kind = fields.get("kind")
    if lang == "de" and isinstance(kind, str) and kind in _NOT_A_LIST_DE:
        return {"what": _NOT_A_LIST_DE[kind]}
    return {}


# Values a template names that are worked out from the fields, per key: (names given, how).
DERIVED: dict[str, tuple[tuple[str, ...], Callable[[Mapping[str, object], str], dict[str, object]]]] = {
    "not_in_bag.play": (("left",), _unseen_left),
    "lexicon.not_a_list": ((), _not_a_list),
    **{key: ((), _clock_state) for key in TEXTS if key.startswith("clock.") and "{state}" in TEXTS[key]["en"]},
}


def _derive(key: str, fields: Mapping[str, object], lang: str) -> dict[str, object]:
    derived = DERIVED.get(key)
    return derived[1](fields, lang) if derived is not None else {}


def error_fields(err: RefereeError, lang: str) -> dict[str, object] | None:
    """The values engine error `err`'s template names, in `lang`; None when its kind has no words here (an error
    raised outside the engine, shown with its own message). A `detail` that is another engine error's words (the
    cause) is said in `lang` too."""
    if err.message_key not in TEXTS:
        return None
    values: dict[str, object] = dict(err.fields)
    cause = err.__cause__
    if lang != "en" and isinstance(cause, RefereeError) and "detail" in values:
        values["detail"] = cause
    return values


CATALOGUES = (Catalogue("engine", TEXTS, _derive),)
