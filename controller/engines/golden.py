"""Golden playthroughs: a game played by a seeded random policy, printed deterministically.

The text holds the save header, then each state (rendered and as sorted JSON), the action taken
and the events it caused. Replaying the file's actions must give the same text, so any change in
the rules' behaviour shows as a diff. ``python tests/engines/golden.py --regenerate`` rewrites the
files after an intended change.
"""

from __future__ import annotations

import json
import random
from typing import Any, Mapping

from controller.engines.core import Game


def playthrough(game: Game[Any], policy_seed: int, max_actions: int = 400) -> str:
    """Play ``game`` with a seeded uniform policy and print every step."""
    rng = random.Random(policy_seed)
    lines = [
        f"game: {game.NAME}",
        f"options: {json.dumps(game.options.to_dict(), sort_keys=True)}",
        f"seed: {game.seed}",
        f"policy_seed: {policy_seed}",
    ]
    for step in range(max_actions + 1):
        lines.append("")
        lines.append(f"# state {step}")
        lines.extend(game.render().rstrip("\n").splitlines())
        lines.append("json: " + json.dumps(game.state_dict(), sort_keys=True, separators=(",", ":")))
        if game.is_over() or step == max_actions:
            break
        player = game.current_players()[0]
        actions = game.legal_actions(player)
        action = actions[rng.randrange(len(actions))]
        events = game.apply(player, action)
        lines.append(f"action: player {player}: {json.dumps(game.encode_action(action), sort_keys=True)}")
        for event in events:
            lines.append(f"event: {event.kind}: {event.text}")
    lines.append("")
    lines.append(f"scores: {list(game.scores())}")
    lines.append(f"over: {game.is_over()}")
    return "\n".join(lines) + "\n"


def scenario_text(game_cls: type[Game[Any]], options: Mapping[str, Any], seed: int, policy_seed: int, max_actions: int = 400) -> str:
    """The golden text of one scenario, from a fresh game."""
    return playthrough(game_cls(game_cls.OPTIONS.from_dict(options), seed=seed), policy_seed, max_actions)
