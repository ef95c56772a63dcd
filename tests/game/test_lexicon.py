from __future__ import annotations

from pathlib import Path

import pytest

from game.errors import LexiconError
from game.lexicon import Lexicon


def test_word_list_normalised_and_junk_reported() -> None:
    data = "# header\n\ncat\nCat\nStraße dict entry\nx\nrock'n'roll\n123\nqi\t5\n%comment\n".encode()
    lex, report = Lexicon.from_word_list(data, "mine")
    assert sorted(lex) == ["CAT", "QI", "STRASSE"]
    assert (report.words, report.duplicates, report.comments, report.rejected) == (3, 1, 2, 3)
    assert report.examples == [(6, "x", "one letter is not a word"),
                               (7, "rock'n'roll", "not a word: only letters are allowed"),
                               (8, "123", "not a word: only letters are allowed")]
    assert "3 words from 10 lines (utf-8)" in report.summary()


def test_latin1_word_list() -> None:
    lex, report = Lexicon.from_word_list("größe\nÄRGER\n".encode("latin-1"))
    assert report.encoding == "iso-8859-1"
    assert "GRÖSSE" in lex and lex.contains("ärger")


def test_alphabet_rejects_words_no_tile_spells() -> None:
    lex, report = Lexicon.from_word_list("café\ncafe\n".encode(), alphabet=set("ACEF"))
    assert sorted(lex) == ["CAFE"]
    assert report.examples == [(1, "café", "no tile for É")]


def test_membership_and_missing() -> None:
    lex, _ = Lexicon.from_word_list(b"cat\ncats\n")
    assert "CAT" in lex and "cat" not in lex and lex.contains("cat")
    assert lex.missing(["CAT", "qzx", "Cats"]) == ("QZX",)
    assert len(lex) == 2


def test_compiled_round_trip() -> None:
    lex, _ = Lexicon.from_word_list("zebra\näsen\n".encode(), "de-test")
    data = lex.to_compiled()
    assert data.startswith(b"REFEREE-LEXICON 1 de-test\n")
    again = Lexicon.from_compiled(data)
    assert sorted(again) == sorted(lex) and again.name == "de-test"


def test_errors() -> None:
    with pytest.raises(LexiconError, match="no words found"):
        Lexicon.from_word_list(b"# only a comment\n", "empty")
    with pytest.raises(LexiconError, match="not a compiled lexicon"):
        Lexicon.from_compiled(b"cat\ndog")
    with pytest.raises(LexiconError, match="is empty"):
        Lexicon.from_compiled(b"REFEREE-LEXICON 1 x\n")


def test_enable(shared_dir: Path) -> None:
    lex, report = Lexicon.from_word_list((shared_dir / "lexicons" / "enable2k.txt").read_bytes(), "enable")
    assert report.words == 173528 and report.rejected == 0
    assert "QAT" in lex and "QI" not in lex and "ZA" not in lex
    assert lex.missing(["JUICE", "JUICES", "BRUNCHIFY"]) == ("BRUNCHIFY",)
