"""Why the sensors doubt a square's letter (referee/fusion.py): said after "Which letter is on H8?".

A doubt is kept as its code and fields (`referee.table.picture.Doubt`) in the picture the table journals, and
said in the table's language when the table asks. A journal written before doubts had codes holds the English
words: those are a `text` doubt, shown as they were written.
"""

from __future__ import annotations

from referee.words.base import Catalogue

DOUBTS: dict[str, dict[str, str]] = {
    "camera_unsure": {  # a letter the camera guessed, but not surely enough to score it
        "en": "{square}: the camera cannot read this tile (maybe {letter}, {confidence:.0%} sure)",
        "de": "{square}: die Kamera kann diesen Stein nicht lesen (vielleicht {letter}, zu {confidence:.0%} "
              "sicher)",
    },
    "camera_unreadable": {
        "en": "{square}: the camera cannot read this tile",
        "de": "{square}: die Kamera kann diesen Stein nicht lesen",
    },
    "frame_cuts": {  # the camera alone, a tile beside a square outside its frame
        "en": "{square}: the camera cannot see past this tile (the frame cuts the board)",
        "de": "{square}: die Kamera sieht nicht über diesen Stein hinaus (das Bild schneidet das Brett ab)",
    },
    "frame_cuts_letter": {
        "en": "{square} ({letter}): the camera cannot see past this tile (the frame cuts the board)",
        "de": "{square} ({letter}): die Kamera sieht nicht über diesen Stein hinaus (das Bild schneidet das Brett "
              "ab)",
    },
    "board_feels_unseen": {  # the sensor board feels a tile outside the camera's frame
        "en": "{square}: the board feels a tile outside the camera's view",
        "de": "{square}: das Brett spürt einen Stein außerhalb des Kamerabilds",
    },
    "board_feels_hidden": {  # the sensor board feels a tile the camera does not see
        "en": "{square}: the board feels a tile the camera does not see",
        "de": "{square}: das Brett spürt einen Stein, den die Kamera nicht sieht",
    },
    "readings_differ": {
        "en": "{square}: the board reads {board}, the camera reads {camera}",
        "de": "{square}: das Brett liest {board}, die Kamera liest {camera}",
    },
    "camera_sees_blank": {
        "en": "{square}: the board reads {board}, the camera sees a blank",
        "de": "{square}: das Brett liest {board}, die Kamera sieht einen Blanko",
    },
    "text": {  # a journal from before doubts had codes: its words as written
        "en": "{text}",
        "de": "{text}",
    },
}

CATALOGUES = (Catalogue("doubts", DOUBTS),)
