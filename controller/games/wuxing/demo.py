"""``bitbox demo wuxing``: bots play le chemin du duel, then le théâtre du duel, on simulated
controllers through the real console loop (the standard wheels demo, once per mode).

``--mode chemin`` or ``--mode theatre`` plays one mode only. A stop after ``--turns`` or a demo
that keeps serving its dashboard plays one game (the named mode, else the chemin), since both
ask for one game to stay on screen. Options of one mode (``--no-discard``, ``--blue-only``) go to
that mode's game only. Interrupted (Ctrl-C), the demo stops there; run again without ``--new``, it
resumes the unfinished game.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.games.spec import DemoRequest

#: The options that belong to one mode only.
MODE_OPTIONS = {"chemin": ("no_discard", "no_yin_yang", "path"), "theatre": ("blue_only", "layout")}


def _options_for(mode: str, options: dict[str, Any]) -> dict[str, Any]:
    other = MODE_OPTIONS["theatre" if mode == "chemin" else "chemin"]
    return {**{k: v for k, v in options.items() if k not in other}, "mode": mode}


def _last_game(config: Any) -> Any:
    from controller.service.store import GameStore

    with GameStore(config.db_path()) as store:
        stored = store.games()
        return stored[-1] if stored else None


def _unfinished_mode(config: Any, seed: int) -> str | None:
    """The mode of a wuxing demo game left unfinished with this seed, if any (resumed first)."""
    from controller.service.store import GameStore

    with GameStore(config.db_path()) as store:
        stored = store.unfinished()
    if stored is None or stored.game != "wuxing" or stored.seed != seed:
        return None
    return str(stored.options.get("mode", "chemin"))


def _chemin_done(config: Any, seed: int) -> bool:
    """Whether a run of this demo stopped after its chemin: the théâtre is unfinished in the log, or
    the last game stored is this seed's chemin played to its end (stopped before the théâtre began)."""
    if _unfinished_mode(config, seed) == "theatre":
        return True
    last = _last_game(config)
    return (last is not None and last.game == "wuxing" and last.seed == seed and last.status == "over"
            and str(last.options.get("mode", "chemin")) == "chemin")


def run_demo(request: DemoRequest) -> int:
    """Play the chosen mode, or both in turn; the exit code of the last game played."""
    from controller.service.demo import wheels_demo

    named = request.options.get("mode")
    one_game = request.max_turns is not None or request.keep_serving
    if named:
        modes = [named]
    elif one_game:
        modes = ["chemin"]
    else:
        modes = ["chemin", "theatre"]
        if not request.new and _chemin_done(request.config, request.seed):
            modes = ["theatre"]
    code = 0
    for index, mode in enumerate(modes):
        last = index == len(modes) - 1
        print(f"Wuxing duel: {'le chemin du duel' if mode == 'chemin' else 'le théâtre du duel'}", flush=True)
        step = dataclasses.replace(request, options=_options_for(mode, request.options),
                                   keep_serving=request.keep_serving and last)
        code = wheels_demo(step)
        if not last:
            stored = _last_game(request.config)
            if code != 0 or stored is None or stored.status != "over":
                return code   # stopped (Ctrl-C) or failed: do not start the next game
    return code
