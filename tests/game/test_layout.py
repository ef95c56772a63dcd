from __future__ import annotations

import pytest

from game.errors import DataError
from game.layout import Layout, load_layout
from game.squares import Square


def test_standard_layout_premiums() -> None:
    lay = load_layout("standard")
    assert (lay.width, lay.height) == (15, 15)
    assert str(lay.start) == "H8"
    kinds = {name: lay.premium(Square.from_str(name)) for name in ("A1", "D1", "B2", "F2", "H8", "O15", "H1")}
    assert kinds == {"A1": "T", "D1": "d", "B2": "D", "F2": "t", "H8": "*", "O15": "T", "H1": "T"}
    flat = "".join(lay.rows)
    assert (flat.count("T"), flat.count("D"), flat.count("t"), flat.count("d")) == (8, 16, 12, 24)


def test_standard_layout_is_symmetric_in_the_diagonal() -> None:
    lay = load_layout("standard")
    assert all(lay.rows[r][c] == lay.rows[c][r] for r in range(15) for c in range(15))


def test_any_size_layout() -> None:
    lay = Layout("mini", ("T.T", ".*.", "T.T"))
    assert (lay.width, lay.height, str(lay.start)) == (3, 3, "B2")
    assert lay.word_mult[0] == 3 and lay.letter_mult[4] == 1


@pytest.mark.parametrize(
    ("rows", "message"),
    [(("..", "..."), "row 2 has 3 squares"), (("*x",), "unknown square kinds"), (("..",), "exactly one start"),
     ((), "no squares")],
)
def test_bad_layouts(rows: tuple[str, ...], message: str) -> None:
    with pytest.raises(DataError, match=message):
        Layout("bad", rows)


def test_layout_from_json_errors() -> None:
    with pytest.raises(DataError, match="not a layout file"):
        Layout.from_json("{}", "x.json")
    with pytest.raises(DataError, match="no layout named"):
        load_layout("nope")
