"""Every call a game declares is said in French and in English, in players' words.

Each registered game is played by random legal moves (seeded) with named players; every event of a
declared kind must give a spoken text in both languages that differ, with no placeholder, seat
number or program word left in it, and a shorter spoken form must find its arguments in the event."""

from __future__ import annotations

import random
import re

import pytest

from controller import i18n
from controller.games import games
from controller.games.spec import VoiceCall
from controller.voice.calls import spoken

NAMES = ("Ada", "Brice", "Chloé", "Dinesh", "Emma", "Farid", "Gaspard", "Hélène")
#: What a voice must never read out: placeholders, seats as numbers, raw slugs.
PROGRAM_WORDS = re.compile(r"[{}]|\b(?:seat|player|joueur|siège) \d\b|\w+_\w+|\b[a-z]+-[a-z]+-[a-z]+\b")

DECLARING = [spec for spec in games() if spec.voice]


def play_out(spec, seed: int, limit: int = 1500):
    """The events of one game of ``spec`` played by random legal moves, players named."""
    engine = spec.load_engine()
    options = spec.options_from({}, None, {})
    game = engine(options, seed=seed)
    game.name_seats(list(NAMES[:game.num_players]))
    rng = random.Random(seed)
    events = []
    for _ in range(limit):
        if game.is_over():
            break
        player = game.current_players()[0]
        events += game.apply_unchecked(player, rng.choice(game.legal_actions(player)))
    return events


def test_the_games_that_declare_calls_include_the_five():
    assert {spec.name for spec in DECLARING} >= {"pixoid", "puxes", "wuxing", "praxis", "memodixe"}


@pytest.mark.parametrize("spec", DECLARING, ids=lambda spec: spec.name)
def test_every_declared_call_is_said_in_both_languages(spec):
    heard: dict[str, int] = {}
    for seed in (1, 2):
        for event in play_out(spec, seed):
            declared = spec.voice.get(event.kind)
            if declared is None or event.message is None or (event.data or {}).get("audience") is not None:
                continue
            heard[event.kind] = heard.get(event.kind, 0) + 1
            if declared.words:
                missing = i18n.placeholders(declared.words) - {"said"} - set(event.message.get("args") or {})
                assert not missing, f"{spec.name} {event.kind}: the spoken form wants {missing}"
            english, french = (spoken(declared, event.message, lang, NAMES) for lang in ("en", "fr"))
            assert english and french and english != french, (event.kind, english, french)
            for text in (english, french):
                assert not PROGRAM_WORDS.search(text), f"{spec.name} {event.kind}: {text!r}"
    assert heard, f"no declared call of {spec.name} happened in two random games"


@pytest.mark.parametrize("spec", DECLARING, ids=lambda spec: spec.name)
def test_a_game_ends_with_its_winner_said(spec):
    assert "game-over" in spec.voice and spec.voice["game-over"].priority >= VoiceCall.IMPORTANT
