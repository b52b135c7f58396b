"""The story of a game as one seat may be told it, from the engine's trace (``bezsim play``).

``Narrator(rules, you).update(rows)`` takes the trace rows of the game so far
(``StepGame.history()``) and returns, in play order, the lines for the rows it has not told
yet: the hand's start (dealer, trumps, who leads), each finished trick (who led, who played
what, who won), each declaration with its seat, name and points ("seat 1 declares four aces:
100 (A♠ A♥ A♦ A♣)"), combinations shown "to score" (R1.10), scored later or lost, the seven of
trumps (R2.3, R5.3), Polish open cards and compound declarations (R5), Rubicon's trumps fixed
by the first marriage or sequence (R6.2) and carte blanche (R6.4), the draws with the stock
left after them, stage 2, and each hand's points and scores. Hands are numbered from 1.

The trace holds every card, the concealed ones too; this module names only what the seat
sees (bezsim/step/observe.py): cards played, declared, shown, laid open or exchanged with the
turn-up, a carte blanche hand (shown to every seat), the turn-up (also when it is drawn, the
last card of the stock), and the seat's own deal and draws. Another seat's draw from the
stock is told as "seat 1" with no card. The deals of the other seats are read only to know
the cards a carte blanche shows.
"""

from __future__ import annotations

from bezsim.cards import card_name, rank_of, suit_name, suit_of
from bezsim.engine import constants as C
from bezsim.replay import cards_text, kind_label
from bezsim.rules import Rules

_COMBINATIONS = frozenset(C.COMBINATION_KINDS)
_FIXING = frozenset((C.K_COMMON_MARRIAGE, C.K_ROYAL_MARRIAGE, C.K_SEQUENCE,
                     C.K_PLAIN_SEQUENCE))
_BASE = {"declares": "declare", "scores": "score", "wins": "win", "leads": "lead",
         "plays": "play", "shows": "show", "loses": "lose", "exchanges": "exchange",
         "deals": "deal", "turned": "turned"}


def seat_name(rules: Rules, seat: int, you: int) -> str:
    """"you", "seat 2 (partner)" or "seat 1"."""
    if seat == you:
        return "you"
    if rules.partners and seat == (you + 2) % 4:
        return f"seat {seat} (partner)"
    return f"seat {seat}"


class Narrator:
    """Tells seat ``you`` what happened (module docstring), a few rows at a time."""

    def __init__(self, rules: Rules, you: int) -> None:
        params = rules.params()
        self.rules = rules
        self.you = you
        self.players = rules.players
        self.n_cards = rules.packs * 32
        self.hand_size = rules.definition.hand_size
        self.stage1 = (self.n_cards - self.players * self.hand_size) // self.players
        self.pairs = bool(params[C.PR_STAGE2_PAIRS]) and self.players == 4
        self.polish = rules.definition.open_cards
        self.aside = rules.definition.brisques_decide   # Rubicon (R6.7); six-pack: worth nothing
        self.told = 0                   # rows told so far
        self.hand = -1
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.open: list[list[int]] = [[] for _ in range(self.players)]
        self.trump = C.NO_TRUMP
        self.turnup = C.NO_CARD
        self.stock = 0                  # face-down cards left
        self.brisques = [0] * self.players
        self.points: tuple = ()
        self._reset_groups()

    # --- names ------------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        return seat_name(self.rules, seat, self.you)

    def _says(self, seat: int, verb: str) -> str:
        """"seat 1 declares" / "you declare"."""
        return f"you {_BASE[verb]}" if seat == self.you else f"{self.who(seat)} {verb}"

    def _whose(self, seat: int) -> str:
        return "your" if seat == self.you else f"{self.who(seat)}'s"

    def _seats(self, values) -> str:
        return ", ".join(f"{self.who(s)} {v}" for s, v in enumerate(values))

    def _sides(self, values) -> str:
        if self.rules.partners:
            mine = self.you % 2
            return f"your team {values[mine]}, the other team {values[1 - mine]}"
        return self._seats(values)

    # --- rows -------------------------------------------------------------------------------

    def update(self, rows) -> list[str]:
        """Lines for ``rows[self.told:]``; ``rows``: the game's trace so far."""
        out: list[str] = []
        for row in rows[self.told:]:
            out += self._row(tuple(int(v) for v in row))
        self.told = max(self.told, len(rows))
        return out + self._flush()

    def _reset_groups(self) -> None:
        self.trick: list[tuple[int, int]] = []   # (seat, card) of the trick being played
        self.in_trick: list[str] = []            # lines raised while it is played
        self.last_play: int | None = None
        self.declared: list[int] = []
        self.exchange: tuple | None = None
        self.shows: list[tuple] = []
        self.draws: list[tuple] = []
        self.after_draws: list[tuple] = []       # carte blanche again (R6.4)
        self.opened: list[tuple] = []
        self.combos: list[tuple[tuple, list[int]]] = []

    def _row(self, row: tuple) -> list[str]:
        kind = row[0]
        done: list[str] = []            # groups this row closes
        if kind != C.TR_SHOW and self.shows:
            done.append(self._show_line())
        carte_blanche = kind == C.TR_EVENT and row[4] == C.K_CARTE_BLANCHE
        if kind != C.TR_DRAW and not carte_blanche and (self.draws or self.after_draws):
            done += self._draw_lines()
        if self.polish and kind in (C.TR_DRAW, C.TR_PLAY, C.TR_HAND_POINTS, C.TR_DEAL):
            done += self._open_lines()
        out: list[str] = []
        if kind == C.TR_DEAL:
            if row[1] != self.hand:
                self._new_hand(row[1])
            self.hands[row[2]].append(row[3])
        elif kind == C.TR_HAND_START:
            out.append(self._start_line(row))
        elif kind == C.TR_PLAY:
            self.trick.append((row[3], row[4]))
            self.hands[row[3]].remove(row[4])
            self.last_play = row[4]
        elif kind == C.TR_TRICK_WON:
            out += self._trick_lines(row)
        elif kind == C.TR_DECLARED_CARD:
            self.declared.append(row[4])
        elif kind == C.TR_EXCHANGE:
            self.exchange = row
            if not self.polish:         # Polish: the seven was in the trick
                self.hands[row[3]].remove(row[4])
                self.hands[row[3]].append(row[5])
            self.turnup = row[4]
        elif kind == C.TR_SHOW:
            if self.shows and (self.shows[-1][3], self.shows[-1][5]) != (row[3], row[5]):
                done.append(self._show_line())
            self.shows.append(row)
        elif kind == C.TR_OPEN:
            self.opened.append(row)
            self.open[row[3]].append(row[4])
        elif kind == C.TR_EVENT:
            out += self._event(row)
        elif kind == C.TR_DRAW:
            self.draws.append(row)
            self.hands[row[3]].append(row[4])
        elif kind == C.TR_HAND_POINTS:
            self.points = row
        elif kind == C.TR_HAND_END:
            out += self._hand_end_lines(row)
        if self.trick:                  # said while a trick is played: told after it
            self.in_trick += out
            return done
        return done + out

    def _flush(self) -> list[str]:
        """At a decision: what is still held back (a trick in progress keeps its cards for
        the trick line, shown on the table meanwhile)."""
        out, self.in_trick = self.in_trick, []
        if self.shows:
            out.append(self._show_line())
        if self.draws or self.after_draws:
            out += self._draw_lines()
        if self.polish:
            out += self._open_lines()
        return out

    # --- the hand ---------------------------------------------------------------------------

    def _new_hand(self, hand: int) -> None:
        self.hand = hand
        self.hands = [[] for _ in range(self.players)]
        self.open = [[] for _ in range(self.players)]
        self.brisques = [0] * self.players
        self._reset_groups()

    def _start_line(self, row: tuple) -> str:
        _, hand, dealer, trump, turnup, leader = row[:6]
        if hand != self.hand:
            self._new_hand(hand)
        self.trump, self.turnup = trump, turnup
        self.stock = (self.n_cards - self.players * self.hand_size
                      - (turnup != C.NO_CARD))
        if trump == C.NO_TRUMP:
            trumps = "no turn-up: trumps not yet fixed (R6.2)"
        else:
            trumps = f"trumps {suit_name(trump)} (turn-up {card_name(turnup)})"
        leads = self._says(leader, "leads")
        return (f"hand {hand + 1}: {self._says(dealer, 'deals')} · {trumps} · {leads} · "
                f"stock {self.stock}")

    def _hand_end_lines(self, row: tuple) -> list[str]:
        n = self.players
        points = self.points[2:2 + n] if self.points else ()
        scores = row[2:2 + (2 if self.rules.partners else n)]
        lines = [f"hand {row[1] + 1} over · points this hand: {self._seats(points)} · "
                 f"scores: {self._sides(scores)}"]
        if self.aside:
            lines.append(f"brisques counted aside (R6.7): {self._seats(self.brisques)}")
        return lines

    # --- tricks -----------------------------------------------------------------------------

    def _trick_lines(self, row: tuple) -> list[str]:
        trick, winner = row[2], row[3]
        text = f"trick {trick}: "
        for i, (seat, card) in enumerate(self.trick):
            text += ", " if i else ""
            text += f"{self._says(seat, 'leads' if i == 0 else 'plays')} {card_name(card)}"
        text += f" -> {self._says(winner, 'wins')}"
        self.brisques[winner] += 10 * sum(c >= 0 and rank_of(c) in (C.ACE, C.TEN)
                                          for c in row[4:8])
        lines = [text] + self.in_trick
        self.trick, self.in_trick, self.last_play = [], [], None
        self.exchange, self.declared = None, []
        return lines

    def _draw_lines(self) -> list[str]:
        parts = []
        stage2 = False
        for row in self.draws:
            seat, card = row[3], row[4]
            if self.stock > 0:
                self.stock -= 1
                seen = card_name(card) if seat == self.you else None
            else:                       # the turn-up (or the seven in its place): public
                seen = f"the turn-up {card_name(card)}"
                self.turnup = C.NO_CARD
            stage2 = self.stock == 0 and self.turnup == C.NO_CARD
            parts.append(f"{self.who(seat)} ({seen})" if seen else self.who(seat))
        lines = []
        if parts:
            left = "the stock is out" if stage2 else f"stock {self.stock}"
            lines.append(f"draws: {', '.join(parts)} · {left}")
        for row in self.after_draws:
            drawn = next(r[4] for r in self.draws if r[3] == row[3])
            lines.append(self._carte_blanche(row, drawn))
        if stage2 and self.draws:
            lines.append(self._stage2_line(self.draws[0][3]))
        self.draws, self.after_draws = [], []
        return lines

    def _stage2_line(self, winner: int) -> str:
        tricks = self.hand_size
        if self.pairs:
            a, b = winner, (winner + 1) % 4
            c, d = (winner + 2) % 4, (winner + 3) % 4
            return (f"stage 2 in pairs (R4.2): {self.who(a)} against {self.who(b)}, then "
                    f"{self.who(c)} against {self.who(d)}, {tricks} tricks each")
        return f"stage 2: the last {tricks} tricks, no more drawing (R1.6)"

    # --- declarations and scores ------------------------------------------------------------

    def _event(self, row: tuple) -> list[str]:
        _, _, _, seat, kind, status, extra, points = row
        if kind == C.K_CARTE_BLANCHE:
            if self.draws:
                self.after_draws.append(row)
                return []
            return [self._carte_blanche(row, None)]
        if self.polish and kind in _COMBINATIONS:
            self.combos.append((row, self.declared))
            self.declared = []
            return []
        out: list[str] = []
        label = kind_label(kind, extra)
        cards = f" ({cards_text(self.declared)})" if self.declared else ""
        if status == C.EV_LOST:
            cause = (f"{card_name(self.last_play)} played" if self.last_play is not None
                     else "the stock is out")
            out.append(f"{self._says(seat, 'loses')} {label} shown to score ({cause})")
        elif status == C.EV_SCORED_PENDING:
            out.append(f"{self._says(seat, 'scores')} {label} shown earlier: {points}{cards}")
        elif kind in _COMBINATIONS:
            out.append(f"{self._says(seat, 'declares')} {label}: {points}{cards}")
        else:
            out.append(self._score_line(row, cards))
        if kind in _FIXING and status != C.EV_LOST and self.declared \
                and self.trump == C.NO_TRUMP:
            self.trump = suit_of(self.declared[0])
            what = "marriage" if kind <= C.K_ROYAL_MARRIAGE else "sequence"
            out.append(f"trumps are fixed: {suit_name(self.trump)}, by {self._whose(seat)} "
                       f"{what}, the first declared (R6.2)")
        self.declared = []
        if kind != C.K_SEVEN_EXCHANGE:
            self.exchange = None
        return out

    def _score_line(self, row: tuple, cards: str) -> str:
        _, _, _, seat, kind, _, _, points = row
        seven = card_name(self.trump * 8 + C.SEVEN) if self.trump != C.NO_TRUMP else "7"
        if kind == C.K_SEVEN_EXCHANGE and self.exchange is not None:
            what = "the trick's " if self.polish else ""
            return (f"{self._says(seat, 'exchanges')} {what}{card_name(self.exchange[4])} for "
                    f"the turn-up {card_name(self.exchange[5])}: {points}")
        if kind == C.K_SEVEN_TURNUP:
            return f"{self._says(seat, 'scores')} the seven of trumps turned up (dealer): {points}"
        if kind == C.K_SEVEN_DECLARE:
            return f"{self._says(seat, 'declares')} the seven of trumps{cards}: {points}"
        if kind == C.K_SEVEN_PLAYED and self.polish:
            return f"{self._says(seat, 'wins')} the seven of trumps {seven} in the trick: {points}"
        if kind == C.K_SEVEN_PLAYED:
            return f"{self._says(seat, 'scores')} the seven of trumps played: {points}"
        if kind == C.K_BRISQUES and self.polish and self.exchange is not None:
            return (f"{self._says(seat, 'scores')} the brisque of the turn-up "
                    f"{card_name(self.exchange[5])}: {points}")
        if kind == C.K_BRISQUES:
            return f"{self._says(seat, 'scores')} brisques: {points}"
        if kind == C.K_LAST_TRICK:
            return f"{self._says(seat, 'scores')} the last trick: {points}"
        return f"{self._says(seat, 'scores')} {kind_label(row[4], row[6])}: {points}"

    def _carte_blanche(self, row: tuple, drawn: int | None) -> str:
        """R6.4: the hand is shown to every seat (the engine marks its cards seen); after a
        draw (``drawn``), the hand with the card drawn."""
        seat, points = row[3], row[7]
        shown = cards_text(self.hands[seat])
        if drawn is None:
            return (f"{self._says(seat, 'shows')} carte blanche, no K, Q or J ({shown}): "
                    f"{points}")
        return (f"{self._says(seat, 'shows')} carte blanche again, having drawn "
                f"{card_name(drawn)} ({shown}): {points}")

    def _show_line(self) -> str:
        seat, code = self.shows[0][3], self.shows[0][5]
        kind, suit = code // 4, code % 4
        extra = suit + 1 if kind <= C.K_ROYAL_MARRIAGE or kind == C.K_PLAIN_SEQUENCE else 0
        cards = cards_text([r[4] for r in self.shows])
        self.shows = []
        return f"{self._says(seat, 'shows')} {kind_label(kind, extra)} ({cards}) to score"

    def _open_lines(self) -> list[str]:
        """Polish (R5): the trick's new open cards, then its combinations (one line)."""
        out = []
        if self.opened:
            seat = self.opened[0][3]
            new = cards_text([r[4] for r in self.opened])
            out.append(f"{self._whose(seat)} open cards: {cards_text(self.open[seat])} "
                       f"(new: {new})")
        if len(self.combos) == 1:
            row, declared = self.combos[0]
            cards = f" ({cards_text(declared)})" if declared else ""
            out.append(f"{self._says(row[3], 'declares')} {kind_label(row[4], row[6])}: "
                       f"{row[7]}{cards}")
        elif self.combos:
            seat = self.combos[0][0][3]
            parts = " + ".join(f"{kind_label(r[4], r[6])} {r[7]}" for r, _ in self.combos)
            total = sum(r[7] for r, _ in self.combos)
            out.append(f"{self._says(seat, 'declares')} {parts} = {total}")
        self.opened, self.combos = [], []
        return out
