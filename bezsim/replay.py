"""Readable trick-by-trick transcript of one seeded game (``bezsim replay``).

Built from ``trace_one``, which runs the same compiled kernel as a batch run, so the transcript
is what game ``game`` of seed ``seed`` did inside ``bezsim simulate``. Hands and tricks are
numbered from 1, as ``bezsim play`` numbers them (the tables' ``hand`` ids count from 0: Hand 1
here is hand 0 there). Every card is shown, the drawn ones included: this is a replay for
analysis, not a player's view (bezsim/step/narrate.py tells one seat what it may see).

Polish (R5): after each trick a line lists the winner's open cards (the new ones named), the
seven of trumps of the trick is shown as exchanged or scored where it lies, and the
combinations one trick completes are one line, "seat 1 declares royal marriage ♠ 40 + four
kings 80 = 120" (a single combination keeps the ordinary form, with its cards).

Rubicon (R6): the hand starts with trumps undecided (no turn-up) and a line says when the first
marriage or sequence fixes them (R6.2); carte blanche is shown with the hand it was scored on
(R6.4); brisques are counted aside (R6.7) and listed at the end of the hand; the game ends with
its settlement (R6.8): rounded totals, brisques, rubicon or not, and the stake worked out.
"""

from __future__ import annotations

from collections import defaultdict

from bezsim.cards import card_name, rank_of, suit_name, suit_of
from bezsim.engine import constants as C
from bezsim.engine_api.games import trace_one
from bezsim.errors import BezsimError
from bezsim.policy_specs.registry import parse_policies
from bezsim.rules import Rules

INDENT = "  "
NOTE = " " * 12         # lines that follow a trick line
_TRICKED = (C.TR_PLAY, C.TR_TRICK_WON, C.TR_EVENT, C.TR_DRAW, C.TR_EXCHANGE, C.TR_SHOW,
            C.TR_DECLARED_CARD, C.TR_OPEN)   # records whose field 2 is the trick number
_COMBINATIONS = frozenset(C.COMBINATION_KINDS)


def transcript(rules: Rules, policies: list[str], seed: int, game: int) -> str:
    """The transcript of one game as text (one line per trick, notes indented below it)."""
    policies = parse_policies(policies, rules.players)     # a str would be read per letter
    batch, trace = trace_one(rules, policies, seed, game)
    if batch.game_info[0, C.GI_OVERFLOW] != 0:   # trace_one returned a truncated trace
        raise BezsimError(f"game {game} is too long for the engine's trace buffer; "
                          "it cannot be replayed")
    return transcript_of(rules, policies, seed, game, batch, trace)


def transcript_of(rules: Rules, names: list[str], seed: int, game: int, batch, trace,
                  unfinished: str = "") -> str:
    """The transcript of a traced game (``transcript``, or a game played step by step:
    bezsim/step/step_game.py), ``names`` naming the seats. A game left unfinished has no ``batch``:
    its trace so far, then the line ``unfinished`` where the result would be."""
    policies = names
    rows = [tuple(int(v) for v in row) for row in trace]
    lines = [header(rules, policies, seed, game)]
    replay = _Replay(rules)
    for hand_rows in _split_hands(rows):
        lines += replay.hand_lines(hand_rows)
    if batch is None:
        return "\n".join([*lines, "", unfinished]) + "\n"
    hands = int(batch.game_info[0, C.GI_HANDS])
    if replay.rubicon:
        lines += _settlement_lines(batch.game_info[0], rules)
    else:
        lines += [_game_end_line(r, hands, rules) for r in rows if r[0] == C.TR_GAME_END]
    return "\n".join(lines) + "\n"


# --- text helpers ---------------------------------------------------------------------------

def header(rules: Rules, policies: list[str], seed: int, game: int) -> str:
    defaults = Rules.make(rules.variant).options
    changed = [f"{k}={v}" for k, v in sorted(rules.options.items()) if defaults.get(k) != v]
    seats = ", ".join(f"seat {s} {p}" for s, p in enumerate(policies))
    options = ", ".join(changed) if changed else "defaults"
    return (f"bezsim replay | variant {rules.variant} | options: {options} | "
            f"policies: {seats} | seed {seed} | game {game}")


def cards_text(cards) -> str:
    """Cards by suit (♠ ♥ ♦ ♣) then rank (A 10 K Q J 9 8 7)."""
    return " ".join(card_name(c) for c in sorted(cards, key=lambda c: (suit_of(c), rank_of(c),
                                                                         c)))


def kind_label(kind: int, extra: int = 0) -> str:
    label = C.KIND_NAMES[kind].replace("_", " ")
    if extra > 0:          # marriages carry suit + 1
        label += " " + suit_name(extra - 1)
    return label


def _split_hands(rows: list[tuple]) -> list[list[tuple]]:
    """Rows of each hand, in order (the deal rows come before the hand-start row)."""
    hands: dict[int, list[tuple]] = defaultdict(list)
    for row in rows:
        if row[0] != C.TR_GAME_END:
            hands[row[1]].append(row)
    return [hands[h] for h in sorted(hands)]


def _settlement_lines(info, rules: Rules, you: int | None = None) -> list[str]:
    """Rubicon (R6.8) and six-pack (R7.5): one hand is the game; the engine's settlement,
    worked out in words; ``you``: the seat told it as "you" (``bezsim play``)."""
    from bezsim.engine import settlement as S

    def who(seat: int, verb: str = "") -> str:
        """"seat 1 wins" / "you win"."""
        if seat != you:
            return f"seat {seat} {verb}".rstrip()
        return f"you {({'wins': 'win', 'is': 'are'}).get(verb, verb)}".rstrip()

    params = rules.params()
    line, game_bonus = int(params[C.PR_RUBICON_LINE]), int(params[C.PR_GAME_BONUS])
    rubicon_bonus, bonus = int(params[C.PR_RUBICON_GAME_BONUS]), int(params[C.PR_BRISQUE_BONUS])
    decide = rules.definition.brisques_decide          # six-pack: brisques count for nothing
    points = [int(info[C.GI_SCORE + s]) for s in range(2)]
    rounded = [int(info[C.GI_ROUNDED + s]) for s in range(2)]
    brisques = [int(info[C.GI_BRISQUES + s]) for s in range(2)]
    winner, stake = int(info[C.GI_WINNER]), int(info[C.GI_STAKE])
    name = "Rubicon" if decide else "six-pack"
    lines = [f"\nGame over ({name}: one hand is the game, {rules.definition.settlement_rule})",
             f"{INDENT}totals: {who(0)} {points[0]}, {who(1)} {points[1]} | rounded down to "
             f"100: {who(0)} {rounded[0]}, {who(1)} {rounded[1]}",
             f"{INDENT}brisques (counted aside{'' if decide else ', worth nothing'}): "
             f"{who(0)} {brisques[0]}, {who(1)} {brisques[1]}"]
    by_points = rules.options.get("rubicon_close") == "points" or not decide
    if winner < 0:
        tied = ("points and brisques both tie" if by_points and decide
                else "the points tie" if by_points else "rounded totals and brisques both tie")
        lines.append(f"{INDENT}draw: {tied}; stake {stake}")
        return lines
    loser = 1 - winner
    if rounded[0] != rounded[1]:
        how = f"{rounded[winner]} to {rounded[loser]}"
    elif by_points and points[0] != points[1]:
        how = f"on points ({points[winner]} to {points[loser]}), the rounded totals tying"
    else:
        how = "on brisques, the rounded totals tying"
    lines.append(f"{INDENT}{who(winner, 'wins')} {how}")
    saving = f" + {brisques[loser]} brisques" if decide else ""
    if info[C.GI_RUBICON]:
        counted = max(rounded[loser], S.RUBICON_FLOOR)
        as_floor = f" (counted as {S.RUBICON_FLOOR})" if rounded[loser] < S.RUBICON_FLOOR else ""
        lines.append(f"{INDENT}{who(loser, 'is')} rubiconed: {points[loser]} points{saving} is "
                     f"under {line}")
        for_brisques = f" + {bonus} for brisques" if decide else ""
        lines.append(f"{INDENT}stake {stake} = {rounded[winner]} + {counted}{as_floor}"
                     f"{for_brisques} + {rubicon_bonus} for game")
    else:
        lines.append(f"{INDENT}{who(loser, 'is')} not rubiconed: {points[loser]} points"
                     f"{saving} reach {line}")
        lines.append(f"{INDENT}stake {stake} = {game_bonus} for game + {rounded[winner]} - "
                     f"{rounded[loser]}")
    return lines


def _side_name(rules: Rules, side: int) -> str:
    if rules.partners:
        return f"team {side} (seats {side} and {side + 2})"
    return f"seat {side}"


def _game_end_line(row: tuple, hands: int, rules: Rules) -> str:
    winner, double, stake = row[1], row[6], row[7]
    sides = 2 if rules.partners else rules.players
    scores = list(row[2:2 + sides])        # partners: seats 0 and 1 carry the team scores
    names = [_side_name(rules, s) for s in range(sides)]
    if winner < 0:
        listed = ", ".join(f"{n} {v}" for n, v in zip(names, scores, strict=True))
        return f"\nGame unfinished after {hands} hands: scores {listed}"
    if sides == 2:
        others = str(scores[1 - winner])
    else:
        others = ", ".join(f"{names[s]} {scores[s]}" for s in range(sides) if s != winner)
    dbl = ", double game" if double else ""
    return (f"\nGame over after {hands} hands: {names[winner]} wins {scores[winner]} to "
            f"{others}{dbl}; stake {stake}")


# --- one hand -------------------------------------------------------------------------------

class _Replay:
    """Turns one hand's trace rows into lines, tracking each seat's cards as it goes."""

    def __init__(self, rules: Rules) -> None:
        params, variant = rules.params(), rules.definition
        self.players = variant.players
        self.partners = variant.partners
        self.pairs = bool(params[C.PR_STAGE2_PAIRS]) and self.players == 4
        n_cards = variant.packs * 32
        self.stage1 = (n_cards - self.players * variant.hand_size) // self.players
        self.hands: list[list[int]] = []
        self.turnup = C.NO_CARD
        self.polish = variant.open_cards              # R5: open cards, compounds
        self.rubicon = bool(params[C.PR_TRUMP_BY_MARRIAGE])   # R6: trumps by the first marriage
        self.brisques_decide = variant.brisques_decide   # R6.7; six-pack: no (R7.3)
        self.open: list[list[int]] = []
        self.trump = 0
        self.brisques: list[int] = []

    def hand_lines(self, rows: list[tuple]) -> list[str]:
        self.hands = [[] for _ in range(self.players)]
        self.open = [[] for _ in range(self.players)]
        self.brisques = [0] * self.players
        for row in rows:
            if row[0] == C.TR_DEAL:
                self.hands[row[2]].append(row[3])
        start = next(r for r in rows if r[0] == C.TR_HAND_START)
        lines = [self._start_line(start)]
        lines += [f"{INDENT}seat {s} dealt: {cards_text(h)}" for s, h in enumerate(self.hands)]
        by_trick: dict[int, list[tuple]] = defaultdict(list)
        for row in rows:
            if row[0] in _TRICKED:
                by_trick[row[2]].append(row)
        for trick in sorted(by_trick):
            lines += self._trick_lines(trick, by_trick[trick])
        if self.rubicon:
            aside = ", ".join(f"seat {s} {b}" for s, b in enumerate(self.brisques))
            worth = "not scored" if self.brisques_decide else "worth nothing, R7.3"
            lines.append(f"{INDENT}brisques (counted aside, {worth}): {aside}")
        points_rows = [r for r in rows if r[0] == C.TR_HAND_POINTS]
        lines += [self._hand_end_line(r, points_rows[0]) for r in rows
                  if r[0] == C.TR_HAND_END]
        return lines

    def _start_line(self, row: tuple) -> str:
        _, hand, dealer, trump, turnup, leader = row[:6]
        self.turnup = turnup
        self.trump = trump
        if trump == C.NO_TRUMP:
            return (f"\nHand {hand + 1} | dealer: seat {dealer} | trumps undecided (no turn-up; "
                    f"the first marriage or sequence fixes them) | seat {leader} leads")
        return (f"\nHand {hand + 1} | dealer: seat {dealer} | trumps {suit_name(trump)} "
                f"(turn-up {card_name(turnup)}) | seat {leader} leads")

    def _hand_end_line(self, row: tuple, points_row: tuple) -> str:
        n = self.players
        points = ", ".join(f"seat {s} {points_row[2 + s]}" for s in range(n))
        if self.partners:
            scores = ", ".join(f"team {t} {row[2 + t]}" for t in range(2))
        else:
            scores = ", ".join(f"seat {s} {row[2 + s]}" for s in range(n))
        return f"{INDENT}hand points: {points} | scores: {scores}"

    def _trick_lines(self, trick: int, rows: list[tuple]) -> list[str]:
        plays = [r for r in rows if r[0] == C.TR_PLAY]
        won = [r for r in rows if r[0] == C.TR_TRICK_WON]
        if not plays:       # events of the deal (trick 0) or of the hand's end
            return [INDENT + line for line in self._notes(rows, {})]
        lines = []
        if trick == self.stage1 + 1:
            held = "; ".join(f"seat {s} {cards_text(h)}" for s, h in enumerate(self.hands))
            lines.append(f"{INDENT}stage 2 (stock empty) — holding: {held}")
            if self.pairs:
                a = plays[0][3]
                lines.append(f"{INDENT}stage 2 in pairs (R4.2): seat {a} against seat "
                             f"{(a + 1) % 4}, then seat {(a + 2) % 4} against seat "
                             f"{(a + 3) % 4}")
        for play in plays:
            self.hands[play[3]].remove(play[4])
        for row in won:
            self.brisques[row[3]] += 10 * sum(c >= 0 and rank_of(c) in (C.ACE, C.TEN)
                                              for c in row[4:8])
        lines.append(f"{INDENT}{_trick_line(trick, plays, won)}")
        return lines + [NOTE + line for line in self._notes(rows, _killers(rows))]

    def _notes(self, rows: list[tuple], killers: dict[int, int]) -> list[str]:
        """Declarations, shows, exchanges, events and draws of a trick, in engine order."""
        if self.polish:
            return self._polish_notes(rows)
        lines: list[str] = []
        declared: list[int] = []
        exchange: tuple | None = None
        shows: list[tuple] = []
        draws: list[tuple] = []
        after_draws: list[tuple] = []      # carte blanche again after a draw (R6.4)
        for i, row in enumerate(rows):
            kind = row[0]
            if kind == C.TR_EVENT and row[4] == C.K_CARTE_BLANCHE and draws:
                after_draws.append(row)
                continue
            if kind != C.TR_SHOW and shows:
                lines.append(_show_line(shows))
                shows = []
            if kind == C.TR_DECLARED_CARD:
                declared.append(row[4])
            elif kind == C.TR_EXCHANGE:
                exchange = row
                self._apply_exchange(row)
            elif kind == C.TR_SHOW:
                if shows and (shows[-1][3], shows[-1][5]) != (row[3], row[5]):
                    lines.append(_show_line(shows))
                    shows = []
                shows.append(row)
            elif kind == C.TR_EVENT and row[4] == C.K_CARTE_BLANCHE:
                lines.append(self._carte_blanche_line(row, None))
            elif kind == C.TR_EVENT:
                lines.append(_event_line(row, declared, exchange, killers.get(i)))
                if self.rubicon:
                    lines += self._trumps_fixed(row, declared)
                declared, exchange = [], None
            elif kind == C.TR_DRAW:
                draws.append(row)
        if shows:
            lines.append(_show_line(shows))
        if draws:
            lines.append(self._draw_line(draws))
        for row in after_draws:
            drawn = next(r[4] for r in draws if r[3] == row[3])
            lines.append(self._carte_blanche_line(row, drawn))
        return lines

    def _carte_blanche_line(self, row: tuple, drawn: int | None) -> str:
        """R6.4: the hand without K, Q or J is shown (after a draw: the card drawn)."""
        seat, points = row[3], row[7]
        if drawn is None:
            return (f"seat {seat} carte blanche, no K, Q or J: shows "
                    f"{cards_text(self.hands[seat])}: +{points}")
        return (f"seat {seat} carte blanche again, drew {card_name(drawn)}: shows "
                f"{cards_text(self.hands[seat])}: +{points}")

    def _trumps_fixed(self, row: tuple, declared: list[int]) -> list[str]:
        """R6.2: the first marriage or sequence declared fixes trumps."""
        _, _, _, seat, kind, status, _, _ = row
        fixing = kind in (C.K_ROYAL_MARRIAGE, C.K_COMMON_MARRIAGE, C.K_SEQUENCE,
                          C.K_PLAIN_SEQUENCE)
        if self.trump != C.NO_TRUMP or not fixing or status == C.EV_LOST or not declared:
            return []
        self.trump = suit_of(declared[0])
        what = "marriage" if kind <= C.K_ROYAL_MARRIAGE else "sequence"
        return [f"trumps fixed: {suit_name(self.trump)} (seat {seat}'s {what}, the first "
                f"declared)"]

    def _polish_notes(self, rows: list[tuple]) -> list[str]:
        """Polish (R5): the trick's points and seven in engine order, then the winner's open
        cards, then the combinations the trick completed (one line), then the draws."""
        lines: list[str] = []
        declared: list[int] = []
        exchange: tuple | None = None
        opened: list[tuple] = []
        combos: list[tuple[tuple, list[int]]] = []
        draws: list[tuple] = []
        for row in rows:
            kind = row[0]
            if kind == C.TR_OPEN:
                opened.append(row)
                self.open[row[3]].append(row[4])
            elif kind == C.TR_DECLARED_CARD:
                declared.append(row[4])
            elif kind == C.TR_EXCHANGE:
                exchange = row
                self.turnup = row[4]     # the seven lies in the turn-up's place
            elif kind == C.TR_EVENT and row[4] in _COMBINATIONS:
                combos.append((row, declared))
                declared = []
            elif kind == C.TR_EVENT:
                lines.append(self._polish_event_line(row, exchange))
                if row[4] != C.K_SEVEN_EXCHANGE:
                    exchange = None
            elif kind == C.TR_DRAW:
                draws.append(row)
        if opened:
            lines.append(self._open_line(opened))
        if combos:
            lines.append(_compound_line(combos))
        if draws:
            lines.append(self._draw_line(draws))
        return lines

    def _polish_event_line(self, row: tuple, exchange: tuple | None) -> str:
        _, _, _, seat, kind, _, _, points = row
        seven = card_name(self.trump * 8 + C.SEVEN)
        if kind == C.K_SEVEN_EXCHANGE and exchange is not None:
            return (f"seat {seat} exchanges the trick's {seven} for the turn-up "
                    f"{card_name(exchange[5])}: +{points}")
        if kind == C.K_BRISQUES and exchange is not None:
            return f"seat {seat} brisque of the turn-up {card_name(exchange[5])}: +{points}"
        if kind == C.K_SEVEN_PLAYED:
            return f"seat {seat} wins the seven of trumps {seven} in the trick: +{points}"
        return _event_line(row, [], None, None)

    def _open_line(self, opened: list[tuple]) -> str:
        seat = opened[0][3]
        new = cards_text([r[4] for r in opened])
        return f"open cards seat {seat}: {cards_text(self.open[seat])} (new: {new})"

    def _apply_exchange(self, row: tuple) -> None:
        _, _, _, seat, seven, turnup = row[:6]
        self.hands[seat].remove(seven)
        self.hands[seat].append(turnup)
        self.turnup = seven

    def _draw_line(self, draws: list[tuple]) -> str:
        parts = []
        for row in draws:
            seat, card = row[3], row[4]
            note = " (the turn-up)" if card == self.turnup else ""
            self.hands[seat].append(card)
            parts.append(f"seat {seat} {card_name(card)}{note}")
        return "draws: " + ", ".join(parts)


def _trick_line(trick: int, plays: list[tuple], won: list[tuple]) -> str:
    leader = plays[0]
    text = f"trick {trick:2d}: seat {leader[3]} leads {card_name(leader[4])}"
    for play in plays[1:]:
        text += f", seat {play[3]} plays {card_name(play[4])}"
    if won:
        text += f" -> seat {won[0][3]} wins"
    return text


def _killers(rows: list[tuple]) -> dict[int, int]:
    """Row index of each event raised by a play -> the card just played (R1.10 losses)."""
    out = {}
    last = None
    for i, row in enumerate(rows):
        if row[0] == C.TR_PLAY:
            last = row[4]
        elif row[0] == C.TR_TRICK_WON:
            last = None
        elif row[0] == C.TR_EVENT and last is not None:
            out[i] = last
    return out


def _compound_line(combos: list[tuple[tuple, list[int]]]) -> str:
    """The combinations scored on one trick (R5.2): one of them in the ordinary form, several
    as one compound line with their points and total."""
    if len(combos) == 1:
        row, declared = combos[0]
        return _event_line(row, declared, None, None)
    seat = combos[0][0][3]
    parts = " + ".join(f"{kind_label(row[4], row[6])} {row[7]}" for row, _ in combos)
    total = sum(row[7] for row, _ in combos)
    return f"seat {seat} declares {parts} = {total}"


def _show_line(shows: list[tuple]) -> str:
    seat, code = shows[0][3], shows[0][5]
    kind, suit = code // 4, code % 4
    extra = suit + 1 if kind <= C.K_ROYAL_MARRIAGE or kind == C.K_PLAIN_SEQUENCE else 0
    cards = cards_text([r[4] for r in shows])
    return f"seat {seat} shows {kind_label(kind, extra)} ({cards}) to score"


def _event_line(row: tuple, declared: list[int], exchange: tuple | None,
                killer: int | None) -> str:
    _, _, trick, seat, kind, status, extra, points = row
    label = kind_label(kind, extra)
    cards = f" ({cards_text(declared)})" if declared else ""
    if status == C.EV_LOST:
        cause = f"{card_name(killer)} played" if killer is not None else "stock exhausted"
        return f"seat {seat} loses {label} shown to score ({cause})"
    if status == C.EV_SCORED_PENDING:
        return f"seat {seat} scores {label} shown earlier{cards}: +{points}"
    if kind == C.K_SEVEN_EXCHANGE and exchange is not None:
        return (f"seat {seat} exchanges {card_name(exchange[4])} for the turn-up "
                f"{card_name(exchange[5])}: +{points}")
    if kind == C.K_SEVEN_TURNUP:
        return f"seat {seat} (dealer) turned up a seven of trumps: +{points}"
    if kind == C.K_BRISQUES:
        return f"seat {seat} brisques: +{points}"
    if kind == C.K_LAST_TRICK:
        return f"seat {seat} last trick: +{points}"
    if kind == C.K_SEVEN_DECLARE:
        return f"seat {seat} declares the seven of trumps{cards}: +{points}"
    if kind == C.K_SEVEN_PLAYED:
        return f"seat {seat} played the seven of trumps: +{points}"
    return f"seat {seat} declares {label}{cards}: +{points}"
