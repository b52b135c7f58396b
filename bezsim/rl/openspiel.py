"""Bézique as an OpenSpiel game (``pip install 'bezsim[openspiel]'``): ``python_bezique``.

    import pyspiel
    import bezsim.openspiel                          # registers the game
    game = pyspiel.load_game("python_bezique", {"variant": "rubicon", "seed": 7})

One hand of a two-handed preset (``ordinary``, ``polish`` or ``rubicon``) is one OpenSpiel
game: sequential, imperfect information, zero-sum, utility +1 / -1 to the hand's winner
(the settlement's winner in Rubicon, where a hand is the game; the more points elsewhere),
0 for a tie. The deal is the one chance node: deal i of the game's ``seed`` (i < DEALS,
uniform), the deal ``simulate`` plays first in game i of that seed. Actions are those of
bezsim/rl/actions.py (0..31 a card by face, 32 + code a declaration, STOP). The information state
is the seat's own knowledge, as a policy sees it; ``resample_from_infostate`` deals the
cards the seat cannot see again (search's determinize), which OpenSpiel's ISMCTS needs.

A state holds the engine's state array at its decision; applying an action plays the hand
on from there (engine/resume.py) to the next decision, where a scripted seat stops it.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.script import K_N, K_NEXT, K_STOPPED, TAIL_WORDS, read_snapshot
from bezsim.rl.actions import N_ACTIONS, STOP, offered
from bezsim.rules import VARIANT_DEFINITIONS, Rules
from bezsim.step.observe import OBSERVATION_SIZE, observation_vector

# one hand of any two-handed preset
VARIANTS = tuple(v.name for v in VARIANT_DEFINITIONS.values() if v.players == 2)
DEALS = 1000        # the chance node: which of the seed's first DEALS deals is played
_GAME_TYPE = pyspiel.GameType(
    short_name="python_bezique",
    long_name="Bezique (bezsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "ordinary", "seed": 0})
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=N_ACTIONS,
    max_chance_outcomes=DEALS,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=400)


class BeziqueGame(pyspiel.Game):
    """One hand of a two-handed preset (module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        variant = str(params.get("variant", "ordinary"))
        if variant not in VARIANTS:
            raise ValueError(f"python_bezique plays {', '.join(VARIANTS)}, not {variant}")
        super().__init__(_GAME_TYPE, _GAME_INFO, {"variant": variant,
                                                  "seed": int(params.get("seed", 0))})
        self.rules = Rules.make(variant)
        self.engine_params = self.rules.params()
        self.seed = int(params.get("seed", 0))
        from bezsim.policies.builtin import SCRIPT
        self.ids = np.full(2, SCRIPT, np.int64)
        self.pp = np.zeros((2, 48))

    def new_initial_state(self):
        return BeziqueState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return BeziqueObserver(self.rules)


class BeziqueState(pyspiel.State):
    """A decision of one hand, or its end."""

    def __init__(self, game: BeziqueGame):
        super().__init__(game)
        # what the engine needs, kept here: a state outlives copies of its game
        self._params = game.engine_params
        self._ids = game.ids
        self._pp = game.pp
        self._seed = game.seed
        self._rules = game.rules
        self._player = pyspiel.PlayerId.CHANCE
        self._S = np.zeros(st.S_BASE + TAIL_WORDS, np.int32)
        self._rng = np.zeros((3, 4), np.uint64)

    def _deal(self, index: int) -> None:
        from bezsim.engine.game import first_decision

        first_decision(self._params, self._ids, self._pp,
                       np.uint64(self._seed), index, self._S, self._rng)
        self._take_snapshot()

    def chance_outcomes(self):
        return [(i, 1.0 / DEALS) for i in range(DEALS)]

    def _take_snapshot(self) -> None:
        S = self._S
        stop = read_snapshot(S, 3)
        if stop is not None:
            self._player, S[:st.S_BASE], self._rng = stop
            k = S.shape[0] - TAIL_WORDS              # an empty script again
            S[k + K_N] = 0
            S[k + K_NEXT] = 0
            S[k + K_STOPPED] = 0
        else:
            self._player = pyspiel.PlayerId.TERMINAL
            pts = S[st.O_SC + C.SC_HAND_POINTS:st.O_SC + C.SC_HAND_POINTS + 2].astype(int)
            if self._params[C.PR_ONE_HAND_GAME]:
                from bezsim.engine.settlement import settle
                winner = int(settle(self._params, pts[0], pts[1], S[st.O_BRISQ_TAKEN],
                                    S[st.O_BRISQ_TAKEN + 1])[0])
            else:
                winner = 0 if pts[0] > pts[1] else 1 if pts[1] > pts[0] else -1
            self._returns = [0.0, 0.0] if winner < 0 else [1.0 if p == winner else -1.0
                                                          for p in range(2)]
            self._points = [int(v) for v in pts]

    def _offer(self) -> dict[int, int]:
        return offered(self._S)

    # OpenSpiel API
    def current_player(self):
        return self._player

    def _legal_actions(self, player):
        return sorted(self._offer())

    def _apply_action(self, action):
        from bezsim.engine.resume import resume_every_built_in

        if self._player == pyspiel.PlayerId.CHANCE:
            self._deal(int(action))
            return
        index = self._offer()[int(action)]
        resume_every_built_in(self._params, self._S, self._rng, self._ids,
                              self._pp, self._player, self._S[st.O_ACTS + index])
        self._take_snapshot()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if action == STOP:
            return "stop"
        if action < 32:
            from bezsim.cards import card_name
            return card_name(action)
        return f"declare {C.KIND_NAMES[(action - 32) >> 2]} {(action - 32) & 3}"

    def is_terminal(self):
        return self._player == pyspiel.PlayerId.TERMINAL

    def returns(self):
        return self._returns if self.is_terminal() else [0.0, 0.0]

    def information_state_string(self, player=None):
        player = self._player if player is None else player
        return self._key(player)

    def observation_string(self, player=None):
        player = self._player if player is None else player
        return self._key(player)

    def _key(self, player: int) -> str:
        """The seat's knowledge and the public facts, as bytes: equal exactly when the seat
        cannot tell two states apart."""
        S = self._S
        if self.is_terminal():
            return f"end {self._points}"
        if self._player == pyspiel.PlayerId.CHANCE:
            return "deal"
        n = self._rules.packs * 32
        parts = [S[st.O_SEEN + player * st.N_MAX:st.O_SEEN + player * st.N_MAX + n],
                 S[st.O_SC:st.O_SC + C.SC_SIZE], S[st.O_TRICK:st.O_TRICK + 4],
                 S[st.O_HIST:st.O_HIST + n], S[st.O_PEND_N:st.O_PEND_N + 2],
                 S[st.O_BRISQ_TAKEN:st.O_BRISQ_TAKEN + 2],
                 np.array([self._player, int(S[st.O_DECISION])], np.int32)]
        if player == self._player:
            parts.append(S[st.O_ACTS:st.O_ACTS + S[st.O_N_ACTS]])
        return b"".join(np.ascontiguousarray(p, np.int32).tobytes() for p in parts).hex()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the seat cannot tell from this one: the cards it has not seen dealt again
        (policies/search.determinize), drawn from the sampler's numbers."""
        from bezsim.policies.deals import determinize, rules_of

        clone = self.clone()
        if self.is_terminal() or self.is_chance_node():
            return clone
        stream = np.array([int(probability_sampler() * 2**53) for _ in range(4)], np.uint64)
        W = np.zeros(st.S_BASE, np.int32)
        ok = determinize(self._S, W, player_id, rules_of(self._S), stream,
                         np.zeros(st.N_MAX, np.int32), np.zeros(C.MAX_HAND, np.int32))
        if ok:
            W[st.O_EV_CAP] = self._S[st.O_EV_CAP]
            clone._S[:st.S_BASE] = W
        return clone

    def __str__(self):
        if self.is_terminal():
            return f"hand over: points {self._points}"
        return f"seat {self._player} to decide; stock {int(self._S[st.O_SC + C.SC_STOCK_LEFT])}"


class BeziqueObserver:
    """observation_vector for OpenSpiel's observer interface."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BeziqueState, player: int) -> None:
        self.tensor[:] = observation_vector(self.rules, state._S, player)

    def string_from(self, state: BeziqueState, player: int) -> str:
        return state._key(player)


pyspiel.register_game(_GAME_TYPE, BeziqueGame)
