"""expert's weights, each declared once: the parameter row's layout, the untuned defaults,
the ranges a spec may set and the tuner searches, and what each means.

The kernels read ``w[E_...]``: module-level ints built from the declaration, which numba
freezes as constants when it compiles. The tuned values per preset are data
(bezsim/policy_specs/tuned_defaults.json, by name); a weight a preset's tuned set leaves out
plays its default here.
"""

from bezsim.policies.search_params import N_ROLLOUT_WEIGHTS
from bezsim.policies.weight import Weight, defaults, index

RUBICON = "settlement"      # games settled by the rubicon rules (R6.8)
BRISQUES_DECIDE = "brisques_decide"   # ... where brisques decide close games (not six-pack)

WEIGHTS = (
    Weight("combo", 1.0, "scale on the chance-weighted combination points a kept card holds",
           0, 10),
    Weight("cash", 0.85, "chance a complete combination in hand is still scored", 0, 1),
    Weight("brisque", 0.5, "worth of holding an ace or ten, as a share of its brisque points",
           0, 10),
    Weight("trump", 6.0, "stage 1: points a trump is worth kept", 0, 100),
    Weight("ace", 4.0, "stage 1: points a plain ace is worth kept", 0, 100),
    Weight("declare_win", 0.6, "share of the best ready declaration that winning a trick is "
           "worth", 0, 10),
    Weight("deny", 0.5, "share of an opponent's best 'to score' that beating him is worth",
           0, 10),
    Weight("defer", 6.0, "stock tricks left at which a combination kept 'to score' is surely "
           "scored", 0.5, 60),
    Weight("overtake", 0.55, "chance a beatable winning card holds, per seat still to play",
           0, 1),
    Weight("lead_risk", 0.7, "share of a led brisque's points expected lost", 0, 2),
    Weight("opp_declare", 12.0, "points an opponent is expected to declare on a win, unshown",
           0, 500),
    Weight("rubicon_brisque", 2.0, "Rubicon: points a brisque is worth to the settlement",
           0, 100, BRISQUES_DECIDE),
    Weight("trump_suit", 1.0, "Rubicon: weight of the sequence chance when a marriage fixes "
           "trumps", 0, 10, RUBICON),
    Weight("rank", 0.5, "tie-break: points per rank step", 0, 10),
    Weight("open_potential", 0.3, "Polish: share of a partial combination's points an open "
           "card brings", 0, 10, "open_cards"),
    Weight("share", 0.0, "weight of a card's equal share of each combination it may complete "
           "(beside its marginal worth)", 0, 10),
    Weight("later", 0.9, "chance a combination left 'to score' still scores while the stock "
           "is long (see defer)", 0, 1),
    Weight("settle", 0.0, "Rubicon: extra points a brisque is worth while brisques decide the "
           "settlement (a loser near the 1000 line, level rounded totals; R6.8)", 0, 500,
           BRISQUES_DECIDE),
    Weight("endgame", 0.0, "Rubicon: stock tricks left from which expert plays for the "
           "settlement: brisques by 'settle', no declaration that only raises what a sure "
           "rubicon costs (0: never)", 0, 60, RUBICON),
    Weight("partner", 0.0, "partners: share of the partner's best 'to score' that a team win "
           "is worth; above 0 his bezique cards on the table also count toward our double "
           "(R4.2)", 0, 1, "partners"),
)
INDEX = index(WEIGHTS)
N_EXPERT = len(WEIGHTS)
BASE_WEIGHTS = defaults(WEIGHTS)
if N_EXPERT > N_ROLLOUT_WEIGHTS:     # search carries expert's row for its play-outs
    raise ValueError("expert's row no longer fits search's rollout columns")

# the columns the kernels read
E_COMBO = INDEX["combo"]
E_CASH = INDEX["cash"]
E_BRISQUE = INDEX["brisque"]
E_TRUMP = INDEX["trump"]
E_ACE = INDEX["ace"]
E_DECLARE_WIN = INDEX["declare_win"]
E_DENY = INDEX["deny"]
E_DEFER = INDEX["defer"]
E_OVERTAKE = INDEX["overtake"]
E_LEAD_RISK = INDEX["lead_risk"]
E_OPP_DECL = INDEX["opp_declare"]
E_RUB_BRISQUE = INDEX["rubicon_brisque"]
E_TRUMP_SUIT = INDEX["trump_suit"]
E_RANK = INDEX["rank"]
E_OPEN_POT = INDEX["open_potential"]
E_SHARE = INDEX["share"]
E_LATER = INDEX["later"]
E_SETTLE = INDEX["settle"]
E_ENDGAME = INDEX["endgame"]
E_PARTNER = INDEX["partner"]
