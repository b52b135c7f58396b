"""The one place the engine asks a policy to decide (contract in policies/builtin.py)."""

from bezsim.engine.external import EXTERNAL, call_external
from bezsim.engine.jit import njit
from bezsim.engine.state import CTR_FAULT, FAULT_POLICY, O_DECISION, O_N_ACTS
from bezsim.policies.builtin import RANDOM, choose_among, random_policy


@njit(error_model="numpy", cache=True, inline="always", _nrt=False)
def decide(S, rng, pol_ids, pol_params, fns, decision, seat, n):
    """Ask the seat's policy; returns an index into the offered actions. An index outside
    them is a policy fault, flagged for the caller. Only the first ``n`` entries of the
    actions and points regions are the offer: past them lie earlier offers (blanking them
    cost the two-player game ~18%), which the contract forbids a policy to read."""
    S[O_N_ACTS] = n
    S[O_DECISION] = decision
    pid = pol_ids[seat]
    if pid == RANDOM:       # the baseline of big runs, called directly: measured ~5% faster
        idx = random_policy(S, seat, pol_params[seat], rng)
    elif pid == EXTERNAL:   # search or a user's plug-in (engine/external.py)
        idx = call_external(fns, S, seat, pol_params[seat], rng[1 + seat])
    else:
        idx = choose_among(fns, pid, S, seat, pol_params, rng)
    if idx < 0 or idx >= n:
        S[CTR_FAULT] = FAULT_POLICY
        return 0
    return idx
