"""Praxis on phones: the universe's geometry and the artefacts' names for the pages that draw it."""

from __future__ import annotations

from typing import Any

from controller.engines.praxis.artefacts import ARTEFACTS
from controller.engines.praxis.universe import build_universe, cell_label
from controller.games.choices import ChoicePlay


class PraxisChoices(ChoicePlay):
    """The default choices, with where each cell lies on the lattice and what each artefact is called."""

    def public(self) -> dict[str, Any]:
        universe = build_universe(self.game.options.layout)
        return {
            "lattice": {"height": universe.height, "width": universe.width,
                        "cells": {cell_label(i): list(rc) for i, rc in enumerate(universe.coords)}},
            "artefacts": {a.key: {"fr": a.french, "en": a.english, "code": a.code, "value": a.value}
                          for a in ARTEFACTS if a is not None},
        }
