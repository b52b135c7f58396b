"""learned's weights, each declared once: one weight per feature of a card play (features.py
computes them in the same order), stage 1 and stage 2 apart (``s2_`` names: the last tricks
are another game), a few stage-1 facts again once the stock is short (``late_`` names: where
search starts to search) and, in Rubicon then, what re-forming a declared combination is
worth (``late_reform``), then two weights of its declaration (expert's choice with its lock
cost and the worth of the others shown "to score" weighed). A card's score is the weighted
sum of its features. The defaults (``expert``, ``s2_expert`` and the declaration weights 1,
the rest 0) play expert's choices; ``bezsim learn`` fits the feature weights to search's
values of the same decisions, ``bezsim tune`` tunes any of them by play. The sets per preset
are data (bezsim/policy_specs/tuned_defaults.json, under "learned").

learned's row also carries expert's row at EXPERT_COLUMN (the registry fills it with expert's
tuned defaults for the variant): the features are expert's valuations and their parts.
"""

from bezsim.policies.weight import Weight, defaults, index

EXPERT_COLUMN = 32          # expert's weights start here in learned's row
ROW_WIDTH = 64              # learned's row: its own weights, then expert's

_PLAY = (   # (name, default, meaning, bound): the features of a card play in either stage
    ("expert", 1.0, "weight of expert's own value of the card (points)", 100),
    ("keep", 0.0, "weight of what the card is worth kept (expert's keep value)", 100),
    ("won", 0.0, "weight of the trick's points the card is expected to win", 100),
    ("lost", 0.0, "weight of the trick's points given away when the card does not win", 100),
    ("wins", 0.0, "points for a card that wins the trick as it stands", 1000),
    ("sure", 0.0, "points for a card no unseen card beats", 1000),
    ("trump", 0.0, "points for playing a trump", 1000),
    ("brisque", 0.0, "points for playing an ace or ten", 1000),
    ("rank", 0.0, "points per rank step of the card played (ace 7, seven 0)", 1000),
    ("lead_brisque", 0.0, "points for leading an ace or ten", 1000),
)
_STAGE1 = (  # stage 1 only
    ("late_keep", 0.0, "weight of the keep value times the share of the stock drawn", 100),
    ("last_stock_win", 0.0, "points for winning one of the last stock tricks (the winner "
     "draws first from what is left)", 1000),
    ("declare_win", 0.0, "weight of the declaration a won trick allows, when the card wins",
     100),
    ("deny_lose", 0.0, "weight of the opponent's declaration a lost trick allows, when the "
     "card loses", 100),
)
POINT_STEP = 5.0   # bezsim tune's smallest step for a bonus in points (a weight's is 0.1)


def _weight(name: str, default: float, meaning: str, bound: float) -> Weight:
    step = POINT_STEP if bound == 1000 else 0.1     # bound 1000: a bonus in points
    return Weight(name, default, meaning, -bound, bound, tune_step=step)


_DECLARE = (  # learned's declaration: expert's choice, two of its terms weighed
    ("declare_lock", 1.0, "declarations: weight of what a Rubicon four or bezique locks away "
     "from earlier classes (R6.6), in points kept", 100),
    ("declare_later", 1.0, "declarations: weight of what the others shown 'to score' still "
     "bring later", 100),
)
LATE_STOCK = 20    # "late" in stage 1: the stock holds at most this many cards (search's horizon)
_LATE = (  # stage 1 once the stock is short, added to the stage-1 weights above
    ("late_rank", 0.0, "points per rank step of the card played", 1000),
    ("late_brisque", 0.0, "points for playing an ace or ten", 1000),
    ("late_wins", 0.0, "points for a card that wins the trick as it stands", 1000),
    ("late_declare_win", 0.0, "weight of the declaration a won trick allows, when the card "
     "wins", 100),
    ("late_reform", 0.0, "Rubicon: weight of what a declared four or bezique scores again "
     "when this card, one of its cards, goes and a like card held stands in (R6.6)", 100),
)
FEATURES = tuple(
    _weight(name, default, f"stage 1: {meaning}", bound)
    for name, default, meaning, bound in _PLAY + _STAGE1) + tuple(
    _weight(f"s2_{name}", default, f"stage 2: {meaning}", bound)
    for name, default, meaning, bound in _PLAY) + tuple(
    _weight(name, default, f"stage 1, the stock at most {LATE_STOCK} cards: {meaning}", bound)
    for name, default, meaning, bound in _LATE)
DECLARE = tuple(_weight(name, default, meaning, bound)
                for name, default, meaning, bound in _DECLARE)
# one of expert's own weights that learned may set for itself (the registry writes it into the
# expert row learned carries): when to play for the Rubicon settlement (R6.8), which decides
# whether a seat that sees no way over the 1000 line stops declaring
OWN_EXPERT = (Weight("endgame", -1.0, "Rubicon: stock tricks left from which learned plays "
                     "for the settlement as expert does, declaring nothing that only raises "
                     "what a sure rubicon costs (-1: expert's tuned value; 0: never)", -1.0,
                     20.0, tune_step=0.5),)
WEIGHTS = FEATURES + DECLARE + OWN_EXPERT   # bezsim learn fits the features; the rest are
#                                             tuned by play
INDEX = index(WEIGHTS)
N_FEATURES = len(FEATURES)
FEATURE_COLUMN = 0                 # the first feature weight's column
FEATURE_NAMES = tuple(w.name for w in FEATURES)
DECLARE_LOCK = INDEX["declare_lock"]       # the columns learned's declaration reads
DECLARE_LATER = INDEX["declare_later"]
OWN_ENDGAME = INDEX["endgame"]             # written into the expert row by the registry
BASE_WEIGHTS = defaults(WEIGHTS)
if len(WEIGHTS) > EXPERT_COLUMN:
    raise ValueError("learned's weights would overlap expert's row")

