"""The ``expert`` policy: every card and every declaration valued in points, at heuristic speed.

Where ``heuristic`` adds fixed weights, ``expert`` asks what a card is worth in points:

* a card kept is worth the points of the combinations it may still complete times the chance
  of completing them, from the copies still unseen and the draws left (a copy unseen is one
  of ``unseen`` cards, of which ``draws`` will come to this seat), plus what it is worth in
  the tricks (brisques, trumps for stage 2); its *marginal* worth counts, so a third king in
  a hand holding four is worth nothing toward fours;
* a trick is won when the points it brings (its brisques, the declaration it lets us make,
  the declaration it keeps from an opponent who showed one "to score") outweigh what the
  winning card is worth kept; with a partner winning, brisques are fed to him;
* a declaration is chosen by the points it makes now plus what it leaves possible: a royal
  marriage before its sequence and a single bezique before the double (R1.9.2), marriages
  and beziques before fours in Rubicon (R6.6), Rubicon trumps fixed in the suit whose
  sequence is likeliest;
* Polish (R5): cards count where they end, among the open cards of the trick's winner;
* stage 2 of a two-handed game is played on the known hands: lead what surely wins, let go
  what is surely lost.

Reads only the seat's knowledge row and the public regions (policy contract,
bezsim/policies/builtin.py). One module a job: weights.py declares every weight (name,
default, range, meaning; the registry's parameters are built from it, the tuned sets per
preset are bezsim/policy_specs/tuned_defaults.json), counts.py packs what the seat knows of the
cards, values.py prices cards and ready combinations, declarations.py chooses declarations,
polish.py plays Polish cards, rubicon.py plays for the Rubicon settlement, policy.py decides.
"""

from bezsim.policies.expert.policy import expert_policy
from bezsim.policies.expert.weights import BASE_WEIGHTS, INDEX, N_EXPERT, WEIGHTS

__all__ = ["BASE_WEIGHTS", "INDEX", "N_EXPERT", "WEIGHTS", "expert_policy"]
