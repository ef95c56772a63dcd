"""Teaching a new set from a few frames of its own game, measured as chesscog measures it.

chesscog (Wölflein and Arandjelović, 2021) reads 99.83 % of squares right after it is fine-tuned on two
photos of a new chess set. Here: for every shared game, the classifier is taught on the game's first N clean
frames with tiles (`vision.teach.teach` with the German renders alongside, the path of `referee vision teach LABELS
--tiles german`) and reads the game's other clean frames with the camera calibrated on the first of those. The
shipped classifier (renders only) reads the same frames as the baseline. Per square: all 225 squares of a
frame, right when the reader's best letter (or empty) is the label's; "sure" also asks that the reader
does not doubt it. Per tile: the letters of the tiles, and the confident wrong ones.

    .venv/bin/python benchmarks/teach.py [--games game13,game15] [--frames 1,2,3]

Exits 0 with a 'skipped' line without the photos.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PHOTOS = ROOT.parent / "shared" / "photos"
CHESSCOG = 99.83


def _score(reader: object, photos: list[object]) -> dict[str, int]:
    from vision.geometry import SIZE
    from vision.images import read_image
    from vision.reader import ALL_SQUARES, BoardReader

    assert isinstance(reader, BoardReader)
    out = {"squares": 0, "right": 0, "sure": 0, "tiles": 0, "letters": 0, "confident_wrong": 0, "doubted": 0}
    for photo in photos:
        reading = reader.read(read_image(photo.path), str(photo.path))  # type: ignore[attr-defined]
        for r, row in enumerate(photo.board):  # type: ignore[attr-defined]
            for c, want in enumerate(row):
                sq = reading.squares[ALL_SQUARES[r * SIZE + c]]
                got = sq.letter if sq.occupied else "."
                out["squares"] += 1
                out["right"] += got == want
                out["sure"] += got == want and not sq.uncertain
                if want != ".":
                    out["tiles"] += 1
                    out["letters"] += got == want
                    out["doubted"] += sq.uncertain
                    out["confident_wrong"] += got != want and not sq.uncertain
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="", help="comma-separated games (default: every shared game)")
    parser.add_argument("--frames", default="1,2,3", help="the N of 'taught on the first N frames'")
    args = parser.parse_args(argv)
    if not (PHOTOS / "labels.json").is_file():
        print(f"skipped: no photos at {PHOTOS}")
        return 0
    import cv2

    cv2.setNumThreads(1)
    from vision.images import read_image
    from vision.reader import BoardReader
    from vision.registration import calibrate
    from vision.shipped import shipped_classifier
    from vision.teach import is_occluded, load_labels, teach

    photos = [p for p in load_labels(PHOTOS / "labels.json") if not is_occluded(p)]
    games = [g for g in args.games.split(",") if g] or sorted({p.game for p in photos})
    counts = [int(n) for n in args.frames.split(",") if n]
    shipped = shipped_classifier("german")
    pooled: dict[int, dict[str, int]] = {}
    for game in games:
        frames = [p for p in photos if p.game == game]
        while frames and not any(ch not in ".?" for row in frames[0].board for ch in row):
            frames = frames[1:]  # an empty board teaches nothing: the first frames are those with tiles
        calibration = calibrate(read_image(frames[0].path), where=str(frames[0].path))  # the first tiles
        for n in [0, *counts]:
            rest = frames[max(counts) :]  # every N reads the same frames, so the figures compare
            t0 = time.perf_counter()
            model = shipped if n == 0 else teach(frames[:n], tiles="german")
            taught_s = time.perf_counter() - t0
            s = _score(BoardReader(calibration, model), rest)
            total = pooled.setdefault(n, dict.fromkeys(s, 0))
            for k, v in s.items():
                total[k] += v
            label = "shipped" if n == 0 else f"taught on {n} frame(s)"
            print(
                f"{game} {label}: squares right {100 * s['right'] / s['squares']:.2f} %, sure and right "
                f"{100 * s['sure'] / s['squares']:.2f} %, letters right {100 * s['letters'] / s['tiles']:.2f} %, "
                f"doubted {s['doubted']}, confident wrong {s['confident_wrong']} ({len(rest)} frames"
                + (f", taught in {taught_s:.1f} s)" if n else ")")
            )
            sys.stdout.flush()
    print(f"note: chesscog after two photos of a new set: {CHESSCOG} % of squares right")
    for n, s in sorted(pooled.items()):
        name = "shipped" if n == 0 else f"taught_{n}"
        print(f"{name} squares right: {100 * s['right'] / s['squares']:.3f} %")
        print(f"{name} squares sure and right: {100 * s['sure'] / s['squares']:.3f} %")
        print(f"{name} letters right: {100 * s['letters'] / s['tiles']:.3f} %")
        print(f"{name} tiles doubted: {s['doubted']} tiles")
        print(f"{name} confident wrong: {s['confident_wrong']} tiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
