"""Camera benchmark on ../shared/photos: unseen games through perturbed cameras, and the stress of hands.

For each game: teach on the other three games' clean photos, then for each perturbation kind
(`vision/perturb.py`: turned, tilted, warm, dim, gamma, gradient, vignette, cut, noise, rescaled, bumped)
apply it to every photo of the game, calibrate from the game's first frame (the next one if it is refused,
counted as a calibration failure), and read every frame from there with the real `BoardReader` on one core.
`bumped` knocks the camera before the second half of each game's frames; the reader must find the board
again by itself (`re-calibrations`), and every frame after the bump is read (only every Nth counted).
Prints one `figure: value unit` line per figure and kind. Exits 0 with a 'skipped' line without photos.

    .venv/bin/python benchmarks/vision.py                     # every kind, every photo
    .venv/bin/python benchmarks/vision.py --every 3 --kinds clean,warm
    .venv/bin/python benchmarks/vision.py --baseline 4276dbf  # also today's code (a commit) in the same run

`--baseline REF` exports `vision/` and `game/` of that commit to a temporary folder and runs this same
benchmark (with this tree's perturbations) on that code first, so before and after share a machine state.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

# One core: OpenCV is told below; numpy's BLAS must be told before numpy is first imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "photos"


def _load_perturb() -> ModuleType:
    """This tree's perturbations, loaded by path so that a baseline run may import an older `vision`."""
    spec = importlib.util.spec_from_file_location("vision_perturb_bench", ROOT / "vision" / "perturb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    parser.add_argument("--every", type=int, default=1, help="read every Nth photo of a game (default 1)")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--baseline", default="", help="a commit whose vision/ code runs first, in this run")
    parser.add_argument("--model-cache", default="", help="a folder to keep the taught models in between runs")
    parser.add_argument("--code", default="", help=argparse.SUPPRESS)  # the folder `vision` is imported from
    parser.add_argument("--label", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    labels_path = PHOTOS / "labels.json"
    if not labels_path.is_file():
        print(f"skipped: no labelled photos at {labels_path}")
        return 0
    if args.baseline:
        rest = [a for a in (argv if argv is not None else sys.argv[1:]) if not a.startswith("--baseline")]
        rest = [a for a in rest if a != args.baseline]
        with tempfile.TemporaryDirectory(prefix="vision-baseline-") as tmp:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.baseline, "vision", "game"], check=True, capture_output=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            code = subprocess.run(
                [sys.executable, __file__, *rest, "--code", tmp, "--label", "baseline "], check=False
            ).returncode
            if code:
                return code
    sys.path.insert(0, args.code or str(ROOT))
    return run(args, labels_path, args.label)


def run(args: argparse.Namespace, labels_path: Path, label: str) -> int:
    import cv2
    import numpy as np

    from vision.classifier import TileClassifier
    from vision.reader import BoardReader
    from vision.registration import calibrate
    from vision.synth import draw_hand
    from vision.teach import load_labels, teach

    perturb = _load_perturb()
    cv2.setNumThreads(1)
    print(f"{label}machine load average at start: {os.getloadavg()[0]:.1f} processes")
    photos = [p for p in load_labels(labels_path) if p.flag == "ok" or "occlu" in p.flag or "empty" in p.flag]
    games = sorted({p.game for p in photos})
    if args.games:
        games = [g for g in games if g in args.games.split(",")]
    asked = args.kinds.split(",") if args.kinds else [k.name for k in perturb.KINDS]
    unknown = [k for k in asked if k not in perturb.BY_NAME]
    if unknown:
        raise SystemExit(f"--kinds: unknown kind(s) {', '.join(unknown)}; the kinds are "
                         f"{', '.join(k.name for k in perturb.KINDS)}")
    kinds = [perturb.BY_NAME[k] for k in asked]
    images = {p.path: cv2.imread(str(p.path), cv2.IMREAD_COLOR) for p in photos if p.game in games}
    models = {}
    for game in games:
        cached = Path(args.model_cache) / f"without-{game}.npz" if args.model_cache else None
        t0 = time.perf_counter()
        if cached is not None and cached.is_file():
            models[game] = TileClassifier.load(cached)
            continue
        models[game] = teach([p for p in photos if p.game != game])
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            models[game].save(cached)
        print(f"{label}teach time, {game} left out: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    hands = Tally()
    for kind in kinds:
        tally = Tally()
        per_game: dict[str, Tally] = {}
        for game in games:
            whole, tally = tally, Tally()  # this game's own figures first, added to the kind's after
            per_game[game] = tally
            mine = [p for p in photos if p.game == game]
            rng = np.random.default_rng(sum(map(ord, game + kind.name)))
            if getattr(kind, "stand", None) is not None:  # tiles raised into boxes: the kind needs the board
                corners = calibrate(images[mine[0].path]).corners()
                frames = [kind.stand(images[p.path], corners, p.board) for p in mine]
            else:
                frames = [kind.apply(images[p.path], rng) for p in mine]
            if getattr(kind, "later", None) is not None:  # the camera bumped mid-game
                frames = [f if k < len(frames) // 2 else kind.later(images[p.path], rng)
                          for k, (p, f) in enumerate(zip(mine, frames, strict=True))]
            visible = None
            if kind.cut:
                clean = calibrate(images[mine[0].path])
                h, w = frames[0].shape[:2]
                visible = perturb.visible_squares(clean.corners(), (w, h))
            after_bump = None
            if getattr(kind, "later", None) is not None:  # the bump may push a row of the grid out of the frame
                clean = calibrate(images[mine[0].path])
                h, w = frames[0].shape[:2]
                corners = cv2.transform(clean.corners()[None].astype(np.float64), perturb.bump_matrix((w, h)))[0]
                after_bump = perturb.visible_squares(corners, (w, h))
            start, calib = 0, None
            while start < len(frames) and calib is None:
                try:
                    calib = calibrate(frames[start], where=f"{game}/{mine[start].file}")
                except ValueError as exc:
                    tally.calibration_failures += 1
                    tally.errors.append(f"{game}/{mine[start].file}: {exc}")
                    start += 1
            readable = list(range(start, len(frames)))[:: args.every]
            if calib is None:
                for k in range(0, len(frames), args.every):
                    tally.unread(mine[k].board, visible)
                whole.merge(tally)
                tally = whole
                continue
            reader = BoardReader(calib, models[game])
            for k in range(0, start, args.every):
                tally.unread(mine[k].board, visible)
            if getattr(kind, "later", None) is not None:
                # After a bump every frame is read (a bump is found on the first frame after it), but only
                # every Nth is counted, as elsewhere.
                readable = list(range(start, len(frames)))
            counted = set(range(start, len(frames))[:: args.every])
            for k in readable:
                t0 = time.thread_time()
                reading = reader.read(frames[k], where=f"{game}/{mine[k].file}")
                if k not in counted:
                    continue
                tally.ms.append((time.thread_time() - t0) * 1000.0)
                bumped = after_bump is not None and k >= len(frames) // 2
                tally.add(mine[k].board, reading, f"{game}/{mine[k].file}", after_bump if bumped else visible)
                if kind.name == "clean":
                    handed = frames[k].copy()
                    draw_hand(handed, calib.matrix, np.random.default_rng(k))
                    hands.add(mine[k].board, reader.read(handed), f"{game}/{mine[k].file}+hand", None)
            tally.recalibrations += getattr(reader, "recalibrations", 0)
            whole.merge(tally)
            tally = whole
        tally.report(f"{label}{kind.name}")
        for game, mine_tally in per_game.items():
            mine_tally.report_game(f"{label}{kind.name} {game}")
    if hands.boards:
        print(f"{label}drawn hands caught (frame flagged): {100 * hands.flagged / hands.boards:.1f} %")
        print(f"{label}drawn hands: confident wrong letters: {hands.confident_wrong} squares")
    return 0


class Tally:
    """Counts of one kind: letters, boards, doubt, calibration, and milliseconds of CPU on one core."""

    def __init__(self) -> None:
        self.tiles = self.right_letters = 0
        self.boards = self.exact_boards = 0
        self.flagged = 0
        self.confident_wrong = 0
        self.calibration_failures = 0
        self.recalibrations = 0
        self.ms: list[float] = []
        self.errors: list[str] = []

    def unread(self, truth: tuple[str, ...], visible: Any) -> None:
        """A frame that could not be read (no calibration yet): every letter on it is missed."""
        self.boards += 1
        self.tiles += sum(ch != "." and (visible is None or visible[i]) for i, ch in enumerate("".join(truth)))

    def add(self, truth: tuple[str, ...], reading: Any, where: str, visible: Any) -> None:
        board = "".join(reading.board)
        want = "".join(truth)
        uncertain = set(reading.uncertain)
        unseen = set(getattr(reading, "unseen", ()))
        names = [c + str(r + 1) for r in range(15) for c in "ABCDEFGHIJKLMNO"]
        self.boards += 1
        self.flagged += bool(reading.occluded)
        exact = True
        for i, name in enumerate(names):
            inside = visible is None or bool(visible[i])
            right = board[i] == want[i]
            if want[i] != "." and inside:
                self.tiles += 1
                self.right_letters += right and name not in unseen
            if inside and right and name not in unseen:
                continue
            if not inside and (right or name in unseen):
                continue  # a square the frame cuts: read right or reported unseen
            exact = False
            if not right:
                doubt = " (uncertain)" if name in uncertain else " (unseen)" if name in unseen else ""
                self.errors.append(f"{where} {name}: {want[i]} read as {board[i]}{doubt}")
                self.confident_wrong += name not in uncertain and name not in unseen
        self.exact_boards += exact

    def merge(self, other: Tally) -> None:
        """Add `other`'s counts (one game's) to these (the kind's)."""
        for name in ("tiles", "right_letters", "boards", "exact_boards", "flagged", "confident_wrong",
                     "calibration_failures", "recalibrations"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms += other.ms
        self.errors += other.errors

    def report_game(self, where: str) -> None:
        """The headline figures of one real game under one kind."""
        print(f"{where} boards exact: {self.exact_boards} of {self.boards} boards")
        print(f"{where} confident wrong letters: {self.confident_wrong} squares")
        print(f"{where} clean frames flagged: {100 * self.flagged / max(self.boards, 1):.1f} %")

    def report(self, kind: str) -> None:
        ms = sorted(self.ms) or [0.0]
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        letters = 100 * self.right_letters / self.tiles if self.tiles else 100.0
        print(f"{kind} letters right: {letters:.2f} %")
        print(f"{kind} boards exact: {self.exact_boards} of {self.boards} boards")
        print(f"{kind} calibration failures: {self.calibration_failures} frames")
        print(f"{kind} re-calibrations during the game: {self.recalibrations} times")
        print(f"{kind} confident wrong letters: {self.confident_wrong} squares")
        print(f"{kind} clean frames flagged: {100 * self.flagged / max(self.boards, 1):.1f} %")
        print(f"{kind} median read time on one core, CPU: {statistics.median(ms):.1f} ms")
        print(f"{kind} p95 read time on one core, CPU: {p95:.1f} ms")
        for line in self.errors[:6]:
            print(f"  {kind} error: {line}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
