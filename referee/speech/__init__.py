"""The table speaks: plays, challenges, time and the end of the game, said aloud in English or German.

Off by default (`[outputs] speech`). The announcer follows the same snapshots the page does, so it can
never say anything the page does not show, and it speaks off the table's path: a slow or missing voice
drops announcements, it never delays a turn.
"""

from referee.speech.announcer import Announcer, SpeechListener
from referee.speech.phrases import announcements
from referee.speech.voice import EspeakVoice, SpeechError, Voice

__all__ = ["Announcer", "EspeakVoice", "SpeechError", "SpeechListener", "Voice", "announcements"]
