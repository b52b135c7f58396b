"""The referee's reading of ordinary two-handed bézique (docs/rules.md R1, R2), written from the
rules book and not from the engine, so that the engine's rule code is checked against a second,
independent text: the trick winner (R1.3), the stage-2 duties (R1.6), the shapes, points (R1.8)
and reuse rules (R1.9, tracked per physical copy) of every declaration, the "to score"
bookkeeping (R1.10), the seven of trumps (R2.3), brisques and last trick (R1.4, R2.5).

``Hand`` walks one hand of a trace: it rebuilds the hands from the deal, draws and exchanges
and checks every play and declaration. A greedy seat always takes the best declaration offered
(declining is worth 0), so for greedy seats it also proves that the engine OFFERED every legal
declaration: the best legal one, by points, was taken. R3 and R4 are R2 played by three or four,
so ``Hand`` is written for any number of seats and the three- and four-handed hand (``multi``)
overrides only what they change; Polish and Rubicon hands build on it too (``polish``,
``rubicon``)."""

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
from bezsim.referee.violation import Violation, expect, expect_event_points, expect_no_negative

# --- R1.8: combinations, their history tag and their points ----------------------------------

MARRIAGES = {C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE}
FOURS = {C.K_FOUR_ACES: ACE, C.K_FOUR_KINGS: KING, C.K_FOUR_QUEENS: QUEEN,
         C.K_FOUR_JACKS: JACK}
BEZ_LEVEL = {C.K_BEZIQUE: 1, C.K_DOUBLE_BEZIQUE: 2}     # pairs of the bezique's Q and J
COMBOS = MARRIAGES | {C.K_SEQUENCE} | set(BEZ_LEVEL) | set(FOURS)
SEVENS = {C.K_SEVEN_EXCHANGE, C.K_SEVEN_DECLARE}
POINTS = {C.K_COMMON_MARRIAGE: 20, C.K_ROYAL_MARRIAGE: 40, C.K_SEQUENCE: 250,
          C.K_BEZIQUE: 40, C.K_DOUBLE_BEZIQUE: 500, C.K_FOUR_ACES: 100, C.K_FOUR_KINGS: 80,
          C.K_FOUR_QUEENS: 60, C.K_FOUR_JACKS: 40, C.K_SEVEN_TURNUP: 10,
          C.K_SEVEN_EXCHANGE: 10, C.K_SEVEN_DECLARE: 10, C.K_SEVEN_PLAYED: 10,
          C.K_LAST_TRICK: 10}
# the tag a copy gets in each kind (R1.9 rule 1 is per kind; the triple is R3's)
TAG = {C.K_COMMON_MARRIAGE: "marriage", C.K_ROYAL_MARRIAGE: "marriage",
       C.K_SEQUENCE: "sequence", C.K_BEZIQUE: "bezique", C.K_DOUBLE_BEZIQUE: "double",
       C.K_TRIPLE_BEZIQUE: "triple"} | {k: "four" for k in FOURS}
CLASS_M = frozenset({"marriage", "sequence"})
CLASS_B = frozenset({"bezique", "double", "triple"})


def code_of(kind: int, extra: int) -> int:
    """The declaration code of a combination event: kind * 4 + suit (marriages); -1 (no
    combination's code) for an ``extra`` the kind cannot have."""
    if kind in MARRIAGES:
        return kind * 4 + extra - 1 if 1 <= extra <= 4 else -1
    return kind * 4 if extra == 0 else -1


# --- R1.3 and R1.6, among two, three or four cards ----------------------------------------------

def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card``, played after ``best``, take the trick from it (R1.3)? Identical: no."""
    if suit(card) == suit(best):
        return rank(card) < rank(best)
    return suit(card) == trump


def winning_index(cards: list[int], trump: int) -> int:
    """Which of the trick's cards, in playing order, wins it (R1.3)."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def legal_replies(hand: list[int], trick: list[int], trump: int, duty: str) -> list[int]:
    """Stage-2 plays after the cards ``trick`` (R1.6 against the card currently winning;
    option stage2_duty). Reading: void in the suit led, a player must trump only when his trump
    beats the winning card; holding only lower trumps he may play any card."""
    led = suit(trick[0])
    best = trick[winning_index(trick, trump)]
    same = [c for c in hand if suit(c) == led]
    if same:
        higher = [c for c in same if beats(c, best, trump)]
        return higher if duty == "follow_and_win" and higher else same
    over = [c for c in hand if suit(c) == trump and beats(c, best, trump)]
    if duty == "follow_and_win" and over:
        return over
    return list(hand)


def trick_winner(lead: int, follow: int, trump: int) -> int:
    """0 if the leader wins, 1 if the follower does (R1.3; identical cards: the first)."""
    return winning_index([lead, follow], trump)


def legal_follows(hand: list[int], lead: int, trump: int, duty: str) -> list[int]:
    """Two-handed stage-2 replies to ``lead`` (R1.6; option stage2_duty)."""
    return legal_replies(hand, [lead], trump, duty)


class Hand:
    """One hand: the cards of each seat, every copy's declaration history, pending shows.
    The class attributes are what the game has: its combinations and their points (R1.8; R3
    adds the triple), the kinds that may take a partner's table cards (R4.2), the packs and
    the hand size (the rules' own numbers, not the preset's)."""

    POINTS = POINTS
    COMBOS = COMBOS
    BEZ_LEVEL = BEZ_LEVEL
    UNION: frozenset = frozenset()
    PACKS = 2
    HAND_SIZE = 8

    def __init__(self, game: GameTrace, number: int, dealer: int) -> None:
        self.g = game
        self.o = game.o
        self.n = number
        self.dealer = dealer
        self.P, self.packs, self.partners = self.layout(game)
        P = self.P
        self.all_cards = frozenset(range(32 * self.packs))
        self.stage1 = (32 * self.packs - P * self.HAND_SIZE) // P   # R1.5: one card each
        self.n_tricks = self.stage1 + self.HAND_SIZE
        # the seats round to the left from each seat: playing and drawing order (R1.5, R3)
        self.rounds = [[(first + k) % P for k in range(P)] for first in range(P)]
        self.hands: list[list[int]] = [[] for _ in range(P)]
        self.seen: set[int] = set()          # dealt, turned up or drawn from the stock
        self.played: set[int] = set()
        self.hist: dict[int, set[str]] = {}  # copy -> kinds it scored in (R1.9, per copy)
        self.pending: list[dict[int, list[int]]] = [{} for _ in range(P)]  # code -> cards
        self.points = [Counter() for _ in range(P)]    # seat -> kind -> points
        self.combos = [0] * P                 # combinations scored, per seat
        self.won = [0] * P
        self.brisques = [0] * P
        self.exchanged = False
        self.turnup = self.dealt_turnup = -1
        self.trump = -1
        self.winners: dict[int, int] = {}
        self.stats = game.stats               # rare features seen, for the tests' samples

    def layout(self, game: GameTrace) -> tuple[int, int, bool]:
        """(players, packs, partnerships): two players, PACKS packs."""
        return 2, self.PACKS, False

    # --- the hand ----------------------------------------------------------------------------
    def run(self) -> bool:
        self.deal()
        leader = (self.dealer + 1) % self.P            # the dealer's left (R2.1, R3)
        for t in range(1, self.stage1 + 1):
            leader = self.trick(t, self.rounds[leader], True)
        self.stage2(leader)
        self.end_of_hand()
        return self.hand_end()

    def stage2(self, leader: int) -> None:
        for t in range(self.stage1 + 1, self.n_tricks + 1):
            leader = self.trick(t, self.rounds[leader], False)

    # --- deal (R2.1, R3) -------------------------------------------------------------------
    def deal(self) -> None:
        order = []
        for batch in (3, 2, 3):
            for k in range(1, self.P + 1):
                order += [(self.dealer + k) % self.P] * batch
        for seat in order:
            row = self.g.take(C.TR_DEAL, "deal")
            expect(row[1:3] == [self.n, seat], "deal 3-2-3 from the dealer's left (R2.1, R3)",
                   row)
            self.receive(seat, row[3])
        row = self.g.take(C.TR_HAND_START, "hand start")
        self.turnup = self.dealt_turnup = row[4]
        self.trump = suit(self.turnup)
        expect(row[1:6] == [self.n, self.dealer, self.trump, self.turnup,
                            (self.dealer + 1) % self.P],
               "hand start: dealer to the left, trumps = turn-up suit, left of dealer leads",
               row)
        self.new_card(self.turnup)
        if rank(self.turnup) == SEVEN:
            self.event(0, self.dealer, C.K_SEVEN_TURNUP)
            self.stats["seven turned up"] += 1

    def new_card(self, card: int) -> None:
        expect(card in self.all_cards and card not in self.seen,
               "card seen twice in a hand, or no such card", card)
        self.seen.add(card)

    def receive(self, seat: int, card: int) -> None:
        self.new_card(card)
        self.hands[seat].append(card)

    def event(self, trick: int, seat: int, kind: int, status: int = C.EV_SCORED,
              extra: int = 0, points: int | None = None) -> list[int]:
        row = self.g.take(C.TR_EVENT, f"event {C.KIND_NAMES[kind]}")
        expect_event_points(row)
        pts = self.POINTS.get(kind, 0) if points is None else points
        if status == C.EV_LOST:
            pts = 0
        want = [self.n, trick, seat, kind, status, extra, pts]
        expect(row[1:8] == want, "event", row[1:8], "expected", want)
        self.points[seat][kind] += pts
        if kind in self.COMBOS and status != C.EV_LOST:
            self.combos[seat] += 1     # ordinary: one combination per trick won (R1.10)
        return row

    # --- a trick ----------------------------------------------------------------------------
    def trick(self, t: int, seats: list[int], stage1: bool) -> int:
        w, cards = self.play_trick(t, seats, stage1)
        self.score_trick(t, w, cards)
        if stage1:
            self.declarations(t, w)
            self.draws(t, w)
        return w

    def play_trick(self, t: int, seats: list[int], stage1: bool) -> tuple[int, list[int]]:
        """The seats' plays in order and the trick's winner by R1.3 (no trumps while
        ``self.trump`` is -1), checked against the trace and counted: (winner, cards)."""
        cards: list[int] = []
        for seat in seats:
            cards.append(self.play(t, seat, cards, stage1))
        w = seats[winning_index(cards, self.trump)]
        row = self.g.take(C.TR_TRICK_WON, "trick won")
        want = [self.n, t, w, *cards, -1, -1, -1][:7]     # four card fields, -1 padded
        expect(row[1:8] == want, "trick: its cards and winner (R1.3)", row, "expected", want,
               "trumps", self.trump)
        self.won[w] += 1
        self.winners[t] = w
        return w, cards

    def play(self, t: int, seat: int, trick: list[int], stage1: bool) -> int:
        """Seat's card after the cards ``trick``: held, and in stage 2 a legal reply."""
        row = self.g.take(C.TR_PLAY, "play")
        card, n_legal = row[4], row[5]
        expect(row[1:4] == [self.n, t, seat], "playing order (R2.2, R3, R4.2)", row)
        hand = self.hands[seat]
        expect(card in hand, "card played that the seat does not hold", card, hand)
        legal = hand if stage1 or not trick else self.replies(hand, trick)
        expect(card in legal, "illegal stage-2 play (R1.6)", card, "trick", trick, "hand", hand)
        if n_legal != len(legal):      # (the message sorts: not on every play)
            raise Violation(f"offered plays differ from the legal set: {n_legal} "
                            f"{sorted(legal)}")
        hand.remove(card)
        expect(card not in self.played, "card played twice", card)
        self.played.add(card)
        self.after_play(t, seat, card, stage1)
        return card

    def replies(self, hand: list[int], trick: list[int]) -> list[int]:
        return legal_replies(hand, trick, self.trump, self.o["stage2_duty"])

    def after_play(self, t: int, seat: int, card: int, stage1: bool) -> None:
        """R1.10: a played card kills every 'to score' combination it was shown in."""
        if any(self.pending):
            self.lose_shown(t, seat, card)
        if (self.o["seven_scores_when"] == "played" and stage1
                and face(card) == self.trump * 8 + SEVEN):
            self.event(t, seat, C.K_SEVEN_PLAYED)
            self.stats["seven played"] += 1

    def lose_shown(self, t: int, seat: int, card: int) -> None:
        """Every seat's shown combinations with ``card`` are lost (a partner's too, R4.2)."""
        dead = sorted((s, code) for s in range(self.P)
                      for code, cards in self.pending[s].items() if card in cards)
        self.take_lost(t, dead, "a shown combination was not lost when its card was played "
                       "(R1.10)")
        for s, code in dead:
            del self.pending[s][code]
            self.stats["to score lost on a play"] += 1
            if s != seat:
                self.stats["to score lost on a partner's play"] += 1

    def take_lost(self, t: int, want: list[tuple[int, int]], why: str) -> None:
        """The lost events of the shown combinations ``want`` (seat, code), in any order."""
        lost = []
        for _ in want:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT and row[5] == C.EV_LOST, why, row)
            lost.append((row[3], code_of(row[4], row[6])))
            self.event(t, row[3], row[4], C.EV_LOST, row[6])
        expect(sorted(lost) == want, why, "lost", lost, "expected", want)

    def score_trick(self, t: int, w: int, cards: list[int]) -> None:
        brisques = 10 * sum(rank(c) in (ACE, TEN) for c in cards)
        self.brisques[w] += brisques
        if self.o["brisques_when"] == "when_won" and brisques:
            self.event(t, w, C.K_BRISQUES, points=brisques)
        self.last_trick(t, w)

    def last_trick(self, t: int, w: int) -> None:
        """The last-trick points of R2.5 (option ``last_trick``: the hand's last trick or
        the last stock trick) to the winner of trick t."""
        mode = self.o["last_trick"]
        if ((t == self.n_tricks and mode in ("trick32", "both"))
                or (t == self.stage1 and mode in ("trick24", "both"))):
            self.event(t, w, C.K_LAST_TRICK)

    # --- declarations (R1.7-R1.10, R2.3, R2.4) -----------------------------------------------
    def declarations(self, t: int, w: int) -> None:
        """The winner's one combination and one seven action (with
        seven_exchange_is_declaration, one declaration in all), and after a combination any
        others shown to score."""
        if t == self.stage1 and self.o["declare_after_last_stock_trick"] == "false":
            self.flush(t)
            return
        greedy = self.g.policies[w] == "greedy"
        one = self.o["seven_exchange_is_declaration"] == "true"
        combos = sevens = 0
        while True:
            row = self.g.peek()
            ends = (row is None or row[0] == C.TR_DRAW
                    or (row[0] == C.TR_EVENT and row[5] == C.EV_LOST))  # the flush (R2.4)
            if row is not None and row[0] == C.TR_SHOW:
                expect(combos == 1 and t < self.stage1, "shown to score without a declaration",
                       row)
                self.show(t, w)
                continue
            if greedy:
                left = (1 - combos - sevens, 0) if one else (1 - combos, 1 - sevens)
                self.check_greedy_choice(w, *left, None if ends else row)
            if ends:
                break
            kind = self.declaration(t, w)
            combos += kind in self.COMBOS
            sevens += kind in SEVENS
            if one:
                expect(combos + sevens <= 1, "two declarations on one trick (R1.10, R2.3)")
            else:
                expect(combos <= 1 and sevens <= 1, "two declarations on one trick (R1.10)")
        if t == self.stage1:
            self.flush(t)

    def check_greedy_choice(self, s: int, combos: int, sevens: int, row) -> None:
        """Greedy takes the best offer and declining is worth 0, so its next declaration (or
        none) shows whether the engine offered every legal declaration, by points. ``combos``
        and ``sevens``: what s may still declare (with seven_exchange_is_declaration,
        ``combos`` counts declarations, the seven included)."""
        one = self.o["seven_exchange_is_declaration"] == "true"
        offers = list(self.legal_codes(s).values()) if combos else []
        if (sevens or (one and combos)) and self.legal_seven(s):
            offers.append(10)
        if row is None:
            expect(not offers, "a legal declaration was not offered to greedy", s, offers)
            return
        kind = C.K_SEVEN_EXCHANGE if row[0] == C.TR_EXCHANGE else self.next_event_kind()
        expect(offers and self.POINTS.get(kind) == max(offers),
               "greedy declared less than the best legal declaration", kind, offers)

    def next_event_kind(self) -> int:
        rows, i = self.g.rows, self.g.pos
        while i < len(rows) and rows[i][0] == C.TR_DECLARED_CARD:
            i += 1
        expect(i < len(rows) and rows[i][0] == C.TR_EVENT, "declared cards without an event")
        return rows[i][4]

    # --- what a seat may declare now (independent of the engine) --------------------------
    def tags(self, card: int):
        return self.hist.get(card, NO_TAGS)

    def free(self, s: int, f: int, banned) -> list[int]:
        """Held copies of face f whose history has none of ``banned``."""
        hist = self.hist
        return [c for c in self.hands[s] if face(c) == f and not (hist.get(c, NO_TAGS) & banned)]

    def union_cards(self, s: int):
        """The cards other than its own that s's doubles and triples may take (R4.2)."""
        return ()

    def bezique_faces(self) -> tuple[int, int]:
        """Q♠ J♦; bezique_pair=by_trump: Q♣ J♥ when spades or diamonds are trumps (R9)."""
        if self.o["bezique_pair"] == "by_trump" and self.trump in (SPADES, DIAMONDS):
            return CLUBS * 8 + QUEEN, HEARTS * 8 + JACK
        return SPADES * 8 + QUEEN, DIAMONDS * 8 + JACK

    def bezique_banned(self, kind: int) -> frozenset:
        """R1.9 rules 1 and 2 in the bezique class: no kind twice, never downward."""
        if kind == C.K_BEZIQUE:
            return CLASS_B
        if kind == C.K_DOUBLE_BEZIQUE:
            if self.o["double_bezique"] == "all_at_once":
                return CLASS_B
            return frozenset({"double", "triple"})
        return frozenset({"triple"})

    def legal_codes(self, s: int) -> dict[int, int]:
        """code -> points of every combination s may score now (R1.8, R1.9, options). (``free``
        for each face, on the cards grouped by face once: this runs at every greedy seat's
        declaration.)"""
        hist = self.hist
        mine: dict[int, list[int]] = {}
        by_rank: dict[int, list[int]] = {}
        for c in self.hands[s]:
            mine.setdefault(face(c), []).append(c)
            by_rank.setdefault(rank(c), []).append(c)
        theirs: dict[int, list[int]] = {}
        for c in self.union_cards(s) if self.UNION else ():
            theirs.setdefault(face(c), []).append(c)

        def free(f: int, banned, union: bool = False) -> list[int]:
            out = [c for c in mine.get(f, ()) if not (hist.get(c, NO_TAGS) & banned)]
            if union:
                out += [c for c in theirs.get(f, ()) if not (hist.get(c, NO_TAGS) & banned)]
            return out

        out = {}
        for su in range(4):
            k, q = su * 8 + KING, su * 8 + QUEEN
            if k in mine and q in mine and free(k, CLASS_M) and free(q, CLASS_M):
                kind = C.K_ROYAL_MARRIAGE if su == self.trump else C.K_COMMON_MARRIAGE
                out[kind * 4 + su] = self.POINTS[kind]
        seq_faces = [self.trump * 8 + r for r in SEQ_RANKS]
        seq_ban = {"sequence"} | ({"marriage"} if self.o["marriage_to_sequence"] == "false"
                                  else set())
        if all(f in mine for f in seq_faces) and all(free(f, seq_ban) for f in seq_faces):
            out[C.K_SEQUENCE * 4] = 250   # A, 10, J never in class M: rule 3 holds
        q, j = self.bezique_faces()
        for kind, level in self.BEZ_LEVEL.items():
            if (q not in mine and q not in theirs) or (j not in mine and j not in theirs):
                break                     # no bezique of any level
            banned, union = self.bezique_banned(kind), kind in self.UNION
            qs, js = free(q, banned, union), free(j, banned, union)
            if (len(qs) >= level and len(js) >= level
                    and any(not (hist.get(c, NO_TAGS) & CLASS_B) for c in qs + js)):  # rule 3
                out[kind * 4] = self.POINTS[kind]
        for kind, r in FOURS.items():
            cards = by_rank.get(r, ())
            if len(cards) >= 4 and sum("four" not in hist.get(c, NO_TAGS) for c in cards) >= 4:
                out[kind * 4] = self.POINTS[kind]
        return out

    def legal_seven(self, s: int) -> bool:
        if not self.free(s, self.trump * 8 + SEVEN, {"seven"}):
            return False
        can_exchange = not self.exchanged and rank(self.turnup) != SEVEN
        return can_exchange or self.o["seven_scores_when"] == "declared"

    # --- one declaration ---------------------------------------------------------------------
    def declared_cards(self, t: int, s: int) -> tuple[list[int], list[int]]:
        cards, kinds = [], []
        while self.g.at(C.TR_DECLARED_CARD):
            row = self.g.take(C.TR_DECLARED_CARD, "declared card")
            expect(row[1:4] == [self.n, t, s],
                   "declared cards of one declarer (R1.7, R4.2)", row)
            cards.append(row[4])
            kinds.append(row[5])
        return cards, kinds

    def declaration(self, t: int, s: int) -> int:
        if self.g.at(C.TR_EXCHANGE):
            self.exchange(t, s)
            return C.K_SEVEN_EXCHANGE
        cards, kinds = self.declared_cards(t, s)
        row = self.g.peek()
        expect(row is not None and row[0] == C.TR_EVENT and row[3] == s,
               "declared cards without the declarer's event (R1.7)", row)
        kind, status, extra = row[4], row[5], row[6]
        expect(all(k == kind for k in kinds), "declared cards of another kind", kinds, kind)
        if kind == C.K_SEVEN_DECLARE:
            expect(self.o["seven_scores_when"] == "declared", "seven declared under 'played'")
            expect(len(cards) == 1, "a seven declaration shows one card", cards)
            self.check_seven(s, cards[0])
            self.event(t, s, kind)
            self.stats["seven declared"] += 1
        else:
            expect(kind in self.COMBOS, "unexpected event in the declaration phase", row)
            self.check_combination(s, kind, extra, cards)
            code = code_of(kind, extra)
            was_pending = code in self.pending[s]
            expect(status == (C.EV_SCORED_PENDING if was_pending else C.EV_SCORED),
                   "status of a declaration vs. shown to score (R1.10)", row)
            if was_pending:
                self.stats["scored as shown earlier"] += 1
            self.pending[s].pop(code, None)
            self.event(t, s, kind, status, extra)
            self.stats[C.KIND_NAMES[kind]] += 1
            for c in cards:
                self.hist.setdefault(c, set()).add(TAG[kind])
        self.on_declared(s, kind, cards)
        return kind

    def on_declared(self, s: int, kind: int, cards: list[int]) -> None:
        """After a seven or a combination is declared (the table of R4.2, R3's doubles)."""

    def check_seven(self, s: int, seven: int) -> None:
        expect(face(seven) == self.trump * 8 + SEVEN, "not the seven of trumps (R2.3)", seven)
        expect(seven in self.hands[s], "seven not held", seven)
        expect("seven" not in self.tags(seven), "a seven scored twice (R2.3)", seven)
        self.hist.setdefault(seven, set()).add("seven")

    def exchange(self, t: int, s: int) -> None:
        row = self.g.take(C.TR_EXCHANGE, "exchange")
        seven, turnup = row[4], row[5]
        expect(row[1:4] == [self.n, t, s], "exchange by the declaring seat", row)
        expect(not self.exchanged, "second exchange in a hand (R2.3)")
        expect(turnup == self.turnup and rank(turnup) != SEVEN,
               "exchanged for a card that is not the turn-up, or for a seven", row)
        self.check_seven(s, seven)
        self.hands[s].remove(seven)
        self.hands[s].append(turnup)
        self.turnup = seven
        self.exchanged = True
        self.event(t, s, C.K_SEVEN_EXCHANGE)
        self.stats["exchange"] += 1

    def shown_cards(self, t: int, s: int, code: int) -> list[int]:
        """The cards of one combination the declarer shows "to score" (R1.10): the run of
        show rows with its code."""
        cards = []
        while self.g.at(C.TR_SHOW) and self.g.peek()[5] == code:
            row = self.g.take(C.TR_SHOW, "show")
            expect(row[1:4] == [self.n, t, s], "shown by the declarer", row)
            cards.append(row[4])
        return cards

    def show(self, t: int, s: int) -> int:
        """One combination shown to score (R1.10), checked and pending; returns its code."""
        code = self.g.peek()[5]
        cards = self.shown_cards(t, s, code)
        kind, su = code // 4, code % 4
        expect(kind in self.COMBOS, "shown code is not a combination", code)
        expect(code not in self.pending[s], "the same combination shown twice", code)
        self.check_combination(s, kind, su + 1 if kind in MARRIAGES else 0, cards)
        self.pending[s][code] = cards
        return code

    def flush(self, t: int) -> None:
        """End of stage 1: every combination still to score is lost (R1.10, R2.4)."""
        left = sorted((s, code) for s in range(self.P) for code in self.pending[s])
        self.take_lost(t, left, "to score not lost at the end of stage 1 (R1.10, R2.4)")
        self.pending = [{} for _ in range(self.P)]
        self.stats["to score lost at trick 24"] += len(left)

    # --- R1.8 shapes and R1.9 reuse, per physical copy -----------------------------------------
    def check_combination(self, s: int, kind: int, extra: int, cards: list[int]) -> None:
        """R1.8, R1.9 (R3, R4.2) for a declared or shown combination."""
        expect(len(set(cards)) == len(cards), "a copy used twice in one combination", cards)
        for c in cards:
            expect(self.may_use(s, kind, c),
                   "declared card not held, played, or a partner's card that may not serve "
                   "(R1.8, R4.2)", C.KIND_NAMES[kind], c, self.hands[s])
        self.check_shape(kind, extra, cards)
        self.check_reuse(kind, cards)

    def may_use(self, s: int, kind: int, card: int) -> bool:
        return card in self.hands[s]

    def check_shape(self, kind: int, extra: int, cards: list[int]) -> None:
        faces = sorted(face(c) for c in cards)
        if kind in MARRIAGES:
            su = extra - 1
            expect(faces == [su * 8 + KING, su * 8 + QUEEN], "marriage is K+Q of a suit", faces)
            royal = su == self.trump
            expect(kind == (C.K_ROYAL_MARRIAGE if royal else C.K_COMMON_MARRIAGE),
                   "royal iff in trumps", kind, su, self.trump)
            return
        expect(extra == 0, "extra is only for marriages", kind, extra)
        if kind == C.K_SEQUENCE:
            want = sorted(self.trump * 8 + r for r in SEQ_RANKS)
            expect(faces == want, "sequence is A 10 K Q J of trumps", faces)
        elif kind in self.BEZ_LEVEL:
            q, j = self.bezique_faces()
            n = self.BEZ_LEVEL[kind]
            expect(faces == sorted([q] * n + [j] * n), "bezique cards (R1.8, R3)", faces)
        else:
            expect(len(cards) == 4 and all(rank(c) == FOURS[kind] for c in cards),
                   "four of a rank", faces)

    def check_reuse(self, kind: int, cards: list[int]) -> None:
        hist = [self.tags(c) for c in cards]
        tg = TAG[kind]
        expect(all(tg not in h for h in hist), "same kind twice for a copy (R1.9.1)",
               C.KIND_NAMES[kind], cards, hist)
        if kind in MARRIAGES:
            expect(all("sequence" not in h for h in hist), "marriage from a sequence (R1.9.2)")
        if kind == C.K_SEQUENCE:
            if self.o["marriage_to_sequence"] == "false":
                expect(all("marriage" not in h for h in hist), "married card in a sequence")
            expect(any(not (h & CLASS_M) for h in hist), "no new card in class M (R1.9.3)")
        if kind in self.BEZ_LEVEL:
            banned = self.bezique_banned(kind)
            expect(all(not (h & banned) for h in hist),
                   "bezique downward or against double_bezique (R1.9.2, R9)",
                   C.KIND_NAMES[kind], cards, hist)
            expect(any(not (h & CLASS_B) for h in hist), "no new card in class B (R1.9.3)",
                   C.KIND_NAMES[kind], cards, hist)

    # --- draws (R1.5, R2.2, R3) -----------------------------------------------------------------
    def draws(self, t: int, w: int) -> None:
        last = self.rounds[w][-1]
        for seat in self.rounds[w]:
            row = self.g.take(C.TR_DRAW, "draw")
            expect(row[1:4] == [self.n, t, seat],
                   "draws from the winner round to the left (R1.5)", row)
            card = row[4]
            if t == self.stage1 and seat == last:
                expect(card == self.turnup, "the last drawer of trick 24 takes the turn-up "
                       "(R2.2, R3)", row)
                self.hands[seat].append(card)
            else:
                self.receive(seat, card)
            if len(self.hands[seat]) != self.HAND_SIZE:
                raise Violation(f"a full hand each after the draws: {self.hands}")

    # --- end of hand (R1.4, R2.5) -----------------------------------------------------------------
    def end_of_hand(self) -> None:
        expect(all(not h for h in self.hands), "cards left in hand", self.hands)
        expect(self.played == self.all_cards and self.seen == self.all_cards,
               "every card once: dealt/turned up/drawn and played")
        total = 80 * self.packs
        expect(sum(self.brisques) == total, "brisques sum to 80 a pack (R1.4)", self.brisques)
        if self.o["brisques_when"] == "end_of_hand":
            for seat in range(self.P):
                if self.brisques[seat]:
                    self.event(self.n_tricks + 1, seat, C.K_BRISQUES, points=self.brisques[seat])
        expect(sum(p[C.K_BRISQUES] for p in self.points) == total, "brisque events")
        if self.o["last_trick"] == "trick32":
            last = [p[C.K_LAST_TRICK] for p in self.points]
            want = [10 if s == self.winners[self.n_tricks] else 0 for s in range(self.P)]
            expect(last == want, "last trick to the winner of the hand's last trick", last)
        expect(all(not p for p in self.pending), "shown combinations left after the hand")

    def hand_points(self) -> tuple[list[int], list[int]]:
        """The hand's points by seat (the sum of its events), checked against the trace's
        hand-points row; returns them and the hand-end row that follows."""
        pts = [sum(p.values()) for p in self.points]
        row = self.g.take(C.TR_HAND_POINTS, "hand points")
        expect_no_negative(row, self.P, "hand points")
        expect(row[1:8] == [self.n, *pad4(pts), 0, 0], "hand points = the events", row, pts)
        row = self.g.take(C.TR_HAND_END, "hand end")
        expect_no_negative(row, self.P, "score after the hand")
        return pts, row

    def hand_end(self) -> bool:
        pts, row = self.hand_points()
        before = self.g.scores
        scores = self.scores_after(pts)
        expect(row[1:8] == [self.n, *pad4(scores), 0, 0], "scores after the hand", row, scores)
        expect(all(a >= b for a, b in zip(scores, before, strict=True)), "scores decreased")
        self.g.scores = scores
        for s in range(self.P):
            self.g.brisques[s] += self.brisques[s]
        self.g.hand_rows.append(self.batch_rows())
        sides = self.sides(scores)
        top = max(sides)
        return top >= self.o["target"] and sides.count(top) == 1

    def scores_after(self, pts: list[int]) -> list[int]:
        return [self.g.scores[s] + pts[s] for s in range(self.P)]

    def sides(self, scores: list[int]) -> list[int]:
        """The scores that race to the target (R2.6)."""
        return scores

    def batch_rows(self) -> dict:
        info = [self.dealer, self.trump, self.dealt_turnup, self.winners[self.stage1],
                self.winners[self.n_tricks], C.TRICK_DEAL]     # the turn-up fixed trumps
        seats = []
        for s in range(self.P):
            kinds = [self.points[s][k] for k in range(C.N_KINDS)]
            seats.append([sum(kinds), self.g.scores[s], self.won[s], self.combos[s],
                          self.combos[s], 0, self.brisques[s], 0, *kinds])
        return {"info": info, "seat": seats}
