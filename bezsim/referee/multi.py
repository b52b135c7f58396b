"""The referee's reading of three- and four-handed bézique (docs/rules.md R3, R4.1, R4.2).

R3 is R2 played by three, R4 by four: ``MultiHand`` is the two-handed reading
(``two_handed.Hand``, written for any number of seats) with what R3 and R4 change. Like it,
it reads only the trace record layout (TR_*) and the kind numbers of
``bezsim.engine.constants`` and re-derives every rule from docs/rules.md (and, where the
texts leave room, the readings listed at the end):

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

from bezsim.engine import constants as C
from bezsim.referee import two_handed
from bezsim.referee.notation import JACK, QUEEN, pad4, rank, suit
from bezsim.referee.two_handed import Hand, beats, legal_replies, winning_index
from bezsim.referee.violation import expect

# R1.6 among three or four cards: the reading ``Hand`` applies (named as multi's own too)
legal_follows = legal_replies
__all__ = ["MultiHand", "beats", "check_multi_end", "legal_follows", "winning_index"]

# --- R3 triple bezique -----------------------------------------------------------------------

BEZ_LEVEL = two_handed.BEZ_LEVEL | {C.K_TRIPLE_BEZIQUE: 3}
COMBOS = two_handed.COMBOS | {C.K_TRIPLE_BEZIQUE}
POINTS = two_handed.POINTS | {C.K_TRIPLE_BEZIQUE: 1500}
DECLARATION_ROWS = (C.TR_EXCHANGE, C.TR_DECLARED_CARD, C.TR_SHOW)


class MultiHand(Hand):
    """One hand of three- or four-handed bézique: ``Hand``'s reading of R1 and R2 for three or
    four seats, with what R3 and R4 change: the triple bezique and the second double (R3),
    every other combination shown to score after a score, and in a partnership the partner's
    declarations, his table cards in a double or triple, team scores and stage 2 in pairs
    (R4.2). ``game`` is the referee's ``Game`` (trace cursor, options, policies, scores,
    outcome rows)."""

    POINTS = POINTS
    COMBOS = COMBOS
    BEZ_LEVEL = BEZ_LEVEL
    UNION = frozenset({C.K_DOUBLE_BEZIQUE, C.K_TRIPLE_BEZIQUE})   # the partner's table too

    def __init__(self, game, number: int, dealer: int) -> None:
        super().__init__(game, number, dealer)
        self.pairs = self.partners and self.o["partnership_stage2"] == "pairs"
        if self.pairs:
            self.n_tricks += self.HAND_SIZE     # R4.2: two pairs' eight two-card tricks
        self.table: list[set[int]] = [set() for _ in range(self.P)]  # face up: declared, shown
        self.declared: set[int] = set()      # copies that scored in a combination this hand
        self.doubles: list[list[int]] = []   # declared doubles not yet broken (R3)
        self.broken: set[int] = set()        # copies left by a broken double

    def layout(self, game) -> tuple[int, int, bool]:
        """Three or four players, as many packs (R3, R4), partnerships or not."""
        return game.layout

    def at(self, record: int, seat: int) -> bool:
        """Is the next row a ``record`` row of ``seat``?"""
        row = self.g.peek()
        return row is not None and row[0] == record and row[3] == seat

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    # --- stage 2 (R3, R4.2) ------------------------------------------------------------------
    def stage2(self, leader: int) -> None:
        """R4.2 pairs: the winner of trick 24 and the opponent on his left play tricks 25-32
        (the winner leading the first), then the other two tricks 33-40 (the winner's partner
        leading the first); the winner of a trick leads the next. Else every seat (R3)."""
        if not self.pairs:
            super().stage2(leader)
            return
        t = self.stage1
        for half in range(2):
            a = (leader + 2 * half) % 4
            b = (a + 1) % 4
            first = a
            for _ in range(self.HAND_SIZE):
                t += 1
                first = self.trick(t, [first, b if first == a else a], False)
            expect(not self.hands[a] and not self.hands[b],
                   "cards left after a pair's eight tricks (R4.2)", self.hands[a], self.hands[b])
            self.stats["pairs endings"] += 1

    def replies(self, hand: list[int], trick: list[int]) -> list[int]:
        """R1.6 as ``Hand`` reads it, counting where the duty binds and where the reading
        for a void seat holding only lower trumps applies."""
        legal = super().replies(hand, trick)
        if len(legal) < len(hand):
            self.stats["stage-2 duty binding"] += 1
        if len(trick) > 1 and not [c for c in hand if suit(c) == suit(trick[0])]:
            best = trick[winning_index(trick, self.trump)]
            if (suit(best) == self.trump and any(suit(c) == self.trump for c in hand)
                    and not any(beats(c, best, self.trump) for c in hand)):
                self.stats["void, only lower trumps"] += 1
        return legal

    def after_play(self, t: int, seat: int, card: int, stage1: bool) -> None:
        """Also R3: a played card may break a declared double."""
        self.table[seat].discard(card)
        super().after_play(t, seat, card, stage1)
        if self.doubles:
            self.break_doubles(card)

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
                if len(self.played) <= self.stage1 * self.P:
                    self.stats["double broken in stage 1"] += 1

    # --- declaring (R1.7-R1.10, R2.3, R2.4, R4.2) --------------------------------------------
    def declarations(self, t: int, w: int) -> None:
        """A side's win allows one combination and one seven action (R1.10, R2.3; option
        seven_exchange_is_declaration: one declaration in all). The winner declares first; in
        a partnership (R4.2) his partner is asked for whatever the winner left unused."""
        if t == self.stage1 and self.o["declare_after_last_stock_trick"] == "false":
            self.no_more_declarations()
            self.flush(t)
            return
        announce = t < self.stage1
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
        if t == self.stage1:
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
            if kind in self.COMBOS or one:
                expect(combos > 0, "two declarations on one win (R1.10, R2.3, R4.2)", s)
                combos -= 1
            else:
                expect(sevens > 0, "two seven actions on one win (R2.3, R4.2)", s)
                sevens -= 1
            if kind in self.COMBOS and announce:
                self.shows(t, s)

    def union_cards(self, s: int):
        """R4.2: a double or triple may take the cards face up on the partner's side."""
        return self.table[self.partner(s)] if self.partners else ()

    def may_use(self, s: int, kind: int, card: int) -> bool:
        return card in self.hands[s] or (kind in self.UNION and card in self.union_cards(s))

    def on_declared(self, s: int, kind: int, cards: list[int]) -> None:
        """The declared cards lie face up on their holders' sides; a double may break (R3)."""
        theirs = [c for c in cards if c not in self.hands[s]]
        if theirs:
            self.stats["union " + C.KIND_NAMES[kind]] += 1
            if any(c not in self.declared for c in theirs):
                self.stats["union with a partner's card only shown to score"] += 1
        for c in cards:
            self.lay(s, c)
        self.declared.update(cards)
        if kind == C.K_DOUBLE_BEZIQUE:
            self.doubles.append(list(cards))

    def lay(self, s: int, card: int) -> None:
        """A declared or shown card lies face up on its holder's side (R1.7)."""
        owner = s if card in self.hands[s] else self.partner(s)
        self.table[owner].add(card)

    def check_reuse(self, kind: int, cards: list[int]) -> None:
        super().check_reuse(kind, cards)
        if kind == C.K_DOUBLE_BEZIQUE and self.broken & set(cards):
            self.stats["second double"] += 1
        if kind == C.K_TRIPLE_BEZIQUE:
            hist = [self.tags(c) for c in cards]
            how = ("from a double" if any("double" in h for h in hist) else
                   "from a single" if any("bezique" in h for h in hist) else "at once")
            self.stats["triple " + how] += 1

    def shows(self, t: int, s: int) -> None:
        """After a score, every other combination s can make is shown to score (R1.10; one
        group of TR_SHOW rows each); those shown earlier stay shown."""
        want = set(self.legal_codes(s)) - set(self.pending[s])
        got = set()
        while self.at(C.TR_SHOW, s):
            code = self.show(t, s)
            got.add(code)
            cards = self.pending[s][code]
            if any(c not in self.hands[s] for c in cards):
                self.stats["union shown to score"] += 1
            for c in cards:
                self.lay(s, c)
            self.stats["shown to score"] += 1
        expect(got == want, "shown to score is not every other combination (R1.10)",
               sorted(got), sorted(want))

    # --- R4.2: one score per team (seats t, t + 2) ----------------------------------------------
    def scores_after(self, pts: list[int]) -> list[int]:
        if not self.partners:
            return super().scores_after(pts)
        team = [pts[0] + pts[2], pts[1] + pts[3]]
        return [self.g.scores[s] + team[s % 2] for s in range(self.P)]

    def sides(self, scores: list[int]) -> list[int]:
        return scores[:2] if self.partners else scores


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
