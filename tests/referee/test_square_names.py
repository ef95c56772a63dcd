"""referee/ names squares through the engine's `game.squares` only: one vocabulary, one set of rules for `H8`."""

from __future__ import annotations

import re
from pathlib import Path

from referee.table.picture import squares_text
from referee.web.board_image import _square_to_cell

ROOT = Path(__file__).resolve().parents[2]
# column letters worked out by hand: ord("A") arithmetic, or a private alphabet of columns
HAND_MADE = re.compile(r"""ord\(\s*["']A["']\s*\)|["']ABCDEFGHIJKLMNO""")


def test_no_module_of_referee_works_out_square_names_by_hand() -> None:
    offences = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
                for path in sorted((ROOT / "referee").rglob("*.py"))
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if HAND_MADE.search(line)]
    assert offences == [], "use game.squares (Square, COLUMNS):\n" + "\n".join(offences)


def test_squares_read_as_the_engine_reads_them() -> None:
    assert squares_text({"H10", "H9", "A10", "O1"}) == "O1, H9, A10, H10"  # row, then column
    assert _square_to_cell("h8") == (7, 7) and _square_to_cell("8H") is None and _square_to_cell("") is None
