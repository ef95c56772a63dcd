"""Dice in a tray at any rotation, on synthetic renders (no photos of real dice exist yet)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classifier import TileClassifier
from vision.dice import DiceReader
from vision.synth import render_dice


@pytest.mark.parametrize("seed", range(4))
def test_every_die_is_read_at_any_rotation(seed: int, english_model: TileClassifier) -> None:
    rng = np.random.default_rng(seed)
    letters = [str(x) for x in rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ?"), size=7)]
    scene = render_dice(letters, seed=seed)
    dice = DiceReader(english_model, scene.tray).read(scene.frame)
    assert sorted(d.letter for d in dice) == sorted(letters)
    confident = [d for d in dice if not d.uncertain]
    assert len(confident) >= 6


def test_an_empty_tray_has_no_dice(english_model: TileClassifier) -> None:
    scene = render_dice([], seed=1)
    assert DiceReader(english_model, scene.tray).read(scene.frame) == []


def test_the_tray_area_limits_the_search(english_model: TileClassifier) -> None:
    left = render_dice(["Q", "Z"], seed=2, size=(320, 480))
    right = render_dice(["K"], seed=3, size=(320, 480))
    frame = np.hstack([left.frame, right.frame])
    in_left = DiceReader(english_model, (0, 0, 320, 480)).read(frame)
    in_right = DiceReader(english_model, (320, 0, 320, 480)).read(frame)
    assert sorted(d.letter for d in in_left) == ["Q", "Z"]
    assert [d.letter for d in in_right] == ["K"] and in_right[0].centre[0] >= 320
