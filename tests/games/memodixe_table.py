"""A real-looking MémoDiXe table for the tests: the printed mat under a rendered camera, real DiXes
lying on it as the game has them, the camera calibrated and taught the faces as ``bitbox calibrate``
does, and the square read by the real pipeline."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from controller.engines.core import CHANCE
from controller.engines.memodixe import MemodixeGame, default_book
from controller.games.memodixe import render as R
from controller.games.memodixe.camera import SquareReader, SquareReading, SquareWatcher
from controller.games.memodixe.layouts import FaceLayouts
from controller.vision.mat import load_layout
from controller.vision.profile import calibrate_mat
from controller.vision.render import Hand, Lighting, fitting_camera, render_empty
from controller.vision.stillness import StillnessDetector

FPS = 15.0


class SquareTable:
    """Dice on the MémoDiXe mat (place -> :class:`~controller.games.memodixe.render.Placed`), the reserve
    beside it, and the camera reading them. ``seed`` draws where each die lies on its place and how it
    is turned."""

    def __init__(self, seed: int = 0, jpeg: int | None = 90) -> None:
        self.book = default_book()
        self.layout = load_layout("memodixe")
        self.rng = np.random.default_rng(seed)
        camera = fitting_camera(self.layout, (1280, 720), 66.0, 8.0, 30.0, fill=0.9)
        self.conditions = R.Conditions(camera, Lighting(brightness=0.95, gradient=0.15, noise_sigma=1.8), jpeg)
        calibration = dataclasses.replace(self.conditions, lighting=Lighting(), jpeg=None)
        self.profile = calibrate_mat(render_empty(R.scene(self.layout, self.book, [], calibration, 0)), self.layout)
        self.library = R.teach_faces(self.layout, self.profile, self.book, calibration)
        self.layouts = FaceLayouts.from_book(self.book)
        self.reader = SquareReader(self.layout, self.profile, self.library, self.layouts)
        self.watcher = SquareWatcher(self.reader, StillnessDetector(hold_frames=4))
        self.reset(seed)

    def reset(self, seed: int) -> None:
        """An empty mat and a camera that has learnt nothing yet from play (each test starts so)."""
        self.rng = np.random.default_rng(seed)
        self.layouts = FaceLayouts.from_book(self.book)
        self.reader.layouts = self.layouts
        self.watcher = SquareWatcher(self.reader, StillnessDetector(hold_frames=4))
        self.square: dict[int, R.Placed] = {}
        self.reserve: list[R.Placed] = []
        self.clock = 0.0
        self.frames_seed = seed * 1000

    # ---- the dice ------------------------------------------------------------------------------

    def lay(self, place: int, die: str, top: str, angle: float | None = None) -> None:
        """Lay ``die`` on ``place`` with ``top`` up, a little off the place's centre."""
        x, y = R.place_centre(self.layout, place)
        dx, dy = self.rng.uniform(-10, 10, 2)
        turn = float(self.rng.uniform(0, 90)) if angle is None else angle
        self.square[place] = R.Placed(die, top, x + float(dx), y + float(dy), turn)

    def turn_over(self, place: int) -> None:
        """Turn the die at ``place`` over where it lies (a quarter turn more, as hands do)."""
        p = self.square[place]
        self.square[place] = dataclasses.replace(p, top=self.book.opposite(p.die, p.top),
                                                 angle_deg=(p.angle_deg + 27.0) % 90)

    def nudge(self, place: int) -> None:
        """Touch the die at ``place``: it slides and turns, the same face up."""
        p = self.square[place]
        self.square[place] = dataclasses.replace(p, x_mm=p.x_mm + 8.0, angle_deg=(p.angle_deg + 20.0) % 90)

    def fill_reserve(self, dice: list[tuple[str, str]]) -> None:
        for i, (die, top) in enumerate(dice):
            x, y = R.reserve_spot(self.layout, i)
            self.reserve.append(R.Placed(die, top, x, y, float(self.rng.uniform(0, 90))))

    def lay_game(self, game: MemodixeGame) -> None:
        """Every die where the game has it, as it shows (turned up where the game has it up)."""
        self.square.clear()
        for place in range(9):
            if game.die[place] >= 0 and game.top[place] is not None:
                die = game.die_names[game.die[place]]
                self.lay(place, die, game.bottom[place] if place in game.up else game.top[place])

    def play_rolls(self, game: MemodixeGame) -> None:
        """Lay every die the game waits to see rolled, on the face its seeded roll gives."""
        for step in game.queue:
            if step[0] != "roll":
                break
            self.lay(step[2], game.die_names[step[3]], step[5])

    # ---- the camera ----------------------------------------------------------------------------

    def frame(self, hands: tuple[Hand, ...] = (), extra: tuple[R.Placed, ...] = ()) -> np.ndarray:
        self.frames_seed += 1
        dice = [*self.square.values(), *self.reserve, *extra]
        return R.frame(R.scene(self.layout, self.book, dice, self.conditions, self.frames_seed, hands),
                       self.conditions.jpeg)

    def read(self, hands: tuple[Hand, ...] = (), extra: tuple[R.Placed, ...] = ()) -> SquareReading:
        """The square read from one frame of the table now."""
        return self.reader.read(self.frame(hands, extra))

    def settle(self, feed: Any, hand_at: tuple[float, float] = (180.0, 180.0)) -> Any:
        """Frames of a hand over the table, then the still table, fed to ``feed(frame, t)`` until it
        returns something (the still reading), which is returned."""
        moving = self.frame((Hand(hand_at[0], hand_at[1], arm_angle_deg=90.0),))
        still = self.frame()
        out = None
        for k in range(30):
            self.clock += 1.0 / FPS
            image = moving if k < 2 else still
            if k >= 2:
                noise = self.rng.integers(-2, 3, still.shape, dtype=np.int16)
                image = np.clip(still.astype(np.int16) + noise, 0, 255).astype(np.uint8)
            out = feed(image, self.clock)
            if out is not None and k >= 2:
                return out
        raise AssertionError("the table never came to rest for the watcher")


def seeded(game: MemodixeGame) -> None:
    """Apply the seeded rolls the game waits for (no camera)."""
    while game.queue and game.queue[0][0] == "roll":
        game.apply(CHANCE, game.seeded_roll())
