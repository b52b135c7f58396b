"""Self-play figures of a policy, with 95% intervals: what its games look like.

    python benchmarks/self_play_figures.py --variant rubicon --policy expert --games 100000
    python benchmarks/self_play_figures.py --variant ordinary --policy expert,heuristic

For each policy (every seat plays it): points per seat and hand, and by source (marriages,
sequences, beziques, fours, brisques and the rest); combinations per seat and hand; the
share of hands in which trumps were fixed (Rubicon, R6.2); sequences per seat and hand; each
combination kind the variant scores (each bezique size, each four, six-pack's fours in
trumps): declared per seat and hand, and the share of hands in which a seat declared one; the
rubicon rate and the drawn share, of all games (R6.8, R7.5). Intervals: over games for the
means (a game's seats and hands are averaged first, so games are the independent units),
Wilson for the shares. Prints one JSON object per policy.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bezsim.analysis.stats import mean_ci, wilson
from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.rules import Rules

SOURCES = {
    "marriages": (C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE),
    "sequences": (C.K_SEQUENCE, C.K_PLAIN_SEQUENCE),
    "beziques": (C.K_BEZIQUE, C.K_DOUBLE_BEZIQUE, C.K_TRIPLE_BEZIQUE, C.K_QUADRUPLE_BEZIQUE),
    "fours": (C.K_FOUR_ACES, C.K_FOUR_KINGS, C.K_FOUR_QUEENS, C.K_FOUR_JACKS),
    "fours_in_trumps": tuple(range(C.K_FOUR_TRUMP_ACES, C.K_FOUR_TRUMP_JACKS + 1)),   # R7.3
    "brisques": (C.K_BRISQUES,),
    "sevens": (C.K_SEVEN_TURNUP, C.K_SEVEN_EXCHANGE, C.K_SEVEN_DECLARE, C.K_SEVEN_PLAYED),
    "last_trick": (C.K_LAST_TRICK,),
    "carte_blanche": (C.K_CARTE_BLANCHE,),
}


def _ci(est) -> list[float]:
    return [round(float(x), 4) for x in (est.value, est.low, est.high)]


def _count(rules: Rules, kinds: np.ndarray, which: tuple[int, ...]) -> np.ndarray:
    """How many combinations of these kinds scored, from their points (each scores its
    fixed points, R1.8)."""
    params = rules.params()
    n = np.zeros(kinds.shape[:-1], np.float64)
    for k in which:
        if params[C.PR_POINTS + k] > 0:
            n += kinds[..., k] / params[C.PR_POINTS + k]
    return n


def figures(rules: Rules, policy: str, games: int, seed: int) -> dict:
    t = time.perf_counter()
    batch = run_games(rules, [policy] * rules.players, seed, 0, games)
    seconds = time.perf_counter() - t
    hs, gi = batch.hand_seat, batch.game_info
    hands = gi[:, C.GI_HANDS]
    played = (np.arange(hs.shape[1])[None, :] < hands[:, None])[:, :, None]
    seat_hands = hands * rules.players

    def per_game(values: np.ndarray) -> np.ndarray:
        """Per game: the sum over its hands and seats, per seat and hand."""
        return np.where(played, values, 0).sum(axis=(1, 2)) / seat_hands

    kinds = hs[..., C.HS_KIND:C.HS_KIND + C.N_KINDS]
    out = {"variant": rules.variant, "policy": policy, "games": games, "seed": seed,
           "hands": int(hands.sum()), "seconds": round(seconds, 1),
           "points_per_seat_hand": _ci(mean_ci(per_game(hs[..., C.HS_POINTS]))),
           "by_source": {name: _ci(mean_ci(per_game(kinds[..., list(ks)].sum(axis=-1))))
                         for name, ks in SOURCES.items()},
           "combinations_per_seat_hand": _ci(mean_ci(per_game(hs[..., C.HS_COMBINATIONS]))),
           "sequences_per_seat_hand": _ci(mean_ci(per_game(_count(rules, kinds, (
               C.K_SEQUENCE, C.K_PLAIN_SEQUENCE)))))}
    params = rules.params()
    per_kind = {}
    hands_with = {}
    for k in C.COMBINATION_KINDS:
        if k >= len(rules.definition.kinds) or params[C.PR_POINTS + k] <= 0:
            continue
        name = C.KIND_NAMES[k]
        per_kind[name] = _ci(mean_ci(per_game(_count(rules, kinds, (k,)))))
        any_seat = np.where(played[:, :, 0], (kinds[..., k] > 0).any(axis=2), False)
        hands_with[name] = _ci(wilson(int(any_seat.sum()), int(hands.sum())))
    out["declared_per_seat_hand"] = per_kind
    out["hands_with_one"] = hands_with
    hi = batch.hand_info
    fixed = int(np.where(played[:, :, 0], hi[..., C.HI_TRUMP] >= 0, False).sum())
    out["trumps_fixed_share"] = _ci(wilson(fixed, int(hands.sum())))
    if rules.definition.one_hand_game:     # of all games, as analyses/rubicon_rate.py
        out["rubicon_rate"] = _ci(wilson(int(gi[:, C.GI_RUBICON].sum()), games))
        out["drawn_share"] = _ci(wilson(int((gi[:, C.GI_WINNER] < 0).sum()), games))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="ordinary")
    parser.add_argument("--policy", default="expert", help="comma list: one line each")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2112)
    args = parser.parse_args()
    rules = Rules.make(args.variant)
    for policy in args.policy.split(","):
        print(json.dumps(figures(rules, policy.strip(), args.games, args.seed)))


if __name__ == "__main__":
    main()
