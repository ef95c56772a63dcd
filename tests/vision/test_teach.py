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


def test_letters_not_of_the_set_are_refused_when_teaching_with_its_renders(tmp_path: Path) -> None:
    labels = _write_photos(tmp_path, {"g1": [1]})  # German tiles, umlauts among them
    assert any("Ä" in row for row in json.loads(labels.read_text(encoding="utf-8"))[0]["board"])
    with pytest.raises(LabelsError, match="not english tiles: Ä"):
        teach(load_labels(labels), tiles="english")


def test_own_tiles_are_the_examples_a_tile_is_compared_with(tmp_path: Path) -> None:
    """With renders alongside, the photos' tiles are the stored examples of their letters: the doubt measure
    compares a tile with the set's own face, not with a font's."""
    labels = _write_photos(tmp_path, {"g1": [1]})
    photos = load_labels(labels)
    model = teach(photos, tiles="german")
    assert model.meta["source"] == "taught+rendered"
    own = model.meta["own_examples"]
    assert 0 < own < model.meta["examples"]
    image = cv2.imread(str(photos[0].path))
    from vision.classifier import PROTOTYPES_PER_CLASS
    from vision.teach import glyphs_from_photo

    patches, letters = glyphs_from_photo(image, photos[0].board, calibrate(image).matrix)
    # A tile taught from the photo is its own nearest stored example (distance about zero), however many
    # renders of its letter there are, as long as the photo holds no more of it than are stored.
    kept = [k for k, x in enumerate(letters) if letters.count(x) <= PROTOTYPES_PER_CLASS]
    assert len(kept) > 20
    guesses = model.predict(np.stack([patches[k] for k in kept]))
    assert [g.letter for g in guesses] == [letters[k] for k in kept]
    assert max(g.novelty for g in guesses) < 0.05


def test_two_frames_of_a_real_game_teach_its_set(shared_dir: Path) -> None:
    """`referee vision teach --tiles german` on a real game's first two clean frames reads the rest of it."""
    from vision.teach import is_occluded

    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip("no labelled photos")
    frames = [p for p in load_labels(labels) if p.game == "game13" and not is_occluded(p)]
    if len(frames) < 10:
        pytest.skip("game13 is not among the shared photos")
    model = teach(frames[:2], tiles="german")
    from vision.images import read_image
    from vision.reader import ALL_SQUARES

    reader = BoardReader(calibrate(read_image(frames[0].path)), model)
    tiles = right = confident_wrong = 0
    for photo in frames[2::4]:
        reading = reader.read(read_image(photo.path), str(photo.path))
        for r, row in enumerate(photo.board):
            for c, want in enumerate(row):
                if want == ".":
                    continue
                sq = reading.squares[ALL_SQUARES[r * 15 + c]]
                tiles += 1
                right += sq.letter == want
                confident_wrong += sq.letter != want and not sq.uncertain
    assert tiles > 200
    assert confident_wrong == 0
    assert right / tiles >= 0.995
