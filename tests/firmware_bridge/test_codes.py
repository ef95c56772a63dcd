"""Tile codes: both ways up mean the letter, and a table where they could not is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.codes import TileCodes, default_tile_codes, reverse_bits
from firmware_bridge.errors import TileCodeError
from firmware_bridge.squares import line_of_squares, square_index, square_name, square_names


def test_shipped_table_reads_every_letter_both_ways_up() -> None:
    codes = default_tile_codes()
    assert len(codes.letters()) == 30  # A-Z, Ä, Ö, Ü and the blank
    for letter in codes.letters():
        code = codes.code(letter)
        assert codes.letter(code) == letter
        assert codes.letter(reverse_bits(code, 6)) == letter, letter
    assert codes.code("e") == codes.code("E")
    with pytest.raises(TileCodeError, match="'ß' has no magnet code"):
        codes.code("ß")


def test_reverse_bits_is_a_180_degree_turn_of_the_2x3_grid() -> None:
    assert reverse_bits(0b000001, 6) == 0b100000  # top-left corner -> bottom-right corner
    assert reverse_bits(0b010010, 6) == 0b010010  # both middle switches: the same either way up
    assert all(reverse_bits(reverse_bits(c, 6), 6) == c for c in range(64))


def test_a_table_whose_upside_down_codes_collide_is_refused() -> None:
    with pytest.raises(TileCodeError, match=r"'B' \(32\) and 'A' \(1\) read the same when one tile lies upside down"):
        TileCodes({"B": 32, "A": 1})
    with pytest.raises(TileCodeError, match="tile code 1 is given to both 'A' and 'B'"):
        TileCodes({"A": 1, "B": 1})
    assert TileCodes({"B": 32, "A": 1}, upside_down="none").letter(32) == "B"
    with pytest.raises(TileCodeError, match=r"must be 1\.\.63"):
        TileCodes({"A": 64})
    with pytest.raises(TileCodeError, match="upside_down 'sideways'"):
        TileCodes({"A": 1}, upside_down="sideways")


def test_table_from_a_file(tmp_path: Path) -> None:
    good = tmp_path / "codes.json"
    good.write_text(json.dumps({"bits": 6, "codes": {"A": 3, "B": 5}}), encoding="utf-8")
    assert TileCodes.from_file(good).letter(5) == "B"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(TileCodeError, match=r"bad\.json: not a tile-code table"):
        TileCodes.from_file(bad)


def test_square_names() -> None:
    assert square_name(112, 15) == "H8"
    assert square_index("h8", 15, 15) == 112
    assert square_index("I9", 9, 9) == 80
    assert square_names(9, 9)[40] == "E5"
    assert line_of_squares("N14", "down", 2, 15, 15) == ["N14", "N15"]
    bad_names = (("8H", "not a square"), ("J1", "off the board"), ("A0", "rows count from 1"), ("", "not a square"))
    for bad, match in bad_names:
        with pytest.raises(ValueError, match=match):
            square_index(bad, 9, 9)
    with pytest.raises(ValueError, match="'diagonal' is not a direction"):
        line_of_squares("A1", "diagonal", 2, 9, 9)
