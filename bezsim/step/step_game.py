"""One game, one decision at a time: the step API.

A game is made from (rules, seed, game index) and the policies of the seats the engine plays
itself; the other seats are *open*: whoever drives the game (a person at the terminal, a
learning agent, a test) takes their decisions with ``step``. Each decision offers numbered
actions with readable names, and ``observation`` gives the deciding seat exactly what the
policy contract lets a policy see: its own cards and knowledge, the public facts, never
another seat's concealed cards or the stock order.

How: the engine stops when an open seat must decide (engine/script.py) and a step takes
the game up there with the action chosen, playing on to the next open decision across
tricks, hands and deals (engine/stepping.py): a step costs the play between two decisions,
however long the game. A game played through this API with the built-in policies
(``play_with``) is exactly the game ``simulate`` writes for the same seed and index
(tests/test_step.py, every preset; benchmarks/step_cost.py measures a step).

The open seats' decisions are kept as a script. ``history`` replays the game with the
engine's trace and returns its rows up to the current decision (every card:
bezsim/step/narrate.py tells a seat what it may see of them). ``save`` writes a game as JSON
(rules, seed, seats, the open seats' decisions, whether it is over or was resigned),
``read_saved`` checks such a file without playing it, ``load`` plays it again to where it
stopped, and ``transcript`` prints it as ``bezsim replay`` does, finished or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bezsim.cards import card_name, suit_name
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.engine.script import (
    ENTRY_WIDTH,
    K_N,
    K_SEAT,
    K_STOPPED,
    KEEP_STREAM,
    SCRIPT_ENTRIES,
    TAIL_WORDS,
    script_words,
    stream_words,
)
from bezsim.engine.stepping import BROKEN, GAME_OVER
from bezsim.errors import BezsimError
from bezsim.rules import Rules

OPEN = None        # a seat whose decisions come through ``step``


@dataclass(frozen=True)
class Saved:
    """A saved game as its file records it (``StepGame.save``), read without playing it."""

    rules: Rules
    seed: int
    game: int
    policies: list
    decisions: list
    over: bool
    resigned: bool

    @property
    def open_seats(self) -> list[int]:
        return [s for s, p in enumerate(self.policies) if p is OPEN]


def saved_json(path) -> dict:
    """What ``StepGame.save`` wrote, as JSON: the file itself, or its ``"play"`` part once
    bezsim play has made the file a game record too (bezsim.review.record.save_as_record)."""
    import json
    from pathlib import Path

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("play"), dict):
        return data["play"]
    return data


def read_saved(path) -> Saved:
    """The file ``StepGame.save`` wrote, checked; a one-line BezsimError if it is not one."""
    try:
        data = saved_json(path)
        rules = Rules.make(data["variant"], data["options"])
        decisions = [(int(d[0]), [int(w) for w in d[1:]]) for d in data["decisions"]]
        policies = list(data["policies"])
        if len(policies) != rules.players or not all(p is None or isinstance(p, str)
                                                     for p in policies):
            raise ValueError(f"{len(policies)} seats for {rules.variant}")
        saved = Saved(rules, int(data["seed"]), int(data["game"]), policies, decisions,
                      bool(data["over"]), bool(data.get("resigned", False)))
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError,
            UnicodeDecodeError) as e:
        raise BezsimError(f"{path}: not a game saved by bezsim play ({e})") from None
    return saved


@dataclass(frozen=True)
class Action:
    """One offered action: its index in the offer, what it is, and its name."""

    index: int
    kind: str          # "card", "declare" or "stop"
    value: int         # the card id, or the declaration code (-1 for stop)
    name: str
    points: int = 0    # a declaration's points


def _declaration_name(code: int, points: int, trumps: int) -> str:
    if code == C.A_STOP:
        return "stop (declare nothing more)"
    kind = code >> 2
    with_suit = (kind <= C.K_ROYAL_MARRIAGE or kind == C.K_PLAIN_SEQUENCE
                 or (kind == C.K_SEQUENCE and trumps == C.NO_TRUMP))
    suit = f" {suit_name(code & 3)}" if with_suit else ""
    return f"{C.KIND_NAMES[kind].replace('_', ' ')}{suit} ({points})"


def deck_words(dealer: int, packs: np.ndarray) -> np.ndarray:
    """The engine's layout of given packs (engine/state.py, CTR_DECKS)."""
    packs = np.asarray(packs, np.int32)
    head = np.array([packs.shape[0], dealer], np.int32)
    return np.concatenate([head, packs.reshape(-1)])


class StepGame:
    """A game of ``rules`` driven one decision at a time (module docstring).

    ``policies``: one entry per seat, a policy spec the engine plays, or None (OPEN) for a
    seat whose decisions come through ``step``; None means every seat is open.
    """

    def __init__(self, rules: Rules, seed: int, game: int = 0,
                 policies: Sequence[str | None] | None = None,
                 packs: tuple[int, np.ndarray] | None = None) -> None:
        """``packs``: (the first dealer, [hands, cards] card ids in dealing order) to deal
        the game's hands from, as a game record may give them; None: bezsim shuffles."""
        self._setup(rules, seed, game, policies)
        self._decks = None if packs is None else deck_words(packs[0], packs[1])
        self._new_arrays()
        self._go(GAME_OVER, 0)

    def _setup(self, rules: Rules, seed: int, game: int,
               policies: Sequence[str | None] | None) -> None:
        from bezsim.policies.builtin import SCRIPT
        from bezsim.policy_specs.registry import EXTERNAL, parse_policies, parse_spec, policy_params

        self.rules = rules
        self._decks: np.ndarray | None = None      # given packs (deck_words), or shuffled
        self.players = rules.players
        self.seed = int(seed)
        self.game = int(game)
        if policies is None:
            policies = [OPEN] * self.players
        if len(policies) != self.players:
            raise BezsimError(f"{rules.variant} has {self.players} seats; "
                              f"{len(policies)} policies given")
        named = [p if p is not OPEN else "random" for p in policies]
        specs = parse_policies(named, self.players)
        self.policies = [None if p is OPEN else s for p, s in zip(policies, specs, strict=True)]
        self._params = rules.params()
        self._pp = policy_params(specs, rules.variant)
        ids = []
        for p, s in zip(policies, specs, strict=True):
            info = parse_spec(s)[0]
            # open seats, and external policies (search), are driven from Python
            ids.append(SCRIPT if p is OPEN or info.policy_id == EXTERNAL else info.policy_id)
        self._ids = np.array(ids, np.int64)
        self._bots = {seat: specs[seat] for seat in range(self.players)
                      if policies[seat] is not OPEN and self._ids[seat] == SCRIPT}
        self._script: list[tuple[int, list[int]]] = []
        self._events = 64 * int(self._params[C.PR_HAND_CAP])
        self._trace_cap = 1 << 12                 # history's trace rows (grows when short)
        self._seed_u = np.uint64(self.seed)
        self.replays = 0          # games played again from their start (load, history)
        self.resigned = False     # the open seat gave up: saved so, never continued

    # --- the state at the current decision -----------------------------------------------

    @property
    def over(self) -> bool:
        return self._seat < 0

    @property
    def seat(self) -> int:
        """The seat to decide (-1 once the game is over)."""
        return self._seat

    @property
    def hand(self) -> int:
        """The hand being played (0-based); once the game is over, the hands played. A hand
        is over when this moves on."""
        if self.over:
            return int(self._gi[C.GI_HANDS])
        return int(self._S[st.O_SC + C.SC_HAND])

    @property
    def decision(self) -> str:
        """"play" or "declare" (a declaration, the seven, a Polish exchange)."""
        self._need_decision()
        return "play" if self._S[st.O_DECISION] == C.D_PLAY else "declare"

    def actions(self) -> list[Action]:
        """The offered actions, in the engine's order (``step`` takes an index)."""
        self._need_decision()
        S = self._S
        n = int(S[st.O_N_ACTS])
        out = []
        trumps = int(S[st.O_SC + C.SC_TRUMP])
        for i in range(n):
            v = int(S[st.O_ACTS + i])
            if S[st.O_DECISION] == C.D_PLAY:
                out.append(Action(i, "card", v, card_name(v)))
            else:
                pts = int(S[st.O_APTS + i])
                out.append(Action(i, "stop" if v == C.A_STOP else "declare", v,
                                  _declaration_name(v, pts, trumps), pts))
        return out

    def observation(self) -> dict[str, Any]:
        """What the deciding seat may see (the policy contract, bezsim/policies/builtin.py)."""
        from bezsim.step.observe import observe

        self._need_decision()
        return observe(self.rules, self._S, self._seat)

    def state_array(self) -> np.ndarray:
        """A copy of the engine state at the decision, for a policy's own ``policy(S, seat,
        params, rng)`` call: the contract says which regions it may read."""
        self._need_decision()
        return self._S[:st.S_BASE].copy()

    def view(self) -> np.ndarray:
        """The engine state as it is now, not a copy: read it, never write it. For code that
        encodes the state at every step (the environments, env_kernels/observation.py); at the
        game's end it holds the last hand's final state."""
        return self._S

    def scores(self) -> list[int]:
        """Game scores so far (before the current hand) or at the end."""
        if self.over:
            return [int(v) for v in self._gi[C.GI_SCORE:C.GI_SCORE + self.players]]
        return [int(v) for v in self._S[st.O_SC + C.SC_SCORE:st.O_SC + C.SC_SCORE
                                        + self.players]]

    def hand_points(self) -> list[int]:
        """Each seat's points in the current hand so far."""
        self._need_decision()
        return [int(v) for v in self._S[st.O_SC + C.SC_HAND_POINTS:st.O_SC + C.SC_HAND_POINTS
                                        + self.players]]

    # --- deciding -----------------------------------------------------------------------

    def step(self, index: int) -> None:
        """Take offered action ``index`` for the deciding seat."""
        self._need_decision()
        n = int(self._S[st.O_N_ACTS])
        if not isinstance(index, (int, np.integer)) or not 0 <= int(index) < n:
            raise BezsimError(f"action {index!r} is not offered: choose 0 to {n - 1}")
        index = int(index)
        self._take(index, None)
        self._go(self._seat, int(self._S[st.O_ACTS + index]))

    def policy_action(self, spec: str) -> int:
        """What policy ``spec`` would choose here (a hint), with the seat's own stream left
        as it is."""
        self._need_decision()
        return self._ask(spec, self._rng[1 + self._seat].copy())[0]

    def play_with(self, spec: str) -> int:
        """Let policy ``spec`` take this decision, drawing from the seat's own stream as it
        would in the engine; returns the index taken."""
        self._need_decision()
        seat = self._seat
        index, stream = self._ask(spec, self._rng[1 + seat].copy())
        self._take(index, stream)
        self._rng[1 + seat] = stream
        self._go(seat, int(self._S[st.O_ACTS + index]))
        return index

    def transcript(self) -> str:
        """The game trick by trick, every card shown (as ``bezsim replay``); a game left
        unfinished (or resigned) up to where it stopped, its last line saying so."""
        from bezsim.replay import transcript_of

        names = [p if p is not None else "open" for p in self.policies]
        if self.over:
            batch, trace = self._traced()
            return transcript_of(self.rules, names, self.seed, self.game, batch, trace)
        S = self._S
        where = f"hand {self.hand + 1}, trick {int(S[st.O_SC + C.SC_TRICK])}"
        if self.resigned:
            end = f"Game unfinished: seat {self._seat} resigned at {where}"
        else:
            end = (f"Game unfinished: left at {where}, seat {self._seat} to "
                   f"{'play' if self.decision == 'play' else 'declare'}")
        return transcript_of(self.rules, names, self.seed, self.game, None, self.history(),
                             unfinished=end)

    def save(self, path) -> None:
        """The game as JSON (rules, seed, index, seats, every open decision, whether it is
        over or was resigned): ``load``, ``bezsim play --load`` and ``bezsim replay --saved``
        play it again exactly."""
        import json
        from pathlib import Path

        from bezsim import __version__
        from bezsim.io.atomic import write_atomically

        data = {"bezsim_version": __version__, "variant": self.rules.variant,
                "options": self.rules.options, "seed": self.seed, "game": self.game,
                "policies": self.policies, "over": self.over, "resigned": self.resigned,
                "decisions": [[i, *w] for i, w in self._script]}
        text = (json.dumps(data) + "\n").encode()
        # whole or not at all: a game continued saves over the file it came from
        write_atomically(Path(path), lambda handle: handle.write(text))

    @classmethod
    def load(cls, path) -> StepGame:
        """A saved game (``save``), played again to where it was saved."""
        saved = read_saved(path)
        g = cls.__new__(cls)
        g._setup(saved.rules, saved.seed, saved.game, saved.policies)
        g._script = saved.decisions
        g.resigned = saved.resigned
        g._settle(g._replay())
        return g

    def history(self) -> np.ndarray:
        """The engine's trace rows (engine/constants.py, TR_*) of the game so far: up to the
        current decision, or the whole game once it is over. One more replay, with a trace.
        Every card is in it, the concealed ones too: what a seat may be told of it is
        bezsim/step/narrate.py's business."""
        if self.over:
            return self._traced()[1]
        while True:
            hs, hi, gi, ev, S = self._buffers(self._trace_cap)
            self._run(hs, hi, gi, ev, S)
            k = S.shape[0] - TAIL_WORDS
            if not S[k + K_STOPPED]:
                raise BezsimError("the game's replay no longer stops at its decision")
            n = int(S[st.CTR_TRACE])                # the rows up to the decision
            if n < self._trace_cap:
                break
            self._trace_cap *= 4                # the trace did not fit: a longer one
        base = st.O_EVENTS + 2 * int(S[st.O_EV_CAP])
        return S[base:base + C.TR_SIZE * n].reshape(n, C.TR_SIZE).copy()

    def _traced(self):
        """The game again with its full trace (for the transcript)."""
        from bezsim.engine.state import copy_trace
        from bezsim.engine_api.games import GameBatch

        trace_cap = 1 << 14
        while True:
            hs, hi, gi, ev, S = self._buffers(trace_cap)
            self._run(hs, hi, gi, ev, S)
            if gi[0, C.GI_OVERFLOW] != 1 or trace_cap > 1 << 22:
                break
            trace_cap *= 4                         # the trace did not fit: a longer one
        trace = np.zeros((trace_cap, C.TR_SIZE), np.int32)
        used = copy_trace(S, trace)
        return (GameBatch(self.game, self.players, hs, hi, gi, ev, self.rules.partners,
                          len(self.rules.definition.kinds)),
                trace[:used])

    def result(self):
        """The finished game's outcome arrays, as api.run_games returns one game."""
        from bezsim.engine_api.games import GameBatch

        if not self.over:
            raise BezsimError("the game is not over")
        return GameBatch(self.game, self.players, self._hs[None], self._hi[None],
                         self._gi[None], self._ev[None], partners=self.rules.partners,
                         kinds=len(self.rules.definition.kinds))

    # --- inside ---------------------------------------------------------------------------

    def _need_decision(self) -> None:
        if self.over:
            raise BezsimError("the game is over: no decision to take")

    def _ask(self, spec: str, stream: np.ndarray) -> tuple[int, np.ndarray]:
        from bezsim.policies.builtin import choose
        from bezsim.policy_specs.registry import EXTERNAL, parse_policies, parse_spec, policy_params

        specs = parse_policies([spec] * self.players, self.players)
        info = parse_spec(specs[0])[0]
        row = policy_params(specs, self.rules.variant)
        S = self._S.copy()
        if info.policy_id == EXTERNAL:
            if info.name != "search":
                raise BezsimError(f"{spec}: only built-in policies play in the step API")
            from bezsim.policies.search import search_decision
            index = search_decision(S, self._seat, row[self._seat], stream)
        else:
            rng = self._rng.copy()
            rng[1 + self._seat] = stream
            index = choose(info.policy_id, S, self._seat, row, rng)
            stream = rng[1 + self._seat]
        return int(index), stream

    def _take(self, index: int, stream_after: np.ndarray | None) -> None:
        """The script's entry for a decision; ``stream_after`` None: the seat did not draw."""
        if len(self._script) >= SCRIPT_ENTRIES:
            raise BezsimError(f"a game driven step by step holds at most {SCRIPT_ENTRIES} "
                              "decisions of its open seats")
        self._script.append((index, [] if stream_after is None else stream_words(stream_after)))

    def _new_arrays(self) -> None:
        """The game's state, streams and outcome rows, empty (engine/stepping.py fills them)."""
        from bezsim.engine_api.games import _alloc

        hs, hi, gi, ev = _alloc(1, int(self._params[C.PR_HAND_CAP]), self.players,
                                self._events)
        self._hs, self._hi, self._gi, self._ev = hs[0], hi[0], gi[0], ev[0]
        self._S = np.zeros(st.S_BASE + 2 * self._events + self._deck_size() + TAIL_WORDS,
                           np.int32)
        self._S[st.O_EV_CAP] = self._events
        self._place_decks(self._S, st.S_BASE + 2 * self._events)
        self._rng = np.zeros((1 + self.players, 4), np.uint64)

    def _go(self, seat: int, action: int) -> None:
        """The game on from ``seat``'s decision with ``action`` (or from its start, seat
        GAME_OVER) to the next decision of an open seat, or its end."""
        self._settle(self._step_engine(seat, action))

    def _settle(self, seat: int) -> None:
        """Python-driven bots (search) take their decisions until an open seat must."""
        while seat >= 0 and seat in self._bots:
            self._seat = seat
            index, stream = self._ask(self._bots[seat], self._rng[1 + seat].copy())
            self._take(index, stream)
            self._rng[1 + seat] = stream
            seat = self._step_engine(seat, int(self._S[st.O_ACTS + index]))
        self._seat = seat

    def _step_engine(self, seat: int, action: int) -> int:
        from bezsim.engine.stepping import step_game

        to = int(step_game(self._params, self._ids, self._pp, self._seed_u, self.game,
                           self._hs, self._hi, self._gi, self._ev, self._S, self._rng,
                           seat, action))
        if to == BROKEN:
            raise BezsimError("the engine stopped without a decision to take")
        if self._S[st.CTR_EVENTS] > self._events and self._events < (1 << 20):
            self._events *= 4                      # more events than room: play it again
            return self._replay()
        return to

    def _deck_size(self) -> int:
        return 0 if self._decks is None else len(self._decks)

    def _place_decks(self, S: np.ndarray, at: int) -> None:
        """The given packs into S at ``at``, where the engine's deal finds them."""
        if self._decks is not None:
            S[at:at + len(self._decks)] = self._decks
            S[st.CTR_DECKS] = at

    def _buffers(self, trace_cap: int = 0):
        from bezsim.engine_api.games import _alloc

        hand_cap = int(self._params[C.PR_HAND_CAP])
        hs, hi, gi, ev = _alloc(1, hand_cap, self.players, self._events)
        n = len(self._script)
        at = st.S_BASE + 2 * self._events + C.TR_SIZE * trace_cap
        S = np.zeros(at + self._deck_size() + script_words(n), np.int32)
        S[st.O_EV_CAP] = self._events
        S[st.O_TR_CAP] = trace_cap
        self._place_decks(S, at)
        k = S.shape[0] - TAIL_WORDS
        S[k + K_N] = n
        for i, (index, words) in enumerate(self._script):
            at = k - (i + 1) * ENTRY_WIDTH          # script.entry_at
            if words:
                S[at] = index
                S[at + 1:at + ENTRY_WIDTH] = words
            else:
                S[at] = index | KEEP_STREAM
        return hs, hi, gi, ev, S

    def _run(self, hs, hi, gi, ev, S) -> np.ndarray:
        from bezsim.engine.stepping import replay_game

        self.replays += 1
        return replay_game(self._params, self._ids, self._pp, self._seed_u, self.game,
                           hs[0], hi[0], gi[0], ev[0], S)

    def _replay(self) -> int:
        """The game from its start with the script so far, to where it stops; the seat to
        decide there (GAME_OVER if the game ended)."""
        while True:
            hs, hi, gi, ev, S = self._buffers()
            rng = self._run(hs, hi, gi, ev, S)
            if S[st.CTR_EVENTS] <= self._events or self._events >= (1 << 20):
                break
            self._events *= 4                      # more events than room: play it again
        self._hs, self._hi, self._gi, self._ev = hs[0], hi[0], gi[0], ev[0]
        self._S, self._rng = S, rng
        k = S.shape[0] - TAIL_WORDS
        return int(S[k + K_SEAT]) if S[k + K_STOPPED] else GAME_OVER
