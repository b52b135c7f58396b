"""Exact probabilities computed by counting, to check simulated rates against."""

from __future__ import annotations

import math

PACK_CARDS = 32        # a piquet pack: A, 10, K, Q, J, 9, 8, 7 in four suits
PACK_COURTS = 12       # K, Q, J in four suits


def carte_blanche_probability(packs: int = 4, hand: int = 9) -> float:
    """Exact probability that a hand of ``hand`` cards dealt from ``packs`` piquet packs holds
    no king, queen or jack: carte blanche (R6.4; Rubicon deals 9 cards from 4 packs).

    Hypergeometric: C(20 * packs, hand) / C(32 * packs, hand), the 20 being each pack's
    non-court cards (A, 10, 9, 8, 7 in four suits).
    """
    if packs < 1:
        raise ValueError(f"packs must be at least 1, got {packs}")
    total = PACK_CARDS * packs
    if not 0 <= hand <= total:
        raise ValueError(f"hand must be between 0 and {total}, got {hand}")
    plain = (PACK_CARDS - PACK_COURTS) * packs
    return math.comb(plain, hand) / math.comb(total, hand)
