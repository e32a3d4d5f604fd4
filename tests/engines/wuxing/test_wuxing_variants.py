"""The conformance suite's properties for every Wuxing mode and variant.

tests/engines/test_conformance.py plays each registered game with its default options (here the
chemin); this plays the theatre and the age variants the same way: random playouts keeping the
invariants, save and replay, clones, the fast path, views hiding a pending card, events that carry
their message id and arguments.
"""

from __future__ import annotations

import json
import random

import pytest

from controller.engines import load_game
from controller.engines.wuxing import WuxingGame


VARIANTS = [
    {"mode": "chemin"},
    {"mode": "chemin", "no_discard": True},
    {"mode": "chemin", "no_yin_yang": True},
    {"mode": "chemin", "no_discard": True, "no_yin_yang": True},
    {"mode": "theatre"},
    {"mode": "theatre", "blue_only": True},
]


@pytest.mark.parametrize("options", VARIANTS, ids=[f"{o['mode']}-{i}" for i, o in enumerate(VARIANTS)])
def test_random_playouts_keep_the_invariants_and_replay(options: dict) -> None:
    for seed in range(25):
        game = WuxingGame(options, seed=seed)
        fast = WuxingGame(options, seed=seed)
        rng = random.Random(seed + 100)
        for _ in range(400):
            if game.is_over():
                break
            game.check_invariants()
            player = rng.choice(game.current_players())
            action = rng.choice(game.legal_actions(player))
            events = game.apply(player, action)
            fast.apply_fast(player, action)
            for event in events:
                assert event.message is not None and event.text == event.in_language("en")
            for seat in (0, 1, None):
                json.dumps(game.view(seat))
            assert fast.state_dict() == game.state_dict()
        assert game.is_over(), f"{options} seed {seed} did not end within 400 actions"
        game.check_invariants()
        assert game.winners() and sum(game.scores()) == 1.0
        again = load_game(game.dumps())
        assert again == game and again.render() == game.render()
        twin = game.clone()
        assert twin == game and twin.rules is not game.rules


@pytest.mark.parametrize("options", VARIANTS[:4], ids=[f"chemin-{i}" for i in range(4)])
def test_a_pending_card_is_in_no_other_view(options: dict) -> None:
    for seed in range(20):
        game = WuxingGame(options, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(6)):          # whole duels: nobody has a card pending
            for player in game.current_players():
                game.apply(player, rng.choice(game.legal_actions(player)))
        if game.is_over():
            continue
        player = game.current_players()[0]
        seen = {}
        for action in game.legal_actions(player):
            branch = game.clone()
            branch.apply(player, action)
            assert branch.secret_pending(player)
            for observer in (1 - player, None):
                seen.setdefault(observer, set()).add(json.dumps(branch.view(observer), sort_keys=True))
        assert all(len(views) == 1 for views in seen.values())


def test_the_theatre_has_no_secret() -> None:
    game = WuxingGame({"mode": "theatre"}, seed=1)
    player = game.current_players()[0]
    game.apply(player, game.legal_actions(player)[0])
    assert not game.secret_pending(player)
    assert game.view(0) == game.view(1) == game.view(None)
