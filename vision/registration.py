"""Finding the board in a frame: from ArUco markers, or from the board's own green field and grid lines.

Why two stages: the coarse stage (markers, or the largest green quadrilateral) is robust but only knows
roughly where the 15x15 grid lies; the fine stage finds the 16 + 16 printed grid lines themselves and fits
the homography to their 256 intersections, which absorbs the unknown margin between the board's edge and
its grid, lens keystone, and the camera's tilt. Tiles hide parts of the lines; the fits are robust to that.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision import cells, faces, light
from vision.calibration import Calibration
from vision.errors import BoardNotFoundError, FrameSourceError
from vision.geometry import SIZE, move_camera_hint, premium_layout
from vision.images import read_image
from vision.markers import find_marker_quad

WORK = 720  # the coarse search works on frames scaled to this size (longest side)
PITCH = 32  # pixels per square in the rectified image used for the fine fit
PAD = 1  # squares of margin around the grid in that rectified image
MIN_LAYOUT_AGREEMENT = 0.9  # right grids score 0.99-1.0 on the reference photos, grids one square off 0.34-0.65
MAX_UNSEEN_SHARE = 0.15  # of the grid's squares the frame may cut (two rows or columns) and still calibrate
CUT_SLACK = 0.15  # how far off (share of the field) the guess of a cut field's far side may be
TILE_FACE_SHARE = 0.35  # a square whose middle is this much tile face holds a tile (the reader's TILE_FACE)
MIN_PLANE_CROSSINGS = 24  # printed crossings with no tile beside them needed to fit the board plane on alone
TILE_TINT = 0.03  # mean saturation (0..1) a lamp may add to the tiles' faces before it counts as tinting them


def calibrate(
    image: np.ndarray, *, where: str = "image", use_markers: bool = True, standard_layout: bool = True
) -> Calibration:
    """Locate the board's grid in `image` (BGR) and return its calibration, or raise BoardNotFoundError.

    The frame may cut up to `MAX_UNSEEN_SHARE` of the grid (the squares it cuts are read as unseen; beyond
    that the error names the edges that cut it), and (unless `standard_layout` is False, for boards with other
    premium squares) its squares' colours must follow the standard premium layout: a grid fitted one square
    off would otherwise point every square at its neighbour's pixels, quietly.
    """
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 64:
        raise BoardNotFoundError(f"no board found in {where}: not a colour image of usable size")
    h, w = image.shape[:2]
    method = "grid"
    quad = None
    if use_markers:
        quad = find_marker_quad(image)
        if quad is not None:
            method = "aruco"
    if quad is None:
        try:
            quad = find_green_quad(image, where=where)
        except BoardNotFoundError as green_error:
            # Not a green board (or a poorly lit one): look for any large quadrilateral outline instead.
            quad = find_outline_quad(image)
            if quad is None:
                raise BoardNotFoundError(
                    f"{green_error}, and no board-shaped outline either; for boards that are not green, stick "
                    "ArUco markers on the grid's corners (`referee vision markers`)"
                ) from None
    # The quad is the outside of the grid's frame (markers) or the green field; look for the grid inside.
    # A field cut by the frame's edge is first extended to the square it would be, and the grid fitted past
    # the edge from the lines that show; if that fails, the field as seen (only its margin may be cut).
    cut = quad_cut_sides(quad, (w, h))
    attempts = [(extend_cut_quad(quad, list(cut)), list(cut)), (quad, [])] if cut else [(quad, [])]
    first_error: BoardNotFoundError | None = None
    for candidate, sides in attempts:
        try:
            return _calibrate_on(image, candidate, sides, where=where, method=method, standard_layout=standard_layout)
        except BoardNotFoundError as exc:
            first_error = first_error or exc
    assert first_error is not None
    message = str(first_error)
    if cut and "move the camera" not in message:
        message += "; " + move_camera_hint(sorted(set(cut.values()), key=list(FRAME_EDGE.values()).index))
    raise BoardNotFoundError(message) from None


def _calibrate_on(
    image: np.ndarray, quad: np.ndarray, cut: list[int], *, where: str, method: str, standard_layout: bool
) -> Calibration:
    """The calibration of the grid found inside `quad` (sides `cut` beyond the frame), checked."""
    h, w = image.shape[:2]
    matrix, residual = fit_grid(image, quad, where=where, outer=(method == "grid"), cut=cut)
    if cut:
        matrix, residual = _best_shift(image, matrix, residual, cut)
    grid = Calibration.from_matrix(matrix, (w, h))
    visible = grid.visible()
    unseen_share = 1.0 - float(visible.mean())
    if unseen_share > MAX_UNSEEN_SHARE:
        raise BoardNotFoundError(
            f"no board found in {where}: {100 * unseen_share:.0f}% of the grid is outside the frame "
            f"(at most {100 * MAX_UNSEEN_SHARE:.0f}% may be); {move_camera_hint(grid.cut_edges())}"
        )

    def seen_colours(rect: np.ndarray) -> list[list[float] | None]:
        """The reader tells a hand from the board by these; squares the frame cuts have none (unseen)."""
        return [c if seen else None for c, seen in zip(cells.empty_colours(rect), visible, strict=True)]

    rect = cells.rectify(image, matrix)
    colours = seen_colours(rect)
    agreement = layout_agreement(colours)
    # The lamp measured from the board's colours is kept only if it makes the board look more like its
    # layout, not less (a board crowded with tiles leaves too few squares of some kinds to measure on).
    lamp = light.measure(rect)
    if lamp is not None:
        lit = light.apply(rect, lamp)
        lit_colours = seen_colours(lit)
        lit_agreement = layout_agreement(lit_colours)
        if lit_agreement >= agreement and not tints_tiles(rect, lit):
            rect, colours, agreement = lit, lit_colours, lit_agreement
        else:
            lamp = None
    if standard_layout and agreement < MIN_LAYOUT_AGREEMENT:
        raise BoardNotFoundError(
            f"no board found in {where}: the grid found does not line up with the premium squares "
            f"({100 * agreement:.0f}% of squares match the standard layout)"
        )
    extra: dict[str, object] = {
        "light": lamp,
        "empty_colours": colours,
        "layout_agreement": agreement,
        "sharpness": cells.sharpness(cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY)),
        "board_value": cells.board_value(cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)),
    }
    if not visible.all():
        extra["cut"] = grid.cut_edges()  # for the record: the reader works the unseen squares out itself
    return Calibration.from_matrix(matrix, (w, h), method=method, source=str(where), residual=residual, extra=extra)


def tints_tiles(rect: np.ndarray, lit: np.ndarray) -> bool:
    """Does the lamp taken out of `rect` (giving `lit`) colour the tiles in it?

    The board's colours cannot tell a lamp's tint from a board printed in other greens and blues than the
    boards measured (the board of camera C is such a one); the tiles can: their faces are the frame's white.
    A lamp that leaves them more saturated than the camera saw them was the board's design, not the light.
    The tiles are found by their letters (`vision.faces`), not by a colour the lamp may have changed. A frame
    with fewer than three lettered tiles has none to ask, and keeps the lamp.
    """
    before, after = faces.measure(rect), faces.measure(lit)
    if before is None or after is None:
        return False
    return after.saturation > before.saturation + TILE_TINT


def _best_shift(image: np.ndarray, matrix: np.ndarray, residual: float, cut: list[int]) -> tuple[np.ndarray, float]:
    """The grid, or the grid moved by a square or two along the cut axis, whichever fits the premium layout.

    Past a cut side nothing bounds the grid's lines, and a board with a wide margin shows a line at its
    field's edge: the 16 lines fit as well one square off. The premium squares' colours tell which is right.
    """
    h, w = image.shape[:2]
    axes = {0 if side in (1, 3) else 1 for side in cut}

    def agreement(m: np.ndarray) -> float:
        seen = Calibration.from_matrix(m, (w, h)).visible()
        colours = cells.empty_colours(cells.rectify(image, m))
        return layout_agreement([c if v else None for c, v in zip(colours, seen, strict=True)])

    best, best_residual, best_score = matrix, residual, agreement(matrix)
    for axis in sorted(axes):
        for step in (-2, -1, 1, 2):
            move = np.eye(3)
            move[axis, 2] = step
            try:
                moved, moved_residual, found = _refine(image, move @ matrix)
            except BoardNotFoundError:
                continue
            if found < 0.35 * (SIZE + 1) ** 2 or not np.isfinite(moved_residual):
                continue
            score = agreement(moved)
            if score > best_score + 0.05:
                best, best_residual, best_score = moved, moved_residual, score
    return best, best_residual


FRAME_EDGE = {0: "top", 1: "right", 2: "bottom", 3: "left"}  # the frame's edges, in the quad's side order


def quad_cut_sides(quad: np.ndarray, size: tuple[int, int]) -> dict[int, str]:
    """The sides of `quad` (0 top, 1 right, 2 bottom, 3 left) that lie along the frame's border, each with
    the frame edge it lies on ("top", "right", "bottom", "left").

    A green field cut by the frame ends in a straight side on the frame's edge: the board goes on beyond it.
    """
    w, h = size
    tol = 0.01 * max(w, h) + 2
    pts = np.asarray(quad, np.float64).reshape(4, 2)
    on_edge = np.column_stack([  # per corner: on the frame's top, right, bottom, left edge
        pts[:, 1] <= tol, pts[:, 0] >= w - 1 - tol, pts[:, 1] >= h - 1 - tol, pts[:, 0] <= tol
    ])
    out = {}
    for side in range(4):
        both = on_edge[side] & on_edge[(side + 1) % 4]
        if both.any():
            out[side] = FRAME_EDGE[int(np.argmax(both))]
    return out


def extend_cut_quad(quad: np.ndarray, sides: list[int]) -> np.ndarray:
    """`quad` with each cut side pushed out until the field is as long across as it is along the cut side.

    The playing field is square; a camera looking down keeps it nearly so. The fit that follows allows for
    the guess being a few percent off, and fits lines only where the frame shows them.
    """
    out = np.asarray(quad, np.float64).copy()
    for side in sides:
        i, j = side, (side + 1) % 4  # the cut side's corners
        pi, pj = (side - 1) % 4, (side + 2) % 4  # the far corners of the sides that run into it
        opposite = float(np.linalg.norm(out[pj] - out[pi]))  # the uncut side facing the cut one
        for corner, far in ((i, pi), (j, pj)):
            run = out[corner] - out[far]
            length = float(np.linalg.norm(run))
            if 0 < length < opposite:
                out[corner] = out[far] + run * (opposite / length)
    return out


def calibrate_file(path: str | Path, *, use_markers: bool = True, standard_layout: bool = True) -> Calibration:
    try:
        image = read_image(path)
    except FrameSourceError as exc:
        raise BoardNotFoundError(f"no board found in {exc}") from None
    return calibrate(image, where=str(path), use_markers=use_markers, standard_layout=standard_layout)


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points in the order top-left, top-right, bottom-right, bottom-left (clockwise as seen).

    Sorted by angle around their centre, starting from the one nearest the frame's top-left, so a board
    turned by any angle up to about 45 degrees keeps A1 at the corner nearest the top-left.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    clockwise = pts[np.argsort(angles)]  # image y points down: increasing angle runs clockwise
    start = int(np.argmin(clockwise.sum(axis=1)))
    return np.roll(clockwise, -start, axis=0)


def find_green_quad(image: np.ndarray, *, where: str = "image") -> np.ndarray:
    """The board's green playing field as four image points (TL, TR, BR, BL)."""
    h, w = image.shape[:2]
    scale = WORK / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, (35, 60, 35), (95, 255, 255))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise BoardNotFoundError(f"no board found in {where}: no green playing field visible")
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area < 0.08 * small.shape[0] * small.shape[1]:
        raise BoardNotFoundError(
            f"no board found in {where}: the largest green area covers only "
            f"{100 * area / (small.shape[0] * small.shape[1]):.0f}% of the frame"
        )
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, [contour], -1, 255, -1)
    # A mesh of dark-greenish lines is not a green field.
    if cv2.countNonZero(cv2.bitwise_and(mask, filled)) < 0.4 * area:
        raise BoardNotFoundError(f"no board found in {where}: no green playing field visible")
    hull = cv2.convexHull(contour)
    quad = None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    if cv2.contourArea(quad.astype(np.float32)) < 0.6 * area:
        raise BoardNotFoundError(f"no board found in {where}: the green area is not a quadrilateral")
    return order_corners(quad / scale)


def find_outline_quad(image: np.ndarray) -> np.ndarray | None:
    """The largest convex quadrilateral outline in the frame (TL, TR, BR, BL), or None.

    For boards of other colours: the board's edge against the table is usually the longest closed outline.
    The grid fit that follows checks that a 15x15 grid really lies inside.
    """
    h, w = image.shape[:2]
    scale = WORK / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(gray, 40, 120), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    frame_area = small.shape[0] * small.shape[1]
    best, best_area = None, 0.0
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if area < 0.2 * frame_area or area > 0.98 * frame_area or area <= best_area:
            continue
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            best, best_area = approx.reshape(4, 2).astype(np.float64), area
    return None if best is None else order_corners(best / scale)


def _line_profiles(rect: np.ndarray, pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """Response images of dark thin vertical and horizontal lines (grid lines, gaps between tiles)."""
    gray = cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY)
    k = max(3, int(pitch * 0.25) | 1)
    dark = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    length = max(5, int(pitch * 0.7))
    vertical = cv2.morphologyEx(dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, length)))
    horizontal = cv2.morphologyEx(dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1)))
    return vertical.astype(np.float32), horizontal.astype(np.float32)


def _fit_comb(
    profile: np.ndarray,
    pitch_range: tuple[float, float],
    offset_range: tuple[float, float],
    bounds: tuple[float, float],
) -> tuple[float, float]:
    """Best (offset, pitch) so that the 16 positions offset + k*pitch sit on peaks of `profile`.

    Every line must lie within `bounds` (the outline the grid was searched in): with tiles along one edge,
    the edges of a row of tiles look like one more grid line, and a grid shifted by a whole square outside
    the outline would otherwise score as well as the true one.
    """
    prof = cv2.GaussianBlur(profile.reshape(1, -1).astype(np.float32), (0, 0), 1.0).ravel()
    n = len(prof)
    pitches = np.arange(pitch_range[0], pitch_range[1], 0.1)
    offsets = np.arange(offset_range[0], offset_range[1], 0.5)
    ks = np.arange(SIZE + 1)
    pos = offsets[:, None, None] + pitches[None, :, None] * ks[None, None, :]
    idx = np.clip(np.rint(pos).astype(np.int64), 0, n - 1)
    valid = (pos >= max(0.0, bounds[0])) & (pos <= min(n - 1.0, bounds[1]))
    score = np.where(valid, prof[idx], -prof.max()).sum(axis=2)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(offsets[i]), float(pitches[j])


def fit_grid(
    image: np.ndarray, quad: np.ndarray, *, where: str = "image", outer: bool = True, cut: list[int] | None = None
) -> tuple[np.ndarray, float]:
    """Homography (image px -> board units) of the 15x15 grid inside `quad`, and its RMS residual.

    `cut`: sides of `quad` (0 top, 1 right, 2 bottom, 3 left) beyond the frame, where `quad` is only a guess
    (`extend_cut_quad`): lines may lie past them, where the frame shows nothing and the fit counts nothing.
    """
    cut = cut or []
    inner, margin = 760, 24  # the quad is mapped to [margin, margin + inner]: lines on its edge stay in view
    if cut:
        margin = 24 + round(CUT_SLACK * inner)  # room past a cut side for lines the guess fell short of
    side = inner + 2 * margin
    dst = np.array([[0, 0], [inner, 0], [inner, inner], [0, inner]], dtype=np.float64) + margin
    coarse = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
    rect = cv2.warpPerspective(image, coarse, (side, side), flags=cv2.INTER_AREA)
    approx_pitch = inner / SIZE
    vertical, horizontal = _line_profiles(rect, approx_pitch * (0.9 if outer else 1.0))
    # The grid fills 78-100% of the green field or outline, or the marker quad almost exactly.
    lo, hi = (0.78, 1.01) if outer else (0.95, 1.03)

    def axis(before: int, after: int) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        """Pitch range, offset range and bounds along one axis; `before`/`after`: the sides at its ends."""
        a, b = lo, hi
        offsets = (margin - 0.03 * inner, margin + inner * (1 - lo) / 2 + 8)
        bounds = (margin - 0.01 * inner, margin + 1.01 * inner)
        if before in cut or after in cut:
            a, b = lo * (1 - CUT_SLACK), hi * (1 + CUT_SLACK)  # the extended side is a guess
        if before in cut:  # the first line may lie before the guessed side, out of the frame
            offsets = (margin - CUT_SLACK * inner, offsets[1])
            bounds = (0.0, bounds[1])
        if after in cut:
            bounds = (bounds[0], float(side - 1))
        return (a * approx_pitch, b * approx_pitch), offsets, bounds

    x0, px = _fit_comb(vertical.sum(axis=0), *axis(3, 1))
    y0, py = _fit_comb(horizontal.sum(axis=1), *axis(0, 2))
    # First estimate: an axis-aligned grid in the coarse rectified image.
    grid_pts = np.array([[c, r] for r in range(SIZE + 1) for c in range(SIZE + 1)], dtype=np.float64)
    rect_pts = np.column_stack([x0 + grid_pts[:, 0] * px, y0 + grid_pts[:, 1] * py])
    to_image = np.linalg.inv(coarse)
    matrix = _homography(_apply(to_image, rect_pts), grid_pts)
    for _ in range(2):
        matrix, residual, found = _refine(image, matrix)
    if found < 0.35 * (SIZE + 1) ** 2:
        raise BoardNotFoundError(f"no board found in {where}: only {found} of 256 grid crossings are visible")
    return _on_the_board_plane(image, matrix, residual)


def _on_the_board_plane(image: np.ndarray, matrix: np.ndarray, residual: float) -> tuple[np.ndarray, float]:
    """The grid refitted on the crossings no tile stands beside, when the frame has tiles.

    On a crowded board most "grid lines" are the gaps between tiles, which are the edges of their top faces
    a quarter of a square above the board: the last photo of a real game fitted on them lay 0.2 squares
    from its first photo's grid at a corner, 0.1 fitted on the printed lines alone.
    """
    covered = cells.colour_stats(cells.rectify(image, matrix))[:, 0] >= TILE_FACE_SHARE
    if not covered.any():
        return matrix, residual
    plane, plane_residual, found = _refine(image, matrix, covered)
    if found < MIN_PLANE_CROSSINGS or not np.isfinite(plane_residual):
        return matrix, residual
    return plane, plane_residual


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    matrix, _ = cv2.findHomography(src.astype(np.float32), dst.astype(np.float32), 0)
    if matrix is None:
        raise BoardNotFoundError("no board found: the grid points are degenerate")
    return matrix


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.hstack([points, np.ones((len(points), 1))]) @ matrix.T
    out: np.ndarray = pts[:, :2] / pts[:, 2:3]
    return out


def rectify(image: np.ndarray, matrix: np.ndarray, pitch: int = PITCH, pad: float = PAD) -> np.ndarray:
    """The board seen straight from above: `pitch` px per square, `pad` squares of margin around the grid."""
    shift = np.array([[pitch, 0, pad * pitch], [0, pitch, pad * pitch], [0, 0, 1]], dtype=np.float64)
    size = round((SIZE + 2 * pad) * pitch)
    return cv2.warpPerspective(image, shift @ matrix, (size, size), flags=cv2.INTER_LINEAR)


def _refine(image: np.ndarray, matrix: np.ndarray, covered: np.ndarray | None = None) -> tuple[np.ndarray, float, int]:
    """Find each grid crossing near where `matrix` puts it; refit. Returns (matrix, RMS residual, crossings).

    `covered` (225 booleans, squares holding a tile): crossings next to a tile are left out. A tile stands
    off the board: the gaps between tiles that look like grid lines are the edges of their top faces, which
    the camera sees displaced from the printed grid by parallax (towards the frame's edges on a low camera),
    so fitting them would pull the board plane's grid towards the tiles' plane.
    """
    img_pts, grid = crossings(image, matrix)
    if covered is not None and len(grid):
        keep = ~_next_to(covered, grid)
        if keep.sum() >= MIN_PLANE_CROSSINGS:
            img_pts, grid = img_pts[keep], grid[keep]
    if len(grid) < 12:
        return matrix, float("inf"), len(grid)
    refined, inliers = cv2.findHomography(img_pts.astype(np.float32), grid.astype(np.float32), cv2.RANSAC, 0.08)
    if refined is None:
        return matrix, float("inf"), len(grid)
    keep = inliers.ravel().astype(bool)
    err = np.linalg.norm(_apply(refined, img_pts[keep]) - grid[keep], axis=1)
    return refined, float(np.sqrt(np.mean(err**2))), int(keep.sum())


def _next_to(covered: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Per grid crossing (N x 2, board units (col, row)): does any of the four squares around it hold a tile?"""
    cov = np.asarray(covered, bool).reshape(SIZE, SIZE)
    padded = np.zeros((SIZE + 2, SIZE + 2), bool)
    padded[1:-1, 1:-1] = cov
    c = np.rint(grid[:, 0]).astype(int)
    r = np.rint(grid[:, 1]).astype(int)
    out: np.ndarray = padded[r, c] | padded[r, c + 1] | padded[r + 1, c] | padded[r + 1, c + 1]
    return out


def crossings(image: np.ndarray, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grid crossings seen near where `matrix` puts them: image points (N x 2) and their board units."""
    rect = rectify(image, matrix)
    vertical, horizontal = _line_profiles(rect, PITCH)
    half = PITCH // 2
    search = int(PITCH * 0.3)
    src, dst = [], []
    for r in range(SIZE + 1):
        for c in range(SIZE + 1):
            cx, cy = (c + PAD) * PITCH, (r + PAD) * PITCH
            # Around the crossing, the vertical line shows in the bands above and below it.
            band_v = vertical[max(0, cy - half) : cy + half, max(0, cx - search) : cx + search + 1].sum(axis=0)
            band_h = horizontal[max(0, cy - search) : cy + search + 1, max(0, cx - half) : cx + half].sum(axis=1)
            if band_v.size == 0 or band_h.size == 0:
                continue
            if not (_prominent(band_v) and _prominent(band_h)):
                continue
            dx = _peak(band_v) - min(search, cx)
            dy = _peak(band_h) - min(search, cy)
            src.append((cx + dx, cy + dy))
            dst.append((c, r))
    if not src:
        return np.empty((0, 2)), np.empty((0, 2))
    shift = np.array([[PITCH, 0, PAD * PITCH], [0, PITCH, PAD * PITCH], [0, 0, 1]], dtype=np.float64)
    to_image = np.linalg.inv(shift @ matrix)
    return _apply(to_image, np.array(src, dtype=np.float64)), np.array(dst, dtype=np.float64)


def _prominent(profile: np.ndarray) -> bool:
    """A line is there: its peak stands well above the band's floor (a tile or a letter gives no peak)."""
    top = float(profile.max())
    return top >= 6 * PITCH and top >= 3 * float(np.median(profile)) + PITCH


def _peak(profile: np.ndarray) -> float:
    """Sub-pixel position of the maximum of a 1-D profile (parabola through the top three samples)."""
    i = int(np.argmax(profile))
    if 0 < i < len(profile) - 1:
        a, b, c = float(profile[i - 1]), float(profile[i]), float(profile[i + 1])
        denom = a - 2 * b + c
        if denom < 0:
            return i + 0.5 * (a - c) / denom
    return float(i)


def check_alignment(image: np.ndarray, calibration: Calibration, *, where: str = "frame") -> float:
    """How far, in squares, the board in `image` lies from where `calibration` puts it (worst grid corner).

    For the service to run now and then, or when many squares look foreign: a camera knocked by a sleeve, or
    a board pushed across the table, silently points every square at its neighbour's pixels. Above about
    0.15 of a square, calibrate again. Raises BoardNotFoundError when the board cannot be seen at all.
    """
    calibration.check_frame(image, where)
    fresh = calibrate(image, where=where)
    corners = np.array([[0, 0], [15, 0], [15, 15], [0, 15], [7.5, 7.5]], dtype=np.float64)
    seen = fresh.board_to_image(corners)  # where the grid really is, in pixels
    return float(np.linalg.norm(calibration.image_to_board(seen) - corners, axis=1).max())


def layout_agreement(empty_colours: list[list[float] | None]) -> float:
    """How well the squares' colours follow the standard premium layout: the share of empty squares whose
    colour is nearest the mean colour of their own kind (triple word, double letter, ...). About 1.0 for a
    grid that lies right; a grid shifted by a square mixes the kinds and scores far lower."""
    kinds = np.array(list("".join(premium_layout())))
    known = np.array([c is not None for c in empty_colours])
    if known.sum() < 50:
        return 1.0  # too much covered to tell: do not refuse on that alone
    colours = np.array([c if c is not None else (0.0, 0.0, 0.0) for c in empty_colours], np.float64)
    names = [k for k in np.unique(kinds) if ((kinds == k) & known).any()]
    means = np.array([colours[(kinds == k) & known].mean(axis=0) for k in names])
    nearest = np.argmin(np.linalg.norm(colours[known][:, None, :] - means[None], axis=2), axis=1)
    return float(np.mean(np.array(names)[nearest] == kinds[known]))
