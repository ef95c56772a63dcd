"""Teaching from labelled photos: the labels format, its errors, and a round trip on synthetic photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import LabelsError
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.synth import random_board, render_scene
from vision.teach import load_labels, teach


def _write_photos(folder: Path, games: dict[str, list[int]]) -> Path:
    entries = []
    for game, seeds in games.items():
        (folder / game).mkdir(parents=True, exist_ok=True)
        for k, seed in enumerate(seeds):
            board = random_board(np.random.default_rng(seed), count=60)
            scene = render_scene(board, seed=seed, font="hershey:duplex")
            cv2.imwrite(str(folder / game / f"image-{k + 1}.png"), scene.frame)
            entries.append(
                {"game": game, "file": f"image-{k + 1}.png", "after_move": k, "flag": "ok", "tiles": 60, "board": board}
            )
    path = folder / "labels.json"
    path.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    return path


def test_teach_then_read_a_new_photo(tmp_path: Path) -> None:
    labels = _write_photos(tmp_path, {"g1": [1, 2, 3], "g2": [4, 5]})
    photos = load_labels(labels)
    assert [p.path.name for p in photos][:2] == ["image-1.png", "image-2.png"]
    model = teach(photos)
    assert model.meta["source"] == "taught" and model.meta["photos"] == 5
    board = random_board(np.random.default_rng(99), count=60)
    scene = render_scene(board, seed=99, font="hershey:duplex")
    reading = BoardReader(calibrate(scene.frame), model).read(scene.frame)
    wrong = sum(
        a != b for row_a, row_b in zip(reading.board, board, strict=True) for a, b in zip(row_a, row_b, strict=True)
    )
    assert wrong == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "cannot read labels"),
        ('{"a": 1}', "JSON list"),
        ('[{"game": "g"}]', "needs 'game', 'file' and 'board'"),
        ('[{"game": "g", "file": "f.jpg", "board": ["..."]}]', "15 strings"),
    ],
)
def test_malformed_labels_are_refused(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "labels.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LabelsError, match=message):
        load_labels(path)


def test_missing_images_are_named(tmp_path: Path) -> None:
    path = tmp_path / "labels.json"
    path.write_text(json.dumps([{"game": "g", "file": "gone.jpg", "board": ["." * 15] * 15}]), encoding="utf-8")
    with pytest.raises(LabelsError, match=r"gone\.jpg"):
        teach(load_labels(path))


def test_photos_labelled_occluded_are_not_taught(tmp_path: Path) -> None:
    labels = _write_photos(tmp_path, {"g1": [1, 2]})
    entries = json.loads(labels.read_text(encoding="utf-8"))
    entries.append({"game": "g1", "file": "hand.png", "flag": "occluded", "board": entries[0]["board"]})
    labels.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    model = teach(load_labels(labels))  # hand.png does not even exist: it is never opened
    assert model.meta["photos"] == 2 and model.meta["skipped_occluded"] == 1
