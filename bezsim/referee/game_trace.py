"""One game's trace walked hand by hand, and the end of the game checked (R2.6 two-handed, R6.8
Rubicon, R3/R4 through ``multi``): the trace cursor the hand checkers share, the hand class of
each variant, the rule that no score is ever negative, and the outcome rows (game_info,
hand_info, hand_seat, events) compared with the referee's own totals (R8). Kept apart from the
hand checkers so that each variant's reading stays in its own module."""

from __future__ import annotations

from collections import Counter

import numpy as np

from bezsim.engine import constants as C
from bezsim.engine_api.games import unpack_events
from bezsim.referee.multi import MultiHand, check_multi_end
from bezsim.referee.notation import pad4
from bezsim.referee.polish import PolishHand
from bezsim.referee.rubicon import RubiconHand, rubicon_settlement
from bezsim.referee.six_pack import SixPackHand, six_pack_settlement
from bezsim.referee.two_handed import Hand
from bezsim.referee.violation import Violation, expect, expect_no_negative
from bezsim.rules import Rules


class Game:
    """Walks one game's trace; raises Violation at the first rule broken."""

    def __init__(self, rules: Rules, rows: list[list[int]], batch,
                 policies: tuple[str, ...] = ("random", "random")) -> None:
        self.o = rules.options
        self.variant = rules.variant
        self.polish = rules.definition.open_cards   # R5: open cards, compound declarations
        self.rubicon = rules.definition.settlement  # R6: one hand is one game, settled
        self.six_pack = rules.definition.trump_fours   # R7: Rubicon's play, six packs
        self.multi = rules.players > 2              # R3, R4: multi.MultiHand
        self.players = rules.players
        self.layout = (rules.players, rules.packs, rules.partners)   # R3, R4
        self.brisques = [0] * self.players          # taken in tricks (Rubicon: aside, R6.7)
        self.trump = -1
        policies = tuple(policies)
        self.policies = policies * self.players if len(policies) == 1 else policies
        self.rows = rows
        self.pos = 0
        self.batch = batch
        self.scores = [0] * self.players
        self.stats: Counter = Counter()     # rare features the hands saw (the tests)
        self.events: list[tuple] = []       # every TR_EVENT row, in order
        self.hand_rows: list[dict] = []     # what each hand should have written to hand_seat

    # cursor over the trace (the hottest code of the soak: no helper calls on the happy path)
    def peek(self) -> list[int] | None:
        return self.rows[self.pos] if self.pos < len(self.rows) else None

    def take(self, record: int, what: str) -> list[int]:
        pos = self.pos
        row = self.rows[pos] if pos < len(self.rows) else None
        if row is None or row[0] != record:
            raise Violation(f"expected {what}: {row}")
        self.pos = pos + 1
        if record == C.TR_EVENT:
            self.events.append(tuple(row[1:8]))
        return row

    def at(self, record: int) -> bool:
        pos = self.pos
        return pos < len(self.rows) and self.rows[pos][0] == record

    def run(self) -> int:
        hand = 0
        first_dealer = int(self.batch.game_info[0, C.GI_FIRST_DEALER])
        while not self.at(C.TR_GAME_END):
            expect(self.peek() is not None, "trace ends without TR_GAME_END")
            hand_class = (PolishHand if self.polish else SixPackHand if self.six_pack
                          else RubiconHand if self.rubicon else MultiHand if self.multi
                          else Hand)
            over = hand_class(self, hand, (first_dealer + hand) % self.players).run()
            hand += 1
            if over:
                break
        self.check_signs(hand)
        self.check_game_end(hand)
        return hand

    def check_signs(self, hands: int) -> None:
        """Scores are never negative: every outcome row the engine wrote (points by
        kind, hand points, score after each hand, counts), the final scores, rounded scores,
        brisques and stake, in game_info and in TR_GAME_END. Checked before those values are
        compared with the checker's own, so that a negative value is reported as such. (Event
        points, hand points and scores after each hand in the trace: as each row is read.)"""
        b, seats = self.batch, self.players
        seat_rows = b.hand_seat[0, :hands]
        if seat_rows.size and int(seat_rows.min()) < 0:
            bad = np.argwhere(seat_rows < 0)[0].tolist()
            raise Violation(f"negative value in hand_seat [hand, seat, column] {bad}")
        gi = b.game_info[0].tolist()
        for base in (C.GI_SCORE, C.GI_ROUNDED, C.GI_BRISQUES):
            expect(min(gi[base:base + seats]) >= 0, "negative final score, rounded score or "
                   "brisques in game_info", gi)
        expect(gi[C.GI_STAKE] >= 0, "negative stake in game_info", gi)
        row = self.peek()
        if row is not None and row[0] == C.TR_GAME_END:
            expect_no_negative(row, seats, "final score")
            expect(row[7] >= 0, "negative stake", row)

    def check_game_end(self, hands: int) -> None:
        if self.rubicon:
            self.check_rubicon_end(hands)
            return
        if self.multi:
            check_multi_end(self, hands)
            return
        row = self.take(C.TR_GAME_END, "game end")
        expect(self.pos == len(self.rows), "rows after the game end")
        target = self.o["target"]
        winner = 0 if self.scores[0] > self.scores[1] else 1
        expect(self.scores[winner] >= target and self.scores[0] != self.scores[1],
               "game ended without a unique winner at the target (R2.6)", self.scores)
        loser = self.scores[1 - winner]
        mode = self.o["double_game"]
        double = int(mode != "off" and 2 * loser < target)
        stake = 1 + double
        if mode == "points":
            stake = (self.scores[winner] - loser) * (1 + double)
        expect(row[1:8] == [winner, *pad4(self.scores), double, stake], "game result (R2.6)",
               row)
        self.check_batch(hands, winner, double, stake)

    def check_batch(self, hands: int, winner: int, double: int, stake: int) -> None:
        b = self.batch
        gi = b.game_info[0]
        expect(gi[C.GI_OVERFLOW] == 0, "overflow flag set")
        expect([gi[C.GI_HANDS], gi[C.GI_WINNER], gi[C.GI_DOUBLE], gi[C.GI_STAKE]]
               == [hands, winner, double, stake], "game_info", gi)
        expect(list(gi[C.GI_SCORE:C.GI_SCORE + 2]) == self.scores, "game_info scores")
        expect(gi[C.GI_N_EVENTS] == len(self.events), "event count")
        self.check_events()
        infos = b.hand_info[0, :len(self.hand_rows)].tolist()    # Python ints: fast compares
        seat_rows = b.hand_seat[0, :len(self.hand_rows)].tolist()
        for h, want in enumerate(self.hand_rows):
            expect(infos[h] == want["info"], "hand_info", h, infos[h], want["info"])
            for seat in range(2):
                expect(seat_rows[h][seat] == want["seat"][seat], "hand_seat", h, seat)

    def check_events(self) -> None:
        ev = unpack_events(self.batch.events[0, :len(self.events)])
        cols = ("hand", "trick", "seat", "kind", "status", "extra", "points")
        packed = list(zip(*(ev[c].tolist() for c in cols), strict=True))
        expect(packed == self.events, "events array differs from the traced events")

    def check_rubicon_end(self, hands: int) -> None:
        """R6.8 recomputed here: one hand, rounded totals, brisques aside, rubicon, stake;
        then the game_info row, the events array and the hand rows."""
        row = self.take(C.TR_GAME_END, "game end")
        expect(self.pos == len(self.rows), "rows after the game end")
        expect(hands == 1, "a Rubicon game is one hand (R6.8)", hands)
        if self.six_pack:
            winner, rounded, rubicon, stake = six_pack_settlement(self.scores, self.o)
        else:
            winner, rounded, rubicon, stake = rubicon_settlement(
                self.scores, self.brisques, int(self.o["rubicon_brisque_bonus"]),
                self.o["rubicon_close"])
        expect(row[1:8] == [winner, *pad4(self.scores), 0, stake], "game result (R6.8)", row,
               self.scores, self.brisques)
        gi = self.batch.game_info[0].tolist()
        want = [0] * C.GI_SIZE
        want[C.GI_HANDS:C.GI_RUBICON + 1] = [1, gi[C.GI_FIRST_DEALER], winner, 0, stake, 0,
                                             len(self.events), rubicon]
        want[C.GI_SCORE:C.GI_SCORE + 2] = self.scores
        want[C.GI_ROUNDED:C.GI_ROUNDED + 2] = rounded
        want[C.GI_BRISQUES:C.GI_BRISQUES + 2] = self.brisques
        expect(gi == want, "game_info (R6.8)", gi, "expected", want)
        self.check_events()
        rows = self.hand_rows[0]
        info = self.batch.hand_info[0, 0].tolist()
        expect(info == rows["info"], "hand_info", info, rows["info"])
        seat_rows = self.batch.hand_seat[0, 0].tolist()
        for seat in range(2):
            expect(seat_rows[seat] == rows["seat"][seat], "hand_seat", seat, seat_rows[seat],
                   rows["seat"][seat])

