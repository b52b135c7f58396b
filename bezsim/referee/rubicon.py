"""The referee's reading of Rubicon bézique (docs/rules.md R6), independent of the engine's: one
hand is one game; 128 cards each dealt or drawn once and played once; nine cards each dealt by
threes, no turn-up (R6.1); trick winners with trumps undecided and after, trumps fixed by the
first marriage or sequence declared (R6.2); its points (R6.3); one combination per trick, the
others shown to score (R1.10, R6.5); R6.6 reuse per copy with re-forming; carte blanche
exactly when due (R6.4); brisques aside (R6.7); and the settlement (R6.8) recomputed here
rather than taken from ``bezsim.engine.settlement``."""

from __future__ import annotations

from bezsim.engine import constants as C
from bezsim.referee.notation import (
    ACE,
    DIAMONDS,
    JACK,
    KING,
    QUEEN,
    SEQ_RANKS,
    SPADES,
    TEN,
    face,
    pad4,
    rank,
    suit,
)
from bezsim.referee.trace_reader import GameTrace
from bezsim.referee.two_handed import FOURS, MARRIAGES, Hand
from bezsim.referee.violation import expect, expect_event_points

COURT = (KING, QUEEN, JACK)
BEZ_LEVEL = {C.K_BEZIQUE: 1, C.K_DOUBLE_BEZIQUE: 2, C.K_TRIPLE_BEZIQUE: 3,
             C.K_QUADRUPLE_BEZIQUE: 4}
R_POINTS = {C.K_COMMON_MARRIAGE: 20, C.K_ROYAL_MARRIAGE: 40, C.K_SEQUENCE: 250,
            C.K_PLAIN_SEQUENCE: 150, C.K_BEZIQUE: 40, C.K_DOUBLE_BEZIQUE: 500,
            C.K_TRIPLE_BEZIQUE: 1500, C.K_QUADRUPLE_BEZIQUE: 4500, C.K_FOUR_ACES: 100,
            C.K_FOUR_KINGS: 80, C.K_FOUR_QUEENS: 60, C.K_FOUR_JACKS: 40,
            C.K_LAST_TRICK: 50, C.K_CARTE_BLANCHE: 50}          # R1.8, R6.3, R6.4
# six-pack (R7.3): four of a rank in trumps, tens included
TRUMP_FOURS = {C.K_FOUR_TRUMP_ACES: ACE, C.K_FOUR_TRUMP_TENS: TEN, C.K_FOUR_TRUMP_KINGS: KING,
               C.K_FOUR_TRUMP_QUEENS: QUEEN, C.K_FOUR_TRUMP_JACKS: JACK}
R_COMBOS = ((frozenset(R_POINTS) - {C.K_LAST_TRICK, C.K_CARTE_BLANCHE})
            | frozenset(TRUMP_FOURS))
# the tag a copy gets in each kind (R1.9 rule 1 is per kind) and its class (R6.6: M, B, F)
R_TAG = {C.K_COMMON_MARRIAGE: "marriage", C.K_ROYAL_MARRIAGE: "marriage",
         C.K_SEQUENCE: "sequence", C.K_PLAIN_SEQUENCE: "sequence", C.K_BEZIQUE: "bez1",
         C.K_DOUBLE_BEZIQUE: "bez2", C.K_TRIPLE_BEZIQUE: "bez3",
         C.K_QUADRUPLE_BEZIQUE: "bez4"} | {k: "four" for k in FOURS} | {
         k: "trump_four" for k in TRUMP_FOURS}
R_CLASS = {"marriage": 0, "sequence": 0, "bez1": 1, "bez2": 1, "bez3": 1, "bez4": 1,
           "four": 2, "trump_four": 2}
Q_SPADES, J_DIAMONDS = SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK


def family(kind: int, suit_of_cards: int) -> tuple[int, int]:
    """What a combination IS, whatever trumps make it worth: (group, suit). A marriage or a
    sequence shown to score keeps its identity when trumps are fixed later; its worth follows
    trumps (R1.10, R6.2)."""
    if kind in MARRIAGES:
        return 0, suit_of_cards
    if kind in (C.K_SEQUENCE, C.K_PLAIN_SEQUENCE):
        return 1, suit_of_cards
    return 2 + kind, 0


def rubicon_settlement(points: list[int], brisques: list[int], bonus: int,
                       close: str = "brisques", line: int = 1000, game_bonus: int = 500,
                       rubicon_bonus: int = 1000) -> tuple[int, list[int], int, int]:
    """R6.7, R6.8 from the rules text: (winner or -1, rounded totals, rubicon, stake).
    Readings (as documented in bezsim.engine.settlement): a tie after rounding goes to the
    seat with more brisques (rubicon_close=brisques) or to the higher unrounded total, then
    brisques (=points); the loser is rubiconed if his points plus his brisques are under
    the line (1000); a rubiconed loser's rounded total counts as 100 if under 100. Six-pack
    (R7.5) passes its line, bonuses and brisques of 0 (they count for nothing)."""
    rounded = [p - p % 100 for p in points]
    if rounded[0] != rounded[1]:
        winner = 0 if rounded[0] > rounded[1] else 1
    elif close == "points" and points[0] != points[1]:
        winner = 0 if points[0] > points[1] else 1
    elif brisques[0] != brisques[1]:
        winner = 0 if brisques[0] > brisques[1] else 1
    else:
        return -1, rounded, 0, 0
    loser = 1 - winner
    if points[loser] + brisques[loser] < line:
        return (winner, rounded, 1,
                rounded[winner] + max(rounded[loser], 100) + bonus + rubicon_bonus)
    return winner, rounded, 0, game_bonus + rounded[winner] - rounded[loser]


class RubiconHand(Hand):
    """One hand (= one game) of Rubicon bézique (R6): four packs, nine cards dealt 3-3-3
    starting left of the dealer, no turn-up; 55 stock tricks with draws, then 9 under R1.6.
    Trumps are undecided until the first marriage or sequence is declared (R6.2); one
    combination scores per trick won, the others are shown to score (R1.10, R6.5); copies are
    reused per R6.6 (classes M, B, F; re-forming once a card of the combination is played:
    every intact declared combination is tracked here); carte blanche (R6.4); brisques are
    counted aside (R6.7); the last trick scores 50 (R6.3).

    Readings of R6.2: the first marriage or sequence scored fixes trumps to its suit and is
    in trumps. While trumps are undecided every marriage is royal (40) and every sequence the
    sequence in trumps (250; first_sequence=plain: a plain one of 150). A combination shown
    to score keeps its identity (K+Q of a suit, a suit's sequence) when trumps are fixed, and
    takes the worth trumps give it: a royal marriage or a sequence outside trumps is then
    common or plain, a sequence in trumps the trump sequence; it scores "shown earlier", or
    is lost, once.
    """

    PACKS = 4
    HAND_SIZE = 9
    POINTS = R_POINTS

    def __init__(self, game: GameTrace, number: int, dealer: int) -> None:
        super().__init__(game, number, dealer)     # R6.1: PACKS, HAND_SIZE; no turn-up
        self.r_points = self.points_table()
        self.ever: dict[int, set[str]] = {}            # copy -> every tag it scored in
        self.intact: list[list[tuple[str, frozenset]]] = [[], []]   # seat -> (tag, cards)
        self.active: dict[int, set[str]] = {}          # copy -> tags of its intact ones
        self.shown: list[dict] = [{}, {}]   # seat -> family -> (kind, extra, shown cards)
        self.cb = [False, False]            # carte blanche may still repeat (R6.4)
        self.cb_count = [0, 0]
        self.trump_fixed_at = -1
        self.any_class = self.o["rubicon_reuse"] == "any_class"
        self.marriage_to_sequence = self.o["marriage_to_sequence"] == "true"
        self.first_sequence_in_trumps = self.o["first_sequence"] == "trumps"

    # --- deal (R6.1) and carte blanche (R6.4) ----------------------------------------------
    def deal(self) -> None:
        nd, d = 1 - self.dealer, self.dealer
        for seat in ([nd] * 3 + [d] * 3) * (self.HAND_SIZE // 3):
            row = self.g.take(C.TR_DEAL, "deal")
            expect(row[1:3] == [self.n, seat], "deal by threes, left of the dealer first "
                   "(R6.1, R7.1)", row)
            self.receive(seat, row[3])
        row = self.g.take(C.TR_HAND_START, "hand start")
        expect(row[1:6] == [self.n, self.dealer, -1, -1, nd],
               "hand start: no turn-up, trumps undecided, left of the dealer leads (R6.1)", row)
        for seat in (nd, d):
            if not any(rank(c) in COURT for c in self.hands[seat]):
                self.event(0, seat, C.K_CARTE_BLANCHE)
                self.cb[seat] = self.o["carte_blanche_repeats"] == "true"

    def points_table(self) -> dict[int, int]:
        """What each kind scores (R6.3)."""
        return self.POINTS

    def event(self, trick: int, seat: int, kind: int, status: int = C.EV_SCORED,
              extra: int = 0, points: int | None = None) -> list[int]:
        row = self.g.take(C.TR_EVENT, f"event {C.KIND_NAMES[kind]}")
        expect_event_points(row)
        pts = 0 if status == C.EV_LOST else self.r_points[kind]
        want = [self.n, trick, seat, kind, status, extra, pts]
        expect(row[1:8] == want, "event", row[1:8], "expected", want)
        self.points[seat][kind] += pts
        if kind in R_COMBOS and status != C.EV_LOST:
            self.combos[seat] += 1
        if kind == C.K_CARTE_BLANCHE:
            self.cb_count[seat] += 1
        return row

    # --- a trick ------------------------------------------------------------------------------
    def score_trick(self, t: int, w: int, cards: list[int]) -> None:
        """Brisques are counted aside (R6.7); the last trick scores (R6.3)."""
        self.brisques[w] += 10 * sum(rank(c) in (ACE, TEN) for c in cards)
        if t == self.n_tricks:
            self.event(t, w, C.K_LAST_TRICK)

    def after_play(self, t: int, seat: int, card: int, stage1: bool) -> None:
        """R1.10: a played card kills every combination shown to score with it; R6.6: it breaks
        every intact declared combination it is in, freeing the others to re-form."""
        if self.shown[seat]:
            self.lose_shown(t, seat, card)
        if self.active.get(card):    # its tags: the intact combinations it is in
            self.break_intact(seat, card)

    def lose_shown(self, t: int, seat: int, card: int) -> None:
        dead = [key for key, (_, _, cards) in self.shown[seat].items() if card in cards]
        want = sorted(self.shown[seat][key][:2] for key in dead)
        got = []
        for _ in dead:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT and row[5] == C.EV_LOST,
                   "a shown combination was not lost when its card was played (R1.10)", row)
            got.append((row[4], row[6]))
            self.event(t, seat, row[4], C.EV_LOST, row[6])
        expect(sorted(got) == want, "lost combinations", got, want)
        for key in dead:
            del self.shown[seat][key]

    def break_intact(self, seat: int, card: int) -> None:
        keep = []
        for tg, cs in self.intact[seat]:
            if card in cs:
                for c in cs:
                    self.active[c].discard(tg)
            else:
                keep.append((tg, cs))
        self.intact[seat] = keep

    def worth(self, group: int, s: int) -> tuple[int, int]:
        """(kind, extra) of the marriage (group 0) or sequence (1) of suit s under the current
        trumps (R6.2, R6.3)."""
        if group == 0:
            royal = self.trump < 0 or s == self.trump    # undecided: every marriage royal
            return (C.K_ROYAL_MARRIAGE if royal else C.K_COMMON_MARRIAGE), s + 1
        if s == self.trump or (self.trump < 0 and self.first_sequence_in_trumps):
            return C.K_SEQUENCE, 0                       # undecided: it would fix trumps
        return C.K_PLAIN_SEQUENCE, s + 1                 # plain, or first_sequence=plain

    # --- what a copy may still score in (R1.9 as amended by R6.6) ---------------------------
    def may(self, c: int, tg: str) -> bool:
        ever = self.ever.get(c)
        if not ever:
            return True              # never declared (its active tags are a part of ever)
        if tg in self.active.get(c, ()):
            return False             # same kind while its combination is intact (re-forming)
        if not self.any_class and any(R_CLASS[e] > R_CLASS[tg] for e in ever):
            return False             # never back to an earlier class (R6.6 later_class)
        if tg == "marriage":
            return "sequence" not in ever                        # never downward (R1.9.2)
        if tg == "sequence":
            return self.marriage_to_sequence or "marriage" not in ever   # option (R6.6)
        if tg == "four":
            return "trump_four" not in ever                      # never downward (R7.4)
        if (tg == "bez2" and self.o["double_bezique"] == "all_at_once"
                and any(e.startswith("bez") for e in ever)):
            return False             # option: a double only of cards never in a bezique (R6.6)
        if tg.startswith("bez"):
            return all(not (e.startswith("bez") and e > tg) for e in ever)  # never downward
        return True

    def legal_codes(self, w: int) -> dict[tuple[int, int], tuple[int, int]]:
        """Every combination w may score now: family -> (kind, extra) (R1.8, R6.2-R6.6)."""
        by_face: dict[int, list[int]] = {}
        by_rank: dict[int, list[int]] = {}
        for c in self.hands[w]:
            by_face.setdefault(face(c), []).append(c)
            by_rank.setdefault(rank(c), []).append(c)
        may = self.may

        def n_free(f: int, tg: str) -> int:
            return sum(1 for c in by_face.get(f, ()) if may(c, tg))

        out = {}
        for s in range(4):
            k, q = s * 8 + KING, s * 8 + QUEEN
            if k not in by_face or q not in by_face:
                continue             # no marriage, no sequence of this suit
            if n_free(k, "marriage") and n_free(q, "marriage"):
                out[(0, s)] = self.worth(0, s)
            faces = [s * 8 + r for r in SEQ_RANKS]
            if all(f in by_face for f in faces) and all(n_free(f, "sequence") for f in faces):
                out[(1, s)] = self.worth(1, s)
        bq, bj = self.bezique_faces()
        if bq in by_face and bj in by_face:
            for kind, level in BEZ_LEVEL.items():
                tg = R_TAG[kind]
                if n_free(bq, tg) >= level and n_free(bj, tg) >= level:
                    out[family(kind, 0)] = (kind, 0)
        for kind, r in FOURS.items():
            cards = by_rank.get(r, ())
            if len(cards) >= 4 and sum(1 for c in cards if may(c, "four")) >= 4:
                out[family(kind, 0)] = (kind, 0)
        for kind, r in TRUMP_FOURS.items():
            if (self.trump >= 0 and self.r_points.get(kind, 0) > 0
                    and n_free(self.trump * 8 + r, "trump_four") >= 4):
                out[family(kind, 0)] = (kind, 0)
        return out

    def bezique_faces(self) -> tuple[int, int]:
        """The queen and jack of a bezique: Q♠ J♦ (R1.8)."""
        return Q_SPADES, J_DIAMONDS

    # --- declarations (R1.7, R1.10, R6.2-R6.6) -----------------------------------------------
    def declarations(self, t: int, w: int) -> None:
        # greedy takes the best offer (declining is worth 0): what it did shows what was offered
        offers = self.legal_codes(w) if self.g.policies[w] == "greedy" else None
        if offers is not None and not self.g.at(C.TR_DECLARED_CARD):
            expect(not offers, "a legal declaration was not offered to greedy", offers)
        scored = False
        while self.g.at(C.TR_DECLARED_CARD):
            expect(not scored, "two combinations scored on one trick (R1.10, R6.5)")
            self.rubicon_declaration(t, w, offers)
            scored = True
            if t < self.stage1:
                self.shows(t, w)
        expect(not self.g.at(C.TR_SHOW), "shown to score without a declaration",
               self.g.peek())
        if t == self.stage1:
            self.rubicon_flush(t)

    def rubicon_declaration(self, t: int, w: int, offers) -> int:
        cards, kinds = self.declared_cards(t, w)
        row = self.g.peek()
        expect(row is not None and row[0] == C.TR_EVENT, "declared cards without an event", row)
        kind, status, extra = row[4], row[5], row[6]
        expect(row[3] == w, "only the trick winner declares (R1.7)", row)
        expect(kind in R_COMBOS and all(k == kind for k in kinds),
               "declared cards of another kind, or not a combination", kinds, row)
        expect(len(set(cards)) == len(cards)
               and all(c in self.hands[w] for c in cards),
               "declared card not held, already played or used twice (R1.8)", cards,
               self.hands[w])
        s = self.rubicon_shape(kind, extra, cards)
        tg = R_TAG[kind]
        expect(all(self.may(c, tg) for c in cards),
               "a copy reused against R6.6 (same kind while intact, earlier class, downward)",
               C.KIND_NAMES[kind], cards, [sorted(self.ever.get(c, ())) for c in cards])
        key = family(kind, s)
        if offers is not None:
            best = max((self.r_points[k] for k, _ in offers.values()), default=None)
            expect(self.r_points[kind] == best, "greedy declared less than the best legal "
                   "declaration", C.KIND_NAMES[kind], offers)
        was_shown = key in self.shown[w]
        expect(status == (C.EV_SCORED_PENDING if was_shown else C.EV_SCORED),
               "status of a declaration vs. shown to score (R1.10)", row, self.shown[w])
        self.shown[w].pop(key, None)
        self.event(t, w, kind, status, extra)
        for c in cards:
            self.ever.setdefault(c, set()).add(tg)
            self.active.setdefault(c, set()).add(tg)
        self.intact[w].append((tg, frozenset(cards)))
        if self.trump < 0 and key[0] in (0, 1):
            self.trump = s                               # R6.2: the first marriage/sequence
            self.trump_fixed_at = t
            for shown in self.shown:                     # shown ones: worth under trumps
                for (group, suit_), (_, _, cards_) in list(shown.items()):
                    if group in (0, 1):
                        shown[(group, suit_)] = (*self.worth(group, suit_), cards_)
        return kind

    def rubicon_shape(self, kind: int, extra: int, cards: list[int]) -> int:
        """R1.8, R6.2, R6.3: the cards make the kind, worth what trumps make it; returns the
        suit of a marriage or sequence (else 0)."""
        faces = sorted(face(c) for c in cards)
        if kind in MARRIAGES:
            s = extra - 1
            expect(faces == [s * 8 + KING, s * 8 + QUEEN], "marriage is K+Q of a suit", faces)
            expect((kind, extra) == self.worth(0, s),
                   "royal iff trumps undecided or in trumps (R6.2, E9)", kind, s, self.trump)
            return s
        if kind in (C.K_SEQUENCE, C.K_PLAIN_SEQUENCE):
            s = suit(cards[0])
            expect(faces == [s * 8 + r for r in (ACE, TEN, KING, QUEEN, JACK)],
                   "sequence is A 10 K Q J of one suit", faces)
            expect((kind, extra) == self.worth(1, s), "a sequence is the trump sequence iff "
                   "in trumps fixed (R6.2, R6.3); a plain one records its suit", kind, extra,
                   s, self.trump)
            return s
        expect(extra == 0, "extra is only for marriages and plain sequences", kind, extra)
        if kind in BEZ_LEVEL:
            n = BEZ_LEVEL[kind]
            bq, bj = self.bezique_faces()
            expect(faces == sorted([bq] * n + [bj] * n), "bezique cards (R1.8, R7.3)", faces)
        elif kind in TRUMP_FOURS:
            expect(faces == [self.trump * 8 + TRUMP_FOURS[kind]] * 4,
                   "four of a rank in trumps (R7.3)", faces, self.trump)
        else:
            expect(len(cards) == 4 and all(rank(c) == FOURS[kind] for c in cards),
                   "four of a rank", faces)
        return 0

    def shows(self, t: int, w: int) -> None:
        """After a score, every other combination w can make is shown to score (R1.10), one
        group of TR_SHOW rows each; shown earlier ones stay shown."""
        legal = self.legal_codes(w)
        got = {}
        while self.g.at(C.TR_SHOW):
            code = self.g.peek()[5]
            cards = self.shown_cards(t, w, code)
            kind, s = code // 4, code % 4
            expect(kind in R_COMBOS, "shown code is not a combination", code)
            if kind == C.K_SEQUENCE and self.trump >= 0:
                s = self.trump                  # the trump sequence is coded without a suit
            extra = s + 1 if kind in MARRIAGES or kind == C.K_PLAIN_SEQUENCE else 0
            key = family(kind, s)
            expect(key not in got and key not in self.shown[w],
                   "the same combination shown twice", code)
            expect(len(set(cards)) == len(cards) and all(c in self.hands[w] for c in cards),
                   "shown card not held", cards)
            self.rubicon_shape(kind, extra, cards)
            expect(all(self.may(c, R_TAG[kind]) for c in cards),
                   "shown combination that could not score (R6.6)", kind, cards)
            got[key] = (kind, extra, cards)
        want = {key for key in legal if key not in self.shown[w]}
        expect(set(got) == want, "shown to score is not every other legal combination",
               sorted(got), sorted(want))
        self.shown[w].update(got)

    def rubicon_flush(self, t: int) -> None:
        """End of stage 1 (trick 55): every combination still to score is lost (R1.10)."""
        want = sorted((seat, k, e) for seat in range(2) for k, e, _ in self.shown[seat].values())
        got = []
        for _ in want:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT and row[5] == C.EV_LOST,
                   "to score not lost at the end of stage 1", row)
            got.append((row[3], row[4], row[6]))
            self.event(t, row[3], row[4], C.EV_LOST, row[6])
        expect(sorted(got) == want, "combinations lost at the end of stage 1", got, want)
        self.shown = [{}, {}]

    # --- draws (R1.5) and carte blanche again (R6.4) --------------------------------------------
    def draws(self, t: int, w: int) -> None:
        for seat in (w, 1 - w):
            row = self.g.take(C.TR_DRAW, "draw")
            expect(row[1:4] == [self.n, t, seat], "trick winner draws first (R1.5)", row)
            self.receive(seat, row[4])
            if self.cb[seat]:
                if rank(row[4]) in COURT:
                    self.cb[seat] = False          # the first court card ends it (E10)
                else:
                    self.event(t, seat, C.K_CARTE_BLANCHE)

    # --- end of the hand and of the game (R6.3, R6.7, R6.8) ----------------------------------
    def end_of_hand(self) -> None:
        expect(self.hands == [[], []], "cards left in hand after the last trick", self.hands)
        expect(self.played == self.all_cards and self.seen == self.all_cards,
               "every card dealt or drawn once and played once (R6.1, R7.1)")
        expect(sum(self.brisques) == 80 * self.PACKS, "brisques sum to 80 a pack (R1.4)",
               self.brisques)
        expect(not any(self.points[s][C.K_BRISQUES] for s in range(2)),
               "brisques scored in Rubicon or six-pack (R6.7, R7.3)")
        last = [self.points[s][C.K_LAST_TRICK] for s in range(2)]
        w = self.winners[self.n_tricks]
        worth = self.r_points[C.K_LAST_TRICK]
        expect(last[w] == worth and last[1 - w] == 0, "the last trick to its winner (R6.3)",
               last, worth)
        expect(all(not p for p in self.shown), "shown combinations left after the hand")

    def hand_end(self) -> bool:
        pts, row = self.hand_points()
        self.g.scores = pts
        expect(row[1:8] == [self.n, *pad4(pts), 0, 0], "hand end totals", row, pts)
        self.g.hand_rows.append(self.batch_rows())
        self.g.brisques = list(self.brisques)
        self.g.trump = self.trump
        return True                          # one hand is one game (R6.8)

    def batch_rows(self) -> dict:
        info = [self.dealer, self.trump, -1, self.winners[self.stage1],   # no turn-up
                self.winners[self.n_tricks], self.trump_fixed_at]          # R6.2, R8
        seats = []
        for s in range(2):
            kinds = [self.points[s][k] for k in range(C.N_KINDS)]
            seats.append([sum(kinds), sum(kinds), self.won[s], self.combos[s],
                          self.combos[s], 0, self.brisques[s], self.cb_count[s], *kinds])
        return {"info": info, "seat": seats}


