"""The reader's bars on every kind of perturbed camera (`vision/perturb.py`), a few frames per kind.

On the real photos of one game when ../shared/photos is present (skipped otherwise; nothing cut from them is
kept): calibrate from the perturbed first frame, read two later frames, and demand every letter right, no
confident wrong letter and no clean frame flagged. The full sweep over every game and frame, with the
figures, is `benchmarks/vision.py`. Kinds the reader does not meet yet are strict xfails: they fail the
suite the day they start passing, so the list stays true.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import perturb
from vision.classifier import TileClassifier
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.synth import draw_hand, render_scene
from vision.teach import LabelledPhoto, load_labels

NOT_YET: dict[str, str] = {}


@pytest.fixture(scope="module")
def game(shared_dir: Path) -> list[LabelledPhoto]:
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    mine = [p for p in load_labels(labels) if p.game == "game03"]
    return [mine[0], mine[len(mine) // 2], mine[-1]]


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k.name, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[k.name]))
        if k.name in NOT_YET
        else k.name
        for k in perturb.KINDS
    ],
)
def test_the_reader_meets_its_bars(kind: str, game: list[LabelledPhoto], german_model: TileClassifier) -> None:
    apply = perturb.BY_NAME[kind].apply
    rng = np.random.default_rng(16)
    frames = [apply(cv2.imread(str(p.path)), rng) for p in game]
    reader = BoardReader(calibrate(frames[0], where=f"{kind} first frame"), german_model)
    for photo, frame in zip(game[1:], frames[1:], strict=True):
        reading = reader.read(frame)
        wrong = [
            (r, c, photo.board[r][c], reading.board[r][c])
            for r in range(15)
            for c in range(15)
            if reading.board[r][c] != photo.board[r][c]
        ]
        assert wrong == [], f"{kind} {photo.file}: {wrong[:5]} (notes: {reading.notes})"
        assert not reading.occluded, f"{kind} {photo.file}: a clean frame flagged: {reading.notes}"


@pytest.mark.parametrize("lamp", ["warm", "dim", "gradient", "vignette", "gamma1.5", "gamma0.6"])
def test_a_lamp_never_turns_a_tile_into_an_empty_square(lamp: str, german_model: TileClassifier) -> None:
    """The same lamp (or tone curve) on the calibration frame and on the game: the board's own colours
    correct it."""
    apply = perturb.BY_NAME[lamp].apply
    rng = np.random.default_rng(0)
    first = [*["." * 15] * 7, "......TAG......", *["." * 15] * 7]
    later = [*["." * 15] * 6, ".......Ö.......", "......TAG......", ".......R.......", *["." * 15] * 6]
    calib = calibrate(apply(render_scene(first, seed=9).frame, rng))
    reading = BoardReader(calib, german_model).read(apply(render_scene(later, seed=9).frame, rng))
    assert reading.board == later and not reading.occluded and reading.uncertain == []


@pytest.mark.parametrize("kind", ["dim", "vignette", "gamma1.5", "gamma0.6"])
def test_a_lamp_measured_on_an_empty_board_leaves_the_boards_own_tint(
    kind: str, shared_dir: Path, german_model: TileClassifier
) -> None:
    """Calibrated on the empty board of game12 under the lamp, its first tiles read right and trusted.

    The green boards are not grey (their kinds average lower in green): that tint, left alone on a clean
    frame, was taken out as soon as a dim room or a vignette moved the level, and tinted the tiles' faces
    until they no longer passed for tiles."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    photos = {p.file: p for p in load_labels(labels) if p.game == "game12"}
    apply = perturb.BY_NAME[kind].apply
    rng = np.random.default_rng(12)
    calib = calibrate(apply(cv2.imread(str(photos["board-00a.png"].path)), rng), where=f"{kind} empty board")
    later = photos["board-03.png"]
    reading = BoardReader(calib, german_model).read(apply(cv2.imread(str(later.path)), rng))
    assert reading.board == list(later.board), reading.notes
    assert not reading.occluded and reading.uncertain == [], reading.notes


def test_a_dark_calibration_whose_lamp_is_not_kept_still_sees_the_tiles(
    shared_dir: Path, german_model: TileClassifier
) -> None:
    """Game12 at 40 % light: the lamp measured on its empty board is refused (it makes the layout match a
    square worse), so the board stays dark; its tiles must still read as tiles, not surely as empty squares."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    photos = {p.file: p for p in load_labels(labels) if p.game == "game12"}

    def dark(path: Path) -> np.ndarray:
        return perturb.scale_light(cv2.imread(str(path)), np.array(0.4, np.float32))

    calib = calibrate(dark(photos["board-00a.png"].path), where="game12 at 40 % light")
    later = photos["board-03.png"]
    reading = BoardReader(calib, german_model).read(dark(later.path))
    assert reading.board == list(later.board), reading.notes
    assert not reading.occluded, reading.notes


def test_a_clean_late_frame_under_a_vignette_is_not_flagged( shared_dir: Path, german_model: TileClassifier) -> None:
    """Game12's board-20, calibrated on its empty board: between the two the camera moved the red squares'
    colour more than the green ones' (27-32 Lab units on clean frames, the alarm is at 32), and a vignette
    pushed two of them over. Nothing covers the board: no square may look covered."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    photos = {p.file: p for p in load_labels(labels) if p.game == "game12"}
    apply = perturb.BY_NAME["vignette"].apply
    rng = np.random.default_rng(20)
    calib = calibrate(apply(cv2.imread(str(photos["board-00a.png"].path)), rng), where="vignette, empty board")
    later = photos["board-20.png"]
    reading = BoardReader(calib, german_model).read(apply(cv2.imread(str(later.path)), rng))
    assert not reading.occluded, reading.notes
    assert reading.board == list(later.board), reading.notes


@pytest.mark.parametrize(("game", "file", "seed"), [("game13", "board-01.jpg", 1), ("game15", "board-02.jpg", 2)])
def test_a_hand_over_empty_squares_is_doubt_not_blank_tiles(
    shared_dir: Path, german_model: TileClassifier, game: str, file: str, seed: int
) -> None:
    """A palm over empty squares has no ink and about a tile's colour: it read as sure blank tiles (G13-G15 on
    game13's board-01, G10-G15 on game15's board-02) joined to the squares seen as covered. The frame is
    flagged, and every square the hand made read wrong is in doubt."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    mine = [p for p in load_labels(labels) if p.game == game]
    empty = next(p for p in mine if p.flag == "empty_board")
    calib = calibrate(cv2.imread(str(empty.path)), where=f"{game} empty board")
    reader = BoardReader(calib, german_model)
    photo = next(p for p in mine if p.file == file)
    frame = cv2.imread(str(photo.path))
    reader.read(frame)
    covered = draw_hand(frame, calib.matrix, np.random.default_rng(seed))
    reading = reader.read(frame)
    assert reading.occluded
    wrong = {
        "ABCDEFGHIJKLMNO"[c] + str(r + 1)
        for r in range(15)
        for c in range(15)
        if reading.board[r][c] != photo.board[r][c]
    }
    assert wrong, "the hand changed nothing: the test no longer shows what it is about"
    assert wrong <= set(reading.uncertain), f"read wrong and sure: {sorted(wrong - set(reading.uncertain))}"
    assert wrong <= covered | set(reading.uncertain)


@pytest.mark.parametrize(
    ("game", "file", "square"), [("game15", "board-13.jpg", "C1"), ("game01", "image-27.jpg", "M2")]
)
def test_tall_tiles_on_the_edge_row_read_their_letters(
    shared_dir: Path, german_model: TileClassifier, game: str, file: str, square: str
) -> None:
    """Tiles stood up as boxes (perturb's "tall" kind): a tile on the frame's top row raised to within a few
    pixels of the cloth beyond the board had the strip of board between them closed into its face (game15's
    C1: a D read in doubt as E in the benchmark's sweep, by the model taught without game15; the shipped model
    here read it right before too); a raised Ä had its faint dots seen as dashes and was read a sure A
    (game01's M2, which failed here). Both are read as labelled, and sure."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    mine = [p for p in load_labels(labels) if p.game == game]
    photo = next(p for p in mine if p.file == file)
    tall = perturb.BY_NAME["tall"]
    first = cv2.imread(str(mine[0].path))
    corners = calibrate(first).corners()
    reader = BoardReader(calibrate(tall.stand(first, corners, mine[0].board)), german_model)
    for earlier in mine[max(0, mine.index(photo) - 3) : mine.index(photo)]:  # the lift measured as in a game
        reader.read(tall.stand(cv2.imread(str(earlier.path)), corners, earlier.board))
    reading = reader.read(tall.stand(cv2.imread(str(photo.path)), corners, photo.board))
    r, c = int(square[1:]) - 1, "ABCDEFGHIJKLMNO".index(square[0])
    assert reading.board[r][c] == photo.board[r][c], reading.squares[square]
    assert square not in reading.uncertain, reading.squares[square]


def test_umlaut_dots_joined_to_their_letter_by_a_dark_tone_curve_come_apart(
    shared_dir: Path, german_model: TileClassifier
) -> None:
    """Game13's Ü on H8 of board-04 under gamma 1.5: grey pixels joined its dots to the U, the letter grew
    taller than the board's and read U in doubt. Looked for again on the darker ink, it is a sure Ü."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    photos = {p.file: p for p in load_labels(labels) if p.game == "game13"}
    apply = perturb.BY_NAME["gamma1.5"].apply
    rng = np.random.default_rng(0)
    reader = BoardReader(calibrate(apply(cv2.imread(str(photos["board-00a.jpg"].path)), rng)), german_model)
    later = photos["board-04.jpg"]
    reading = reader.read(apply(cv2.imread(str(later.path)), rng))
    assert reading.squares["H8"].letter == later.board[7][7] == "Ü", reading.squares["H8"]
    assert "H8" not in reading.uncertain
    assert reading.board == list(later.board), reading.notes
