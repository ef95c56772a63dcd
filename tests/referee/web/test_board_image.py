"""The board picture: what is drawn where, checked on the pixels."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from referee.web.board_image import (
    BLANK_INK,
    CELL,
    LAST_PLAY,
    MARGIN,
    PREMIUM,
    STAR,
    TILE,
    UNKNOWN,
    board_png,
    render_board,
)


def cell_pixels(image: np.ndarray, square: str) -> np.ndarray:
    col, row = ord(square[0]) - ord("A"), int(square[1:]) - 1
    y0, x0 = MARGIN + row * CELL, MARGIN + col * CELL
    return image[y0:y0 + CELL, x0:x0 + CELL].reshape(-1, 3)


def share(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 12) -> float:
    return float(np.mean(np.all(np.abs(pixels.astype(int) - colour) <= tolerance, axis=1)))


def test_tiles_blanks_unknowns_premiums_and_the_last_play(sim_table: Any) -> None:
    table = sim_table
    table.control("start", {})
    table.play("8G QUIZ")
    table.advance(15)
    table.play("F5 SHoW")  # F5-F8, its blank named O
    table.advance(15)
    table.place_doubtful("K5")  # a tile the sensors cannot read
    image = render_board(table.snapshot())
    assert image.shape == (2 * MARGIN + 15 * CELL, 2 * MARGIN + 15 * CELL, 3)
    assert share(cell_pixels(image, "G8"), TILE) > 0.4
    assert share(cell_pixels(image, "K5"), UNKNOWN) > 0.4
    assert share(cell_pixels(image, "F7"), BLANK_INK) > 0.02  # a blank's letter is drawn in its own colour
    assert share(cell_pixels(image, "F6"), BLANK_INK) == 0.0
    assert share(cell_pixels(image, "A1"), PREMIUM["T"]) > 0.5
    assert share(cell_pixels(image, "F5"), LAST_PLAY) > 0.1  # the last play is outlined
    assert share(cell_pixels(image, "J8"), LAST_PLAY) == 0.0  # the first play, away from the outline


def test_umlauts_get_their_dots(make_sim_table: Any) -> None:
    table = make_sim_table(language="de", edition="german")
    table.control("start", {})
    table.play("8H AÄ")
    image = render_board(table.snapshot())
    plain, umlaut = cell_pixels(image, "H8"), cell_pixels(image, "I8")
    dark = (20, 20, 20)
    assert share(umlaut, dark, 60) > share(plain, dark, 60)


def test_png_round_trips(sim_table: Any) -> None:
    table = sim_table
    table.control("start", {})
    table.play("H8 QI")
    data = board_png(table.snapshot())
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, render_board(table.snapshot()))


def test_the_start_star_comes_from_the_layout_and_a_german_board_names_its_premiums_in_german(
        make_sim_table: Any) -> None:
    english = make_sim_table()
    image = render_board(english.snapshot())
    assert share(cell_pixels(image, "H8"), STAR) > 0.1  # the star on the board's centre
    scramble = render_board({**english.snapshot(), "board": ["." * 9] * 9, "premiums": ["." * 9] * 9, "start": "E5"})
    assert share(cell_pixels(scramble, "E5"), STAR) > 0.1 and share(cell_pixels(scramble, "H8"), STAR) == 0.0
    german = make_sim_table(language="de").snapshot()
    # A1 is a triple-word square: 3W on a German board, TW on an English one.
    de, en = render_board(german), render_board({**german, "language": "en"})
    assert not np.array_equal(cell_pixels(de, "A1"), cell_pixels(en, "A1"))
    assert np.array_equal(cell_pixels(de, "B1"), cell_pixels(en, "B1"))  # a plain square is the same
