"""The referee's reading of ordinary two-handed bézique (docs/rules.md R1, R2), written from the
rules book and not from the engine, so that the engine's rule code is checked against a second,
independent text: the trick winner (R1.3), the stage-2 duties (R1.6), the shapes, points (R1.8)
and reuse rules (R1.9, tracked per physical copy) of every declaration, the "to score"
bookkeeping (R1.10), the seven of trumps (R2.3), brisques and last trick (R1.4, R2.5).

``Hand`` walks one hand of a trace: it rebuilds the hands from the deal, draws and exchanges
and checks every play and declaration. A greedy seat always takes the best declaration offered
(declining is worth 0), so for greedy seats it also proves that the engine OFFERED every legal
declaration: the best legal one, by points, was taken. Polish and Rubicon hands build on it
(``polish``, ``rubicon``)."""

from __future__ import annotations

from collections import Counter

from bezsim.engine import constants as C
from bezsim.referee.notation import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    NO_TAGS,
    QUEEN,
    SEQ_RANKS,
    SEVEN,
    SPADES,
    TEN,
    face,
    pad4,
    rank,
    suit,
)
from bezsim.referee.trace_reader import GameTrace
from bezsim.referee.violation import expect, expect_event_points, expect_no_negative

# --- R1.8: combinations, their history tag and their points ----------------------------------

MARRIAGES = {C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE}
FOURS = {C.K_FOUR_ACES: ACE, C.K_FOUR_KINGS: KING, C.K_FOUR_QUEENS: QUEEN,
         C.K_FOUR_JACKS: JACK}
COMBOS = MARRIAGES | {C.K_SEQUENCE, C.K_BEZIQUE, C.K_DOUBLE_BEZIQUE} | set(FOURS)
SEVENS = {C.K_SEVEN_EXCHANGE, C.K_SEVEN_DECLARE}
POINTS = {C.K_COMMON_MARRIAGE: 20, C.K_ROYAL_MARRIAGE: 40, C.K_SEQUENCE: 250,
          C.K_BEZIQUE: 40, C.K_DOUBLE_BEZIQUE: 500, C.K_FOUR_ACES: 100, C.K_FOUR_KINGS: 80,
          C.K_FOUR_QUEENS: 60, C.K_FOUR_JACKS: 40, C.K_SEVEN_TURNUP: 10,
          C.K_SEVEN_EXCHANGE: 10, C.K_SEVEN_DECLARE: 10, C.K_SEVEN_PLAYED: 10,
          C.K_LAST_TRICK: 10}
CLASS_M = {"marriage", "sequence"}
CLASS_B = {"bezique", "double"}


def tag(kind: int) -> str:
    if kind in MARRIAGES:
        return "marriage"
    if kind == C.K_SEQUENCE:
        return "sequence"
    if kind == C.K_BEZIQUE:
        return "bezique"
    if kind == C.K_DOUBLE_BEZIQUE:
        return "double"
    return "four"


# --- R1.3 and R1.6 ------------------------------------------------------------------------------

def trick_winner(lead: int, follow: int, trump: int) -> int:
    """0 if the leader wins, 1 if the follower does (R1.3; identical cards: the first)."""
    if suit(follow) == suit(lead):
        return 1 if rank(follow) < rank(lead) else 0
    return 1 if suit(follow) == trump else 0


def legal_follows(hand: list[int], lead: int, trump: int, duty: str) -> list[int]:
    """Stage-2 replies to ``lead`` (R1.6; option stage2_duty)."""
    same = [c for c in hand if suit(c) == suit(lead)]
    if same:
        higher = [c for c in same if rank(c) < rank(lead)]
        return higher if duty == "follow_and_win" and higher else same
    trumps = [c for c in hand if suit(c) == trump]
    if duty == "follow_and_win" and trumps:
        return trumps
    return list(hand)

class Hand:
    """One hand: the cards of each seat, every copy's declaration history, pending shows."""

    def __init__(self, game: GameTrace, number: int, dealer: int) -> None:
        self.g = game
        self.o = game.o
        self.n = number
        self.dealer = dealer
        self.hands: list[list[int]] = [[], []]
        self.seen: set[int] = set()          # dealt, turned up or drawn from the stock
        self.played: set[int] = set()
        self.hist: dict[int, set[str]] = {}  # copy -> kinds it scored in (R1.9, per copy)
        self.pending: list[dict[int, list[int]]] = [{}, {}]   # seat -> code -> shown cards
        self.points = [Counter(), Counter()]  # seat -> kind -> points
        self.combos = [0, 0]                  # combinations scored, per seat
        self.won = [0, 0]
        self.brisques = [0, 0]
        self.exchanged = False
        self.turnup = self.dealt_turnup = -1
        self.trump = -1
        self.winners: dict[int, int] = {}

    # --- deal (R2.1) -----------------------------------------------------------------------
    def run(self) -> bool:
        self.deal()
        leader = 1 - self.dealer
        for trick in range(1, 33):
            leader = self.trick(trick, leader)
        self.end_of_hand()
        return self.hand_end()

    def deal(self) -> None:
        nd, d = 1 - self.dealer, self.dealer
        order = [nd] * 3 + [d] * 3 + [nd] * 2 + [d] * 2 + [nd] * 3 + [d] * 3
        for seat in order:
            row = self.g.take(C.TR_DEAL, "deal")
            expect(row[1:3] == [self.n, seat], "deal order 3-2-3, non-dealer first (R2.1)", row)
            self.receive(seat, row[3])
        row = self.g.take(C.TR_HAND_START, "hand start")
        self.turnup = self.dealt_turnup = row[4]
        self.trump = suit(self.turnup)
        expect(row[1:6] == [self.n, self.dealer, self.trump, self.turnup, nd],
               "hand start: dealer alternates, trumps = turn-up suit, non-dealer leads", row)
        self.new_card(self.turnup)
        if rank(self.turnup) == SEVEN:
            self.event(0, self.dealer, C.K_SEVEN_TURNUP)

    def new_card(self, card: int) -> None:
        expect(0 <= card < 64 and card not in self.seen, "card seen twice in a hand", card)
        self.seen.add(card)

    def receive(self, seat: int, card: int) -> None:
        self.new_card(card)
        self.hands[seat].append(card)

    def event(self, trick: int, seat: int, kind: int, status: int = C.EV_SCORED,
              extra: int = 0, points: int | None = None) -> list[int]:
        row = self.g.take(C.TR_EVENT, f"event {C.KIND_NAMES[kind]}")
        expect_event_points(row)
        pts = POINTS.get(kind, 0) if points is None else points
        if status == C.EV_LOST:
            pts = 0
        want = [self.n, trick, seat, kind, status, extra, pts]
        expect(row[1:8] == want, "event", row[1:8], "expected", want)
        self.points[seat][kind] += pts
        if kind in COMBOS and status != C.EV_LOST:
            self.combos[seat] += 1     # ordinary: one combination per trick won (R1.10)
        return row

    # --- a trick ----------------------------------------------------------------------------
    def trick(self, t: int, leader: int) -> int:
        stage1 = t <= 24
        cards = [self.play(t, leader, None, stage1), None]
        cards[1] = self.play(t, 1 - leader, cards[0], stage1)
        w = self.trick_won(t, leader, cards)
        self.score_trick(t, w, cards)
        if stage1:
            self.declarations(t, w)
            self.draws(t, w)
        return w

    def play(self, t: int, seat: int, lead: int | None, stage1: bool) -> int:
        row = self.g.take(C.TR_PLAY, "play")
        card, n_legal = row[4], row[5]
        expect(row[1:4] == [self.n, t, seat], "play order: leader, then the other", row)
        hand = self.hands[seat]
        expect(card in hand, "card played that the seat does not hold", card, hand)
        legal = hand if stage1 or lead is None else legal_follows(
            hand, lead, self.trump, self.o["stage2_duty"])
        expect(card in legal, "illegal stage-2 play (R1.6)", card, "lead", lead, "hand", hand)
        expect(n_legal == len(legal), "offered plays differ from the legal set", n_legal, legal)
        hand.remove(card)
        expect(card not in self.played, "card played twice", card)
        self.played.add(card)
        self.after_play(t, seat, card, stage1)
        return card

    def after_play(self, t: int, seat: int, card: int, stage1: bool) -> None:
        """R1.10: a played card kills every 'to score' combination it was shown in."""
        if self.pending[seat]:
            self.lose_shown(t, seat, card)
        if (self.o["seven_scores_when"] == "played" and stage1
                and face(card) == self.trump * 8 + SEVEN):
            self.event(t, seat, C.K_SEVEN_PLAYED)

    def lose_shown(self, t: int, seat: int, card: int) -> None:
        dead = sorted(code for code, cards in self.pending[seat].items() if card in cards)
        lost = []
        for _ in dead:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT and row[5] == C.EV_LOST,
                   "a shown combination was not lost when its card was played (R1.10)", row)
            lost.append(row[4] * 4 + max(row[6] - 1, 0))
            self.event(t, seat, row[4], C.EV_LOST, row[6])
        expect(sorted(lost) == dead, "lost combinations", lost, dead)
        for code in dead:
            del self.pending[seat][code]

    def score_trick(self, t: int, w: int, cards: list[int]) -> None:
        brisques = 10 * sum(rank(c) in (ACE, TEN) for c in cards)
        self.brisques[w] += brisques
        if self.o["brisques_when"] == "when_won" and brisques:
            self.event(t, w, C.K_BRISQUES, points=brisques)
        self.last_trick(t, w)

    def last_trick(self, t: int, w: int) -> None:
        """The last-trick points of R2.2 (option ``last_trick``) to the winner of trick t."""
        mode = self.o["last_trick"]
        if (t == 32 and mode in ("trick32", "both")) or (t == 24 and mode in ("trick24",
                                                                              "both")):
            self.event(t, w, C.K_LAST_TRICK)

    # --- declarations (R1.7-R1.10, R2.3, R2.4) -----------------------------------------------
    def declarations(self, t: int, w: int) -> None:
        if t == 24 and self.o["declare_after_last_stock_trick"] == "false":
            self.flush(t)
            return
        greedy = self.g.policies[w] == "greedy"
        combos = sevens = 0
        while True:
            row = self.g.peek()
            ends = (row is None or row[0] == C.TR_DRAW
                    or (row[0] == C.TR_EVENT and row[5] == C.EV_LOST))  # the flush (R2.4)
            if row is not None and row[0] == C.TR_SHOW:
                expect(combos == 1 and t < 24, "shown to score without a declaration", row)
                self.show(t, w)
                continue
            if greedy:
                self.check_greedy_choice(w, combos, sevens, None if ends else row)
            if ends:
                break
            kind = self.declaration(t, w)
            combos += kind in COMBOS
            sevens += kind in SEVENS
            if self.o["seven_exchange_is_declaration"] == "true":
                expect(combos + sevens <= 1, "two declarations on one trick (R1.10, R2.3)")
            else:
                expect(combos <= 1 and sevens <= 1, "two declarations on one trick (R1.10)")
        if t == 24:
            self.flush(t)

    # --- what the winner may declare now (independent of the engine) --------------------------
    def check_greedy_choice(self, w: int, combos: int, sevens: int, row) -> None:
        """Greedy takes the best offer and declining is worth 0, so its next declaration (or
        none) shows whether the engine offered every legal declaration, by points."""
        one = self.o["seven_exchange_is_declaration"] == "true"
        offers = []
        if combos == 0 and (not one or sevens == 0):
            offers += self.legal_combinations(w)
        if (sevens == 0 and not one) or (one and combos + sevens == 0):
            offers += [10] if self.legal_seven(w) else []
        if row is None:
            expect(not offers, "a legal declaration was not offered to greedy", offers)
            return
        kind = C.K_SEVEN_EXCHANGE if row[0] == C.TR_EXCHANGE else self.next_event_kind()
        expect(offers and POINTS[kind] == max(offers),
               "greedy declared less than the best legal declaration", kind, offers)

    def next_event_kind(self) -> int:
        rows = self.g.rows
        i = self.g.pos
        while rows[i][0] == C.TR_DECLARED_CARD:
            i += 1
        return rows[i][4]

    def free(self, seat: int, f: int, banned: set[str]) -> list[int]:
        """Held copies of face f whose history has none of ``banned``."""
        return [c for c in self.hands[seat] if face(c) == f
                and not (self.hist.get(c, set()) & banned)]

    def legal_combinations(self, w: int) -> list[int]:
        """Points of every combination w may score now (R1.8, R1.9, options). (``free`` on
        the hand grouped by face once: this runs at every greedy seat's trick won.)"""
        hist = self.hist
        by_face: dict[int, list[int]] = {}
        by_rank: dict[int, list[int]] = {}
        for c in self.hands[w]:
            by_face.setdefault(face(c), []).append(c)
            by_rank.setdefault(rank(c), []).append(c)

        def free(f: int, banned) -> list[int]:
            return [c for c in by_face.get(f, ()) if not (hist.get(c, NO_TAGS) & banned)]

        out = []
        for s in range(4):
            k, q = s * 8 + KING, s * 8 + QUEEN
            if k in by_face and q in by_face and free(k, CLASS_M) and free(q, CLASS_M):
                out.append(40 if s == self.trump else 20)
        seq_faces = [self.trump * 8 + r for r in SEQ_RANKS]
        seq_ban = {"sequence"} | ({"marriage"} if self.o["marriage_to_sequence"] == "false"
                                  else set())
        if all(f in by_face for f in seq_faces) and all(free(f, seq_ban) for f in seq_faces):
            out.append(250)     # A, 10 and J can never be in class M yet: rule 3 holds
        q, j = self.bezique_faces()
        if q in by_face and j in by_face:
            if free(q, CLASS_B) and free(j, CLASS_B):
                out.append(40)
            dq, dj = free(q, {"double"}), free(j, {"double"})
            new = [c for c in dq + dj if not hist.get(c, NO_TAGS) & CLASS_B]
            if self.o["double_bezique"] == "all_at_once":
                dq, dj = free(q, CLASS_B), free(j, CLASS_B)
            if len(dq) >= 2 and len(dj) >= 2 and new:
                out.append(500)
        for kind, r in FOURS.items():
            cards = by_rank.get(r, ())
            if len(cards) >= 4 and sum("four" not in hist.get(c, NO_TAGS) for c in cards) >= 4:
                out.append(POINTS[kind])
        return out

    def legal_seven(self, w: int) -> bool:
        if not self.free(w, self.trump * 8 + SEVEN, {"seven"}):
            return False
        can_exchange = not self.exchanged and rank(self.turnup) != SEVEN
        return can_exchange or self.o["seven_scores_when"] == "declared"

    def declared_cards(self, t: int, w: int) -> tuple[list[int], list[int]]:
        cards, kinds = [], []
        while self.g.at(C.TR_DECLARED_CARD):
            row = self.g.take(C.TR_DECLARED_CARD, "declared card")
            expect(row[1:4] == [self.n, t, w], "only the trick winner declares (R1.7)", row)
            cards.append(row[4])
            kinds.append(row[5])
        return cards, kinds

    def declaration(self, t: int, w: int) -> int:
        if self.g.at(C.TR_EXCHANGE):
            self.exchange(t, w)
            return C.K_SEVEN_EXCHANGE
        cards, kinds = self.declared_cards(t, w)
        row = self.g.peek()
        expect(row is not None and row[0] == C.TR_EVENT, "declared cards without an event", row)
        expect(row[3] == w, "only the trick winner declares (R1.7)", row)
        kind, status, extra = row[4], row[5], row[6]
        expect(all(k == kind for k in kinds), "declared cards of another kind", kinds, kind)
        if kind == C.K_SEVEN_DECLARE:
            expect(self.o["seven_scores_when"] == "declared", "seven declared under 'played'")
            expect(len(cards) == 1, "a seven declaration shows one card", cards)
            self.check_seven(w, cards[0])
            self.event(t, w, kind)
            return kind
        expect(kind in COMBOS, "unexpected event in the declaration phase", row)
        self.check_combination(w, kind, extra, cards)
        code = kind * 4 + (extra - 1 if kind in MARRIAGES else 0)
        was_pending = code in self.pending[w]
        expect(status == (C.EV_SCORED_PENDING if was_pending else C.EV_SCORED),
               "status of a declaration vs. shown to score (R1.10)", row)
        self.pending[w].pop(code, None)
        self.event(t, w, kind, status, extra)
        for c in cards:
            self.hist.setdefault(c, set()).add(tag(kind))
        return kind

    def check_seven(self, w: int, seven: int) -> None:
        expect(face(seven) == self.trump * 8 + SEVEN, "not the seven of trumps (R2.3)", seven)
        expect(seven in self.hands[w], "seven not held", seven)
        expect("seven" not in self.hist.get(seven, ()), "a seven scored twice (R2.3)", seven)
        self.hist.setdefault(seven, set()).add("seven")

    def exchange(self, t: int, w: int) -> None:
        row = self.g.take(C.TR_EXCHANGE, "exchange")
        seven, turnup = row[4], row[5]
        expect(row[1:4] == [self.n, t, w], "exchange by the trick winner", row)
        expect(not self.exchanged, "second exchange in a hand (R2.3)")
        expect(turnup == self.turnup, "exchanged for a card that is not the turn-up", row)
        self.check_seven(w, seven)
        self.hands[w].remove(seven)
        self.hands[w].append(turnup)
        self.turnup = seven
        self.exchanged = True
        self.event(t, w, C.K_SEVEN_EXCHANGE)

    def shown_cards(self, t: int, w: int, code: int) -> list[int]:
        """The cards of one combination the trick winner shows "to score" (R1.10): the run of
        show rows with its code."""
        cards = []
        while self.g.at(C.TR_SHOW) and self.g.peek()[5] == code:
            row = self.g.take(C.TR_SHOW, "show")
            expect(row[1:4] == [self.n, t, w], "shown by the trick winner", row)
            cards.append(row[4])
        return cards

    def show(self, t: int, w: int) -> None:
        code = self.g.peek()[5]
        cards = self.shown_cards(t, w, code)
        kind, s = code // 4, code % 4
        expect(kind in COMBOS, "shown code is not a combination", code)
        expect(code not in self.pending[w], "the same combination shown twice", code)
        self.check_combination(w, kind, s + 1 if kind in MARRIAGES else 0, cards)
        self.pending[w][code] = cards

    def flush(self, t: int) -> None:
        """End of stage 1: every combination still to score is lost (R1.10, R2.4)."""
        left = sorted((seat, code) for seat in range(2) for code in self.pending[seat])
        lost = []
        for _ in left:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT, "pending not lost at trick 24")
            seat, kind, extra = row[3], row[4], row[6]
            lost.append((seat, kind * 4 + max(extra - 1, 0)))
            self.event(t, seat, kind, C.EV_LOST, extra)
        expect(sorted(lost) == left, "combinations lost at the end of stage 1", lost, left)
        self.pending = [{}, {}]

    # --- R1.8 shapes and R1.9 reuse, per physical copy -----------------------------------------
    def bezique_faces(self) -> tuple[int, int]:
        """Q♠ J♦; bezique_pair=by_trump: Q♣ J♥ when spades or diamonds are trumps (R9)."""
        if self.o["bezique_pair"] == "by_trump" and self.trump in (SPADES, DIAMONDS):
            return CLUBS * 8 + QUEEN, HEARTS * 8 + JACK
        return SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK

    def check_combination(self, seat: int, kind: int, extra: int, cards: list[int]) -> None:
        expect(len(set(cards)) == len(cards), "a copy used twice in one combination", cards)
        for c in cards:
            expect(c in self.hands[seat], "declared card not held or already played (R1.8)",
                   c, self.hands[seat])
        self.check_shape(kind, extra, cards)
        self.check_reuse(kind, cards)

    def check_shape(self, kind: int, extra: int, cards: list[int]) -> None:
        faces = sorted(face(c) for c in cards)
        if kind in MARRIAGES:
            s = extra - 1
            expect(faces == [s * 8 + KING, s * 8 + QUEEN], "marriage is K+Q of a suit", faces)
            royal = s == self.trump
            expect(kind == (C.K_ROYAL_MARRIAGE if royal else C.K_COMMON_MARRIAGE),
                   "royal iff in trumps", kind, s, self.trump)
        elif kind == C.K_SEQUENCE:
            want = sorted(self.trump * 8 + r for r in (ACE, TEN, KING, QUEEN, JACK))
            expect(faces == want, "sequence is A 10 K Q J of trumps", faces)
        elif kind in (C.K_BEZIQUE, C.K_DOUBLE_BEZIQUE):
            q, j = self.bezique_faces()
            n = 1 if kind == C.K_BEZIQUE else 2
            expect(faces == sorted([q] * n + [j] * n), "bezique cards", faces)
        else:
            expect(len(cards) == 4 and all(rank(c) == FOURS[kind] for c in cards),
                   "four of a rank", faces)
        if kind not in MARRIAGES:
            expect(extra == 0, "extra is only for marriages", kind, extra)

    def check_reuse(self, kind: int, cards: list[int]) -> None:
        hist = [self.hist.get(c, set()) for c in cards]
        t = tag(kind)
        expect(all(t not in h for h in hist), "same kind twice for a copy (R1.9.1)", kind, cards)
        if kind in MARRIAGES:
            expect(all("sequence" not in h for h in hist), "marriage from a sequence (R1.9.2)")
        if kind == C.K_BEZIQUE:
            expect(all("double" not in h for h in hist), "single from a double (R1.9.2)")
        if kind == C.K_SEQUENCE:
            if self.o["marriage_to_sequence"] == "false":
                expect(all("marriage" not in h for h in hist), "married card in a sequence")
            expect(any(not (h & CLASS_M) for h in hist), "no new card in class M (R1.9.3)")
        if kind == C.K_DOUBLE_BEZIQUE:
            expect(any(not (h & CLASS_B) for h in hist), "no new card in class B (R1.9.3)",
                   cards, hist)
            if self.o["double_bezique"] == "all_at_once":
                expect(all(not (h & CLASS_B) for h in hist), "double from a single (option)")

    # --- draws (R1.5, R2.2) ---------------------------------------------------------------------
    def draws(self, t: int, w: int) -> None:
        for k, seat in enumerate((w, 1 - w)):
            row = self.g.take(C.TR_DRAW, "draw")
            expect(row[1:4] == [self.n, t, seat], "trick winner draws first (R1.5)", row)
            card = row[4]
            if t == 24 and k == 1:
                expect(card == self.turnup, "loser of trick 24 takes the turn-up (R2.2)", row)
                self.hands[seat].append(card)
            else:
                self.receive(seat, card)

    # --- end of hand (R1.4, R2.5) -----------------------------------------------------------------
    def end_of_hand(self) -> None:
        expect(self.hands == [[], []], "cards left in hand after 32 tricks", self.hands)
        expect(self.played == set(range(64)) and self.seen == set(range(64)),
               "every card once: dealt/turned up/drawn and played")
        expect(sum(self.brisques) == 160, "brisques sum to 160 (R1.4)", self.brisques)
        if self.o["brisques_when"] == "end_of_hand":
            for seat in range(2):
                if self.brisques[seat]:
                    self.event(33, seat, C.K_BRISQUES, points=self.brisques[seat])
        last = [self.points[s][C.K_LAST_TRICK] for s in range(2)]
        if self.o["last_trick"] == "trick32":
            w32 = self.winners[32]
            expect(last[w32] == 10 and last[1 - w32] == 0, "last trick to trick 32's winner")
        expect(all(not p for p in self.pending), "shown combinations left after the hand")

    def trick_won(self, t: int, leader: int, cards: list[int]) -> int:
        """The trick's winner by R1.3 (no trumps while ``self.trump`` is -1), checked against
        the trace and counted; returns the winning seat."""
        w = (leader + trick_winner(cards[0], cards[1], self.trump)) % 2
        row = self.g.take(C.TR_TRICK_WON, "trick won")
        expect(row[1:8] == [self.n, t, w, cards[0], cards[1], -1, -1], "trick winner (R1.3)",
               row, "expected winner", w, "trumps", self.trump)
        self.won[w] += 1
        self.winners[t] = w
        return w

    def hand_points(self) -> tuple[list[int], list[int]]:
        """The hand's points by seat (the sum of its events), checked against the trace's
        hand-points row; returns them and the hand-end row that follows."""
        pts = [sum(self.points[s].values()) for s in range(2)]
        row = self.g.take(C.TR_HAND_POINTS, "hand points")
        expect_no_negative(row, 2, "hand points")
        expect(row[1:8] == [self.n, *pad4(pts), 0, 0], "hand points = the events", row, pts)
        row = self.g.take(C.TR_HAND_END, "hand end")
        expect_no_negative(row, 2, "score after the hand")
        return pts, row

    def hand_end(self) -> bool:
        pts, row = self.hand_points()
        before = list(self.g.scores)
        self.g.scores = [before[s] + pts[s] for s in range(2)]
        expect(row[1:8] == [self.n, *pad4(self.g.scores), 0, 0], "hand end totals", row, pts)
        expect(all(a >= b for a, b in zip(self.g.scores, before, strict=True)),
               "scores decreased")
        self.g.hand_rows.append(self.batch_rows())
        target = self.g.o["target"]
        top = max(self.g.scores)
        return top >= target and self.g.scores.count(top) == 1

    def batch_rows(self) -> dict:
        w24 = self.winners[24]
        # the turn-up fixed trumps at the deal (R2.1)
        info = [self.dealer, self.trump, self.dealt_turnup, w24, self.winners[32], C.TRICK_DEAL]
        seats = []
        for s in range(2):
            kinds = [self.points[s][k] for k in range(C.N_KINDS)]
            seats.append([sum(kinds), self.g.scores[s], self.won[s], self.combos[s],
                          self.combos[s], 0, self.points[s][C.K_BRISQUES], 0, *kinds])
        return {"info": info, "seat": seats}


