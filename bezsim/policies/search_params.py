"""search's parameters, each declared once (the registry builds its parameters from them, the
kernel its P_* columns). Plain Python, apart from policies/search.py, so the registry can list
search without importing its kernels.
"""

from bezsim.policies.weight import Weight, defaults, index

WEIGHTS = (
    Weight("samples", 32.0, "most sampled deals per decision (the budget)", 1, 1_000_000,
           whole=True),
    Weight("rollout", 4.0, "policy of the play-outs and base policy, at its defaults for the "
           "variant", 1, 4, whole=True, names=("greedy", "heuristic", "expert", "learned")),
    Weight("exact_stage2", 1.0, "1: solve two-handed stage 2 exactly (perfect information); "
           "0: sample it like stage 1", 0, 1, whole=True),
    # prior * samples is summed as an int64 in the kernel
    Weight("prior", 0.0, "points per deal by which another action must beat the base "
           "policy's", -1e9, 1e9),
    Weight("z", 3.0, "standard errors of the paired gain (over the same deals) by which "
           "another action must clear the prior; 0: compare totals", 0, 100),
    Weight("horizon", 20.0, "stage 1 is searched only while the stock holds at most this many "
           "cards (the base policy decides earlier)", 0, 1000, whole=True),
    Weight("every", 1.0, "1: search every decision; 0: card plays only (outside the R4.2 pairs "
           "ending), the rest the base policy's", 0, 1, whole=True),
    Weight("first", 4.0, "deals before actions start leaving the race (0: every action gets "
           "every deal)", 0, 1_000_000, whole=True),
    Weight("drop", 0.0, "an action leaves the race once its mean gain plus this many standard "
           "errors is below the prior", -100, 100),
    Weight("settlement", 0.0, "Rubicon: 1 values a play-out by the settlement (R6.8), 0 by the "
           "hand margin (the hand margin measured stronger)", 0, 1, whole=True),
    Weight("method", 0.0, "0: every action played out by the rollout policy in each sampled "
           "deal (policy rollouts); 1: information-set MCTS over samples x actions iterations "
           "(expert play-outs, compared in analyses/search_budget.py)", 0, 1, whole=True),
    Weight("explore", 60.0, "method=1: UCB exploration constant, in points", 0, 1e6),
)
INDEX = index(WEIGHTS)
SEARCH_DEFAULTS = dict(zip(INDEX, defaults(WEIGHTS), strict=True))
P_ROLLOUT_WEIGHTS = 16     # + i: the row of the play-outs' policy for rollout=3 or 4 (the
#                            registry fills it with that policy's defaults for the variant)
N_ROLLOUT_WEIGHTS = 64
# A row longer than EVAL_AT asks search for something else than a decision, by its mode at
# LONG_MODE: EVALUATE, every listed action's play-out values (bezsim explain --evaluate:
# deals, the number of actions, the base action's index, where search's verdict goes, and
# the actions; then one row of values per deal from EVAL_VALUES on); RECORD, learned's
# decision with a record of it for bezsim learn (policies/learned/record.py lays out the
# rest of the row); LUCK, what cards of the seat's hand are worth to it (search.luck_into:
# deals, the number of cards and the cards at EVAL_N and EVAL_ACTS, then two values per
# deal from EVAL_VALUES on)
EVAL_AT = P_ROLLOUT_WEIGHTS + N_ROLLOUT_WEIGHTS
LONG_MODE = EVAL_AT
EVALUATE = 1
RECORD = 2
LUCK = 3
EVAL_DEALS = EVAL_AT + 1
EVAL_N = EVAL_AT + 2
EVAL_BASE = EVAL_AT + 3
EVAL_BEST = EVAL_AT + 4
EVAL_ACTS = EVAL_AT + 5
EVAL_VALUES = EVAL_ACTS + 16
if len(WEIGHTS) > P_ROLLOUT_WEIGHTS:
    raise ValueError("search's parameters would overlap the play-outs' expert row")

# the columns the kernel reads
P_SAMPLES = INDEX["samples"]
P_ROLLOUT = INDEX["rollout"]
P_EXACT_STAGE2 = INDEX["exact_stage2"]
P_PRIOR = INDEX["prior"]
P_Z = INDEX["z"]
P_HORIZON = INDEX["horizon"]
P_EVERY = INDEX["every"]
P_FIRST = INDEX["first"]
P_DROP = INDEX["drop"]
P_SETTLEMENT = INDEX["settlement"]
P_METHOD = INDEX["method"]
P_EXPLORE = INDEX["explore"]
