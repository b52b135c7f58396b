"""Positions: a hand state written by a person (JSON or dict), asked for its legal plays and
legal declarations with points, through the engine's own compiled functions. The jobs live
in their own modules: ``model`` (what a position is), ``parse`` (reading and checking one),
``engine_state`` (it as the engine's state array), ``queries`` (what the engine says of
it) and ``text`` (``bezsim explain``'s output).

Format (every key but ``seats`` optional; see docs/positions.md)::

    {"variant": "ordinary", "options": {"stage2_duty": "follow_and_win"},
     "trumps": "♥", "turnup": "9♥", "seven_exchanged": false,
     "stock": 20, "trick": 12, "to_move": 0, "phase": "play" | "declare",
     "current_trick": ["Q♥"],
     "seats": [{"hand": ["K♠", "Q♠", "J♦"], "declared": {"Q♠": ["marriage"]}}, {"hand": []}],
     "played": ["A♣"], "scored_this_trick": ["bezique"]}

Three and four players (``three_handed``, ``four_handed``, ``four_handed_partners``; R3, R4):
``seats`` lists 3 or 4 seats, numbered to the left (play and dealing go seat + 1); three or
four packs (copies ``Q♠#0`` .. ``Q♠#2`` / ``#3``; more copies of a face than packs is an
error); ``stock`` 0..71 (3 players) or 0..95 (4), the turn-up apart; ``trick`` 1..32, or
1..40 for partners with ``partnership_stage2=pairs`` (stage 2 = tricks 25..32 for the winner
of trick 24 and his left-hand opponent, 33..40 for the other two), whose stage-2
``current_trick`` then holds at most one card (a two-card trick). ``declared`` names may
include ``"triple_bezique"``; a pair still in an intact declared double is
``["double_bezique"]``, the pair left on the table once a queen and a jack of that double
have been played is ``["bezique"]`` (it may make a second double with a third pair, R3).
Partners (R4.2, team = seat % 2): the seat to move in a ``declare`` position is the one
declaring; its partner's ``declared`` Q♠/J♦ copies on the table may complete its double or
triple bezique (nothing else, and never the partner's concealed hand). Optional
``"trick_winner"``: the seat that won the trick, the seat to move (default) or its partner,
who then scored no combination on this win (R4.2); ``scored_this_trick`` lists what the seat
to move itself has scored on this win.

Rubicon (R6): ``"trumps": null`` (or absent, or ``"undecided"``) while no marriage or sequence
has fixed trumps (R6.2); no turn-up; four packs (copies ``Q♠#0`` .. ``Q♠#3``). A ``declared``
name then means "scored in that kind, and that combination is still intact"; ``"broken:<name>"``
means "scored in that kind, but a card of that combination has since been played", so the
copy may re-form it with a like card (R6.6). Engine history word: intact kinds in the low bits,
every kind ever scored in at ``<< H_EVER_SHIFT``.
"""

from bezsim.position.engine_state import build_state
from bezsim.position.model import BROKEN, UNDECIDED, Position, PositionError, history_names
from bezsim.position.parse import load_position, parse_position
from bezsim.position.queries import (
    explain,
    legal_declarations,
    legal_plays,
    open_cards_outcomes,
)
from bezsim.position.text import format_explanation

__all__ = ["BROKEN", "UNDECIDED", "Position", "PositionError", "build_state", "explain",
           "format_explanation", "history_names", "legal_declarations", "legal_plays",
           "load_position", "open_cards_outcomes", "parse_position"]
