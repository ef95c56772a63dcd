from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import TileClassifier
from vision.errors import ModelError
from vision.shipped import rendered_glyphs, shipped_classifier


@pytest.fixture(scope="module")
def glyphs() -> tuple[np.ndarray, list[str]]:
    return rendered_glyphs("english", variants=2, seed=5)


def test_save_and_load_give_the_same_answers(
    tmp_path: Path, english_model: TileClassifier, glyphs: tuple[np.ndarray, list[str]]
) -> None:
    patches, _letters = glyphs
    english_model.save(tmp_path / "m.npz")
    again = TileClassifier.load(tmp_path / "m.npz")
    assert again.classes == english_model.classes
    assert [g.letter for g in again.predict(patches[:40])] == [g.letter for g in english_model.predict(patches[:40])]


def test_rendered_glyphs_of_other_looks_are_read(
    english_model: TileClassifier, glyphs: tuple[np.ndarray, list[str]]
) -> None:
    patches, letters = glyphs
    guesses = english_model.predict(patches)
    right = sum(g.letter == t for g, t in zip(guesses, letters, strict=True))
    assert right / len(letters) > 0.97
    assert all(0.0 <= g.confidence <= 1.0 and g.novelty >= 0 for g in guesses)


def test_noise_is_novel_or_doubtful(english_model: TileClassifier) -> None:
    noise = np.random.default_rng(0).integers(0, 255, (10, 32, 32), dtype=np.uint8)
    guesses = english_model.predict(noise)
    assert all(g.novelty > 2.6 or g.confidence < 0.25 for g in guesses)


def test_bad_model_files_say_what_and_where(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        TileClassifier.load(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ModelError, match=r"junk\.npz"):
        TileClassifier.load(tmp_path / "junk.npz")
    np.savez(
        tmp_path / "other.npz",
        header=np.array('{"format": "x"}'),
        svm=np.array(""),
        prototypes=np.zeros((1, 1)),
        proto_labels=np.zeros(1),
    )
    with pytest.raises(ModelError, match="not a tile model"):
        TileClassifier.load(tmp_path / "other.npz")


def test_one_letter_is_not_enough_to_learn() -> None:
    with pytest.raises(ModelError, match="only one letter"):
        TileClassifier.train(np.zeros((3, 32, 32), np.uint8), ["A", "A", "A"])


def test_shipped_classifier_is_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = shipped_classifier("english")
    cached = list((tmp_path / "scrabble-referee").glob("shipped-english-*.npz"))
    assert len(cached) == 1
    second = shipped_classifier("english")
    assert second.classes == first.classes and second.meta["source"] == "shipped"
