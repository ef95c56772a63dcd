"""Camera benchmark on ../shared/photos: leave one game out, and the shipped classifier with no teaching.

For each game: teach on the other three games' photos, calibrate from this game's first photo, read every
photo of this game with the real `BoardReader` on one core, and compare with labels.json. Prints one
`figure: value unit` line per figure. Exits 0 with a 'skipped' line when the photos are absent.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

# One core: OpenCV is told below; numpy's BLAS must be told before numpy is first imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PHOTOS = ROOT.parent / "shared" / "photos"


def main() -> int:
    labels_path = PHOTOS / "labels.json"
    if not labels_path.is_file():
        print(f"skipped: no labelled photos at {labels_path}")
        return 0
    import cv2
    import numpy as np

    from vision.classifier import TileClassifier
    from vision.reader import BoardReader
    from vision.registration import calibrate
    from vision.synth import draw_hand, motion_blur
    from vision.teach import is_occluded, load_labels, teach

    cv2.setNumThreads(1)
    print(f"machine load average at start: {os.getloadavg()[0]:.1f} processes")
    photos = load_labels(labels_path)
    games = sorted({p.game for p in photos})
    decode_ms = []
    images = {}
    for p in photos:
        t0 = time.perf_counter()
        images[p.path] = cv2.imread(str(p.path), cv2.IMREAD_COLOR)
        decode_ms.append((time.perf_counter() - t0) * 1000.0)
    print(f"median photo decode time (not in the read times): {statistics.median(decode_ms):.1f} ms")
    t0 = time.perf_counter()
    shipped = TileClassifier.shipped("german")
    print(f"shipped classifier build or load: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    for mode in ("taught", "shipped"):
        tally, stress_hand, stress_blur, stress_dim = Tally(), Tally(), Tally(), Tally()
        for game in games:
            mine = [p for p in photos if p.game == game]
            if mode == "taught":
                t0 = time.perf_counter()
                model = teach([p for p in photos if p.game != game])
                tally.teach_s.append(time.perf_counter() - t0)
            else:
                model = shipped
            calib = calibrate(images[mine[0].path], where=str(mine[0].path))
            reader = BoardReader(calib, model)
            for k, photo in enumerate(mine):
                image = images[photo.path]
                t0 = time.perf_counter()
                reading = reader.read(image, where=str(photo.path))
                tally.ms.append((time.perf_counter() - t0) * 1000.0)
                # The machine is shared: wall time includes waiting for other jobs. CPU time of this thread
                # (everything runs on it: one core) is the code's own cost; the best of three, to drop jitter.
                cpu = []
                for _ in range(3):
                    t0 = time.thread_time()
                    reader.read(image, where=str(photo.path))
                    cpu.append((time.thread_time() - t0) * 1000.0)
                tally.best_ms.append(min(cpu))
                tally.add(photo.board, reading, f"{game}/{photo.file}", is_occluded(photo))
                # Stress: the same real photo with a drawn hand over it, and smeared by motion blur. The
                # truth under the hand is still the label; what matters is that nothing wrong is said surely.
                rng = np.random.default_rng(k)
                handed = image.copy()
                draw_hand(handed, calib.matrix, rng)
                stress_hand.add(photo.board, reader.read(handed), f"{game}/{photo.file}+hand")
                pitch = image.shape[1] / 17
                smeared = motion_blur(image, pitch * 0.35, float(rng.uniform(0, 180)))
                stress_blur.add(photo.board, reader.read(smeared), f"{game}/{photo.file}+blur")
                dimmed = np.clip(image.astype(np.float32) * 0.6, 0, 255).astype(np.uint8)
                stress_dim.add(photo.board, reader.read(dimmed), f"{game}/{photo.file}+dim")
        tally.report(mode)
        stress_hand.report_stress(f"{mode} with a drawn hand")
        stress_blur.report_stress(f"{mode} with motion blur")
        stress_dim.report_stress(f"{mode} with the light dimmed to 60%")
    return 0


class Tally:
    """Counts of one run: squares, tiles, boards, doubt, and milliseconds."""

    def __init__(self) -> None:
        self.squares = self.right_squares = 0
        self.occupancy_right = 0
        self.tiles = self.right_letters = 0
        self.boards = self.exact_boards = 0
        self.occluded = 0
        self.uncertain = 0
        self.confident_wrong = 0
        self.labelled_occluded = 0
        self.confident_wrong_occluded = 0
        self.ms: list[float] = []
        self.best_ms: list[float] = []
        self.teach_s: list[float] = []
        self.errors: list[str] = []

    def add(self, truth: tuple[str, ...], reading: object, where: str, labelled_occluded: bool = False) -> None:
        from vision.geometry import ALL_SQUARES

        board = reading.board  # type: ignore[attr-defined]
        uncertain = set(reading.uncertain)  # type: ignore[attr-defined]
        if labelled_occluded:
            # The goal for photos the labels mark occluded: no confident misread; exactness is not asked.
            self.labelled_occluded += 1
            self.confident_wrong_occluded += sum(
                board[i // 15][i % 15] != truth[i // 15][i % 15] and name not in uncertain
                for i, name in enumerate(ALL_SQUARES)
            )
            return
        self.boards += 1
        self.exact_boards += board == list(truth)
        self.occluded += bool(reading.occluded)  # type: ignore[attr-defined]
        self.uncertain += len(uncertain)
        for i, name in enumerate(ALL_SQUARES):
            want, got = truth[i // 15][i % 15], board[i // 15][i % 15]
            self.squares += 1
            self.right_squares += want == got
            self.occupancy_right += (want == ".") == (got == ".")
            if want != ".":
                self.tiles += 1
                self.right_letters += want == got
            if want != got:
                self.errors.append(f"{where} {name}: {want} read as {got}{' (uncertain)' if name in uncertain else ''}")
                self.confident_wrong += name not in uncertain

    def report_stress(self, what: str) -> None:
        print(f"{what}: frames flagged occluded: {self.occluded} of {self.boards} frames")
        print(f"{what}: confident misreads: {self.confident_wrong} squares")
        print(f"{what}: squares read right: {100 * self.right_squares / self.squares:.2f} %")
        print(f"{what}: boards exact: {self.exact_boards} of {self.boards} boards")

    def report(self, mode: str) -> None:
        ms = sorted(self.ms)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        print(f"{mode} per-square accuracy: {100 * self.right_squares / self.squares:.3f} %")
        print(f"{mode} occupancy accuracy: {100 * self.occupancy_right / self.squares:.3f} %")
        print(f"{mode} letter accuracy on occupied squares: {100 * self.right_letters / self.tiles:.3f} %")
        print(f"{mode} photos labelled occluded: {self.labelled_occluded} photos")
        print(f"{mode} confident misreads on photos labelled occluded: {self.confident_wrong_occluded} squares")
        print(
            f"{mode} whole boards exact (photos not labelled occluded): {100 * self.exact_boards / self.boards:.1f} %"
        )
        print(f"{mode} boards exact: {self.exact_boards} of {self.boards} boards")
        print(f"{mode} frames flagged occluded: {self.occluded} of {self.boards} frames")
        print(f"{mode} squares marked uncertain: {self.uncertain} squares")
        print(f"{mode} confident misreads: {self.confident_wrong} squares")
        best = sorted(self.best_ms)
        best95 = best[min(len(best) - 1, round(0.95 * (len(best) - 1)))]
        print(f"{mode} median read time on one core, CPU: {statistics.median(best):.1f} ms")
        print(f"{mode} p95 read time on one core, CPU: {best95:.1f} ms")
        print(f"{mode} median read time, wall clock: {statistics.median(ms):.1f} ms")
        print(f"{mode} p95 read time, wall clock: {p95:.1f} ms")
        if self.teach_s:
            print(f"{mode} median teach time: {statistics.median(self.teach_s):.1f} s")
        for line in self.errors[:12]:
            print(f"  {mode} error: {line}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
