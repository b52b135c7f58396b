"""The referee's reading of three- and four-handed bézique (docs/rules.md R3, R4.1, R4.2).

Like the two-handed reading (``two_handed``), it reads only the trace record layout (TR_*)
and the kind numbers of ``bezsim.engine.constants`` and re-derives every rule from
docs/rules.md (and, where the texts leave room, the readings listed at the end):

* the deal: 3, 4 packs (96, 128 physical cards, each dealt, turned up or drawn once and played
  once); eight cards each in batches 3-2-3 starting left of the dealer, then the turn-up; the
  dealer rotates to the left each hand and the player on his left leads first;
* 24 stock tricks played from the leader round to the left with no duty, won by R1.3 among
  three or four cards; draws from the winner round to the left, the last drawer of trick 24
  taking the turn-up (or the seven exchanged for it);
* stage 2: eight tricks of every seat under R1.6 against the card currently winning (option
  stage2_duty), or, in a partnership with partnership_stage2=pairs, eight two-card tricks
  between the winner of trick 24 and the opponent on his left, then eight between the other
  two (the winner's partner leading first), under the two-handed R1.6;
* declaring: only the trick winner, then (partnership, R4.2) his partner, for whatever the
  winner left of the side's one combination and one seven action per win (R1.10, R2.3; with
  seven_exchange_is_declaration one declaration in all; docs/rules.md R4.2); the cards
  from the declarer's hand, except that a double or triple bezique may take Q♠/J♦ lying face
  up on his partner's side of the table; R1.8 shapes and points (triple bezique 1500); R1.9
  reuse per physical copy with R3's triple (rule 3 too) and second double (a declared double
  whose queen and jack have been played leaves a declared single pair); "to score" (R1.10)
  owned by the seat that showed it, every other combination shown, scored once "shown
  earlier" or lost on a play of any of its cards (a partner's card included) or at the end of
  stage 1; greedy seats prove the best legal declaration was offered;
* brisques (240, 320), last trick (trick 32, or 40 with pairs), points per seat = its events =
  TR_HAND_POINTS = hand_seat, team scores (R4.2), the end of the game and the outcome rows.

Readings where the texts leave room (the engine's too): R1.6 with three or four cards binds a
seat void in the suit led to trump only with a trump that beats the winning card (holding
only lower trumps it may play anything); "on the partner's table" (R4.2) is every card he
has face up, declared or shown "to score" (also when that "to score" was lost since);
double_game, if set, compares the winner with the best other side.
"""

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
from bezsim.referee.violation import Violation, expect, expect_event_points, expect_no_negative

STAGE1 = 24                 # (96 - 24) / 3 = (128 - 32) / 4 stock cards, one each a trick
HAND_SIZE = 8


# --- R1.3 and R1.6 among several cards ----------------------------------------------------------

def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card``, played after ``best``, take the trick from it (R1.3)? Identical: no."""
    if suit(card) == suit(best):
        return rank(card) < rank(best)
    return suit(card) == trump


def winning_index(cards: list[int], trump: int) -> int:
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def legal_follows(hand: list[int], trick: list[int], trump: int, duty: str) -> list[int]:
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


# --- R1.8 combinations, R3 triple bezique ----------------------------------------------------

MARRIAGES = {C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE}
FOURS = {C.K_FOUR_ACES: ACE, C.K_FOUR_KINGS: KING, C.K_FOUR_QUEENS: QUEEN,
         C.K_FOUR_JACKS: JACK}
BEZ_LEVEL = {C.K_BEZIQUE: 1, C.K_DOUBLE_BEZIQUE: 2, C.K_TRIPLE_BEZIQUE: 3}
UNION = {C.K_DOUBLE_BEZIQUE, C.K_TRIPLE_BEZIQUE}     # may take the partner's table cards
COMBOS = MARRIAGES | {C.K_SEQUENCE} | set(BEZ_LEVEL) | set(FOURS)
POINTS = {C.K_COMMON_MARRIAGE: 20, C.K_ROYAL_MARRIAGE: 40, C.K_SEQUENCE: 250,
          C.K_BEZIQUE: 40, C.K_DOUBLE_BEZIQUE: 500, C.K_TRIPLE_BEZIQUE: 1500,
          C.K_FOUR_ACES: 100, C.K_FOUR_KINGS: 80, C.K_FOUR_QUEENS: 60, C.K_FOUR_JACKS: 40,
          C.K_SEVEN_TURNUP: 10, C.K_SEVEN_EXCHANGE: 10, C.K_SEVEN_DECLARE: 10,
          C.K_SEVEN_PLAYED: 10, C.K_LAST_TRICK: 10}
TAG = {C.K_COMMON_MARRIAGE: "marriage", C.K_ROYAL_MARRIAGE: "marriage",
       C.K_SEQUENCE: "sequence", C.K_BEZIQUE: "bezique", C.K_DOUBLE_BEZIQUE: "double",
       C.K_TRIPLE_BEZIQUE: "triple"} | {k: "four" for k in FOURS}
CLASS_M = frozenset({"marriage", "sequence"})
CLASS_B = frozenset({"bezique", "double", "triple"})
DECLARATION_ROWS = (C.TR_EXCHANGE, C.TR_DECLARED_CARD, C.TR_SHOW)


def code_of(kind: int, extra: int) -> int:
    """The declaration code of a combination event: kind * 4 + suit (marriages)."""
    return kind * 4 + (extra - 1 if kind in MARRIAGES else 0)


class MultiHand:
    """One hand of three- or four-handed bézique; ``game`` is the referee's ``Game``
    (trace cursor, options, policies, scores, outcome rows)."""

    def __init__(self, game, number: int, dealer: int) -> None:
        self.g = game
        self.o = game.o
        self.n = number
        self.dealer = dealer
        self.P, self.packs, self.partners = game.layout    # (players, packs, partners)
        self.pairs = self.partners and self.o["partnership_stage2"] == "pairs"
        self.n_tricks = STAGE1 + (2 * HAND_SIZE if self.pairs else HAND_SIZE)
        self.all_cards = set(range(32 * self.packs))
        P = self.P
        self.hands: list[list[int]] = [[] for _ in range(P)]   # concealed and table cards
        self.table: list[set[int]] = [set() for _ in range(P)]  # face up: declared or shown
        self.declared: set[int] = set()      # copies that scored in a combination this hand
        self.seen: set[int] = set()
        self.played: set[int] = set()
        self.hist: dict[int, set[str]] = {}  # copy -> kinds it scored in (R1.9, per copy)
        self.doubles: list[list[int]] = []   # declared doubles not yet broken (R3)
        self.broken: set[int] = set()        # copies left by a broken double
        self.pending: list[dict[int, list[int]]] = [{} for _ in range(P)]  # code -> cards
        self.points = [Counter() for _ in range(P)]
        self.combos = [0] * P
        self.won = [0] * P
        self.brisques = [0] * P
        self.exchanged = False
        self.turnup = self.dealt_turnup = -1
        self.trump = -1
        self.winners: dict[int, int] = {}
        self.stats = game.stats

    # --- the cursor ------------------------------------------------------------------------
    def take(self, record: int, what: str) -> list[int]:
        return self.g.take(record, what)

    def at(self, record: int, seat: int | None = None) -> bool:
        row = self.g.peek()
        return row is not None and row[0] == record and (seat is None or row[3] == seat)

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    # --- the hand ----------------------------------------------------------------------------
    def run(self) -> bool:
        self.deal()
        leader = (self.dealer + 1) % self.P            # R3: left of the dealer leads
        for t in range(1, STAGE1 + 1):
            leader = self.trick(t, self.round_from(leader), True)
        if self.pairs:
            self.stage2_pairs(leader)
        else:
            for t in range(STAGE1 + 1, self.n_tricks + 1):
                leader = self.trick(t, self.round_from(leader), False)
        self.end_of_hand()
        return self.hand_end()

    def round_from(self, leader: int) -> list[int]:
        return [(leader + k) % self.P for k in range(self.P)]

    def stage2_pairs(self, w24: int) -> None:
        """R4.2 pairs: the winner of trick 24 and the opponent on his left play tricks 25-32
        (the winner leading the first), then the other two tricks 33-40 (the winner's partner
        leading the first); the winner of a trick leads the next."""
        t = STAGE1
        for half in range(2):
            a = (w24 + 2 * half) % 4
            b = (a + 1) % 4
            leader = a
            for _ in range(HAND_SIZE):
                t += 1
                leader = self.trick(t, [leader, b if leader == a else a], False)
            expect(not self.hands[a] and not self.hands[b],
                   "cards left after a pair's eight tricks (R4.2)", self.hands[a], self.hands[b])
            self.stats["pairs endings"] += 1

    # --- the deal (R3, R4) ----------------------------------------------------------------
    def deal(self) -> None:
        order = []
        for batch in (3, 2, 3):
            for k in range(1, self.P + 1):
                order += [(self.dealer + k) % self.P] * batch
        for seat in order:
            row = self.take(C.TR_DEAL, "deal")
            expect(row[1:3] == [self.n, seat], "deal 3-2-3 from the dealer's left (R3)", row)
            self.receive(seat, row[3])
        row = self.take(C.TR_HAND_START, "hand start")
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
              extra: int = 0, points: int | None = None) -> None:
        row = self.take(C.TR_EVENT, f"event {C.KIND_NAMES[kind]}")
        expect_event_points(row)
        pts = POINTS.get(kind, 0) if points is None else points
        if status == C.EV_LOST:
            pts = 0
        want = [self.n, trick, seat, kind, status, extra, pts]
        expect(row[1:8] == want, "event", row[1:8], "expected", want)
        self.points[seat][kind] += pts
        if kind in COMBOS and status != C.EV_LOST:
            self.combos[seat] += 1

    # --- tricks --------------------------------------------------------------------------------
    def trick(self, t: int, seats: list[int], stage1: bool) -> int:
        cards: list[int] = []
        for seat in seats:
            cards.append(self.play(t, seat, cards, stage1))
        w = seats[winning_index(cards, self.trump)]
        row = self.take(C.TR_TRICK_WON, "trick won")
        want = [self.n, t, w, *cards] + [-1] * (4 - len(cards))
        expect(row[1:8] == want, "trick: its cards and winner (R1.3)", row, "expected", want)
        self.won[w] += 1
        self.winners[t] = w
        self.score_trick(t, w, cards)
        if stage1:
            self.declarations(t, w)
            self.draws(t, w)
        return w

    def play(self, t: int, seat: int, trick: list[int], stage1: bool) -> int:
        row = self.take(C.TR_PLAY, "play")
        card, n_legal = row[4], row[5]
        expect(row[1:4] == [self.n, t, seat], "playing order (R3, R4.2)", row)
        hand = self.hands[seat]
        expect(card in hand, "card played that the seat does not hold", card, hand)
        if stage1 or not trick:
            legal = hand
        else:
            legal = legal_follows(hand, trick, self.trump, self.o["stage2_duty"])
            if len(legal) < len(hand):
                self.stats["stage-2 duty binding"] += 1
            if len(trick) > 1 and not [c for c in hand if suit(c) == suit(trick[0])]:
                best = trick[winning_index(trick, self.trump)]
                if (suit(best) == self.trump and any(suit(c) == self.trump for c in hand)
                        and not any(beats(c, best, self.trump) for c in hand)):
                    self.stats["void, only lower trumps"] += 1
        expect(card in legal, "illegal stage-2 play (R1.6)", card, "trick", trick, "hand", hand)
        if n_legal != len(legal):      # (the message sorts: not on every play)
            raise Violation(f"offered plays differ from the legal set: {n_legal} "
                            f"{sorted(legal)}")
        hand.remove(card)
        self.table[seat].discard(card)
        expect(card not in self.played, "card played twice", card)
        self.played.add(card)
        self.after_play(t, seat, card, stage1)
        return card

    def after_play(self, t: int, seat: int, card: int, stage1: bool) -> None:
        """R1.10: a played card kills every "to score" combination it was shown in, whoever
        showed it (a partner's union double, R4.2); R3: it may break a declared double."""
        if any(self.pending):
            self.lose_shown(t, seat, card)
        if self.doubles:
            self.break_doubles(card)
        if (self.o["seven_scores_when"] == "played" and stage1
                and face(card) == self.trump * 8 + SEVEN):
            self.event(t, seat, C.K_SEVEN_PLAYED)
            self.stats["seven played"] += 1

    def lose_shown(self, t: int, seat: int, card: int) -> None:
        dead = sorted((s, code) for s in range(self.P)
                      for code, cards in self.pending[s].items() if card in cards)
        lost = []
        for _ in dead:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT and row[5] == C.EV_LOST,
                   "a shown combination was not lost when its card was played (R1.10)", row)
            lost.append((row[3], code_of(row[4], row[6])))
            self.event(t, row[3], row[4], C.EV_LOST, row[6])
        expect(sorted(lost) == dead, "lost combinations", lost, dead)
        for s, code in dead:
            del self.pending[s][code]
            self.stats["to score lost on a play"] += 1
            if s != seat:
                self.stats["to score lost on a partner's play"] += 1

    def break_doubles(self, card: int) -> None:
        """R3 second double: once a queen and a jack of a declared double have been played,
        its cards left lose their double history and count as a declared single pair."""
        for d in [d for d in self.doubles if card in d]:
            gone = [c for c in d if c in self.played]
            if any(rank(c) == QUEEN for c in gone) and any(rank(c) == JACK for c in gone):
                for c in d:
                    if c not in self.played:
                        self.hist[c].discard("double")
                        self.hist[c].add("bezique")
                        self.broken.add(c)
                self.doubles.remove(d)
                if len(self.played) <= STAGE1 * self.P:
                    self.stats["double broken in stage 1"] += 1

    def score_trick(self, t: int, w: int, cards: list[int]) -> None:
        brisques = 10 * sum(rank(c) in (ACE, TEN) for c in cards)
        self.brisques[w] += brisques
        if self.o["brisques_when"] == "when_won" and brisques:
            self.event(t, w, C.K_BRISQUES, points=brisques)
        mode = self.o["last_trick"]
        if ((t == self.n_tricks and mode in ("trick32", "both"))
                or (t == STAGE1 and mode in ("trick24", "both"))):
            self.event(t, w, C.K_LAST_TRICK)

    # --- declaring (R1.7-R1.10, R2.3, R2.4, R4.2) --------------------------------------------
    def declarations(self, t: int, w: int) -> None:
        """A side's win allows one combination and one seven action (R1.10, R2.3; option
        seven_exchange_is_declaration: one declaration in all). The winner declares first; in
        a partnership (R4.2) his partner is asked for whatever the winner left unused."""
        if t == STAGE1 and self.o["declare_after_last_stock_trick"] == "false":
            self.no_more_declarations()
            self.flush(t)
            return
        announce = t < STAGE1
        one = self.o["seven_exchange_is_declaration"] == "true"
        left = self.phase(t, w, announce, 1, 0 if one else 1)
        if self.partners and any(left):
            after = self.phase(t, self.partner(w), announce, *left)
            if after != left:
                self.stats["partner declared"] += 1
            if not one and left == (0, 1) and after == (0, 0):
                self.stats["partner's seven after the winner's combination"] += 1
            if not one and left == (1, 0) and after == (0, 0):
                self.stats["partner's combination after the winner's seven"] += 1
        self.no_more_declarations()
        if t == STAGE1:
            self.flush(t)

    def no_more_declarations(self) -> None:
        row = self.g.peek()
        expect(row is None or row[0] not in DECLARATION_ROWS,
               "a declaration by a seat that may not declare now (R1.7, R1.10, R4.2)", row)

    def phase(self, t: int, s: int, announce: bool, combos: int, sevens: int) -> tuple:
        """Seat s declares, within what its side has left: ``combos`` combinations (with
        seven_exchange_is_declaration: declarations, the seven included) and ``sevens`` seven
        actions. Returns what is left."""
        greedy = self.g.policies[s] == "greedy"
        one = self.o["seven_exchange_is_declaration"] == "true"
        while True:
            row = self.g.peek()
            mine = row is not None and row[0] in (C.TR_EXCHANGE, C.TR_DECLARED_CARD) \
                and row[3] == s
            if greedy:
                self.check_greedy_choice(s, combos, sevens, row if mine else None)
            if not mine:
                return combos, sevens
            kind = self.declaration(t, s)
            if kind in COMBOS or one:
                expect(combos > 0, "two declarations on one win (R1.10, R2.3, R4.2)", s)
                combos -= 1
            else:
                expect(sevens > 0, "two seven actions on one win (R2.3, R4.2)", s)
                sevens -= 1
            if kind in COMBOS and announce:
                self.shows(t, s)

    def check_greedy_choice(self, s: int, combos: int, sevens: int, row) -> None:
        """Greedy takes the best offer and declining is worth 0, so its next declaration (or
        none) shows whether the engine offered every legal declaration, by points."""
        one = self.o["seven_exchange_is_declaration"] == "true"
        offers = list(self.legal_codes(s).values()) if combos else []
        if (sevens or (one and combos)) and self.legal_seven(s):
            offers.append(10)
        if row is None:
            expect(not offers, "a legal declaration was not offered to greedy", s, offers)
            return
        kind = C.K_SEVEN_EXCHANGE if row[0] == C.TR_EXCHANGE else self.next_event_kind()
        expect(offers and POINTS.get(kind) == max(offers),
               "greedy declared less than the best legal declaration", kind, offers)

    def next_event_kind(self) -> int:
        rows, i = self.g.rows, self.g.pos
        while i < len(rows) and rows[i][0] == C.TR_DECLARED_CARD:
            i += 1
        expect(i < len(rows) and rows[i][0] == C.TR_EVENT, "declared cards without an event")
        return rows[i][4]

    # --- what a seat may declare now (R1.8, R1.9, R3, R4.2) -----------------------------------
    def tags(self, card: int):
        return self.hist.get(card, NO_TAGS)

    def free(self, s: int, f: int, banned, union: bool = False) -> list[int]:
        """Copies of face f that s may use (its hand; a double or triple also the partner's
        table cards) with none of the ``banned`` tags."""
        out = [c for c in self.hands[s] if face(c) == f and not (self.tags(c) & banned)]
        if union and self.partners:
            out += [c for c in self.table[self.partner(s)]
                    if face(c) == f and not (self.tags(c) & banned)]
        return out

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
        """code -> points of every combination s may score now. (``free`` for each face, on
        the cards grouped by face once: this runs at every greedy seat's declaration.)"""
        hist = self.hist
        mine: dict[int, list[int]] = {}
        by_rank: dict[int, list[int]] = {}
        for c in self.hands[s]:
            mine.setdefault(face(c), []).append(c)
            by_rank.setdefault(rank(c), []).append(c)
        theirs: dict[int, list[int]] = {}
        if self.partners:
            for c in self.table[self.partner(s)]:
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
                out[kind * 4 + su] = POINTS[kind]
        seq_faces = [self.trump * 8 + r for r in SEQ_RANKS]
        seq_ban = {"sequence"} | ({"marriage"} if self.o["marriage_to_sequence"] == "false"
                                  else set())
        if all(f in mine for f in seq_faces) and all(free(f, seq_ban) for f in seq_faces):
            out[C.K_SEQUENCE * 4] = 250   # A, 10, J never in class M: rule 3 holds
        q, j = self.bezique_faces()
        for kind, level in BEZ_LEVEL.items():
            if (q not in mine and q not in theirs) or (j not in mine and j not in theirs):
                break                     # no bezique of any level
            banned = self.bezique_banned(kind)
            qs = free(q, banned, kind in UNION)
            js = free(j, banned, kind in UNION)
            fresh = any(not (self.tags(c) & CLASS_B) for c in qs + js)   # rule 3
            if len(qs) >= level and len(js) >= level and fresh:
                out[kind * 4] = POINTS[kind]
        for kind, r in FOURS.items():
            cards = by_rank.get(r, ())
            if len(cards) >= 4 and sum("four" not in hist.get(c, NO_TAGS) for c in cards) >= 4:
                out[kind * 4] = POINTS[kind]
        return out

    def legal_seven(self, s: int) -> bool:
        if not self.free(s, self.trump * 8 + SEVEN, {"seven"}):
            return False
        can_exchange = not self.exchanged and rank(self.turnup) != SEVEN
        return can_exchange or self.o["seven_scores_when"] == "declared"

    # --- one declaration -----------------------------------------------------------------------
    def declaration(self, t: int, s: int) -> int:
        if self.at(C.TR_EXCHANGE):
            self.exchange(t, s)
            return C.K_SEVEN_EXCHANGE
        cards, kinds = [], []
        while self.at(C.TR_DECLARED_CARD):
            row = self.take(C.TR_DECLARED_CARD, "declared card")
            expect(row[1:4] == [self.n, t, s], "declared cards of one declarer", row)
            cards.append(row[4])
            kinds.append(row[5])
        row = self.g.peek()
        expect(row is not None and row[0] == C.TR_EVENT and row[3] == s,
               "declared cards without the declarer's event", row)
        kind, status, extra = row[4], row[5], row[6]
        expect(all(k == kind for k in kinds), "declared cards of another kind", kinds, kind)
        if kind == C.K_SEVEN_DECLARE:
            expect(self.o["seven_scores_when"] == "declared", "seven declared under 'played'")
            expect(len(cards) == 1, "a seven declaration shows one card", cards)
            self.check_seven(s, cards[0])
            self.table[s].add(cards[0])
            self.event(t, s, kind)
            self.stats["seven declared"] += 1
            return kind
        expect(kind in COMBOS, "unexpected event in the declaration phase", row)
        theirs = self.check_combination(s, kind, extra, cards)
        if theirs:
            self.stats["union " + C.KIND_NAMES[kind]] += 1
            if any(c not in self.declared for c in theirs):
                self.stats["union with a partner's card only shown to score"] += 1
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
            self.lay(s, c)
        self.declared.update(cards)
        if kind == C.K_DOUBLE_BEZIQUE:
            self.doubles.append(list(cards))
        return kind

    def lay(self, s: int, card: int) -> None:
        """A declared or shown card lies face up on its holder's side (R1.7)."""
        owner = s if card in self.hands[s] else self.partner(s)
        self.table[owner].add(card)

    def check_combination(self, s: int, kind: int, extra: int, cards: list[int]) -> list[int]:
        """R1.8, R1.9, R3, R4.2 for a declared or shown combination; returns the partner's
        cards it takes (a union double or triple)."""
        expect(len(set(cards)) == len(cards), "a copy used twice in one combination", cards)
        union = self.partners and kind in UNION
        mate = self.partner(s) if self.partners else -1
        for c in cards:
            expect(c in self.hands[s] or (union and c in self.table[mate]),
                   "declared card not held, played, or a partner's card that may not serve "
                   "(R1.8, R4.2)", C.KIND_NAMES[kind], c, self.hands[s])
        self.check_shape(kind, extra, cards)
        self.check_reuse(kind, cards)
        return [c for c in cards if c not in self.hands[s]]

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
        elif kind in BEZ_LEVEL:
            q, j = self.bezique_faces()
            n = BEZ_LEVEL[kind]
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
        if kind in BEZ_LEVEL:
            banned = self.bezique_banned(kind)
            expect(all(not (h & banned) for h in hist),
                   "bezique downward or against double_bezique (R1.9.2, R9)",
                   C.KIND_NAMES[kind], cards, hist)
            expect(any(not (h & CLASS_B) for h in hist), "no new card in class B (R1.9.3)",
                   C.KIND_NAMES[kind], cards, hist)
            if kind == C.K_DOUBLE_BEZIQUE and self.broken & set(cards):
                self.stats["second double"] += 1
            if kind == C.K_TRIPLE_BEZIQUE:
                how = ("from a double" if any("double" in h for h in hist) else
                       "from a single" if any("bezique" in h for h in hist) else "at once")
                self.stats["triple " + how] += 1

    def check_seven(self, s: int, seven: int) -> None:
        expect(face(seven) == self.trump * 8 + SEVEN, "not the seven of trumps (R2.3)", seven)
        expect(seven in self.hands[s], "seven not held", seven)
        expect("seven" not in self.tags(seven), "a seven scored twice (R2.3)", seven)
        self.hist.setdefault(seven, set()).add("seven")

    def exchange(self, t: int, s: int) -> None:
        row = self.take(C.TR_EXCHANGE, "exchange")
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

    def shows(self, t: int, s: int) -> None:
        """After a score, every other combination s can make is shown to score (R1.10; one
        group of TR_SHOW rows each); those shown earlier stay shown."""
        legal = self.legal_codes(s)
        got: dict[int, list[int]] = {}
        while self.at(C.TR_SHOW, s):
            code = self.g.peek()[5]
            cards = []
            while self.at(C.TR_SHOW, s) and self.g.peek()[5] == code:
                row = self.take(C.TR_SHOW, "show")
                expect(row[1:4] == [self.n, t, s], "shown by the declarer", row)
                cards.append(row[4])
            kind, su = code // 4, code % 4
            expect(kind in COMBOS, "shown code is not a combination", code)
            expect(code not in got and code not in self.pending[s],
                   "the same combination shown twice", code)
            if self.check_combination(s, kind, su + 1 if kind in MARRIAGES else 0, cards):
                self.stats["union shown to score"] += 1
            got[code] = cards
        want = set(legal) - set(self.pending[s])
        expect(set(got) == want, "shown to score is not every other combination (R1.10)",
               sorted(got), sorted(want))
        for code, cards in got.items():
            self.pending[s][code] = cards
            for c in cards:
                self.lay(s, c)
            self.stats["shown to score"] += 1

    def flush(self, t: int) -> None:
        """End of stage 1: every combination still to score is lost (R1.10, R2.4)."""
        left = sorted((s, code) for s in range(self.P) for code in self.pending[s])
        lost = []
        for _ in left:
            row = self.g.peek()
            expect(row is not None and row[0] == C.TR_EVENT and row[5] == C.EV_LOST,
                   "to score not lost at the end of stage 1", row)
            lost.append((row[3], code_of(row[4], row[6])))
            self.event(t, row[3], row[4], C.EV_LOST, row[6])
        expect(sorted(lost) == left, "combinations lost at the end of stage 1", lost, left)
        self.pending = [{} for _ in range(self.P)]
        self.stats["to score lost at trick 24"] += len(left)

    # --- draws (R1.5, R3) ------------------------------------------------------------------------
    def draws(self, t: int, w: int) -> None:
        for k in range(self.P):
            seat = (w + k) % self.P
            row = self.take(C.TR_DRAW, "draw")
            expect(row[1:4] == [self.n, t, seat], "draws from the winner round to the left", row)
            card = row[4]
            if t == STAGE1 and k == self.P - 1:
                expect(card == self.turnup, "the last drawer of trick 24 takes the turn-up", row)
                self.hands[seat].append(card)
            else:
                self.receive(seat, card)
        if any(len(h) != HAND_SIZE for h in self.hands):
            raise Violation(f"eight cards each after the draws: {[len(h) for h in self.hands]}")

    # --- end of the hand ------------------------------------------------------------------------
    def end_of_hand(self) -> None:
        expect(all(not h for h in self.hands), "cards left in hand", self.hands)
        expect(self.played == self.all_cards and self.seen == self.all_cards,
               "every card once: dealt/turned up/drawn and played")
        total = 80 * self.packs
        expect(sum(self.brisques) == total, "brisques sum to 240 / 320 (R1.4)", self.brisques)
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

    def hand_end(self) -> bool:
        pts = [sum(p.values()) for p in self.points]
        row = self.take(C.TR_HAND_POINTS, "hand points")
        expect_no_negative(row, self.P, "hand points")
        expect(row[1:8] == [self.n, *pad4(pts), 0, 0], "hand points = the events", row, pts)
        if self.partners:                       # R4.2: one score per team (seats t, t + 2)
            team = [pts[0] + pts[2], pts[1] + pts[3]]
            scores = [self.g.scores[s] + team[s % 2] for s in range(self.P)]
        else:
            scores = [self.g.scores[s] + pts[s] for s in range(self.P)]
        row = self.take(C.TR_HAND_END, "hand end")
        expect_no_negative(row, self.P, "score after the hand")
        expect(row[1:8] == [self.n, *pad4(scores), 0, 0], "scores after the hand", row, scores)
        self.g.scores = scores
        for s in range(self.P):
            self.g.brisques[s] += self.brisques[s]
        self.g.hand_rows.append(self.batch_rows())
        sides = scores[:2] if self.partners else scores
        top = max(sides)
        return top >= self.o["target"] and sides.count(top) == 1

    def batch_rows(self) -> dict:
        info = [self.dealer, self.trump, self.dealt_turnup, self.winners[STAGE1],
                self.winners[self.n_tricks], C.TRICK_DEAL]     # the turn-up fixed trumps
        seats = []
        for s in range(self.P):
            kinds = [self.points[s][k] for k in range(C.N_KINDS)]
            seats.append([sum(kinds), self.g.scores[s], self.won[s], self.combos[s],
                          self.combos[s], 0, self.brisques[s], 0, *kinds])
        return {"info": info, "seat": seats}


def check_multi_end(game, hands: int) -> None:
    """R2.6 among three or four seats or two teams (R3, R4): the game ends after the first
    hand that leaves one side alone on top at or above the target; then the outcome rows.
    double_game (off by default here) compares the winner with the best other side."""
    row = game.take(C.TR_GAME_END, "game end")
    expect(game.pos == len(game.rows), "rows after the game end")
    P, _, partners = game.layout
    target = game.o["target"]
    sides = game.scores[:2] if partners else game.scores
    winner = max(range(len(sides)), key=lambda s: sides[s])
    expect(sides[winner] >= target and sides.count(sides[winner]) == 1,
           "game ended without a single side on top at the target (R2.6, R4.2)", sides)
    second = max(v for s, v in enumerate(sides) if s != winner)
    mode = game.o["double_game"]
    double = int(mode != "off" and 2 * second < target)
    stake = 1 + double
    if mode == "points":
        stake = (sides[winner] - second) * (1 + double)
    expect(row[1:8] == [winner, *pad4(game.scores), double, stake], "game result", row)
    gi = game.batch.game_info[0].tolist()
    first = gi[C.GI_FIRST_DEALER]
    want = [0] * C.GI_SIZE
    want[C.GI_HANDS:C.GI_RUBICON + 1] = [hands, first, winner, double, stake, 0,
                                         len(game.events), 0]
    want[C.GI_SCORE:C.GI_SCORE + P] = game.scores
    want[C.GI_ROUNDED:C.GI_ROUNDED + P] = game.scores
    want[C.GI_BRISQUES:C.GI_BRISQUES + P] = game.brisques
    expect(gi == want, "game_info", gi, "expected", want)
    expect(0 <= first < P, "first dealer", first)
    game.check_events()
    b = game.batch
    infos = b.hand_info[0, :len(game.hand_rows)].tolist()     # Python ints: fast compares
    seat_rows = b.hand_seat[0, :len(game.hand_rows)].tolist()
    for h, rows in enumerate(game.hand_rows):
        expect(infos[h] == rows["info"], "hand_info", h, infos[h], rows["info"])
        for seat in range(P):
            got = seat_rows[h][seat]
            expect(got == rows["seat"][seat], "hand_seat", h, seat, got, rows["seat"][seat])
