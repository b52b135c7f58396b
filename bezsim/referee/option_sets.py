"""The non-default rule option sets (docs/rules.md R9) the referee is run on beside the
presets, one list per variant: the conformance tests check a sample of each and
benchmarks/check_options.py many hands of each, so both read them from here."""

from __future__ import annotations

# ordinary two-handed (R1, R2)
OPTION_SETS = [
    {"stage2_duty": "follow_only", "last_trick": "both", "brisques_when": "when_won",
     "double_game": "points", "target": 1500},
    {"seven_exchange_is_declaration": "true", "declare_after_last_stock_trick": "false",
     "double_bezique": "all_at_once", "marriage_to_sequence": "false",
     "bezique_pair": "by_trump", "last_trick": "trick24", "double_game": "off"},
    {"seven_scores_when": "played"},
]

# Polish (R5)
POLISH_OPTION_SETS = [
    {"stage2_duty": "follow_only", "last_trick": "both", "double_game": "points",
     "target": 1500, "bezique_pair": "by_trump"},
    {"marriage_to_sequence": "false", "double_bezique": "all_at_once", "last_trick": "trick24",
     "double_game": "off"},
]

# Rubicon (R6)
RUBICON_OPTION_SETS = [
    {"rubicon_reuse": "any_class", "marriage_to_sequence": "false",
     "carte_blanche_repeats": "false", "rubicon_brisque_bonus": "320",
     "stage2_duty": "follow_only", "rubicon_close": "points"},
    {"first_sequence": "plain", "rubicon_close": "points", "double_bezique": "all_at_once"},
    {"first_sequence": "plain", "marriage_to_sequence": "false"},   # the earlier defaults
]

# six-pack (R7)
SIX_PACK_OPTION_SETS = [
    {"four_trump_queens": "900", "four_trump_jacks": "none", "last_trick_points": "50",
     "rubicon_game_bonus": "2000", "stage2_duty": "follow_only",
     "carte_blanche_repeats": "false"},
    {"rubicon_reuse": "any_class", "marriage_to_sequence": "false",
     "double_bezique": "all_at_once", "first_sequence": "plain"},
]
