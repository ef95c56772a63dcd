from __future__ import annotations

import pytest

from game.errors import DataError, NotationError
from game.tiles import Tile, TileSet, load_tile_set, normalise_word, rack_counter, tile_set_names


def test_english_set_has_100_tiles_with_standard_values() -> None:
    en = load_tile_set("english")
    assert en.total == 100
    assert en.counts["E"] == 12 and en.counts["?"] == 2
    assert en.values["Q"] == 10 and en.values["K"] == 5
    assert en.language == "en"


def test_german_set_has_102_tiles_with_umlauts_and_no_sharp_s() -> None:
    de = load_tile_set("german")
    assert de.total == 102
    assert de.values["Ä"] == 6 and de.values["Ö"] == 8 and de.values["Ü"] == 6
    assert de.counts["E"] == 15 and de.values["Y"] == 10
    assert "ß" not in de.counts


def test_shipped_sets_listed() -> None:
    assert {"english", "german", "polish"} <= set(tile_set_names())


def test_unknown_tile_set() -> None:
    with pytest.raises(DataError, match="no tile set named 'klingon'"):
        load_tile_set("klingon")


def test_tile_text_forms() -> None:
    assert Tile.from_str("a") == Tile("A", blank=True)
    assert str(Tile("Ü")) == "Ü"
    assert str(Tile("E", blank=True)) == "e"
    assert Tile("E", blank=True).rack_letter == "?"


@pytest.mark.parametrize("text", ["?", "AB", "1", ""])
def test_bad_tile(text: str) -> None:
    with pytest.raises(NotationError):
        Tile.from_str(text)


def test_sharp_s_has_no_tile() -> None:
    with pytest.raises(NotationError, match="ß has no tile"):
        Tile.from_str("ß")


def test_normalise_word_writes_sharp_s_as_ss() -> None:
    assert normalise_word("Straße") == "STRASSE"
    assert normalise_word("größe") == "GRÖSSE"


def test_blank_values_zero_and_rack_value() -> None:
    en = load_tile_set("english")
    assert en.value(Tile("Q", blank=True)) == 0
    assert en.rack_value("QI?") == 11
    assert rack_counter("AAb?")["?"] == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [('{"name": "x"}', "not a tile set"), ('{"name": "x", "language": "en", "tiles": {"A": [-1, 1]}}', "non-negative"),
     ('{"name": "x", "language": "en", "tiles": {"ab": [1, 1]}}', "not an uppercase letter")],
)
def test_bad_tile_set_file(text: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        TileSet.from_json(text, "x.json")
