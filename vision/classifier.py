"""The letter classifier: HOG features of glyph-centred patches, an RBF SVM (cv2.ml), and a doubt measure.

Why an SVM on HOG: a few thousand labelled tiles teach it in seconds (about nine for 75 photos on the
development machine), and it reads a tile in about a tenth of a millisecond there. Why the extra
prototypes: cv2.ml's multi-class SVM gives no probability, so confidence comes from the nearest stored
examples: how much closer the best example of the chosen letter is than the best example of any other
letter (`margin`), and how far the tile is from everything taught (`novelty`). A tile that looks like
nothing taught, or like two letters at once, is reported uncertain, not guessed.
"""

from __future__ import annotations

import io
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import cells
from vision.errors import ModelError

MODEL_FORMAT = "scrabble-referee-tile-model"
PROTOTYPES_PER_CLASS = 80
MIN_CONFIDENCE = 0.25  # letter margin below which a letter is doubtful
MAX_NOVELTY = 2.6  # distance to the nearest taught example, in typical distances, above which: doubtful
MAX_NOVELTY_CLEAR = 4.5  # ... the same when no other letter comes anywhere near
AUGMENT = (
    (1.5, 0, 0, 1),
    (-1.5, 0, 0, 1),
    (0, 1.5, 0, 1),
    (0, -1.5, 0, 1),
    (0, 0, 5, 1),
    (0, 0, -5, 1),
    (0, 0, 0, 1.08),
    (0, 0, 0, 0.93),
)


@dataclass(frozen=True)
class LetterGuess:
    letter: str
    confidence: float  # 0 (a coin toss between two letters) .. 1 (nothing else comes close)
    novelty: float  # distance to the nearest taught example, in units of the typical such distance

    @property
    def doubtful(self) -> bool:
        """Too close to call between two letters, or unlike anything taught.

        A rare letter (one Y tile in a whole game) sits far from its few taught examples yet far closer to
        them than to any other letter: that is trusted up to a larger novelty than a tile with a weak margin.
        """
        if self.confidence < MIN_CONFIDENCE:
            return True
        limit = MAX_NOVELTY_CLEAR if self.confidence >= 0.8 else MAX_NOVELTY
        return self.novelty > limit


def augment(patch_stack: np.ndarray) -> np.ndarray:
    """The patches plus small shifts, turns and scalings: what a hand-placed tile and a camera do to them."""
    out = [patch_stack]
    centre = (cells.PATCH / 2, cells.PATCH / 2)
    for dx, dy, angle, scale in AUGMENT:
        m = cv2.getRotationMatrix2D(centre, angle, scale)
        m[0, 2] += dx
        m[1, 2] += dy
        out.append(
            np.stack(
                [cv2.warpAffine(p, m, (cells.PATCH, cells.PATCH), borderMode=cv2.BORDER_REPLICATE) for p in patch_stack]
            )
        )
    return np.concatenate(out)


class TileClassifier:
    """Letter of a glyph-centred patch (see `cells.glyph_patch`). Blanks never get here: they have no glyph."""

    def __init__(
        self,
        svm: Any,
        classes: list[str],
        prototypes: np.ndarray,
        proto_labels: np.ndarray,
        typical_distance: float,
        meta: dict[str, Any],
    ) -> None:
        self._svm = svm
        self.classes = list(classes)
        order = np.argsort(proto_labels, kind="stable")
        self._protos = prototypes[order].astype(np.float32)
        self._proto_sq = (self._protos**2).sum(axis=1)
        self._proto_labels = proto_labels[order].astype(np.int32)
        if sorted(set(self._proto_labels.tolist())) != list(range(len(self.classes))):
            raise ModelError("every letter of the model needs at least one stored example")
        self._starts = np.searchsorted(self._proto_labels, np.arange(len(self.classes)))
        self.typical_distance = float(typical_distance)
        self.meta = dict(meta)

    @classmethod
    def train(
        cls,
        patches: np.ndarray,
        labels: list[str],
        *,
        meta: dict[str, Any] | None = None,
        seed: int = 0,
        own: int = 0,
    ) -> TileClassifier:
        """Teach from glyph patches (N x PATCH x PATCH uint8) and their letters.

        `own`: the first `own` patches are the user's own tiles, the rest rendered ones. The doubt measure
        compares a tile with the stored examples, so the own tiles are stored first (a letter's examples are
        filled up with rendered ones only where the photos hold fewer than PROTOTYPES_PER_CLASS), and they
        count twice in the SVM: a few photos must outweigh the many renders of a face unlike the set's.
        """
        labels = [str(x) for x in labels]
        if len(patches) != len(labels) or len(labels) == 0:
            raise ModelError("nothing to learn from: no labelled tiles with a letter")
        classes = sorted(set(labels))
        if len(classes) < 2:
            raise ModelError(f"only one letter ({classes[0]}) among the labelled tiles; need at least two")
        y = np.array([classes.index(x) for x in labels], np.int32)
        feats = cells.hog(patches)
        aug_feats = cells.hog(augment(patches))
        svm = cv2.ml.SVM_create()  # type: ignore[attr-defined]  # missing from OpenCV's stubs
        svm.setType(cv2.ml.SVM_C_SVC)
        svm.setKernel(cv2.ml.SVM_RBF)
        svm.setC(10.0)
        svm.setGamma(0.5)
        reps = len(AUGMENT) + 1
        train_feats, train_y = aug_feats, np.tile(y, reps)
        if own:
            mine = np.concatenate([np.arange(own) + r * len(y) for r in range(reps)])
            train_feats = np.concatenate([train_feats, aug_feats[mine]])
            train_y = np.concatenate([train_y, train_y[mine]])
        svm.train(train_feats, cv2.ml.ROW_SAMPLE, train_y)
        rng = np.random.default_rng(seed)
        is_own = np.arange(len(y)) < own
        keep = np.concatenate(
            [
                np.concatenate(
                    [
                        rng.permutation(np.flatnonzero((y == k) & is_own)),
                        rng.permutation(np.flatnonzero((y == k) & ~is_own)),
                    ]
                )[:PROTOTYPES_PER_CLASS]
                for k in range(len(classes))
            ]
        )
        protos, plabels = feats[keep], y[keep]
        typical = _typical_distance(protos, plabels)
        info: dict[str, Any] = {"classes": classes, "examples": len(labels)}
        if own:
            info["own_examples"] = own
        info.update(meta or {})
        return cls(svm, classes, protos, plabels, typical, info)

    def predict(self, patches: np.ndarray) -> list[LetterGuess]:
        if len(patches) == 0:
            return []
        feats = cells.hog(patches)
        svm_idx = self._svm.predict(feats)[1].ravel().astype(np.int64)
        d2 = (feats**2).sum(axis=1)[:, None] + self._proto_sq[None, :] - 2.0 * feats @ self._protos.T
        # Nearest example of each letter: prototypes are stored grouped by letter, so a reduceat does it.
        per_class = np.sqrt(np.maximum(np.minimum.reduceat(d2, self._starts, axis=1), 0.0))
        rows = np.arange(len(feats))
        d_same = per_class[rows, svm_idx]
        others = per_class.copy()
        others[rows, svm_idx] = np.inf
        d_other = others.min(axis=1) if others.shape[1] > 1 else np.full(len(feats), np.inf)
        margin = np.clip(1.0 - d_same / np.maximum(d_other, 1e-9), 0.0, 1.0)
        novelty = d_same / self.typical_distance if self.typical_distance > 0 else np.zeros(len(feats))
        return [
            LetterGuess(self.classes[int(k)], float(min(1.0, 4.0 * m)), float(n))
            for k, m, n in zip(svm_idx, margin, novelty, strict=True)
        ]

    # -- files -----------------------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        # Through a temporary file: OpenCV's in-memory FileStorage fails on large models (4.14).
        with tempfile.TemporaryDirectory() as tmp:
            self._svm.save(str(Path(tmp) / "svm.yml"))
            svm_text = (Path(tmp) / "svm.yml").read_text(encoding="utf-8")
        header = {
            "format": MODEL_FORMAT,
            "version": 1,
            "classes": self.classes,
            "typical_distance": self.typical_distance,
            "meta": self.meta,
        }
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            header=np.array(json.dumps(header)),
            svm=np.array(svm_text),
            prototypes=self._protos,
            proto_labels=self._proto_labels,
        )
        Path(path).write_bytes(buf.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> TileClassifier:
        p = Path(path)
        try:
            with np.load(p, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                svm_text = str(data["svm"])
                protos, plabels = data["prototypes"], data["proto_labels"]
        except FileNotFoundError as exc:
            raise ModelError(f"{p}: model file not found; make one with `referee vision teach`") from exc
        except (OSError, KeyError, ValueError) as exc:
            raise ModelError(f"{p}: not a tile model ({exc})") from exc
        if header.get("format") != MODEL_FORMAT:
            raise ModelError(f"{p}: not a tile model (format {header.get('format')!r})")
        try:
            with tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / "svm.yml").write_text(svm_text, encoding="utf-8")
                svm = cv2.ml.SVM_load(str(Path(tmp) / "svm.yml"))  # type: ignore[attr-defined]  # not in the stubs
        except cv2.error as exc:
            raise ModelError(f"{p}: the classifier inside is corrupt") from exc
        if svm.getVarCount() != protos.shape[1]:
            raise ModelError(f"{p}: the classifier inside is corrupt (feature sizes disagree)")
        return cls(svm, header["classes"], protos, plabels, header["typical_distance"], header.get("meta", {}))


def _typical_distance(protos: np.ndarray, labels: np.ndarray) -> float:
    """Median distance from an example to its nearest other example of the same letter."""
    sq = (protos**2).sum(axis=1)
    d = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2.0 * protos @ protos.T, 0.0))
    np.fill_diagonal(d, np.inf)
    same = labels[:, None] == labels[None, :]
    nearest = np.where(same, d, np.inf).min(axis=1)
    nearest = nearest[np.isfinite(nearest)]
    return float(np.median(nearest)) if nearest.size else 1.0
