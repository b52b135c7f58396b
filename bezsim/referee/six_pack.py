"""The referee's reading of six-pack bézique (docs/rules.md R7): Rubicon's play (R6) with six
packs, twelve cards dealt by threes, fours of a rank in trumps, the bezique chosen by the trump
suit (none while trumps are undecided), carte blanche and the last trick 250, brisques that
count for nothing, and the settlement with the line at 3000 and a game bonus of 1000."""

from __future__ import annotations

from bezsim.engine import constants as C
from bezsim.referee.notation import JACK, QUEEN
from bezsim.referee.rubicon import R_POINTS, RubiconHand, rubicon_settlement

# R7.3: the table the options start from
SIX_PACK_POINTS = R_POINTS | {C.K_CARTE_BLANCHE: 250, C.K_LAST_TRICK: 250,
                              C.K_FOUR_TRUMP_ACES: 1000, C.K_FOUR_TRUMP_TENS: 900,
                              C.K_FOUR_TRUMP_KINGS: 800, C.K_FOUR_TRUMP_QUEENS: 600,
                              C.K_FOUR_TRUMP_JACKS: 400}
# R7.3: the bezique's jack is of the suit of the other colour paired with trumps
OTHER_COLOUR = {0: 2, 2: 0, 1: 3, 3: 1}      # ♠ ♦, ♥ ♣


class SixPackHand(RubiconHand):
    """One hand (= one game) of six-pack bézique (R7)."""

    PACKS = 6
    HAND_SIZE = 12

    def points_table(self) -> dict[int, int]:
        o = self.o
        jacks = 0 if o["four_trump_jacks"] == "none" else int(o["four_trump_jacks"])
        return SIX_PACK_POINTS | {C.K_FOUR_TRUMP_QUEENS: int(o["four_trump_queens"]),
                                  C.K_FOUR_TRUMP_JACKS: jacks,
                                  C.K_LAST_TRICK: int(o["last_trick_points"])}

    def bezique_faces(self) -> tuple[int, int]:
        """The queen of trumps and the jack of the other colour's paired suit; no bezique
        while trumps are undecided (-1, -1)."""
        if self.trump < 0:
            return -1, -1
        return self.trump * 8 + QUEEN, OTHER_COLOUR[self.trump] * 8 + JACK


def six_pack_settlement(points: list[int], options: dict) -> tuple[int, list[int], int, int]:
    """R7.5: Rubicon's settlement with brisques that count for nothing (so the unrounded
    points decide tied rounded totals), the line at 3000, a plain win's bonus of 1000 and the
    rubicon's game bonus of option ``rubicon_game_bonus``."""
    return rubicon_settlement(points, [0, 0], 0, "points", line=3000, game_bonus=1000,
                              rubicon_bonus=int(options["rubicon_game_bonus"]))
