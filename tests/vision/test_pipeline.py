"""From rendered frames to TableSnapshots: positions, stacks, topples, edges, hands, JSON."""

from __future__ import annotations

import dataclasses
import json
import math

import cv2
import numpy as np
import pytest
from table_scenes import analyser_for, layout, match, profile_for, rms

from controller.vision.pipeline import FrameAnalyser, TableWatcher, silhouette_angle
from controller.vision.render import Die, Hand, Lighting, Scene, fitting_camera, random_scene, render, temple
from controller.vision.snapshot import TableSnapshot


@pytest.mark.parametrize("tilt", [0.0, 18.0])
def test_positions_with_and_without_parallax(tilt: float) -> None:
    analyser, cam = analyser_for("puxes", tilt)
    naive, _ = analyser_for("puxes", tilt, parallax=False)
    scene = random_scene(layout("puxes"), 16, seed=11, temples=True, camera=cam)
    frame = render(scene)
    found = analyser.analyse(frame.image).dice
    pairs = match(found, list(frame.truth))
    assert len(pairs) == len(found) == 18          # 16 loose dice + 2 temple tops
    on = rms([d for _, _, d in pairs])
    off = rms([d for _, _, d in match(naive.analyse(frame.image).dice, list(frame.truth), 40.0)])
    assert on < 2.0
    assert off > 3 * on
    assert all(f.level == t.level for f, t, _ in pairs)


def test_stacks_are_recognised_with_their_top_face() -> None:
    analyser, cam = analyser_for("puxes", 10.0)
    lay = layout("puxes")
    dice = (*temple(150, 300, 5, 2, 10), *temple(750, 300, 3, 6, 40), Die(450, 300, 4, 20),
            # a stack away from any temple zone, and a die next to a temple
            *temple(450, 120, 6, 1, 5), Die(195, 300, 2, 0))
    frame = render(dataclasses.replace(random_scene(lay, 0, 1, camera=cam), dice=dice))
    snap = TableWatcher(analyser).snapshot(frame.image, 0.0)
    standing = [s for s in snap.stacks if not s.toppled]
    assert len(standing) == 3
    for s in standing:
        bottom, top = (snap.die(i) for i in s.dice)
        assert (bottom.level, top.level) == (1, 2) and bottom.stack_id == top.stack_id == s.stack_id
        assert math.hypot(top.x_mm - round(top.x_mm / 150) * 150, top.y_mm - round(top.y_mm / 60) * 60) < 3
        # The top face is cut where geometry puts it: the crop shows the upper die's pips, whole.
        expected = {150: 5, 750: 3, 450: 6}[round(s.x_mm / 150) * 150]
        crop = analyser.top_face_crop(frame.image, (top.x_mm, top.y_mm), 2 * analyser.edge, top.angle_deg)
        assert count_pips(crop) == expected
    loose = [d for d in snap.dice if d.stack_id is None]
    assert len(loose) == 2 and all(d.level == 1 for d in loose)
    for d in loose:
        crop = analyser.top_face_crop(frame.image, (d.x_mm, d.y_mm), analyser.edge, d.angle_deg)
        assert count_pips(crop) == (4 if d.x_mm > 300 else 2)


def count_pips(crop: np.ndarray) -> int:
    """Dark round spots well inside a face crop (a plain check, independent of the face reader)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    side = grey.shape[0]
    m = side // 12
    inner = grey[m:-m, m:-m]
    _, dark = cv2.threshold(inner, 110, 255, cv2.THRESH_BINARY_INV)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for i in range(1, n) if 0.008 * side ** 2 <= stats[i, cv2.CC_STAT_AREA] <= 0.06 * side ** 2)


def test_topple_reported_once_with_where_the_dice_went() -> None:
    analyser, cam = analyser_for("puxes", 15.0)
    lay = layout("puxes")
    watcher = TableWatcher(analyser)
    before = random_scene(lay, 6, seed=3, temples=True, camera=cam)
    first = watcher.snapshot(render(before).image, 0.0)
    assert len([s for s in first.stacks if not s.toppled]) == 2
    # Temple 1 is knocked over: its dice land apart, the other dice stay put.
    fallen = [Die(205, 262, 5, 30), Die(120, 360, 2, 60)]
    kept = [d for d in before.dice if math.hypot(d.x_mm - 150, d.y_mm - 300) > 1]
    after = dataclasses.replace(before, dice=(*kept, *fallen))
    snap = watcher.snapshot(render(after).image, 1.0)
    toppled = [s for s in snap.stacks if s.toppled]
    assert len(toppled) == 1 and (toppled[0].x_mm, toppled[0].y_mm) == pytest.approx((150, 300), abs=3)
    went = sorted(toppled[0].scattered_to)
    assert len(went) == 2
    for (x, y), d in zip(went, sorted(fallen, key=lambda d: (d.x_mm, d.y_mm))):
        assert math.hypot(x - d.x_mm, y - d.y_mm) < 3
    assert set(toppled[0].dice) <= set(snap.moved)
    assert len([s for s in snap.stacks if not s.toppled]) == 1
    # Reported once: the next still snapshot has no toppled stack.
    again = watcher.snapshot(render(after).image, 2.0)
    assert not [s for s in again.stacks if s.toppled] and again.moved == ()


def test_edge_and_off_mat_dice() -> None:
    analyser, cam = analyser_for("memodixe", 8.0)
    lay = layout("memodixe")
    dice = (Die(180, 4, 3, 0), Die(-30, 180, 5, 20), Die(180, 180, 1, 10), Die(352, 250, 6, 45))
    frame = render(dataclasses.replace(random_scene(lay, 0, 1, camera=cam), dice=dice))
    found = analyser.analyse(frame.image).dice
    pairs = {round(t.x_mm): f for f, t, _ in match(found, list(frame.truth))}
    assert set(pairs) == {180, -30, 352} | {180}
    assert len(found) == 4
    by_pos = {(round(f.x_mm / 10), round(f.y_mm / 10)): f for f in found}
    edge_top = by_pos[(18, 0)]
    assert edge_top.on_mat and edge_top.at_edge
    off = by_pos[(-3, 18)]
    assert not off.on_mat and not off.at_edge
    assert by_pos[(35, 25)].at_edge and by_pos[(35, 25)].on_mat
    centre = by_pos[(18, 18)]
    assert centre.on_mat and not centre.at_edge


def test_a_hand_is_an_occlusion_not_dice() -> None:
    analyser, cam = analyser_for("puxes")
    lay = layout("puxes")
    scene = random_scene(lay, 10, seed=5, camera=cam, hands=(Hand(450, 420, 90, 80),))
    frame = render(scene)
    watcher = TableWatcher(analyser)
    snap = watcher.snapshot(frame.image, 0.0)
    assert len(snap.occlusions) == 1
    occ = snap.occlusions[0]
    assert occ.x_mm < 450 < occ.x_mm + occ.width_mm and occ.y_mm < 420 < occ.y_mm + occ.height_mm
    assert not snap.still
    for d in snap.dice:
        inside = occ.x_mm < d.x_mm < occ.x_mm + occ.width_mm and occ.y_mm < d.y_mm < occ.y_mm + occ.height_mm
        assert not inside or d.face.readable


def test_lighting_change_since_calibration_and_glare() -> None:
    analyser, cam = analyser_for("memodixe")
    scene = random_scene(layout("memodixe"), 7, seed=8, camera=cam,
                         lighting=Lighting(brightness=0.9, gradient=0.35, glare=2, shadow=0.4))
    frame = render(scene)
    found = analyser.analyse(frame.image).dice
    pairs = match(found, list(frame.truth))
    assert len(pairs) == len(found) == 7
    assert rms([d for _, _, d in pairs]) < 2.0


def test_snapshot_json_round_trip() -> None:
    analyser, cam = analyser_for("puxes", 10.0)
    scene = random_scene(layout("puxes"), 5, seed=2, temples=True, camera=cam)
    snap = TableWatcher(analyser).snapshot(render(scene).image, 12.5)
    text = snap.dumps()
    back = TableSnapshot.from_json(json.loads(text))
    assert back == snap
    assert back.dumps() == text
    assert len(back.dice) == 9 and len(back.stacks) == 2


def test_coloured_dice_with_symbols() -> None:
    from controller.vision.mat import dice_colours

    analyser, cam = analyser_for("puxes", 6.0)
    colours = {k: v for k, v in dice_colours().items() if k in ("white", "black", "red", "blue", "yellow")}
    scene = random_scene(layout("puxes"), 14, seed=31, symbols=True, camera=cam, colours=colours)
    frame = render(scene)
    found = analyser.analyse(frame.image).dice
    pairs = match(found, list(frame.truth))
    assert len(pairs) == len(found) == 14
    assert rms([d for _, _, d in pairs]) < 2.0
    by_place = {(round(d.x_mm), round(d.y_mm)): d.colour for d in scene.dice}
    right = sum(f.colour == by_place[(round(t.x_mm), round(t.y_mm))] for f, t, _ in pairs)
    assert right >= 13


@pytest.mark.parametrize("hand", [Hand(450, 640, 90, 70), Hand(-40, 300, 180, 70), Hand(880, 120, 0, 70)])
def test_fingers_at_the_edge_make_no_dice(hand: Hand) -> None:
    analyser, cam = analyser_for("puxes", 8.0)
    scene = random_scene(layout("puxes"), 8, seed=40, camera=cam, hands=(hand,))
    frame = render(scene)
    analysis = analyser.analyse(frame.image)
    assert len(analysis.occlusions) == 1
    pairs = match(analysis.dice, list(frame.truth), 3.0)
    assert len(pairs) == len(analysis.dice) == 8


@pytest.mark.parametrize("tilt", [0.0, 12.0])
@pytest.mark.parametrize("seed", [21, 22])
def test_every_top_face_reads_on_a_rendered_table(tilt: float, seed: int) -> None:
    """Faces cut exactly to the top square show its rim and rounded corners: every die still reads."""
    analyser, cam = analyser_for("puxes", tilt)
    scene = random_scene(layout("puxes"), 18, seed=seed, temples=True, camera=cam,
                         lighting=Lighting(glare=1, gradient=0.2))
    frame = render(scene)
    pairs = match(analyser.analyse(frame.image).dice, list(frame.truth))
    assert len(pairs) == 20
    assert [t.top for _, t, _ in pairs] == [f.face.pips for f, _, _ in pairs]


def far_analyser(tilt: float, yaw: float) -> FrameAnalyser:
    prof, _ = profile_for("puxes", tilt, yaw)
    return FrameAnalyser(layout("puxes"), prof)


def test_two_dice_whose_silhouettes_touch_far_from_the_camera_are_two_dice() -> None:
    """Far from the camera's nadir a die's silhouette is long: two dice 40 mm apart along the line to
    the nadir make one region, the size of a stack's but too tall for one. It is two dice."""
    analyser = far_analyser(12.0, 180.0)
    lay = layout("puxes")
    dice = (Die(154, 301, 4, 4), Die(189, 281, 2, 1))
    frame = render(Scene(lay, dice, camera=fitting_camera(lay, tilt_deg=12.0, yaw_deg=180.0), seed=4,
                         lighting=Lighting(gradient=0.28, shadow=0.34, blur_sigma=0.79, noise_sigma=2.2)))
    found = analyser.analyse(frame.image).dice
    pairs = match(found, list(frame.truth), 3.0)
    assert len(found) == len(pairs) == 2
    assert all(f.level == 1 for f in found)


@pytest.mark.parametrize("outer,inner", [(0, 0), (20, 30), (45, 0), (45, 60), (70, 30)])
def test_a_die_whose_base_is_hidden_by_its_neighbours_top_is_placed_from_its_far_side(outer: float,
                                                                                     inner: float) -> None:
    """Two dice touching along the line to the nadir, far from it: the inner die's top face, pushed
    out by parallax, covers the outer die's base, from which a die is placed. The outer one is placed
    from its top face's far edge instead."""
    analyser, cam = analyser_for("puxes")
    lay = layout("puxes")

    def half(a: float) -> float:
        return lay.die.edge_mm / 2 * (abs(math.cos(math.radians(a))) + abs(math.sin(math.radians(a))))

    dice = (Die(70, 300, 3, outer), Die(70 + half(outer) + half(inner) + 1, 300, 5, inner))
    assert analyser.camera_centre[0] > 400                         # the nadir is far to the +x side
    frame = render(Scene(lay, dice, camera=cam, seed=3))
    found = analyser.analyse(frame.image).dice
    pairs = match(found, list(frame.truth), 15.0)
    assert len(found) == len(pairs) == 2
    assert all(f.level == 1 for f in found) and max(d for _, _, d in pairs) < 3.0


def test_a_frame_splits_into_dice_the_same_way_whatever_was_split_before() -> None:
    """Touching dice are split with k-means, whose first centres OpenCV draws from its own generator:
    the same frame gives the same dice however that generator was left by earlier work."""
    analyser = far_analyser(12.0, 180.0)
    lay = layout("puxes")
    dice = (Die(154, 301, 4, 4), Die(189, 281, 2, 1), Die(170, 330, 5, 30), Die(205, 318, 3, 60))
    frame = render(Scene(lay, dice, camera=fitting_camera(lay, tilt_deg=12.0, yaw_deg=180.0), seed=4,
                         lighting=Lighting(gradient=0.28, shadow=0.34, blur_sigma=0.79, noise_sigma=2.2)))
    seen = []
    for seed in range(6):
        cv2.setRNGSeed(1000 + seed)
        seen.append([(d.x_mm, d.y_mm, d.level, d.angle_deg) for d in analyser.analyse(frame.image).dice])
    assert all(s == seen[0] for s in seen)


def add_glare(image: np.ndarray, at_px: tuple[float, float], radius_px: float) -> np.ndarray:
    """A specular highlight as the renderer draws one: the light added alike to every channel."""
    h, w = image.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    spot = np.exp(-((xx - at_px[0]) ** 2 + (yy - at_px[1]) ** 2) / (2 * radius_px ** 2))
    return np.clip(image + 120 * spot[..., None], 0, 255).astype(np.uint8)


def test_glare_on_the_mat_beside_a_die_is_not_part_of_it() -> None:
    """A highlight on the mat touching a die's silhouette would make it look taller (a loose die read
    as a stack) or wider (a temple split in two): the glare is light, not a die."""
    analyser, cam = analyser_for("puxes", 8.0)
    lay = layout("puxes")
    dice = (*temple(150, 300, 4, 2, 20), Die(400, 500, 6, 40))
    frame = render(Scene(lay, dice, camera=cam, seed=75))
    image = frame.image
    for x, y in ((172, 292), (422, 500)):
        px = frame.camera.project(np.array([[x, y, 0.0]]))[0]
        image = add_glare(image, (float(px[0]), float(px[1])), 6.0)
    found = analyser.analyse(image).dice
    pairs = match(found, list(frame.truth), 3.0)
    assert len(found) == len(pairs) == 2
    assert all(f.level == t.level for f, t, _ in pairs)


def test_a_fallen_temple_whose_bottom_die_stayed_put_is_toppled() -> None:
    """Near the nadir one die and a stack look alike. A knocked temple whose bottom die did not move
    or turn shows that die's own face where the top's was: it has fallen."""
    lay = layout("puxes")
    prof, cam = profile_for("puxes", 14.0, 164.0)
    watcher = TableWatcher(FrameAnalyser(lay, prof))
    before = random_scene(lay, 8, seed=3, temples=True, camera=cam)
    loose = before.dice[4:]
    standing = (*temple(150, 300, 5, 2, 10), *temple(750, 300, 4, 3, 30))
    first = watcher.snapshot(render(dataclasses.replace(before, dice=(*standing, *loose))).image, 0.0)
    assert len([s for s in first.stacks if not s.toppled]) == 2
    # The top die lands beside; the bottom one stays exactly where the stack stood, turned as its top was.
    after = (*standing[:2], Die(750, 300, 3, 33.0), Die(805, 339, 2, 44), *loose)
    snap = watcher.snapshot(render(dataclasses.replace(before, dice=after, seed=1)).image, 1.0)
    toppled = [s for s in snap.stacks if s.toppled]
    assert len(toppled) == 1 and toppled[0].x_mm == pytest.approx(750, abs=3)


def test_a_die_as_tall_as_a_stack_stays_a_stack_when_its_face_reads_otherwise() -> None:
    """A standing temple's top face may read otherwise at the next snapshot (glare washing out a
    pip): while the height measured rules out a single die, the temple still stands."""
    lay = layout("puxes")
    prof, cam = profile_for("puxes", 6.0, 180.0)
    analyser = FrameAnalyser(lay, prof)
    frame = render(Scene(lay, temple(750, 300, 3, 6, 45), camera=cam, seed=2)).image
    e = analyser.edge
    at = np.array([750.0, 300.0])
    analyser.stack_hints = [(750.0, 300.0, 48.0, "5")]        # the top read 5 at the last snapshot
    sigma = 3.0
    assert analyser.measurer.level(frame, at, 48.0, 2 * e - 2.5 * sigma, sigma)[0] == 2
    # As short as a single die may be, the other face says the temple fell.
    assert analyser.measurer.level(frame, at, 48.0, e + 2 * sigma, sigma) == (1, None, True)


def test_a_dark_side_of_a_die_on_a_coloured_print_is_die_not_shadow() -> None:
    """A shadow darkens the mat's three channels alike; a die's side in shade, grey on a pink
    temple zone, darkens them unalike, however dark it is. Taken for shadow, it would cut the
    silhouette short: the die placed wrong, a stack measured short and called fallen."""
    lay = layout("puxes")
    analyser, _ = analyser_for("puxes")
    zone = lay.zones_of_kind("temple")[1]
    cx, cy = (int(round(v)) for v in analyser.rectifier.to_px(np.array([zone.params["center"]], float))[0])
    rect = analyser.background.copy()
    shadow = (slice(cy - 12, cy + 12), slice(cx - 30, cx - 6))
    side = (slice(cy - 12, cy + 12), slice(cx + 6, cx + 30))
    rect[shadow] = (rect[shadow] * 0.35).astype(np.uint8)
    rect[side] = 62                                           # a white die's side in shade, as rendered
    assert np.ptp(analyser.background[side].reshape(-1, 3).mean(axis=0)) > 40   # a coloured print
    fg = analyser.foreground(rect)
    assert fg[shadow].mean() < 0.05 * 255
    assert fg[side][3:-3, 3:-3].min() == 255


@pytest.mark.parametrize("tilt, light", [(0.0, Lighting()), (14.0, Lighting(gradient=0.3, shadow=0.4, glare=2))])
def test_the_view_rectified_near_changes_only_gives_the_whole_views_foreground(tilt: float, light: Lighting
                                                                                ) -> None:
    """The view is resampled only around what differs from the empty mat (found on a sparse grid):
    the foreground, and the view wherever the dice finder looks, are those of the whole view."""
    analyser, cam = analyser_for("puxes", tilt)
    scene = random_scene(layout("puxes"), 18, seed=31, temples=True, camera=cam, lighting=light,
                         hands=(Hand(500, 200),))
    image = render(scene).image
    full = analyser.rectifier.rectify(image)
    part = analyser.region_finder.rectify_changed(image)
    assert np.array_equal(analyser.foreground(part), analyser.foreground(full))
    near = cv2.dilate(analyser.foreground(full), np.ones((9, 9), np.uint8)) > 0
    assert np.array_equal(part[near], full[near])
    assert (part != full).any()                     # far from any change: the empty mat, not resampled
    # A change of light over the whole mat: the whole view is resampled.
    dim = (image * 0.5).astype(np.uint8)
    assert np.array_equal(analyser.region_finder.rectify_changed(dim), analyser.rectifier.rectify(dim))


def test_top_face_crops_and_their_resolution_in_the_frame() -> None:
    analyser, cam = analyser_for("puxes", 0.0)
    frame = render(Scene(layout("puxes"), (Die(300, 300, 5, 30),), camera=cam, seed=3))
    d = analyser.analyse(frame.image).dice[0]
    crop, source_px = analyser.reader.crop(frame.image, np.array([d.x_mm, d.y_mm]), analyser.edge, d.angle_deg)
    assert crop.shape == (90, 90, 3)
    assert np.array_equal(crop, analyser.top_face_crop(frame.image, (d.x_mm, d.y_mm), analyser.edge,
                                                       d.angle_deg))
    # The face's side in the frame: its edge times the frame's scale there, magnified by its height.
    scale = analyser.profile.camera.project(np.array([[300.0, 300.0, -analyser.edge],
                                                      [310.0, 300.0, -analyser.edge]]))
    expected = analyser.edge * float(np.hypot(*(scale[1] - scale[0]))) / 10
    assert expected - 1 <= source_px <= expected * 1.1 + 1
    assert d.face.pips == 5


@pytest.mark.parametrize("theta", [0.0, 10.0, 30.0, 45.0, 58.0, 80.0])
def test_a_far_stacks_turn_comes_from_its_squares_not_its_vertical_edges(theta: float) -> None:
    """Seen from above 600 mm from the nadir, a stack's vertical edges are longer than its sides;
    they point at the nadir, so they do not pull its turn towards that direction."""
    nadir = np.array([100.0, 100.0])
    a = math.radians(theta)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    for centre in ((700.0, 300.0), (300.0, 250.0), (130.0, 90.0)):
        base = np.array(centre) + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * 12.5 @ turn.T
        top = nadir + (base - nadir) * 1000 / (1000 - 50)      # a stack's top, the camera 1 m up
        hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2)
        got = silhouette_angle(hull, (float(nadir[0]), float(nadir[1])))
        assert abs((got - theta + 45) % 90 - 45) < 0.5, centre


def test_column_medians_are_numpys_medians() -> None:
    from controller.vision.face_reading import column_medians

    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 8, 301, 302):
        rows = rng.integers(0, 256, (n, 3)).astype(np.uint8)
        assert np.array_equal(column_medians(rows), np.median(rows, axis=0))


def _moved(scene: Scene, indices: tuple[int, ...], seed: int) -> Scene:
    """``scene`` with the dice ``indices`` slid 40 mm and turned, and fresh sensor noise."""
    dice = list(scene.dice)
    for i in indices:
        dice[i] = dataclasses.replace(dice[i], x_mm=dice[i].x_mm + 40, angle_deg=dice[i].angle_deg + 25)
    return dataclasses.replace(scene, dice=tuple(dice), seed=seed)


def _counting(analyser: FrameAnalyser) -> dict[str, int]:
    """Count how many regions the analyser measures and how many faces it reads from now on."""
    calls = {"regions": 0, "faces": 0}
    measure, finish = analyser.silhouettes.dice_in_region, analyser._finish

    def counted_measure(*args, **kwargs):
        calls["regions"] += 1
        return measure(*args, **kwargs)

    def counted_finish(frame, dice):
        calls["faces"] += sum(d.face.confidence < 0 for d in dice)      # not read yet
        return finish(frame, dice)

    analyser.silhouettes.dice_in_region = counted_measure
    analyser._finish = counted_finish
    return calls


def test_dice_that_did_not_move_since_the_last_still_frame_are_not_searched_again() -> None:
    """The next still frame of a table nobody touched (new sensor noise only): the dice of the last
    one stand, none measured or read again, and the snapshot reports nothing moved."""
    analyser, cam = analyser_for("puxes", 8.0)
    scene = random_scene(layout("puxes"), 30, seed=23, temples=True, camera=cam)
    watcher = TableWatcher(analyser)
    first = watcher.snapshot(render(scene).image, 0.0)
    calls = _counting(analyser)
    second = watcher.snapshot(render(dataclasses.replace(scene, seed=scene.seed + 1)).image, 1.0)
    assert watcher.last_analysis.unchanged
    assert calls == {"regions": 0, "faces": 0}
    assert second.moved == ()
    assert [(d.die_id, d.x_mm, d.y_mm, d.face, d.level) for d in second.dice] == \
        [(d.die_id, d.x_mm, d.y_mm, d.face, d.level) for d in first.dice]


def test_after_a_turn_only_what_changed_is_searched_and_read_again() -> None:
    """Two of many dice moved: the regions where the view changed are measured again (a few), the
    moved dice read again, and the snapshot is what a fresh look at the same frame gives."""
    analyser, cam = analyser_for("puxes", 8.0)
    lay = layout("puxes")
    scene = random_scene(lay, 24, seed=29, temples=True, camera=cam)
    after = render(_moved(scene, (-1, -2), scene.seed + 1))
    watcher = TableWatcher(analyser)
    watcher.snapshot(render(scene).image, 0.0)
    calls = _counting(analyser)
    snap = watcher.snapshot(after.image, 1.0)
    assert not watcher.last_analysis.unchanged
    assert 2 <= calls["regions"] <= 6 and 2 <= calls["faces"] <= 4
    assert len(snap.moved) == 2
    fresh, _ = analyser_for("puxes", 8.0)
    whole = fresh.analyse(after.image).dice
    assert len(whole) == len(watcher.last_analysis.dice) == 26
    pairs = match(watcher.last_analysis.dice, whole, 3.0)
    assert len(pairs) == len(whole)
    assert all(a.face.pips == b.face.pips and a.level == b.level for a, b, _ in pairs)
    assert rms([d for _, _, d in pairs]) < 0.5
    truth = match(watcher.last_analysis.dice, list(after.truth))
    assert len(truth) == 26 and all(f.face.pips == t.top for f, t, _ in truth)


def test_a_hand_over_dice_that_did_not_move_is_seen_and_the_dice_come_back() -> None:
    """A still frame with a hand over the table after one without: the hand is an occlusion (that
    region changed); once it has gone, the dice are the same dice as before."""
    analyser, cam = analyser_for("puxes", 0.0)
    scene = random_scene(layout("puxes"), 12, seed=31, camera=cam)
    watcher = TableWatcher(analyser)
    first = watcher.snapshot(render(scene).image, 0.0)
    covered = watcher.snapshot(render(dataclasses.replace(scene, hands=(Hand(300, 300),), seed=2)).image, 1.0)
    assert covered.occlusions and not covered.still
    back = watcher.snapshot(render(dataclasses.replace(scene, seed=3)).image, 2.0)
    assert back.still and back.moved == ()
    assert sorted(d.die_id for d in back.dice) == sorted(d.die_id for d in first.dice)
