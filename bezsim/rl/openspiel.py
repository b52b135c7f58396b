"""Bézique as an OpenSpiel game (``pip install 'bezsim[openspiel]'``): ``python_bezique``.

    import pyspiel
    import bezsim.openspiel                          # registers the game
    game = pyspiel.load_game("python_bezique", {"variant": "rubicon", "seed": 7})
    whole = pyspiel.load_game("python_bezique", {"variant": "four_handed", "hands": 0})

Parameters: ``variant`` (any preset: two, three or four players, partnerships), ``seed``,
and ``hands``: how many hands an OpenSpiel game lasts, 1 (the default) or more, or 0 for the
whole game to its target (in Rubicon and six-pack a hand is the whole game). Sequential,
imperfect information, zero-sum: +1 to each seat of the winning side, the losing seats
sharing the opposite equally (two seats: +1 / -1; three: +1 / -0.5 / -0.5; four: +1 and
-1/3 each; partners: +1, +1 / -1, -1), 0 to all for a tie. The winner is the game's (the
settlement's in Rubicon and six-pack) when the game ends; after ``hands`` hands of a longer
game, the side with the higher score. The deal is the one chance node: game i of the
``seed`` (i < DEALS, uniform), the game ``simulate`` plays there; its later hands are dealt
from that game's own streams. Actions are those of bezsim/env_kernels/actions.py (0..31 a card by
face, 32 + code a declaration, STOP). The information state and the observation are the
seat's own knowledge, as a policy sees it: as strings, and as the tensor of
bezsim/env_kernels/observation.py; ``resample_from_infostate`` deals the cards the seat cannot
see again
(search's determinize), which OpenSpiel's ISMCTS needs.

A state holds the engine's state at its decision; applying an action steps the game from
there (engine/stepping.py) to the next decision.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.script import TAIL_WORDS
from bezsim.env_kernels.actions import N_ACTIONS, STOP, offered
from bezsim.env_kernels.observation import OBSERVATION_SIZE, observe_into
from bezsim.rules import VARIANT_DEFINITIONS, Rules

VARIANTS = tuple(VARIANT_DEFINITIONS)
DEALS = 1000        # the chance node: which of the seed's first DEALS games is played
_GAME_TYPE = pyspiel.GameType(
    short_name="python_bezique",
    long_name="Bezique (bezsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "ordinary", "seed": 0, "hands": 1})


def decisions_per_hand(rules: Rules) -> int:
    """A bound on one hand's decisions: a play per card, and per trick at most one
    declaring decision for each combination a hand could hold and one to stop."""
    cards = rules.packs * 32
    return cards + (cards // rules.players) * 8


class BeziqueGame(pyspiel.Game):
    """Bézique in OpenSpiel (module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        variant = str(params.get("variant", "ordinary"))
        if variant not in VARIANTS:
            raise ValueError(f"python_bezique plays {', '.join(VARIANTS)}, not {variant}")
        hands = int(params.get("hands", 1))
        rules = Rules.make(variant)
        cap = int(rules.params()[C.PR_HAND_CAP])
        if hands < 0:
            raise ValueError(f"hands must be 0 (the whole game) or more, not {hands}")
        self.rules = rules
        self.players = rules.players
        self.hands = hands if hands < cap else 0      # as many as a game holds: all of it
        self.seed = int(params.get("seed", 0))
        length = (self.hands or cap) * decisions_per_hand(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS, max_chance_outcomes=DEALS,
            num_players=self.players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=length)
        super().__init__(_GAME_TYPE, info, {"variant": variant, "seed": self.seed,
                                            "hands": hands})
        self.engine_params = rules.params()
        from bezsim.policies.builtin import SCRIPT
        self.ids = np.full(self.players, SCRIPT, np.int64)
        self.pp = np.zeros((self.players, 48))

    def new_initial_state(self):
        return BeziqueState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return BeziqueObserver()


class BeziqueState(pyspiel.State):
    """A decision of the game, or its end."""

    def __init__(self, game: BeziqueGame):
        super().__init__(game)
        # what the engine needs, kept here: a state outlives copies of its game
        self._params = game.engine_params
        self._ids = game.ids
        self._pp = game.pp
        self._seed = np.uint64(game.seed)
        self._hands = game.hands
        self._rules = game.rules
        self._players = game.players
        self._player = pyspiel.PlayerId.CHANCE
        self._returns = [0.0] * game.players
        players = game.players
        cap = int(game.engine_params[C.PR_HAND_CAP])
        self._S = np.zeros(st.S_BASE + TAIL_WORDS, np.int32)
        self._rng = np.zeros((1 + players, 4), np.uint64)
        self._hs = np.zeros((cap, players, C.HS_SIZE), np.int32)
        self._hi = np.zeros((cap, C.HI_SIZE), np.int32)
        self._gi = np.zeros(C.GI_SIZE, np.int64)
        self._ev = np.zeros(0, np.int64)
        self._index = -1

    def _step(self, seat: int, action: int) -> None:
        from bezsim.engine.stepping import GAME_OVER, step_game

        to = int(step_game(self._params, self._ids, self._pp, self._seed, self._index,
                           self._hs, self._hi, self._gi, self._ev, self._S, self._rng,
                           seat, action))
        players, partners = self._players, self._rules.partners
        if to >= 0 and (not self._hands or self._S[st.O_SC + C.SC_HAND] < self._hands):
            self._player = to
            return
        self._player = pyspiel.PlayerId.TERMINAL
        if to == GAME_OVER:
            winner = int(self._gi[C.GI_WINNER])
            scores = self._gi[C.GI_SCORE:C.GI_SCORE + players]
        else:                           # ``hands`` hands played: the higher score wins
            scores = self._S[st.O_SC + C.SC_SCORE:st.O_SC + C.SC_SCORE + players]
            sides = 2 if partners else players
            best = int(np.argmax(scores[:sides]))
            tied = np.count_nonzero(scores[:sides] == scores[best]) > 1
            winner = -1 if tied else best
        self._scores = [int(v) for v in scores]
        if winner >= 0:
            side = [p % 2 if partners else p for p in range(players)]
            won = side.count(winner)
            lost = players - won
            self._returns = [1.0 if s == winner else -won / lost for s in side]

    def chance_outcomes(self):
        return [(i, 1.0 / DEALS) for i in range(DEALS)]

    def _offer(self) -> dict[int, int]:
        return offered(self._S)

    # OpenSpiel API
    def current_player(self):
        return self._player

    def _legal_actions(self, player):
        return sorted(self._offer())

    def _apply_action(self, action):
        if self._player == pyspiel.PlayerId.CHANCE:
            self._index = int(action)
            self._step(-1, 0)
            return
        index = self._offer()[int(action)]
        self._step(self._player, int(self._S[st.O_ACTS + index]))

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
        return self._returns

    def information_state_string(self, player=None):
        player = self._player if player is None else player
        return self._key(player)

    def observation_string(self, player=None):
        player = self._player if player is None else player
        return self._key(player)

    def _key(self, player: int) -> str:
        """The seat, its knowledge and the public facts, as bytes: equal exactly when the
        seat cannot tell two states apart."""
        S = self._S
        if self.is_terminal():
            return f"end {self._scores}"
        if self._player == pyspiel.PlayerId.CHANCE:
            return "deal"
        players = self._players
        n = self._rules.packs * 32
        parts = [S[st.O_SEEN + player * st.N_MAX:st.O_SEEN + player * st.N_MAX + n],
                 S[st.O_SC:st.O_SC + C.SC_SIZE], S[st.O_TRICK:st.O_TRICK + 4],
                 S[st.O_HIST:st.O_HIST + n], S[st.O_PEND_N:st.O_PEND_N + players],
                 S[st.O_BRISQ_TAKEN:st.O_BRISQ_TAKEN + players],
                 np.array([player, self._player, int(S[st.O_DECISION])], np.int32)]
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
            return f"game over: scores {self._scores}"
        if self.is_chance_node():
            return "the deal"
        return (f"hand {int(self._S[st.O_SC + C.SC_HAND]) + 1}, seat {self._player} to "
                f"decide; stock {int(self._S[st.O_SC + C.SC_STOCK_LEFT])}")


class BeziqueObserver:
    """The observation tensor (bezsim/env_kernels/observation.py) and string, for OpenSpiel's
    observer interface: the information state and the observation are the same here, since the
    seat's knowledge row already holds all it has seen."""

    def __init__(self):
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BeziqueState, player: int) -> None:
        if state.is_chance_node():
            self.tensor[:] = 0.0
        else:
            observe_into(state._S, player, self.tensor)

    def string_from(self, state: BeziqueState, player: int) -> str:
        return state._key(player)


pyspiel.register_game(_GAME_TYPE, BeziqueGame)
