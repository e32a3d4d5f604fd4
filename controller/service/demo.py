"""The demo every game played on the wheels gets: bots on simulated controllers, through the real loop.

Bots turn simulated controller wheels and press ready, through the same path as people: actions
are checked by the engine, secret ones locked and revealed, everything stored, shown on the
dashboard and printed turn by turn. An interrupted demo resumes where it stopped when run again
with the same options. A game whose demo needs more (a simulated table) declares its own.
"""

from __future__ import annotations

from controller.games import DemoRequest, SpecError
from controller.i18n import N_, _
from controller.service.config import PlayerConfig
from controller.service.runner import RunOptions, run_service

#: The demo's players, by seat.
DEMO_NAMES = ("Ada", "Brice", "Chloé", "Dinesh", "Emma", "Farid")


def wheels_demo(request: DemoRequest) -> int:
    """Play ``request.spec``'s game with a bot in every seat on simulated controllers; the exit code."""
    return _bots_demo(request, "wheels")


def phones_demo(request: DemoRequest) -> int:
    """Play ``request.spec``'s game with a bot in every seat choosing as phones would; the exit code.

    The bots choose from the same lists a player's phone shows, the program rolls and draws; each
    seat's page can be opened by its join code to watch it."""
    return _bots_demo(request, "phones")


def _bots_demo(request: DemoRequest, mode: str) -> int:
    spec = request.spec
    if not spec.plays_on(mode) or spec.bot is None:
        refusal = (N_("{game} has no demo: it is not played on the wheels by bots; `bitbox --help` lists the games "
                      "and how each is played") if mode == "wheels" else
                   N_("{game} has no demo: it is not played on phones by bots; `bitbox --help` lists the games and "
                      "how each is played"))
        raise SpecError(_(refusal).format(game=_(spec.title)))
    options = spec.options_from({}, request.players, request.options)
    players = spec.seat_count(options)
    names = list(request.names) + list(DEMO_NAMES[len(request.names):])
    names += [_("Player {number}").format(number=seat + 1) for seat in range(len(names), players)]
    config = request.config
    config.game = spec.name
    config.options = options
    config.seed = request.seed
    config.bot_salt = request.seed
    config.players = [PlayerConfig(names[seat], bot=True) for seat in range(players)]
    if mode == "wheels":
        rules = spec.load_wheels()(spec.load_engine()(options, seed=request.seed), spec.load_bot())
        config.backend = "sim"
        config.pieces = [rules.piece_name(piece) for piece in range(rules.pieces())]
        config.bot_delay = 0.35 * request.pace
        config.turn_pause = 1.5 * request.pace
    else:
        config.bot_delay = 0.25 * request.pace
    run = RunOptions(
        start="new" if request.new else "resume",
        until_over=request.max_turns is None,
        max_turns=request.max_turns,
        keep_serving=request.keep_serving,
        terminal="log",
        token=request.token,
        port_fallback=request.port_fallback,
    )
    session = run_service(config, run, mode)
    finished = session.game is None or session.game.is_over() or run.max_turns
    return 0 if finished or session.stopping else 1
