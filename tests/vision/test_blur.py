"""A smeared frame is told by its fine detail against the last clear frame's (`vision.blur`), not the
calibration frame's: an empty board has more fine detail than a full one, and sensor noise adds most to it.

Unit tests of the measure's bookkeeping always; camera C's game15 under sensor noise when ../shared/photos is
present (skipped cleanly otherwise)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import blur, perturb
from vision.classifier import TileClassifier
from vision.reader import BoardReader
from vision.registration import calibrate
from vision.synth import motion_blur
from vision.teach import load_labels


def test_the_measure_follows_the_last_clear_frame() -> None:
    detail = blur.Detail(2.9)  # an empty board
    assert detail.limit == pytest.approx(blur.FLOOR + blur.KEEP_FIRST * (2.9 - blur.FLOOR))
    assert not detail.smeared(2.0)  # a full board read first: lenient until a frame reads clear
    detail.clear(2.0)
    assert detail.limit == pytest.approx(blur.FLOOR + blur.KEEP * (2.0 - blur.FLOOR))
    assert not detail.smeared(1.95)  # a turn later, a few tiles more
    assert detail.smeared(1.5)  # a motion blur of 8 pixels


def test_a_steady_new_level_becomes_the_level() -> None:
    """A camera refocused or a lamp switched off: the frames stay at one new level, not a passing smear."""
    detail = blur.Detail(2.5)
    detail.clear(2.5)
    verdicts = [detail.smeared(1.6) for _ in range(blur.SETTLE)]
    assert verdicts == [True] * (blur.SETTLE - 1) + [False]
    assert not detail.smeared(1.6)


def test_an_unsteady_smear_stays_a_smear() -> None:
    detail = blur.Detail(2.5)
    detail.clear(2.5)
    assert all(detail.smeared(s) for s in (1.5, 1.7, 1.5, 1.7, 1.5, 1.7, 1.5, 1.7))


@pytest.mark.slow
def test_a_noisy_camera_keeps_its_last_frames_and_still_sees_a_smear(
    shared_dir: Path, german_model: TileClassifier
) -> None:
    """Sensor noise (sigma 8) lifts the empty board's detail to 3.6 and the limit drawn from it to 2.13;
    game15's last frames, full of tiles, measure 2.03-2.09 and were all flagged as smeared."""
    labels = shared_dir / "photos" / "labels.json"
    if not labels.is_file():
        pytest.skip(f"no labelled photos at {labels}")
    mine = [p for p in load_labels(labels) if p.game == "game15" and p.flag != "player_names_before_start"]
    if not mine:
        pytest.skip("the shared photos have no game15")
    rng = np.random.default_rng(15)
    reader = BoardReader(calibrate(perturb.noise(cv2.imread(str(mine[0].path)), rng)), german_model)
    for photo in mine[::3]:
        reading = reader.read(perturb.noise(cv2.imread(str(photo.path)), rng), where=photo.file)
        assert not reading.occluded, (photo.file, reading.notes)
        assert reading.board == list(photo.board), (photo.file, reading.notes)
    last = cv2.imread(str(mine[-1].path))
    smeared = reader.read(perturb.noise(motion_blur(last, 8, 30), rng))
    assert smeared.occluded and any("motion blur" in n for n in smeared.notes)
