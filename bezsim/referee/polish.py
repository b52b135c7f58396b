"""The referee's reading of Polish (open) bézique (docs/rules.md R5), independent of the
engine's: deal and draws as in R2; after every trick (both stages) exactly the trick's A, K, Q,
J and ten of trumps join the winner's open cards (never played again, R5.1), every ace and ten
scores 10 at once, each seven of trumps scores once (turn-up, exchange or won in a trick; a
greedy winner always exchanges when it may, R5.3); declarations are checked one by one (open
cards only, a new card in each, R1.9 rule 1 per copy) and as a whole: the referee computes
every combination the trick completes and requires exactly those (R5.2 completeness)."""

from __future__ import annotations

from bezsim.engine import constants as C
from bezsim.referee.notation import (
    ACE,
    JACK,
    KING,
    NO_TAGS,
    QUEEN,
    SEQ_RANKS,
    SEVEN,
    TEN,
    face,
    rank,
    suit,
)
from bezsim.referee.trace_reader import GameTrace
from bezsim.referee.two_handed import COMBOS, FOURS, TAG, Hand
from bezsim.referee.violation import Violation, expect

ALL_CARDS = frozenset(range(64))
SEVEN_KINDS = (C.K_SEVEN_TURNUP, C.K_SEVEN_EXCHANGE, C.K_SEVEN_PLAYED)


def is_open_card(card: int, trump: int) -> bool:
    """R5.1: any A, K, Q, J and the ten of trumps go face up; 7, 8, 9 and plain tens do not."""
    return rank(card) in (ACE, KING, QUEEN, JACK) or (rank(card) == TEN and suit(card) == trump)


class PolishHand(Hand):
    """A hand of Polish bézique (R5): deal, draws and tricks as in R2; after every trick (both
    stages) the trick's scoring cards join the winner's open cards, its aces and tens score at
    once, its seven of trumps is exchanged or scored, and every combination completed with the
    open cards by a card new on this trick scores (a compound declaration). Only R1.9 rule 1
    holds, per copy."""

    def __init__(self, game: GameTrace, number: int, dealer: int) -> None:
        super().__init__(game, number, dealer)
        self.open: list[list[int]] = [[], []]     # seat -> its open cards (R5.1)
        self.open_set: set[int] = set()           # both seats' (an index of ``open``)
        self.open_faces: list[dict[int, list[int]]] = [{}, {}]  # seat -> face -> open cards
        self.new: list[int] = []                  # cards that joined them on this trick
        self.taken_turnup = -1                    # the turn-up won by the exchange (R5.3)
        self.declaring = [0, 0]                   # tricks with >= 1 combination scored
        self.compounds = [0, 0]                   # tricks with >= 2 (R5.2)
        self.banned_tags: dict[int, set[str]] = {}  # kind -> banned(kind), options fixed

    def deal(self) -> None:
        super().deal()
        if rank(self.turnup) == SEVEN:            # it scored (R2.1): never again (R5.3)
            self.hist.setdefault(self.turnup, set()).add("seven")

    def after_play(self, t: int, seat: int, card: int, stage1: bool) -> None:
        """Nothing scores on a play in Polish; an open card is never played (R5.1)."""
        expect(card not in self.open_set, "an open card was played (R5.1)", card)

    # --- a trick ------------------------------------------------------------------------------
    def trick(self, t: int, seats: list[int], stage1: bool) -> int:
        w, cards = self.play_trick(t, seats, stage1)     # R5.4 = R1.6 for two hands
        self.brisques_and_last(t, w, cards)
        self.new = []
        self.open_cards(t, w, cards)
        self.sevens(t, w, cards)
        self.compound(t, w)
        if stage1:
            self.draws(t, w)
        return w

    def brisques_and_last(self, t: int, w: int, cards: list[int]) -> None:
        """R5.3: aces and tens (plain tens too) score 10 each as the trick is won."""
        brisques = 10 * sum(rank(c) in (ACE, TEN) for c in cards)
        self.brisques[w] += brisques
        if brisques:
            self.event(t, w, C.K_BRISQUES, points=brisques)
        self.last_trick(t, w)

    def join(self, t: int, w: int) -> None:
        row = self.g.take(C.TR_OPEN, "open card")
        card = row[4]
        expect(row[1:4] == [self.n, t, w], "a card joins the trick winner's open cards", row)
        expect(card not in self.open_set and all(card not in h for h in self.hands),
               "an open card twice, or still in a hand (R5.1)", card)
        self.add_open(w, card)
        self.new.append(card)

    def add_open(self, w: int, card: int) -> None:
        self.open[w].append(card)
        self.open_set.add(card)
        self.open_faces[w].setdefault(face(card), []).append(card)

    def open_cards(self, t: int, w: int, cards: list[int]) -> None:
        """R5.1: exactly the trick's A, K, Q, J and ten of trumps join the winner's open cards."""
        joined = []
        while self.g.at(C.TR_OPEN):
            self.join(t, w)
            joined.append(self.new[-1])
        want = [c for c in cards if is_open_card(c, self.trump)]
        expect(sorted(joined) == sorted(want), "open cards of the trick (R5.1)", joined, want)

    def sevens(self, t: int, w: int, cards: list[int]) -> None:
        """R5.3: each seven of trumps in the trick that never scored is exchanged for the
        turn-up (while it lies there, is no seven and no exchange happened) or scores 10 as it
        lies, for the trick's winner. A greedy winner always takes the exchange (10 > 0)."""
        for c in cards:
            if face(c) != self.trump * 8 + SEVEN or "seven" in self.hist.get(c, ()):
                continue
            self.hist.setdefault(c, set()).add("seven")
            can = not self.exchanged and t <= self.stage1 and rank(self.turnup) != SEVEN
            if can and self.g.at(C.TR_EXCHANGE):
                self.polish_exchange(t, w, c)
                continue
            expect(not (can and self.g.policies[w] == "greedy"),
                   "greedy was not offered the seven's exchange (R5.3)", c, self.turnup)
            self.event(t, w, C.K_SEVEN_PLAYED)

    def polish_exchange(self, t: int, w: int, seven: int) -> None:
        row = self.g.take(C.TR_EXCHANGE, "exchange")
        old = self.turnup
        expect(row[1:6] == [self.n, t, w, seven, old],
               "the trick's seven exchanged for the turn-up by the trick winner (R5.3)", row)
        self.exchanged = True
        self.turnup = seven           # drawn by the loser of trick 24, played again
        self.played.discard(seven)
        self.taken_turnup = old
        self.event(t, w, C.K_SEVEN_EXCHANGE)
        if rank(old) in (ACE, TEN):   # won like a card of the trick (R5.3)
            self.brisques[w] += 10
            self.event(t, w, C.K_BRISQUES, points=10)
        if is_open_card(old, self.trump):
            expect(self.g.at(C.TR_OPEN), "the turn-up taken did not join the open cards", old)
            self.join(t, w)
            expect(self.new[-1] == old, "open card after the exchange is not the turn-up")
        else:
            expect(not self.g.at(C.TR_OPEN), "a 7/8/9 turn-up became an open card (R5.1)")

    # --- compound declaration (R5.2) ----------------------------------------------------------
    def banned(self, kind: int) -> set[str]:
        """History tags that keep a copy out of ``kind``: R1.9 rule 1 (its own kind), plus the
        options that bar growth from an earlier trick's declaration (R9)."""
        out = self.banned_tags.get(kind)
        if out is None:
            out = {TAG[kind]}
            if kind == C.K_SEQUENCE and self.o["marriage_to_sequence"] == "false":
                out.add("marriage")
            if kind == C.K_DOUBLE_BEZIQUE and self.o["double_bezique"] == "all_at_once":
                out.add("bezique")
            self.banned_tags[kind] = out
        return out

    def free_open(self, by_face: dict[int, list[int]], kind: int, faces) -> list[int]:
        """The open copies of ``faces`` (``by_face``: a seat's open cards by face) that may
        still score in ``kind``."""
        banned = self.banned(kind)
        hist = self.hist
        return [c for f in faces for c in by_face.get(f, ()) if not banned & hist.get(c, NO_TAGS)]

    def completed(self, w: int) -> list[tuple[int, int]]:
        """(kind, extra) of every combination the new cards complete with w's open cards:
        made of open cards only, at least one of them new, no copy reused in its kind (R1.9
        rule 1; rules 2-4 do not apply; options as in ``banned``). One per kind, per suit for
        marriages. The compound is judged whole: on the history before this trick.
        A kind none of whose faces is among the new cards cannot be completed now, so it is
        not looked at (speed: the soak walks millions of tricks)."""
        new = set(self.new)
        out = []
        if not new:
            return out
        new_faces = {face(c) for c in new}
        new_ranks = {rank(c) for c in new}
        by_face = self.open_faces[w]

        def fresh(*groups):
            return any(c in new for g in groups for c in g)

        for s in range(4):
            kf, qf = s * 8 + KING, s * 8 + QUEEN
            if kf not in new_faces and qf not in new_faces:
                continue
            k = self.free_open(by_face, C.K_COMMON_MARRIAGE, (kf,))
            q = self.free_open(by_face, C.K_COMMON_MARRIAGE, (qf,))
            if k and q and fresh(k, q):
                royal = s == self.trump
                out.append((C.K_ROYAL_MARRIAGE if royal else C.K_COMMON_MARRIAGE, s + 1))
        seq_faces = [self.trump * 8 + r for r in SEQ_RANKS]
        if new_faces.intersection(seq_faces):
            seq = [self.free_open(by_face, C.K_SEQUENCE, (f,)) for f in seq_faces]
            if all(seq) and fresh(*seq):
                out.append((C.K_SEQUENCE, 0))
        bq, bj = self.bezique_faces()
        if bq in new_faces or bj in new_faces:
            q1 = self.free_open(by_face, C.K_BEZIQUE, (bq,))
            j1 = self.free_open(by_face, C.K_BEZIQUE, (bj,))
            if q1 and j1 and fresh(q1, j1):
                out.append((C.K_BEZIQUE, 0))
            q2 = self.free_open(by_face, C.K_DOUBLE_BEZIQUE, (bq,))
            j2 = self.free_open(by_face, C.K_DOUBLE_BEZIQUE, (bj,))
            if len(q2) >= 2 and len(j2) >= 2 and fresh(q2, j2):
                out.append((C.K_DOUBLE_BEZIQUE, 0))
        for kind, r in FOURS.items():
            if r in new_ranks:
                four = self.free_open(by_face, kind, [s * 8 + r for s in range(4)])
                if len(four) >= 4 and fresh(four):
                    out.append((kind, 0))
        return out

    def compound(self, t: int, w: int) -> None:
        want = self.completed(w)       # before this trick's declarations mark their copies
        got: list[tuple[int, int]] = []
        tags: list[tuple[int, list[int]]] = []
        while self.g.at(C.TR_DECLARED_CARD):
            cards, kinds = self.declared_cards(t, w)
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT, "declared cards without an event",
                   row)
            expect(row[3] == w, "only the trick winner declares (R5.2)", row)
            kind, status, extra = row[4], row[5], row[6]
            expect(kind in COMBOS and status == C.EV_SCORED, "a Polish declaration", row)
            expect(all(k == kind for k in kinds), "declared cards of another kind", kinds, kind)
            expect((kind, extra) not in got, "the same combination twice on one trick",
                   kind, extra)
            self.check_open_combination(w, kind, extra, cards)
            self.event(t, w, kind, status, extra)
            got.append((kind, extra))
            tags.append((kind, cards))
        for kind, cards in tags:        # the copies' history grows once the compound is whole
            for c in cards:
                self.hist.setdefault(c, set()).add(TAG[kind])
        if sorted(got) != sorted(want):        # (the message sorts: not on every trick)
            raise Violation("the compound is not every combination the trick completes (R5.2): "
                            f"declared {got} completed {want} open {sorted(self.open[w])} "
                            f"new {self.new}")
        if got:
            self.declaring[w] += 1
            if len(got) > 1:
                self.compounds[w] += 1

    def check_open_combination(self, w: int, kind: int, extra: int, cards: list[int]) -> None:
        expect(len(set(cards)) == len(cards), "a copy used twice in one combination", cards)
        expect(all(c in self.open[w] for c in cards),
               "declared card not among the winner's open cards (R5.1, R5.2)", cards,
               self.open[w])
        self.check_shape(kind, extra, cards)
        banned = self.banned(kind)
        expect(all(not banned & self.hist.get(c, set()) for c in cards),
               "a copy reused in its kind (R1.9.1) or against an option (R9)", kind, cards)
        expect(any(c in self.new for c in cards),
               "a declaration without a card new on this trick (R5.2)", kind, cards, self.new)

    # --- end of hand ----------------------------------------------------------------------------
    def end_of_hand(self) -> None:
        expect(self.hands == [[], []], "cards left in hand after 32 tricks", self.hands)
        expect(self.seen == ALL_CARDS, "every card dealt, turned up or drawn once")
        taken = {self.taken_turnup} if self.exchanged else set()
        expect(self.played == ALL_CARDS - taken,
               "every card played, but the turn-up taken by the exchange (R5.3)")
        expect(sum(self.brisques) == 160, "brisques sum to 160 (R1.4)", self.brisques)
        expect(sum(self.points[s][C.K_BRISQUES] for s in range(2)) == 160,
               "brisque events sum to 160 (R1.4, R5.3)")
        sevens = sum(self.points[s][k] for s in range(2) for k in SEVEN_KINDS)
        expect(sevens == 20, "each seven of trumps scores exactly once (R2.1, R5.3)", sevens)
        want = sorted(c for c in range(64) if is_open_card(c, self.trump))
        expect(sorted(self.open[0] + self.open[1]) == want,
               "every A, K, Q, J and trump ten ends among the open cards (R5.1)")
        last = [self.points[s][C.K_LAST_TRICK] for s in range(2)]
        if self.o["last_trick"] == "trick32":
            w32 = self.winners[32]
            expect(last[w32] == 10 and last[1 - w32] == 0, "last trick to trick 32's winner")

    def batch_rows(self) -> dict:
        rows = super().batch_rows()
        for s in range(2):
            rows["seat"][s][C.HS_COMBINATIONS:C.HS_COMPOUNDS + 1] = [
                self.combos[s], self.declaring[s], self.compounds[s]]
        return rows


