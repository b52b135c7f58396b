"""The rules referee: an independent, plain-Python reading of docs/rules.md that replays
engine games and checks every decision and score.

The engine is optimised code written once; a mistake in it would go unseen if it were only
compared with itself. The referee re-derives every rule from the rules book, not from bezsim's
rule code: it takes from the engine only the trace record layout (TR_*), the kind numbers
(``bezsim.engine.constants``, the format being read) and the games themselves (``trace_one``,
``run_games``), never a verdict on legality or points. Each game is played with its trace and
the trace is walked by ``Game``, which raises ``Violation`` at the first rule broken:

* ``two_handed``: ordinary bézique (R1, R2), ``Hand``; greedy seats also prove that the engine
  offered every legal declaration (the best legal one, by points, was taken);
* ``polish``: Polish (open) bézique (R5), ``PolishHand``;
* ``rubicon``: Rubicon bézique (R6), ``RubiconHand`` and the settlement (R6.8) recomputed;
* ``six_pack``: six-pack bézique (R7), ``SixPackHand`` (Rubicon's reading with six packs,
  the fours in trumps and the bezique by trumps) and its settlement (R7.5);
* ``multi``: three- and four-handed bézique (R3, R4.1, R4.2), ``MultiHand`` (``Hand``
  with what R3 and R4 change);
* ``game``: the trace cursor, the end of the game, no score ever negative, and the outcome
  rows compared with the referee's own totals (R8);
* ``check``: running engine games against the referee, replay = batch included;
* ``notation``, ``violation``: the card notation and how a broken rule is reported;
* ``option_sets``: the non-default option sets (R9) the referee is run on.

The conformance tests (tests/test_conformance.py) run it on samples of every preset;
benchmarks/soak.py and benchmarks/check_options.py over millions of hands.
"""

from __future__ import annotations

from bezsim.referee.check import (
    Sample,
    batch_difference,
    check_game,
    check_option_set,
    check_until,
    checked,
    same_as_batch,
)
from bezsim.referee.game_trace import Game
from bezsim.referee.multi import MultiHand, check_multi_end
from bezsim.referee.option_sets import (
    OPTION_SETS,
    POLISH_OPTION_SETS,
    RUBICON_OPTION_SETS,
    SIX_PACK_OPTION_SETS,
)
from bezsim.referee.polish import PolishHand
from bezsim.referee.rubicon import RubiconHand, rubicon_settlement
from bezsim.referee.six_pack import SixPackHand, six_pack_settlement
from bezsim.referee.two_handed import Hand, legal_follows, trick_winner
from bezsim.referee.violation import Violation

__all__ = [
    "OPTION_SETS",
    "POLISH_OPTION_SETS",
    "RUBICON_OPTION_SETS",
    "SIX_PACK_OPTION_SETS",
    "Game",
    "Hand",
    "MultiHand",
    "PolishHand",
    "RubiconHand",
    "SixPackHand",
    "Sample",
    "Violation",
    "batch_difference",
    "check_game",
    "check_multi_end",
    "check_option_set",
    "check_until",
    "checked",
    "legal_follows",
    "rubicon_settlement",
    "same_as_batch",
    "six_pack_settlement",
    "trick_winner",
]
