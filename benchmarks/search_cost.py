"""What the ``search`` policy costs: card decisions per second on one core.

    python benchmarks/search_cost.py [--games 40] [--specs "search,search(samples=24)"]
        [--variant ordinary]

Plays ``--games`` games of the spec against ``heuristic`` on one thread and divides the
search seat's card plays (every trick it plays a card) by the wall time, opponent included.
The seat's declaring decisions are searched too (``every=1``, the default): their cost is in
the time but they are not counted, so the figure compares with the card decisions per second
of a cards-only search (``search(SEARCH_CARDS_HEURISTIC)``, registry). With ``horizon`` below
the stock many card plays are the base policy's and cost little, so ``ms_per_hand`` is
the figure to compare across settings. Also times the same games with heuristic in the
search seat, so the search's own cost can be read off. One JSON line per spec; ``old`` in
``--specs`` stands for the cards-only search with heuristic play-outs (``--specs old,search``
compares it with today's default).
"""

from __future__ import annotations

import argparse
import json
import time

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.policy_specs.registry import SEARCH_CARDS_HEURISTIC, split_specs
from bezsim.rules import Rules


def card_plays(batch, rules: Rules) -> int:
    """Cards the seat played: one per trick, every hand (two-handed: the pack's cards over
    two, 32 in the ordinary game, 64 in Rubicon)."""
    hands = int(batch.game_info[:, C.GI_HANDS].sum())
    return hands * rules.packs * 32 // 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--specs", default="search")
    ap.add_argument("--variant", default="ordinary")
    args = ap.parse_args()
    rules = Rules.make(args.variant)
    if rules.players != 2:
        raise SystemExit("search_cost measures the two-handed presets")
    run_games(rules, ["search(samples=1)", "heuristic"], 1, 0, 1, threads=1)   # compile
    t = time.perf_counter()
    run_games(rules, ["heuristic", "heuristic"], 1, 0, args.games, threads=1)
    base_s = time.perf_counter() - t
    for spec in split_specs(args.specs):
        spec = f"search({SEARCH_CARDS_HEURISTIC})" if spec == "old" else spec
        t = time.perf_counter()
        batch = run_games(rules, [spec, "heuristic"], 1, 0, args.games, threads=1)
        seconds = time.perf_counter() - t
        plays = card_plays(batch, rules)
        hands = int(batch.game_info[:, C.GI_HANDS].sum())
        print(json.dumps({
            "spec": spec, "variant": args.variant, "games": args.games,
            "hands": hands, "seconds": round(seconds, 2),
            "card_decisions": plays, "decisions_per_s": round(plays / seconds),
            "ms_per_decision": round(1000 * seconds / plays, 3),
            "ms_per_hand": round(1000 * seconds / max(1, hands), 1),
            "heuristic_only_seconds": round(base_s, 3)}), flush=True)


if __name__ == "__main__":
    main()
