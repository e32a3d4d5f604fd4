"""Stillness on rendered sequences: rolling dice, settling, a shaking camera, a hand coming in."""

from __future__ import annotations


import cv2
import pytest
import numpy as np
from table_scenes import layout, profile_for

from controller.vision.render import Die, Hand, Lighting, Scene, render
from controller.vision.stillness import MotionState, StillnessDetector


def scene_with(dice: tuple[Die, ...], seed: int, hands: tuple[Hand, ...] = ()) -> Scene:
    _, cam = profile_for("memodixe")
    return Scene(layout("memodixe"), dice=dice, hands=hands, camera=cam, seed=seed,
                 lighting=Lighting(noise_sigma=2.0))


def rolling_then_settled(n_moving: int, n_still: int) -> list[np.ndarray]:
    frames = []
    for i in range(n_moving):
        # Two dice tumbling across the mat: new place, turn and face every frame.
        dice = (Die(60 + 9 * i, 100 + 4 * i, 1 + i % 6, 17.0 * i), Die(300 - 8 * i, 250, 1 + (i + 3) % 6, 11.0 * i))
        frames.append(render(scene_with(dice, i)).image)
    final = (Die(60 + 9 * n_moving, 100 + 4 * n_moving, 3, 5.0), Die(300 - 8 * n_moving, 250, 6, 30.0))
    # Still frames differ only by sensor noise.
    frames += [render(scene_with(final, 100 + j)).image for j in range(n_still)]
    return frames


def test_moving_then_settling_then_still() -> None:
    det = StillnessDetector(hold_frames=10)
    states = [det.update(f, i / 30) for i, f in enumerate(rolling_then_settled(8, 14))]
    # Frame 8 is the first settled one, still different from the last rolling one.
    assert all(s is MotionState.MOVING for s in states[1:9])
    assert all(s is MotionState.SETTLING for s in states[9:18])
    assert states[18:] == [MotionState.STILL] * 4
    assert det.last_diff < 0.5


def test_still_needs_the_hold_time_too() -> None:
    det = StillnessDetector(hold_frames=3, hold_s=1.0)
    frames = rolling_then_settled(2, 12)
    states = [det.update(f, i * 0.1) for i, f in enumerate(frames)]
    # Quiet from frame 3 (t=0.3): still once 1 s has passed, at t >= 1.3.
    assert MotionState.STILL not in states[:13]
    assert states[13] is MotionState.STILL


def test_camera_shake_is_not_still_and_is_told_apart() -> None:
    base = render(scene_with((Die(120, 120, 5), Die(250, 200, 2)), 1)).image
    det = StillnessDetector(hold_frames=3)
    rng = np.random.default_rng(0)
    states = []
    for i in range(30):
        dx, dy = (rng.normal(0, 3, 2) if 5 <= i < 20 else (0.0, 0.0))
        M = np.float32([[1, 0, dx], [0, 1, dy]])
        frame = cv2.warpAffine(base, M, (base.shape[1], base.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        frame = np.clip(frame + rng.normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
        states.append(det.update(frame, i / 30))
    assert MotionState.STILL in states[:5]
    shaking = states[6:20]
    assert MotionState.STILL not in shaking
    assert shaking.count(MotionState.SHAKE) >= len(shaking) // 2
    assert states[-1] is MotionState.STILL
    assert not det.camera_moved


def test_camera_left_shifted_is_reported() -> None:
    base = render(scene_with((Die(120, 120, 5),), 1)).image
    det = StillnessDetector(hold_frames=3)
    for i in range(5):
        det.update(base, i)
    assert det.state is MotionState.STILL and not det.camera_moved
    moved = cv2.warpAffine(base, np.float32([[1, 0, 12], [0, 1, 5]]), (base.shape[1], base.shape[0]),
                           borderMode=cv2.BORDER_REPLICATE)
    for i in range(5, 10):
        det.update(moved, i)
    assert det.state is MotionState.STILL and det.camera_moved


def test_a_hand_coming_in_is_motion() -> None:
    dice = (Die(120, 120, 5), Die(250, 200, 2))
    det = StillnessDetector(hold_frames=5)
    frames = [render(scene_with(dice, j)).image for j in range(6)]
    for j in range(8):
        # The hand slides in from the bottom edge, a little each frame.
        frames.append(render(scene_with(dice, 50 + j, (Hand(200, 420 - 25 * j, 90, 70),))).image)
    states = [det.update(f, i) for i, f in enumerate(frames)]
    assert states[5] is MotionState.STILL
    assert all(s in (MotionState.MOVING, MotionState.SHAKE) for s in states[7:])
    assert states[7:].count(MotionState.MOVING) >= 6


def test_watcher_emits_one_snapshot_per_settled_table() -> None:
    from table_scenes import analyser_for

    from controller.vision.pipeline import TableWatcher

    analyser, _ = analyser_for("memodixe")
    watcher = TableWatcher(analyser, StillnessDetector(hold_frames=4))
    frames = rolling_then_settled(4, 8) + rolling_then_settled(3, 7)
    snaps = [(i, watcher.feed(f, i / 30)) for i, f in enumerate(frames)]
    emitted = [(i, s) for i, s in snaps if s is not None]
    # One snapshot when the first roll settles, one when the second does; none while rolling.
    assert [i for i, _ in emitted] == [8, 19]
    first, second = (s for _, s in emitted)
    assert len(first.dice) == len(second.dice) == 2 and first.still and second.still
    assert set(second.moved) == {d.die_id for d in second.dice}      # both dice rolled again
    assert not watcher.camera_moved


def test_watch_a_source_uses_previews_then_one_full_frame() -> None:
    from table_scenes import analyser_for

    from controller.vision.pipeline import TableWatcher
    from controller.vision.sources import FrameSource

    analyser, _ = analyser_for("memodixe")
    frames = rolling_then_settled(3, 6)

    class Recorded(FrameSource):
        """Frames played once; counts the full frames asked for."""

        def __init__(self) -> None:
            self.i = 0
            self.full = 0

        def preview(self) -> np.ndarray:
            from controller.vision.sources import EndOfSource
            if self.i >= len(frames):
                raise EndOfSource("done")
            self.i += 1
            return cv2.resize(frames[self.i - 1], (320, 180), interpolation=cv2.INTER_AREA)

        def read(self) -> np.ndarray:
            self.full += 1
            return frames[self.i - 1]

    src = Recorded()
    ticks = iter(range(100))
    snaps = list(TableWatcher(analyser, StillnessDetector(hold_frames=3)).watch(src, lambda: next(ticks) / 30))
    assert len(snaps) == 1 and src.full == 1 and len(snaps[0].dice) == 2


def test_a_knocked_camera_is_told_to_the_players_once() -> None:
    """The mat's markers seen 4 px off where calibration saw them: every position is off. The watcher
    says so among its notices, for the table to show, and then not again until it checks anew."""
    from controller.vision.pipeline import FrameAnalyser, TableWatcher

    prof, _ = profile_for("memodixe")
    frames = [render(scene_with((Die(120, 120, 3, 5.0),), 100 + j)).image for j in range(4)]
    knocked = [np.roll(f, 4, axis=1) for f in frames]
    watcher = TableWatcher(FrameAnalyser(layout("memodixe"), prof), StillnessDetector(hold_frames=2))
    for i, frame in enumerate(frames):
        watcher.feed(frame, i / 30)
    assert not watcher.camera_moved and watcher.take_notices() == []
    watcher.recheck_every_s = 0.0
    snaps = [watcher.feed(frame, 1 + i / 30) for i, frame in enumerate(knocked)]
    assert any(s is not None for s in snaps) and watcher.camera_moved
    notices = watcher.take_notices()
    assert len(notices) == 1 and "markers moved by 4.0 px" in notices[0] and "calibrate the mat again" in notices[0]
    assert watcher.take_notices() == []


def sliding_die(speed_mm: float, frames: int, still_after: int, seed: int) -> list[np.ndarray]:
    """Three dice at rest while a fourth slides on slowly, ``speed_mm`` a frame, then stops too."""
    resting = (Die(120, 120, 5), Die(250, 200, 2), Die(330, 90, 6))
    out = []
    for i in range(frames + still_after):
        x = 180 + speed_mm * min(i, frames)
        out.append(render(scene_with((*resting, Die(x, 260, 4, 20.0)), seed + i)).image)
    return out


def test_one_die_sliding_slowly_keeps_the_table_moving() -> None:
    """A die sliding half a millimetre a frame changes the mean of the view by less than the noise
    does; the region it crosses changes all the same, and the table is still only once it stops."""
    frames = sliding_die(0.5, 14, 8, 300)
    det = StillnessDetector(hold_frames=3)
    states = [det.update(f, i / 30) for i, f in enumerate(frames)]
    assert MotionState.STILL not in states[:14]
    assert MotionState.STILL in states[14:]


def test_a_die_creeping_below_the_noise_adds_up_against_the_first_quiet_frame() -> None:
    """At a fifth of a millimetre a frame no two frames differ by more than the noise near the die;
    against the first quiet frame the creep adds up, so it is caught before the hold ends."""
    frames = sliding_die(0.2, 16, 0, 400)
    det = StillnessDetector(hold_frames=6)
    states = [det.update(f, i / 30) for i, f in enumerate(frames)]
    assert MotionState.STILL not in states


def test_a_die_creeping_on_a_quiet_camera_is_never_still_once_it_has_crept_a_millimetre() -> None:
    """A quarter of a millimetre a frame on the PuXes mat, as the previews show it (320 x 180, a die
    some 8 pixels across): below any fixed floor from frame to frame, above the camera's noise against
    the frame the quiet began from. Only the first frames, before it has crept a millimetre, may pass."""
    from controller.vision.mat import load_layout
    from controller.vision.render import fitting_camera

    mat = load_layout("puxes")
    camera = fitting_camera(mat)
    frames = []
    for i in range(36):
        dice = (Die(200, 300, "soleil", 10.0), Die(600, 200, "bombe", 40.0),
                Die(300 + 0.25 * max(0, i - 4), 400, "pirate", 25.0))
        image = render(Scene(mat, dice=dice, camera=camera, lighting=Lighting(noise_sigma=1.5), seed=700 + i)).image
        frames.append(cv2.resize(image, (320, 180), interpolation=cv2.INTER_AREA))
    det = StillnessDetector()
    states = [det.update(f, i / 30) for i, f in enumerate(frames)]
    assert states[4] is MotionState.STILL                 # still before the creep begins
    assert MotionState.STILL not in states[4 + 4:]


def shaken(frame: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return cv2.warpAffine(frame, np.float32([[1, 0, dx], [0, 1, dy]]), (frame.shape[1], frame.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


def test_a_slight_lasting_shake_does_not_keep_the_table_from_being_still() -> None:
    """A camera trembling by about half a pixel every frame: the table is still all the same."""
    rng = np.random.default_rng(5)
    dice = (Die(120, 120, 5), Die(250, 200, 2))
    det = StillnessDetector(hold_frames=4)
    states = []
    for i in range(16):
        dx, dy = rng.normal(0, 0.5, 2)
        states.append(det.update(shaken(render(scene_with(dice, 500 + i)).image, dx, dy), i / 30))
    assert MotionState.STILL in states[4:8] and states[-1] is MotionState.STILL
    assert MotionState.MOVING not in states


def test_a_die_rolling_while_the_camera_shakes_is_motion_not_shake() -> None:
    """The shift that explains the shaken view leaves the rolling die's change in its place."""
    rng = np.random.default_rng(6)
    det = StillnessDetector(hold_frames=3)
    states = []
    for i in range(12):
        dice = (Die(120, 120, 5), Die(250, 200, 2), Die(150 + 18 * i, 300 - 6 * i, 1 + i % 6, 23.0 * i))
        dx, dy = rng.normal(0, 3, 2)
        states.append(det.update(shaken(render(scene_with(dice, 600 + i)).image, dx, dy), i / 30))
    assert states[1:].count(MotionState.MOVING) == len(states) - 1, states


def test_flickering_light_is_not_motion() -> None:
    """Mains light through a rolling shutter: bands of rows lit up to 5 % more or less, a different
    phase each frame (on a white die, some 11 grey levels either way)."""
    base = render(scene_with((Die(120, 120, 5), Die(250, 200, 2)), 700)).image.astype(np.float32)
    rows = np.arange(base.shape[0], dtype=np.float32)[:, None, None]
    det = StillnessDetector(hold_frames=3)
    states = []
    for i in range(10):
        light = 1 + 0.05 * np.sin(2 * np.pi * rows / 240 + 1.3 * i)
        states.append(det.update(np.clip(base * light, 0, 255).astype(np.uint8), i / 30))
    assert MotionState.MOVING not in states and states[-1] is MotionState.STILL


@pytest.mark.parametrize("size", [(1280, 60), (2000, 8), (12, 12), (3, 2)])
def test_frames_of_any_shape_are_judged(size) -> None:
    """A strip, a thumbnail, a few pixels: judged like any frame, never an error."""
    rng = np.random.default_rng(8)
    det = StillnessDetector(hold_frames=2)
    frame = rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
    states = [det.update(frame, i / 30) for i in range(4)]
    assert states[-1] is MotionState.STILL
    assert det.update(255 - frame, 5 / 30) is MotionState.MOVING             # everything changed


def test_the_hold_time_counts_from_a_quiet_start_at_time_zero() -> None:
    frames = rolling_then_settled(0, 8)
    det = StillnessDetector(hold_frames=2, hold_s=0.2)
    states = [det.update(f, i * 0.1) for i, f in enumerate(frames)]
    # Quiet from the second frame (t = 0.1): still once 0.2 s have passed.
    assert states[:3] == [MotionState.SETTLING] * 3 and states[3] is MotionState.STILL


def test_an_arm_across_most_of_the_view_is_motion() -> None:
    dice = (Die(120, 120, 5), Die(250, 200, 2))
    det = StillnessDetector(hold_frames=2)
    base = render(scene_with(dice, 800)).image
    for i in range(3):
        det.update(base, i / 30)
    assert det.state is MotionState.STILL
    covered = base.copy()
    covered[:, : base.shape[1] * 3 // 4] = (60, 90, 150)          # an arm and a sleeve over three quarters
    assert det.update(covered, 4 / 30) is MotionState.MOVING
