"""Golden playthrough files: check them, or regenerate them after an intended rules change.

    python tests/engines/golden.py --regenerate

Each game lists its scenarios in ``GOLDEN_SCENARIOS`` (name, options, seed, policy seed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from controller.engines import game_class, game_names  # noqa: E402
from controller.engines.golden import scenario_text  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def scenarios() -> list[tuple[str, str, dict, int, int]]:
    """(file stem, game name, options, seed, policy seed) for every registered game's scenarios."""
    found = []
    for name in game_names():
        for stem, options, seed, policy in getattr(game_class(name), "GOLDEN_SCENARIOS", ()):
            found.append((f"{name}-{stem}", name, dict(options), seed, policy))
    return found


def expected_text(game_name: str, options: dict, seed: int, policy: int) -> str:
    return scenario_text(game_class(game_name), options, seed, policy)


def main() -> int:
    parser = argparse.ArgumentParser(description="Check or regenerate the golden playthrough files.")
    parser.add_argument("--regenerate", action="store_true", help="rewrite the files from the engines")
    args = parser.parse_args()
    GOLDEN_DIR.mkdir(exist_ok=True)
    stale = 0
    for stem, name, options, seed, policy in scenarios():
        path = GOLDEN_DIR / f"{stem}.txt"
        text = expected_text(name, options, seed, policy)
        if args.regenerate:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            stale += 1
            print(f"differs: {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
