"""Explicit Arrow schemas of the three output tables.

Small integer types keep shards compact (a run can hold millions of hand rows); strings that
repeat (policy, suit, card, kind, status) are dictionary-encoded against FIXED dictionaries,
so every shard of every run of a variant has identical categories and files concatenate
cleanly. The scoring kinds are the variant's (``Variant.kinds``): six-pack's fours in trumps
appear only in six-pack runs, so the other presets' tables keep their columns and
categories.
"""

from __future__ import annotations

import pyarrow as pa

from bezsim.cards import SUIT_SYMBOLS, card_name
from bezsim.engine.constants import KIND_NAMES, N_BASE_KINDS, STATUS_NAMES

TABLE_NAMES = ("hands", "games", "declarations")

# int8 indices: every dictionary below has far fewer than 128 entries
DICT_STRING = pa.dictionary(pa.int8(), pa.string())

SUIT_DICT: tuple[str, ...] = SUIT_SYMBOLS
FACE_DICT: tuple[str, ...] = tuple(card_name(face) for face in range(32))
STATUS_DICT: tuple[str, ...] = STATUS_NAMES


# Columns that may hold nulls (no trump yet, so no trick that fixed it, no turn-up, an event
# without a suit or outside a compound); every other column is declared non-null, so Parquet
# stores it REQUIRED, with no definition levels to write or read (measured 10-15% of a
# shard's write).
NULLABLE = {"trump", "trump_trick", "turnup", "suit", "compound_id", "compound_size"}


def _schema(fields: list[tuple[str, pa.DataType]]) -> pa.Schema:
    return pa.schema([pa.field(name, kind, nullable=name in NULLABLE) for name, kind in fields])


def kind_column(kind: str) -> str:
    """Name of the hands column holding a seat's points of one scoring kind."""
    return f"pts_{kind}"


def hands_schema(kinds: int = N_BASE_KINDS) -> pa.Schema:
    """One row per (game, hand, seat); a points column for each of the first ``kinds``
    scoring kinds (the fours in trumps only in six-pack, R7)."""
    fields = [
        ("game_id", pa.int64()),
        ("hand", pa.int16()),
        ("seat", pa.int8()),
        ("team", pa.int8()),        # the seat, or its partnership (seats t and t + 2, R4.2)
        ("policy", DICT_STRING),
        ("dealer", pa.int8()),
        ("trump", DICT_STRING),
        ("turnup", DICT_STRING),
        ("trump_trick", pa.int16()),    # when trumps were fixed: 0 at the deal (turn-up),
        #                                 else the trick of the first marriage (R6.2)
        ("points", pa.int32()),
        ("score_after", pa.int32()),
        ("tricks_won", pa.int16()),
        ("combinations", pa.int16()),
        ("declaring_tricks", pa.int16()),
        ("compounds", pa.int16()),
        ("brisques", pa.int16()),
        ("carte_blanches", pa.int16()),
    ]
    fields += [(kind_column(kind), pa.int32()) for kind in KIND_NAMES[:kinds]]
    return _schema(fields)


def games_schema(players: int) -> pa.Schema:
    """One row per game; per-seat columns are spread wide so a game is one row."""
    fields = [
        ("game_id", pa.int64()),
        ("first_dealer", pa.int8()),
        ("hands", pa.int16()),
        ("winner", pa.int8()),      # the winning seat; in a partnership game its team
    ]
    fields += [(f"score_{seat}", pa.int32()) for seat in range(players)]
    fields += [("double_game", pa.bool_()), ("stake", pa.int32()), ("rubicon", pa.bool_())]
    fields += [(f"rounded_{seat}", pa.int32()) for seat in range(players)]
    fields += [(f"brisques_{seat}", pa.int32()) for seat in range(players)]
    fields += [(f"policy_{seat}", DICT_STRING) for seat in range(players)]
    return _schema(fields)


def declarations_schema() -> pa.Schema:
    """One row per scoring event (declarations, sevens, brisques, last trick)."""
    return _schema([
        ("game_id", pa.int64()),
        ("hand", pa.int16()),
        ("trick", pa.int16()),
        ("seat", pa.int8()),
        ("kind", DICT_STRING),
        ("points", pa.int32()),
        ("status", DICT_STRING),
        ("suit", DICT_STRING),
        ("compound_id", pa.int16()),
        ("compound_size", pa.int8()),
    ])


def table_schemas(players: int, kinds: int = N_BASE_KINDS) -> dict[str, pa.Schema]:
    return {
        "hands": hands_schema(kinds),
        "games": games_schema(players),
        "declarations": declarations_schema(),
    }


# What each column means, for the data dictionary of the documentation (docs/tables.md is
# generated from the schemas above and these texts). Per-seat columns of games are described
# once as `<name>_i`, the points columns of hands once as `pts_<kind>`.
COLUMN_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "hands": {
        "game_id": "game index within the run, 0 .. games − 1",
        "hand": "hand index within the game, from 0 (a Rubicon game is one hand)",
        "seat": "the seat, 0 .. players − 1, numbered to the left",
        "team": "the seat's side: the seat itself, or in a partnership game its team "
                "(0: seats 0 and 2, 1: seats 1 and 3)",
        "policy": "the seat's policy spec, canonical (defaults dropped, parameters sorted)",
        "dealer": "the hand's dealer (the seat on his left leads first)",
        "trump": "trump suit `♠ ♥ ♦ ♣`; null in a Rubicon hand in which no marriage or "
                 "sequence fixed trumps (R6.2)",
        "turnup": "the card turned up at the deal, e.g. `7♦`; null in Rubicon (no turn-up)",
        "trump_trick": "when trumps were fixed: 0 at the deal (the turn-up); in Rubicon the "
                       "trick whose marriage or sequence fixed them (R6.2); null when never",
        "points": "the seat's own points in the hand (the sum of its events in declarations)",
        "score_after": "the seat's score after the hand (in a partnership: its team's)",
        "tricks_won": "tricks the seat won",
        "combinations": "combinations it declared (scored)",
        "declaring_tricks": "tricks won on which at least one combination scored",
        "compounds": "tricks won on which two or more scored: Polish compound declarations "
                     "(R5.2)",
        "brisques": "brisque points (aces and tens, 10 each) taken in tricks: scored in the "
                    "ordinary game and Polish, counted aside in Rubicon",
        "carte_blanches": "times carte blanche was shown (Rubicon, R6.4)",
        "pts_<kind>": "the seat's points of one scoring kind in the hand, one column per kind",
    },
    "games": {
        "game_id": "game index within the run",
        "first_dealer": "dealer of the first hand (drawn from the game's seed); the deal "
                        "then passes to the left",
        "hands": "hands played",
        "winner": "winning seat; in a partnership game the winning team (0 or 1); −1 for a "
                  "drawn Rubicon game",
        "score_i": "final score of seat i (partnership: its team's score; Rubicon: the "
                   "hand's points)",
        "double_game": "the loser ended under half the target and option `double_game` is "
                       "not `off` (R2.6)",
        "stake": "what the game is worth: 1 or 2 games (`double_game=game`), the margin in "
                 "points, doubled for a double (`points`), 1 (`off`); Rubicon: the "
                 "settlement the winner scores (R6.8), 0 for a draw",
        "rubicon": "Rubicon: the loser was rubiconed (points + brisques under 1000, R6.8)",
        "rounded_i": "Rubicon: seat i's points rounded down to 100; elsewhere `score_i`",
        "brisques_i": "brisque points seat i took over the game",
        "policy_i": "seat i's policy spec",
    },
    "declarations": {
        "game_id": "game index within the run",
        "hand": "hand index within the game",
        "trick": "trick on which it scored, from 1; 0 for the dealer's turned-up seven and "
                 "carte blanche at the deal; last trick + 1 for brisques counted at the end "
                 "of the hand",
        "seat": "the seat that scored",
        "kind": "what scored: a combination, a seven, brisques, last trick, carte blanche",
        "points": "points scored (0 when `lost`)",
        "status": "`scored`; `scored_pending` (shown \"to score\" on an earlier win, R1.10); "
                  "`lost` (shown \"to score\", never scored). Declared means `scored` or "
                  "`scored_pending`",
        "suit": "the suit of a marriage or of a plain-suit sequence; null otherwise",
        "compound_id": "the declaration (trick won) this combination belongs to, numbered "
                       "within the game; null for events that are not combinations",
        "compound_size": "how many combinations that declaration scored (2 or more only in "
                         "Polish compounds); null like `compound_id`",
    },
}


# Canonical row order: a stable sort on these columns. Declarations have no unique key, but a
# game's events always sit together in engine order, so a stable sort on game_id is canonical.
TABLE_KEYS: dict[str, tuple[str, ...]] = {
    "hands": ("game_id", "hand", "seat"),
    "games": ("game_id",),
    "declarations": ("game_id",),
}
