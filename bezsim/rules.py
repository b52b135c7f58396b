"""Rules: a variant preset plus named options (docs/rules.md R9), validated, turned into the
integer params array the engine reads. Variants are data, not code forks."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bezsim.engine import constants as C
from bezsim.errors import BezsimError, did_you_mean


class RulesError(BezsimError, ValueError):
    """A variant or option the engine cannot run."""


# option name -> (allowed values in order, default first) ; ints are given as a range below
_CHOICES: dict[str, tuple[str, ...]] = {
    "stage2_duty": ("follow_and_win", "follow_only"),
    "last_trick": ("trick32", "trick24", "both"),
    "seven_scores_when": ("declared", "played"),
    "seven_exchange_is_declaration": ("false", "true"),
    "brisques_when": ("end_of_hand", "when_won"),
    "double_game": ("game", "points", "off"),
    "double_bezique": ("add_pair_allowed", "all_at_once"),
    "declare_after_last_stock_trick": ("true", "false"),
    "marriage_to_sequence": ("true", "false"),
    "bezique_pair": ("fixed", "by_trump"),
    "rubicon_reuse": ("later_class", "any_class"),
    "carte_blanche_repeats": ("true", "false"),
    "rubicon_brisque_bonus": ("300", "320"),
    "first_sequence": ("trumps", "plain"),
    "rubicon_close": ("brisques", "points"),
    "partnership_stage2": ("pairs", "all_four"),
    "four_trump_queens": ("600", "900"),
    "four_trump_jacks": ("400", "none"),
    "last_trick_points": ("250", "50"),
    "rubicon_game_bonus": ("1000", "2000"),
}
# option name -> (what it decides, in one line; the rules book's sections), as docs/rules.md
# R9 opens each option's entry (tests/test_cli.py checks that the two agree)
OPTION_MEANINGS: dict[str, tuple[str, str]] = {
    "stage2_duty": ("What a player must play in the last tricks", "R1.6, R5.4"),
    "last_trick": ("Which trick is paid as the last trick", "R2.5"),
    "seven_scores_when": ("When the seven of trumps scores in the ordinary game", "R2.3"),
    "seven_exchange_is_declaration": (
        "Whether exchanging or declaring the seven uses up the trick's one declaration",
        "R1.10, R2.3"),
    "brisques_when": ("When brisques are scored in the ordinary game", "R2.5"),
    "target": ("The score that ends a game", "R2.6"),
    "double_game": ("What it costs to lose with less than half the target", "R2.6"),
    "double_bezique": ("Whether a declared single may be extended to a double", "R1.9.2"),
    "declare_after_last_stock_trick": (
        "Whether the winner of the last stock trick may declare once more", "R2.4"),
    "marriage_to_sequence": ("Whether a married K and Q may later become part of the sequence",
                            "R1.9.2, R6.6"),
    "bezique_pair": ("Which queen and jack make a bezique", "R1.8"),
    "partnership_stage2": ("How a partnership plays its last tricks", "R4.2"),
    "rubicon_reuse": ("Which classes a declared card may serve again in Rubicon", "R6.6"),
    "carte_blanche_repeats": (
        "Whether a carte blanche is paid again when a draw brings no court card", "R6.4"),
    "rubicon_brisque_bonus": ("What a rubicon adds for brisques", "R6.8"),
    "first_sequence": ("What a sequence declared before any marriage scores in Rubicon", "R6.2"),
    "rubicon_close": ("How a Rubicon game is decided when the rounded totals are equal", "R6.8"),
    "four_trump_queens": ("What four queens of trumps score in six-pack", "R7.3"),
    "four_trump_jacks": ("Whether four jacks of trumps score in six-pack", "R7.3"),
    "last_trick_points": ("What the last trick scores in six-pack", "R7.3"),
    "rubicon_game_bonus": ("What a rubicon pays for game in six-pack", "R7.5"),
}
# a game of the largest target still fits the engine's 255-hand event numbering
_INT_OPTIONS = {"target": (1, 10_000)}

# Options of R9 that only some variants have (the rest of the ordinary game's options are
# everyone's): the error for another variant names the variants that have it.
_OTHER_VARIANT_OPTIONS = ("partnership_stage2", "rubicon_reuse", "carte_blanche_repeats",
                          "rubicon_brisque_bonus", "first_sequence", "rubicon_close",
                          "four_trump_queens", "four_trump_jacks", "last_trick_points",
                          "rubicon_game_bonus")
_HOLDER_LABELS = {"four_handed_partners": "four-handed partnership (four_handed_partners)"}

# the engine's bezique pairs: the option's values, and six-pack's own (R7.3), which it fixes
_BEZ_PAIRS = {"fixed": C.BEZ_PAIR_FIXED, "by_trump": C.BEZ_PAIR_BY_TRUMP,
              "trump_queen": C.BEZ_PAIR_TRUMP_QUEEN}
# other names players use for a preset
_ALIASES = {"chinese": "six_pack", "six-pack": "six_pack", "sixpack": "six_pack"}
# why a preset fixes an option, where its fixed value would not say it
_FIXED_WHY = {("rubicon", "target"): "a Rubicon game is one hand, settled by docs/rules.md "
                                     "R6.8",
              ("six_pack", "target"): "a six-pack game is one hand, settled by docs/rules.md "
                                      "R7.5",
              ("six_pack", "rubicon_close"): "brisques count for nothing in six-pack: the "
                                             "unrounded points decide, docs/rules.md R7.5",
              ("six_pack", "rubicon_brisque_bonus"): "brisques count for nothing in "
                                                     "six-pack, docs/rules.md R7.5",
              ("six_pack", "bezique_pair"): "the queen of trumps with a jack of the other "
                                            "colour, docs/rules.md R7.3",
              ("six_pack", "last_trick"): "the last trick is the hand's last, scored by "
                                          "last_trick_points, docs/rules.md R7.3"}

_ORDINARY_DEFAULTS = {name: values[0] for name, values in _CHOICES.items()
                      if name not in _OTHER_VARIANT_OPTIONS} | {"target": 1000}
# R3, R4: game 2000; the double game of R2.6 is a two-handed rule, so off unless asked for
_MULTI_DEFAULTS = _ORDINARY_DEFAULTS | {"target": 2000, "double_game": "off"}
_RUBICON_POINTS = tuple(50 if k == C.K_LAST_TRICK else p for k, p in enumerate(C.ORDINARY_POINTS))
# R7.3: carte blanche and the last trick 250 (last_trick_points), fours in trumps; the
# options four_trump_queens, four_trump_jacks and last_trick_points set theirs
_SIX_PACK_POINTS = tuple({C.K_CARTE_BLANCHE: 250, C.K_FOUR_TRUMP_ACES: 1000,
                          C.K_FOUR_TRUMP_TENS: 900, C.K_FOUR_TRUMP_KINGS: 800}.get(k, p)
                         for k, p in enumerate(_RUBICON_POINTS))

# A preset: the options a user may set (with defaults) and the values fixed by the variant.
# engine settings a preset fixes (params names without PR_); defaults are the ordinary game's
_ORDINARY_ENGINE = {"VARIANT": C.VARIANT_ORDINARY, "PACKS": 2, "HAND_SIZE": 8,
                    "DEAL": (3, 2, 3), "TURNUP": 1, "BEZ_LEVELS": 2,
                    "POINTS": C.ORDINARY_POINTS}

# R3, R4: three or four packs, triple bezique, a second double from a declared pair
_MULTI_ENGINE = _ORDINARY_ENGINE | {"BEZ_LEVELS": 3, "REFORM_DOUBLE": 1}

# R6 and R7: Rubicon's way of play, which six-pack keeps (R7.4): its options, the ordinary
# options it fixes, and its engine settings (no turn-up, trumps by the first marriage or
# sequence, one hand a game)
_RUBICON_PLAY = {"stage2_duty": "follow_and_win", "marriage_to_sequence": "true",
                 "double_bezique": "add_pair_allowed", "rubicon_reuse": "later_class",
                 "carte_blanche_repeats": "true", "first_sequence": "trumps"}
_RUBICON_FIXED = {"last_trick": "trick32", "seven_scores_when": "declared",
                  "seven_exchange_is_declaration": "false", "brisques_when": "end_of_hand",
                  "double_game": "off", "declare_after_last_stock_trick": "true", "target": 1}
_RUBICON_ENGINE = _ORDINARY_ENGINE | {
    "TURNUP": 0, "BEZ_LEVELS": 4, "TRUMP_BY_MARRIAGE": 1, "NO_SEVEN": 1, "PLAIN_SEQUENCE": 1,
    "CARTE_BLANCHE": 1, "BRISQUES_ASIDE": 1, "ONE_HAND_GAME": 1}

_PRESETS: dict[str, dict[str, Any]] = {
    "ordinary": {"title": "ordinary two-handed Bézique", "rules": "R2",
                 "options": _ORDINARY_DEFAULTS, "fixed": {}, "open_cards": False,
                 "engine": _ORDINARY_ENGINE},
    "three_handed": {"title": "three-handed Bézique", "rules": "R3", "players": 3,
                     "options": _MULTI_DEFAULTS, "fixed": {}, "open_cards": False,
                     "engine": _MULTI_ENGINE | {"VARIANT": C.VARIANT_THREE_HANDED, "PACKS": 3}},
    "four_handed": {"title": "four-handed Bézique, each for himself", "rules": "R4.1",
                    "players": 4, "options": _MULTI_DEFAULTS, "fixed": {}, "open_cards": False,
                    "engine": _MULTI_ENGINE | {"VARIANT": C.VARIANT_FOUR_HANDED, "PACKS": 4}},
    "four_handed_partners": {
        "title": "four-handed Bézique in partnerships",
        "options": _MULTI_DEFAULTS | {"partnership_stage2": "pairs"}, "fixed": {},
        "open_cards": False, "players": 4, "rules": "R4.2",
        "engine": _MULTI_ENGINE | {"VARIANT": C.VARIANT_FOUR_PARTNERS, "PACKS": 4,
                                   "PARTNERS": 1}},
    # R5: aces and tens score when won, declaring follows every trick, the seven is the
    # trick winner's (R5.3), so those ordinary options are fixed here
    "polish": {
        "title": "Polish (open) Bézique", "rules": "R5",
        "options": {name: _ORDINARY_DEFAULTS[name] for name in (
            "stage2_duty", "last_trick", "double_game", "double_bezique",
            "marriage_to_sequence", "bezique_pair")} | {"target": 2000},
        "fixed": {"brisques_when": "when_won", "seven_scores_when": "declared",
                  "seven_exchange_is_declaration": "false",
                  "declare_after_last_stock_trick": "false"},
        "open_cards": True,
        "engine": _ORDINARY_ENGINE | {"VARIANT": C.VARIANT_POLISH, "OPEN_CARDS": 1},
    },
    # R6: four packs, nine cards, no turn-up, trumps by the first marriage or sequence, one
    # hand a game; a marriage may grow into a sequence (the same class, R6.6)
    "rubicon": {
        "title": "Rubicon Bézique", "rules": "R6", "settles": "R6.8",
        "options": _RUBICON_PLAY | {"rubicon_brisque_bonus": "300", "rubicon_close": "brisques"},
        "fixed": _RUBICON_FIXED | {"bezique_pair": "fixed"},
        "open_cards": False,
        "engine": _RUBICON_ENGINE | {
            "VARIANT": C.VARIANT_RUBICON, "PACKS": 4, "HAND_SIZE": 9, "DEAL": (3, 3, 3),
            "POINTS": _RUBICON_POINTS, "RUBICON_LINE": 1000, "GAME_BONUS": 500,
            "RUBICON_GAME_BONUS": 1000, "BRISQUES_COUNT": 1},
    },
    # R7: Rubicon's play with six packs, twelve cards, fours in trumps and the bezique by
    # trumps; brisques count for nothing, the rubicon line is 3000 and the game bonus 1000
    "six_pack": {
        "title": "six-pack (Chinese) Bézique", "rules": "R7", "settles": "R7.5",
        "options": _RUBICON_PLAY | {"four_trump_queens": "600", "four_trump_jacks": "400",
                                    "last_trick_points": "250", "rubicon_game_bonus": "1000"},
        "fixed": _RUBICON_FIXED | {"bezique_pair": "trump_queen", "rubicon_close": "points",
                                   "rubicon_brisque_bonus": "0"},
        "open_cards": False,
        "engine": _RUBICON_ENGINE | {
            "VARIANT": C.VARIANT_SIX_PACK, "PACKS": 6, "HAND_SIZE": 12, "DEAL": (3, 3, 3, 3),
            "TRUMP_FOURS": 1, "POINTS": _SIX_PACK_POINTS, "RUBICON_LINE": 3000,
            "GAME_BONUS": 1000, "BRISQUES_COUNT": 0},
    },
}

VARIANTS = tuple(_PRESETS)



@dataclass(frozen=True)
class Variant:
    """What a variant is, asked by every layer instead of comparing its name: a new preset
    is a new entry of ``_PRESETS``, and each layer reads the facts it needs from here."""

    name: str
    title: str
    section: str              # its rules in docs/rules.md
    players: int
    packs: int
    hand_size: int
    partners: bool            # partners sit opposite and share a score (R4.2)
    open_cards: bool          # Polish open cards and compound declarations (R5)
    one_hand_game: bool       # a game is one hand (R6)
    settlement: bool          # the game is settled by the rubicon rules: stakes, draws (R6.8)
    default_target: int | None  # the game's target, None when one hand is the game
    trump_fours: bool         # fours of a rank in trumps score (six-pack, R7)
    brisques_decide: bool     # brisques decide close games and save from the rubicon (R6.7)
    settlement_rule: str      # the rules book's section of its settlement, "" without one

    @property
    def kinds(self) -> tuple[str, ...]:
        """The scoring kinds its tables have a points column for (bezsim.io.schema)."""
        return C.KIND_NAMES if self.trump_fours else C.KIND_NAMES[:C.N_BASE_KINDS]

    @property
    def sides(self) -> int:
        """Sides that score: the two teams of a partnership, else every seat."""
        return 2 if self.partners else self.players


def _variant_of(name: str) -> Variant:
    preset = _PRESETS[name]
    engine = preset["engine"]
    one_hand = bool(engine.get("ONE_HAND_GAME", 0))
    return Variant(
        name=name, title=preset["title"], section=preset["rules"],
        players=int(preset.get("players", 2)), packs=int(engine["PACKS"]),
        hand_size=int(engine["HAND_SIZE"]), partners=bool(engine.get("PARTNERS", 0)),
        open_cards=bool(preset["open_cards"]), one_hand_game=one_hand,
        settlement=bool(engine.get("BRISQUES_ASIDE", 0)) and one_hand,
        default_target=None if one_hand else int(preset["options"]["target"]),
        trump_fours=bool(engine.get("TRUMP_FOURS", 0)),
        brisques_decide=bool(engine.get("BRISQUES_COUNT", 0)) and one_hand,
        settlement_rule=preset.get("settles", ""))


VARIANT_DEFINITIONS: dict[str, Variant] = {name: _variant_of(name) for name in _PRESETS}


def variant_of(name: str) -> Variant:
    """The definition of a variant named by a user, a manifest or a table."""
    return VARIANT_DEFINITIONS[_variant_name(name)]


def _parse_value(name: str, value: Any) -> Any:
    if name in _INT_OPTIONS:
        low, high = _INT_OPTIONS[name]
        try:
            number = int(str(value).strip())
        except ValueError:
            raise RulesError(f"option {name} must be a whole number, got {value!r}") from None
        if not low <= number <= high:
            raise RulesError(f"option {name}={number} is out of range ({low}..{high})")
        return number
    text = str(value).strip().lower()
    if isinstance(value, bool):
        text = "true" if value else "false"
    allowed = _CHOICES[name]
    if text not in allowed:
        raise RulesError(f"option {name}={value!r} is not one of: {', '.join(allowed)}"
                         f"{did_you_mean(text, allowed)}")
    return text


def _variant_name(variant: Any) -> str:
    """The preset name of ``variant`` (case and spaces ignored), or a RulesError."""
    available = ", ".join(VARIANTS)
    if not isinstance(variant, str):
        raise RulesError(f"variant must be a name ({available}), got {variant!r}")
    name = variant.strip().lower()
    name = _ALIASES.get(name, name)
    if name not in _PRESETS:
        raise RulesError(f"unknown variant {name!r}{did_you_mean(name, VARIANTS)} "
                         f"(available: {available})")
    return name


def _resolve(variant: str, options: Any) -> dict[str, Any]:
    """The preset's options with ``options`` applied, each checked against the variant."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RulesError(f"options must map option names to values, got {options!r}")
    preset = _PRESETS[variant]
    merged = dict(preset["options"])
    for name, value in options.items():
        if name in preset["fixed"]:
            why = _FIXED_WHY.get((variant, name), f"fixed at {preset['fixed'][name]} by its "
                                                  f"rules")
            raise RulesError(f"option {name} does not apply to variant {variant!r} ({why})")
        if name in _OTHER_VARIANT_OPTIONS and name not in preset["options"]:
            holders = [_HOLDER_LABELS.get(v, v) for v in _PRESETS
                       if name in _PRESETS[v]["options"]]
            raise RulesError(f"option {name} applies to {_either(holders)} bézique, not to "
                             f"variant {variant!r}")
        if name not in merged:
            raise RulesError(f"unknown option {name!r}{did_you_mean(name, merged)} (options "
                             f"of {variant}: {', '.join(sorted(merged))})")
        merged[name] = _parse_value(name, value)
    return merged


@dataclass(frozen=True)
class Rules:
    """A variant and its option values, validated on construction (``Rules("polish")`` and
    ``Rules.make("polish")`` are the same rules); ``params()`` feeds the engine."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # direct construction must not bypass validation: params() would fail later with a
        # KeyError, or an unknown option would silently be ignored
        variant = _variant_name(self.variant)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "options", _resolve(variant, self.options))

    @classmethod
    def make(cls, variant: str = "ordinary", options: Mapping[str, Any] | None = None,
             players: int | None = None) -> Rules:
        """``players``, when given, must be the number the variant's rules define."""
        name = _variant_name(variant)
        if players is not None:
            _check_players(name, players)
        return cls(name, dict(options) if isinstance(options, Mapping) else options)

    @classmethod
    def from_strings(cls, variant: str, assignments: list[str] | tuple[str, ...],
                     players: int | None = None) -> Rules:
        """Build from CLI ``name=value`` strings; an option given twice with different
        values is refused rather than the last silently winning."""
        if not isinstance(assignments, (list, tuple)):
            raise RulesError(f"options must be a list of name=value strings, got "
                             f"{assignments!r}")
        options: dict[str, Any] = {}
        for item in assignments:
            if not isinstance(item, str):
                raise RulesError(f"option {item!r} must be a name=value string")
            name, sep, value = item.partition("=")
            name, value = name.strip(), value.strip()
            if not sep or not name:
                raise RulesError(f"option {item!r} must look like name=value")
            if name in options and options[name] != value:
                raise RulesError(f"option {name} is given twice ({options[name]!r} and "
                                 f"{value!r})")
            options[name] = value
        return cls.make(variant, options, players)

    @property
    def definition(self) -> Variant:
        """What the variant is (players, packs, partnerships, its rules section...)."""
        return VARIANT_DEFINITIONS[self.variant]

    @property
    def players(self) -> int:
        return self.definition.players

    @property
    def partners(self) -> bool:
        """Partners sit opposite and share a score (R4.2): team = seat % 2."""
        return self.definition.partners

    def teams(self) -> list[int]:
        """Each seat's team: its partnership, or the seat itself when everyone plays alone."""
        return [seat % 2 if self.partners else seat for seat in range(self.players)]

    @property
    def packs(self) -> int:
        return self.definition.packs

    @property
    def hand_size(self) -> int:
        return self.definition.hand_size

    def hand_cap(self) -> int:
        """Most hands a game can last: every hand gives at least 80 brisque points per pack
        + 10 last trick (a Rubicon game is one hand)."""
        if self.definition.one_hand_game:
            return 1
        min_per_hand = 80 * self.packs + 10
        return (self.players * self.options["target"]) // min_per_hand + 3

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "options": dict(self.options)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def params(self) -> np.ndarray:
        preset = _PRESETS[self.variant]
        o = self.options | preset["fixed"]
        p = np.zeros(C.PARAMS_SIZE, dtype=np.int64)
        for name, value in preset["engine"].items():
            if name == "DEAL":
                packets = (*value, 0)[:4]
                p[C.PR_DEAL_B1], p[C.PR_DEAL_B2], p[C.PR_DEAL_B3], p[C.PR_DEAL_B4] = packets
            elif name == "POINTS":
                p[C.PR_POINTS:C.PR_POINTS + C.N_KINDS] = value
            else:
                p[getattr(C, "PR_" + name)] = value
        p[C.PR_PLAYERS] = self.players
        if "partnership_stage2" in o:
            p[C.PR_STAGE2_PAIRS] = o["partnership_stage2"] == "pairs"
        p[C.PR_TARGET] = o["target"]
        p[C.PR_STAGE2_DUTY] = _CHOICES["stage2_duty"].index(o["stage2_duty"])
        p[C.PR_LAST_TRICK] = _CHOICES["last_trick"].index(o["last_trick"])
        p[C.PR_SEVEN_WHEN] = _CHOICES["seven_scores_when"].index(o["seven_scores_when"])
        p[C.PR_SEVEN_IS_DECL] = o["seven_exchange_is_declaration"] == "true"
        p[C.PR_BRISQUES_WHEN] = _CHOICES["brisques_when"].index(o["brisques_when"])
        p[C.PR_DOUBLE_GAME] = _CHOICES["double_game"].index(o["double_game"])
        p[C.PR_DOUBLE_BEZ] = _CHOICES["double_bezique"].index(o["double_bezique"])
        p[C.PR_DECL_AFTER_LAST] = o["declare_after_last_stock_trick"] == "true"
        p[C.PR_MARR_TO_SEQ] = o["marriage_to_sequence"] == "true"
        p[C.PR_BEZ_PAIR] = _BEZ_PAIRS[o["bezique_pair"]]
        p[C.PR_BRISQUE_VALUE] = 10
        p[C.PR_HAND_CAP] = self.hand_cap()
        if "rubicon_reuse" in o:
            p[C.PR_REUSE] = (C.REUSE_LATER_CLASS if o["rubicon_reuse"] == "later_class"
                             else C.REUSE_ANY_CLASS)
            p[C.PR_CB_REPEATS] = o["carte_blanche_repeats"] == "true"
            p[C.PR_BRISQUE_BONUS] = int(o["rubicon_brisque_bonus"])
            p[C.PR_FIRST_SEQ_TRUMPS] = o["first_sequence"] == "trumps"
            p[C.PR_CLOSE_BY_POINTS] = o["rubicon_close"] == "points"
        if "four_trump_queens" in o:
            p[C.PR_POINTS + C.K_FOUR_TRUMP_QUEENS] = int(o["four_trump_queens"])
            p[C.PR_POINTS + C.K_FOUR_TRUMP_JACKS] = (0 if o["four_trump_jacks"] == "none"
                                                     else int(o["four_trump_jacks"]))
            p[C.PR_POINTS + C.K_LAST_TRICK] = int(o["last_trick_points"])
            p[C.PR_RUBICON_GAME_BONUS] = int(o["rubicon_game_bonus"])
        return p


def _either(names: list[str]) -> str:
    """``a, b or c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# which variants each number of players plays, for the error when a user asks for another
_BY_PLAYERS = {count: _either([v.name for v in VARIANT_DEFINITIONS.values() if v.players == count])
               for count in sorted({v.players for v in VARIANT_DEFINITIONS.values()})}


def _check_players(variant: str, players: Any) -> None:
    try:
        count = int(str(players).strip())
    except ValueError:
        raise RulesError(f"players must be a whole number, got {players!r}") from None
    defined = VARIANT_DEFINITIONS[variant].players
    if count == defined:
        return
    section = VARIANT_DEFINITIONS[variant].section
    hint = (f"; for {count} players use --variant {_BY_PLAYERS[count]}"
            if count in _BY_PLAYERS else "")
    raise RulesError(f"variant {variant!r} is played by {defined} players (docs/rules.md "
                     f"{section}), not {count}{hint}")


def option_names(variant: str = "ordinary") -> list[str]:
    return sorted(_PRESETS[variant]["options"])


def option_choices(name: str) -> tuple[str, ...] | str:
    if name in _INT_OPTIONS:
        low, high = _INT_OPTIONS[name]
        return f"{low}..{high}"
    return _CHOICES[name]
