"""On the real photos in ../shared/photos when present (skipped cleanly otherwise). Nothing cut or taught from
them is written anywhere but pytest's temporary folders."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classifier import TileClassifier
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.teach import LabelledPhoto, load_labels, teach


@pytest.fixture(scope="module")
def photos(shared_dir: Path) -> list[LabelledPhoto]:
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    return load_labels(labels)


def _score(reader: BoardReader, photos: list[LabelledPhoto]) -> tuple[int, int, int, int]:
    tiles = right = occupancy_wrong = confident_wrong = 0
    for photo in photos:
        reading = reader.read(cv2.imread(str(photo.path)), where=str(photo.path))
        for r in range(15):
            for c in range(15):
                want, got = photo.board[r][c], reading.board[r][c]
                name = "ABCDEFGHIJKLMNO"[c] + str(r + 1)
                occupancy_wrong += (want == ".") != (got == ".")
                confident_wrong += want != got and name not in reading.uncertain
                if want != ".":
                    tiles += 1
                    right += want == got
    return tiles, right, occupancy_wrong, confident_wrong


def test_every_game_calibrates_from_its_first_photo(photos: list[LabelledPhoto]) -> None:
    for game in sorted({p.game for p in photos}):
        first = next(p for p in photos if p.game == game)
        calib = calibrate(cv2.imread(str(first.path)), where=str(first.path))
        assert calib.residual < 0.06, f"{game}: grid fit residual {calib.residual:.3f} squares"


def test_shipped_classifier_reads_real_tiles(photos: list[LabelledPhoto], german_model: TileClassifier) -> None:
    game = [p for p in photos if p.game == "game01"][::4]
    reader = BoardReader(calibrate(cv2.imread(str(game[0].path))), german_model)
    tiles, right, occupancy_wrong, confident_wrong = _score(reader, game)
    assert occupancy_wrong == 0
    assert right / tiles > 0.99
    assert confident_wrong == 0


@pytest.mark.slow
def test_taught_on_two_games_reads_a_third(photos: list[LabelledPhoto]) -> None:
    model = teach([p for p in photos if p.game in ("game01", "game12")][::2])
    game = [p for p in photos if p.game == "game03"][::3]
    reader = BoardReader(calibrate(cv2.imread(str(game[0].path))), model)
    tiles, right, occupancy_wrong, confident_wrong = _score(reader, game)
    assert occupancy_wrong == 0
    assert right / tiles > 0.995
    assert confident_wrong == 0


def test_read_command_on_a_real_photo(
    photos: list[LabelledPhoto], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from referee.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    game = [p for p in photos if p.game == "game02"]
    calib = tmp_path / "calib.json"  # a calibration of a shared photo: only ever in a temporary folder
    assert main(["vision", "calibrate", str(game[0].path), "-o", str(calib)]) == 0
    capsys.readouterr()
    target = game[len(game) // 2]
    assert main(["vision", "read", str(target.path), "--calibration", str(calib), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["occluded"] is False
    wrong = [(r, c) for r in range(15) for c in range(15) if out["board"][r][c] != target.board[r][c]]
    unsure = {"ABCDEFGHIJKLMNO"[c] + str(r + 1) for r, c in wrong}
    assert unsure <= set(out["uncertain"]), "a misread must be marked uncertain"
    assert len(wrong) <= 2


def test_full_boards_register_like_the_first_photo(photos: list[LabelledPhoto]) -> None:
    """The camera stood still through each game: a nearly full board (tile edges everywhere look like grid
    lines) must give the same grid as the first photo, not one shifted by a square."""
    for game in sorted({p.game for p in photos}):
        mine = [p for p in photos if p.game == game]
        first = calibrate(cv2.imread(str(mine[0].path)))
        last = calibrate(cv2.imread(str(mine[-1].path)))
        corners = np.array([[0, 0], [15, 0], [15, 15], [0, 15], [7.5, 7.5]], dtype=np.float64)
        shift = np.linalg.norm(first.image_to_board(last.board_to_image(corners)) - corners, axis=1).max()
        assert shift < 0.15, f"{game}: the last photo's grid lies {shift:.2f} squares from the first's"
