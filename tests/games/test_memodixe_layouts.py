"""What the table camera knows of each DiXe's faces: the dice data, the faces taught with ``bitbox
calibrate faces``, and the pairs seen turned over in play, kept between games."""

from __future__ import annotations

import numpy as np
import pytest

from controller.engines.memodixe import default_book
from controller.games.memodixe.layouts import (
    LEARNT_FILE,
    FaceLayouts,
    slug,
    table_layouts,
)
from controller.paths import state_dir
from controller.vision.faces import FaceLibrary


def test_the_data_gives_each_die_its_hidden_faces():
    layouts = FaceLayouts.from_book(default_book())
    assert layouts.opposite("Oni", "Oni") == "tete-de-mort"
    assert layouts.opposite("Hanuman", "smiley") == "aum"
    assert layouts.opposite("Hanuman", "bombe") is None          # Hanuman carries no bomb
    assert layouts.face_of_kind("Crâne Yorick", "personnage") == "Crâne Yorick"
    assert layouts.face_name("crane-yorick") == "Crâne Yorick" and slug("Crâne Yorick") == "crane-yorick"

def test_a_flip_the_data_contradicts_is_learnt_and_noted():
    layouts = FaceLayouts.from_book(default_book())
    assert layouts.learn_flip("Oni", "pirate", "sablier") is False      # as the data says
    assert layouts.learn_flip("Oni", "pirate", "bombe") is True         # the real die differs
    assert layouts.opposite("Oni", "pirate") == "bombe" and layouts.opposite("Oni", "bombe") == "pirate"
    assert layouts.opposite("Oni", "sablier") is None and layouts.opposite("Oni", "yin-yang") is None
    assert layouts.disagreements == [("Oni", "pirate", "bombe", "sablier")]

def test_pairs_seen_are_kept_for_the_next_game_and_a_damaged_file_says_what_to_do():
    layouts = FaceLayouts.from_book(default_book())
    layouts.learn_flip("Hanuman", "pi", "soleil")
    path = layouts.save()
    assert path == state_dir() / LEARNT_FILE
    again = FaceLayouts.from_book(default_book())
    assert again.load_seen() == 2 and again.opposite("Hanuman", "pi") == "soleil"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="delete it"):
        FaceLayouts.from_book(default_book()).load_seen()

def test_faces_taught_that_the_data_does_not_give_a_die_are_noted():
    library = FaceLibrary()
    crop = np.full((40, 40, 3), 200, np.uint8)
    crop[10:30, 10:30] = 30
    library.add("oni", "smiley", crop)
    library.add("oni", "pirate", crop)
    library.add("someone-else", "pirate", crop)
    library.save()
    layouts, notes = table_layouts(default_book())
    assert notes == ["die Oni: face smiley was taught but the dice data does not give it"]
    assert layouts.carries("Oni", "smiley") and layouts.opposite("Oni", "smiley") is None
