"""Policy names the user can give, their parameters, and their engine ids.

A policy is written as a *spec*: a name, optionally with parameters, ``greedy`` or
``greedy(stage2_win_margin=8)``. A spec is parsed once, at the edge (``spec_of``,
``parse_policies``), into a ``PolicySpec``: its canonical text (parameters sorted, defaults
dropped, numbers written plainly, named values by name), which is what runs, tables and
manifests record, carrying the policy and the values it sets, so every later step reads them
instead of parsing the text again. A run stays a pure function of (rules, policy specs, seed,
game range). The engine receives one id and one float64 parameter row per seat: heuristics
are data, so a parameter sweep needs no recompile.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from importlib import resources
from types import MappingProxyType

import numpy as np

from bezsim.compile_cache import compile_all
from bezsim.engine.external import EXTERNAL
from bezsim.errors import PolicyError, did_you_mean
from bezsim.policies.builtin import EXPERT, GREEDY, GREEDY_WEIGHTS, HEURISTIC, LEARNED, RANDOM
from bezsim.policies.expert.weights import E_ENDGAME
from bezsim.policies.expert.weights import WEIGHTS as EXPERT_WEIGHTS
from bezsim.policies.heuristic import WEIGHTS as HEURISTIC_WEIGHTS
from bezsim.policies.learned.weights import EXPERT_COLUMN, OWN_ENDGAME
from bezsim.policies.learned.weights import WEIGHTS as LEARNED_WEIGHTS
from bezsim.policies.search_params import N_ROLLOUT_WEIGHTS, P_ROLLOUT_WEIGHTS
from bezsim.policies.search_params import WEIGHTS as SEARCH_WEIGHTS
from bezsim.policies.weight import Weight
from bezsim.rules import Variant, variant_of

N_POLICY_PARAMS = 80      # width of each seat's parameter row the kernels receive (search
#                           keeps its play-out policy's row in columns 16..79)


@dataclass(frozen=True)
class Param:
    """A policy parameter; values outside low..high (or not whole, when ``whole``) are
    refused: the kernel would otherwise clamp or reinterpret them without a word."""

    name: str
    default: float
    meaning: str
    low: float = -math.inf
    high: float = math.inf
    whole: bool = False
    read_when: str = ""            # a bezsim.rules.Variant feature of the games that read it
    tune_step: float = 0.1         # bezsim tune's smallest step (weight.py)
    names: tuple[str, ...] = ()    # names of the whole values low, low + 1, ... (weight.py)

    def value_of(self, text: str) -> float:
        """A value as a spec writes it: a number, or one of the parameter's names."""
        name = text.strip().lower()
        if self.names and name in self.names:
            return float(self.low + self.names.index(name))
        try:
            return float(_number(text.strip()))
        except ValueError:
            named = f" or one of: {', '.join(self.names)}" if self.names else ""
            raise PolicyError(f"policy parameter {self.name}={text.strip()!r} is not a "
                              f"number{named}") from None

    def written(self, value: float) -> str:
        """A value as the canonical spec writes it: by name where the parameter has names."""
        k = value - self.low
        if self.names and float(k).is_integer() and 0 <= k < len(self.names):
            return self.names[int(k)]
        return _number(str(value))

    def read_in(self, variant: str) -> bool:
        """Does a game of this preset ever read the parameter? (``bezsim tune`` tunes only
        those by default: the others would only add noise.)"""
        return not self.read_when or bool(getattr(variant_of(variant), self.read_when))

    def domain(self) -> str:
        if self.names:
            return ", ".join(f"{n} ({_number(str(self.low + i))})"
                             for i, n in enumerate(self.names))
        if math.isinf(self.low) and math.isinf(self.high):
            return "any finite number"
        kind = "a whole number" if self.whole else "a number"
        return f"{kind} from {_number(str(self.low))} to {_number(str(self.high))}"

    def check(self, value: float) -> None:
        if not self.low <= value <= self.high or (self.whole and not value.is_integer()):
            raise PolicyError(f"policy parameter {self.name}={_number(str(value))} is out of "
                              f"range ({self.domain()})")



@dataclass(frozen=True)
class PolicyInfo:
    name: str
    policy_id: int
    summary: str
    params: tuple[Param, ...] = ()
    # external policies: compiles their kernel, for a spec's values and the variant code its
    # own play-outs carry (search: playout_shape; "all": every variant's)
    function: Callable[[Mapping[str, float], str], object] | None = None
    # True: the parameters' defaults depend on the variant (tuned per preset, as data in
    # bezsim/policy_specs/tuned_defaults.json, by name; a parameter a preset's set leaves out
    # plays its declared default); a value the user gives is then always kept
    by_variant: bool = False

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.params) or "none"
        raise PolicyError(f"policy {self.name!r} has no parameter {name!r}"
                          f"{did_you_mean(name, (p.name for p in self.params))} (its "
                          f"parameters: {known})")


def _params(weights: tuple[Weight, ...]) -> tuple[Param, ...]:
    """A policy's parameters from its weights' declaration (bezsim/policies/weight.py)."""
    features = {f.name for f in fields(Variant) if f.type in (bool, "bool")}
    for w in weights:
        if w.read_when and w.read_when not in features:
            raise ValueError(f"weight {w.name}: read_when {w.read_when!r} is not one of "
                             f"bezsim.rules.Variant's features {sorted(features)}")
    return tuple(Param(w.name, w.default, w.meaning, w.low, w.high, w.whole, w.read_when,
                       w.tune_step, w.names)
                 for w in weights)


BUILTINS: dict[str, PolicyInfo] = {
    "random": PolicyInfo("random", RANDOM,
                         "uniform over the legal actions, declining to declare included"),
    "greedy": PolicyInfo(
        "greedy", GREEDY,
        "scores the most valuable declaration at once; wins a trick holding a brisque or when "
        "winning is cheap, else throws its least valuable card",
        _params(GREEDY_WEIGHTS)),
    "heuristic": PolicyInfo(
        "heuristic", HEURISTIC,
        "keeps cards toward combinations by value and by the chance the missing cards are "
        "still to come, wins tricks that hold brisques or let it declare, saves trumps and "
        "brisques for stage 2, leads sure winners in stage 2",
        _params(HEURISTIC_WEIGHTS)),
}
BUILTINS["expert"] = PolicyInfo(
    "expert", EXPERT,
    "values every card and declaration in points: combinations by the chance of completing "
    "them from the unseen cards, tricks by their brisques and the declaration they allow or "
    "deny; declarations by what they leave possible (R1.9, R6.6); defaults tuned per preset",
    _params(EXPERT_WEIGHTS),
    by_variant=True)

BUILTINS["learned"] = PolicyInfo(
    "learned", LEARNED,
    "scores each card by expert's valuation and its parts, reweighted by weights fitted to "
    "search's values of the same decisions (bezsim learn; in Rubicon tuned by play against "
    "expert, in Polish fitted and then tuned so, bezsim tune); declarations are expert's "
    "choice with two of its terms weighed; weights per preset",
    _params(LEARNED_WEIGHTS),
    by_variant=True)


def _search_function(values: Mapping[str, float], shape: str = "all"):
    from bezsim.policies.search import search_function, slot_kind

    return search_function(slot_kind(values), shape)


BUILTINS["search"] = PolicyInfo(
    "search", EXTERNAL,
    "Monte Carlo search over what the seat has seen: every decision (card, declaration, "
    "seven, the partner's declarations, the pairs ending) is tried in sampled deals "
    "consistent with it and played out by learned players; an action replaces learned's "
    "only when its gain over the same deals clears a confidence gate, and actions that cannot "
    "clear it leave the race early; two-handed stage 2 is solved exactly",
    _params(SEARCH_WEIGHTS),
    _search_function)
# search(SEARCH_CARDS_HEURISTIC): a search of card plays only, 12 deals a decision, heuristic
# play-outs, no race between actions; the studies keep it as a reference row
SEARCH_CARDS_HEURISTIC = "samples=12,rollout=heuristic,prior=3,z=0,horizon=1000,every=0,first=0"
POLICY_IDS = {name: info.policy_id for name, info in BUILTINS.items()}
POLICY_NAMES = tuple(BUILTINS)
_SPEC = re.compile(r"^\s*([A-Za-z_][\w.]*(?::[A-Za-z_]\w*)?)\s*(?:\((.*)\))?\s*$")


def _number(text: str) -> str:
    """A float written plainly: 8.0 -> '8', 0.25 -> '0.25'."""
    value = float(text)
    return str(int(value)) if value.is_integer() else repr(value)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


class PolicySpec(str):
    """A policy spec parsed once: its canonical text, carrying the policy it names (``info``)
    and the values it sets (``values``, defaults left out). It is a ``str``, so it is
    written, compared, hashed and stored as its text; code that needs the policy reads its
    fields instead of parsing the text again. Pickled as its text (a user policy's loader
    is a closure)."""

    info: PolicyInfo
    values: Mapping[str, float]

    def __new__(cls, info: PolicyInfo, values: Mapping[str, float]) -> PolicySpec:
        spec = super().__new__(cls, canonical(info, values))
        spec.info = info
        spec.values = MappingProxyType(dict(values))
        return spec

    @property
    def name(self) -> str:
        return self.info.name

    def __reduce__(self):
        return spec_of, (str(self),)


def spec_of(spec: str) -> PolicySpec:
    """The parsed spec: ``spec`` itself when it already is one, else its text parsed (a
    ``@file.json`` written by bezsim tune is read)."""
    if isinstance(spec, PolicySpec):
        return spec
    return PolicySpec(*_parse_text(spec))


def parse_spec(spec: str) -> tuple[PolicyInfo, dict[str, float]]:
    """``name(param=value, ...)`` -> (policy, non-default parameter values)."""
    parsed = spec_of(spec)
    return parsed.info, dict(parsed.values)


def _parse_text(spec: str) -> tuple[PolicyInfo, dict[str, float]]:
    """The one reader of a spec's text."""
    if not isinstance(spec, str):
        raise PolicyError(f"a policy must be a name like 'greedy', got {spec!r}")
    if spec.strip().startswith("@"):       # a parameters file written by bezsim tune
        from bezsim.policy_specs.params_file import read_params_file

        return _parse_text(read_params_file(spec.strip()[1:]))
    if not _balanced(spec):
        raise PolicyError(f"policy {spec!r} has unbalanced parentheses")
    m = _SPEC.match(spec)
    if not m:
        raise PolicyError(f"policy {spec!r} must look like name or name(param=value, ...)")
    if ":" in m.group(1):
        return _user_policy(m.group(1), m.group(2))
    name = m.group(1).lower()
    if name not in BUILTINS:
        raise PolicyError(f"unknown policy {name!r}{did_you_mean(name, POLICY_NAMES)} (choose "
                          f"from: {', '.join(POLICY_NAMES)}; or package.module:function for "
                          "your own)")
    info = BUILTINS[name]
    values: dict[str, float] = {}
    given: set[str] = set()
    for item in split_specs(m.group(2) or ""):
        key, sep, text = item.partition("=")
        if not sep:
            raise PolicyError(f"policy parameter {item!r} must look like name=value")
        param = info.param(key.strip())
        if param.name in given:
            raise PolicyError(f"policy parameter {param.name} is given twice in {spec!r}")
        given.add(param.name)
        value = param.value_of(text)
        if not np.isfinite(value):
            raise PolicyError(f"policy parameter {key.strip()} must be finite, got {text!r}")
        param.check(value)
        if value != param.default or info.by_variant:
            values[param.name] = value
    return info, values


def _user_policy(name: str, args: str | None) -> tuple[PolicyInfo, dict[str, float]]:
    """``package.module:function``: a user's njit policy (bezsim/policies/plugins.py)."""
    from bezsim.policies.plugins import load_user_policy, user_function

    if args and args.strip():
        raise PolicyError(f"user policy {name!r} takes no parameters (got {args!r})")
    load_user_policy(name)               # import errors surface now, as one line
    return PolicyInfo(name, EXTERNAL, "user policy", (),
                      lambda values, shape="all": user_function(name)), {}


def canonical(info: PolicyInfo, values: Mapping[str, float]) -> str:
    """The spec's one spelling: parameters sorted, numbers plain, named values by name."""
    if not values:
        return info.name
    inner = ",".join(f"{k}={info.param(k).written(values[k])}" for k in sorted(values))
    return f"{info.name}({inner})"


def split_specs(text: str, keep_empty: bool = False) -> list[str]:
    """Split ``a,b(x=1,y=2),c`` on the commas outside parentheses (empty parts dropped
    unless ``keep_empty``): the one splitter of a list of specs."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += ch == "("
        depth -= ch == ")"
        current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if keep_empty or p.strip()]


def spec_items(text: str | Sequence[str]) -> list[str]:
    """The specs of a comma list or a list, in order, not yet parsed (a parsed one is kept);
    an empty part of a comma list ("greedy,,random", "random,") is refused, not dropped."""
    if isinstance(text, str) and not isinstance(text, PolicySpec):
        items = split_specs(text, keep_empty=True)
        if len(items) > 1 and not all(items):
            raise PolicyError(f"empty policy in {text!r} (give one per seat, or one for all)")
        return [t for t in items if t]
    if isinstance(text, PolicySpec):
        return [text]
    if isinstance(text, (list, tuple)) and all(isinstance(t, str) for t in text):
        return [t if isinstance(t, PolicySpec) else t.strip() for t in text if t.strip()]
    raise PolicyError(f"policies must be a comma list or a list of names, got {text!r}")


def parse_policies(text: str | Sequence[str], players: int,
                   overrides: Sequence[str] = ()) -> list[PolicySpec]:
    """``"random,greedy"`` -> one parsed spec per seat; a single spec is used for every
    seat. ``overrides`` are ``policy.param=value`` strings (the CLI's --policy-param) applied
    to every seat playing that policy. Specs already parsed are taken as they are."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players < 1:
        raise PolicyError(f"players must be a whole number of at least 1, got {players!r}")
    if not isinstance(overrides, (list, tuple)):
        raise PolicyError(f"policy parameters must be a list of policy.param=value strings, "
                          f"got {overrides!r}")
    items = spec_items(text)
    if not items:
        raise PolicyError("no policy given (choose from: " + ", ".join(POLICY_NAMES) + ")")
    specs = [spec_of(t) for t in items]
    for assignment in overrides:
        specs = _overridden(specs, assignment)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise PolicyError(f"{len(specs)} policies given for {players} seats")
    return specs


def _overridden(specs: list[PolicySpec], assignment: str) -> list[PolicySpec]:
    """The specs with one ``policy.param=value`` set on every seat playing that policy."""
    if not isinstance(assignment, str):
        raise PolicyError(f"--policy-param {assignment!r} must be a policy.param=value "
                          "string")
    target, sep, value = assignment.partition("=")
    name, dot, param = target.strip().partition(".")
    if not sep or not dot:
        raise PolicyError(f"--policy-param {assignment!r} must look like policy.param=value")
    info = BUILTINS.get(name.lower())
    if info is None:
        raise PolicyError(f"unknown policy {name!r} in --policy-param {assignment!r}")
    if all(spec.info.name != info.name for spec in specs):
        raise PolicyError(f"--policy-param {assignment!r}: no seat plays {info.name}")
    _, values = _parse_text(f"{info.name}({param.strip()}={value.strip()})")
    out = []
    for spec in specs:
        if spec.info.name == info.name:
            merged = {k: v for k, v in spec.values.items() if k != param.strip()}
            merged.update(values)
            spec = PolicySpec(spec.info, merged)
        out.append(spec)
    return out


def policy_ids(specs: list[str]) -> np.ndarray:
    return np.array([parse_spec(s)[0].policy_id for s in specs], dtype=np.int64)


def set_flags(specs: Sequence[str], variant=None,
              compile_with: Sequence[str] = ()) -> dict[str, bool]:
    """What a run's policy set compiles in besides expert, learned and the slots
    (engine/external.py): the simple policies its seats play, or any of ``compile_with``
    plays (a tournament's pairs share one engine so), and its variant's own code
    (``variant``, a rules.Variant; None: every variant's). With BEZSIM_COMPILE_ALL set,
    everything (compile_cache.compile_all)."""
    if compile_all():
        return {"greedy": True, "heuristic": True, "open_cards": True, "pairs": True}
    ids = {spec_of(spec).info.policy_id for spec in (*specs, *compile_with)}
    return {"greedy": GREEDY in ids, "heuristic": HEURISTIC in ids,
            "open_cards": variant is None or variant.open_cards,
            "pairs": variant is None or variant.partners}


def variant_shape(variant=None) -> str:
    """The variant code search's play-outs carry for ``variant`` (a rules.Variant; None:
    every variant's, as with BEZSIM_COMPILE_ALL set): policies/search.py, playout_shape."""
    from bezsim.policies.search import playout_shape

    if variant is None or compile_all():
        return "all"
    return playout_shape(variant.open_cards, variant.partners)


def policy_functions(specs: list[str], variant=None, compile_with: Sequence[str] = ()) -> tuple:
    """The run's policy set (engine/external.py) for ``variant`` (a rules.Variant; None:
    every variant's code compiled in): what its seats play, and the external-policy slots,
    or None when every seat plays a built-in: the kernels compiled without slots carry no
    function tuple, which measured ~10% faster for the two-player game, and those without
    expert skip a third of the engine's compile. A run with slots always takes expert too,
    so search runs share one compiled engine. ``compile_with``: set_flags. With
    BEZSIM_COMPILE_ALL set, every run takes the one set with everything in."""
    from bezsim.engine.external import policy_set
    from bezsim.policies.plugins import function_slots

    parsed = [spec_of(spec) for spec in specs]
    infos = [spec.info for spec in parsed]
    flags = set_flags(parsed, variant, compile_with)
    shape = variant_shape(variant)
    learned = compile_all() or any(info.policy_id == LEARNED for info in infos)
    if all(info.function is None for info in infos) and not compile_all():
        return policy_set(any(info.policy_id == EXPERT for info in infos), None, learned,
                          **flags)
    return policy_set(True, function_slots([spec.info.function(spec.values, shape)
                                            if spec.info.function is not None else None
                                            for spec in parsed]), learned, **flags)


def policy_params(specs: list[str], variant: str | None = None) -> np.ndarray:
    """One float64 row per seat: the policy's parameters in declared order (defaults filled:
    a by-variant policy's from its tuned set for ``variant``), zero-padded to
    N_POLICY_PARAMS."""
    rows = np.zeros((len(specs), N_POLICY_PARAMS), dtype=np.float64)
    for seat, spec in enumerate(specs):
        info, values = parse_spec(spec)
        defaults = tuned_defaults(info.name, variant) if info.by_variant else {}
        for i, p in enumerate(info.params):
            rows[seat, i] = values.get(p.name, defaults.get(p.name, p.default))
        if info.name == "learned":                          # its features are expert's
            row = expert_row(variant)
            rows[seat, EXPERT_COLUMN:EXPERT_COLUMN + len(row)] = row
            if rows[seat, OWN_ENDGAME] >= 0:                # learned's own endgame
                rows[seat, EXPERT_COLUMN + E_ENDGAME] = rows[seat, OWN_ENDGAME]
        if info.name == "search" and rows[seat, 1] in (3, 4):  # the play-outs' policy row
            name = "expert" if rows[seat, 1] == 3 else "learned"
            row = policy_params([name], variant)[0, :N_ROLLOUT_WEIGHTS]
            rows[seat, P_ROLLOUT_WEIGHTS:P_ROLLOUT_WEIGHTS + len(row)] = row
    return rows


def expert_row(variant: str | None) -> np.ndarray:
    """expert's parameter row at its defaults for ``variant`` (search's rollout=3)."""
    return policy_params(["expert"], variant)[0, :len(BUILTINS["expert"].params)]


def resolved_values(specs: list[str], variant: str) -> dict[str, dict[str, float]]:
    """The parameter values that by-variant policies (expert) and search (whose
    play-outs are expert's at its tuned defaults) actually play with, by spec:
    recorded with a run, so a run whose defaults have since changed is not taken for the
    same run (a resume would otherwise mix two players under one name)."""
    out = {}
    for spec in specs:
        info, _ = parse_spec(spec)
        if (info.by_variant or info.name == "search") and spec not in out:
            row = policy_params([spec], variant)[0]
            out[spec] = {p.name: float(row[i]) for i, p in enumerate(info.params)}
            if info.name == "learned":                          # expert's valuations
                expert = BUILTINS["expert"].params
                out[spec].update({f"expert.{p.name}": float(row[EXPERT_COLUMN + i])
                                  for i, p in enumerate(expert)})
            if info.name == "search" and row[1] in (3, 4):     # the play-outs' policy
                played = BUILTINS["expert" if row[1] == 3 else "learned"].params
                out[spec].update({f"rollout.{p.name}": float(row[P_ROLLOUT_WEIGHTS + i])
                                  for i, p in enumerate(played)})
    return out


def tuned_defaults(policy: str, variant: str | None) -> dict[str, float]:
    """The shipped tuned parameters of ``policy`` for a variant preset (empty when none)."""
    if variant is None:
        return {}
    return dict(_tuned_table().get(policy, {}).get(variant, {}).get("params", {}))


@functools.cache
def _tuned_table() -> dict:
    text = resources.files("bezsim.policy_specs").joinpath("tuned_defaults.json").read_text("utf-8")
    return json.loads(text)


def describe_data() -> list[dict]:
    """The built-in policies and their parameters, for ``bezsim policies --json``: by-variant
    defaults (expert's tuned sets) listed per preset."""
    from bezsim.rules import VARIANTS

    out = []
    for info in BUILTINS.values():
        params = []
        for p in info.params:
            row = {"name": p.name, "default": p.default, "meaning": p.meaning,
                   "domain": p.domain()}
            if p.read_when:
                row["read_in"] = [v for v in VARIANTS if p.read_in(v)]
            if info.by_variant:
                row["default_by_variant"] = {
                    v: policy_params([info.name], v)[0, info.params.index(p)].item()
                    for v in VARIANTS}
            params.append(row)
        out.append({"name": info.name, "summary": info.summary, "parameters": params})
    return out


def describe() -> str:
    """The built-in policies and their parameters, for ``bezsim policies``: the default of
    each parameter, and for a policy tuned per preset (expert) the value each preset plays,
    in one table ('-': that preset's games never read the parameter)."""
    lines = []
    for info in BUILTINS.values():
        lines.append(f"{info.name}: {info.summary}")
        if info.by_variant and info.params:
            lines += _by_variant_lines(info)
            continue
        for p in info.params:
            bounds = "" if p.domain() == "any finite number" else f"; {p.domain()}"
            lines.append(f"    {p.name} = {_number(str(p.default))}  ({p.meaning}{bounds})")
    lines.append("Set a parameter with --policy-param policy.param=value, or write the policy "
                 "as policy(param=value).")
    lines.append("Your own policy: --policies package.module:function, an @njit function "
                 "policy(S, seat, params, rng) -> int (docs/user_policies.md).")
    return "\n".join(lines)


def _by_variant_lines(info: PolicyInfo) -> list[str]:
    """A policy tuned per preset: its defaults as a table (parameter by preset), then what
    each parameter means."""
    from bezsim.rules import VARIANTS

    rows = {v: policy_params([info.name], v)[0] for v in VARIANTS}
    table = [["parameter", *VARIANTS]]
    for i, p in enumerate(info.params):
        table.append([p.name, *(_number(str(rows[v][i].item())) if p.read_in(v) else "-"
                                for v in VARIANTS)])
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    lines = ["    defaults, tuned per preset (what a preset plays unless you set a value; "
             "-: its games never read it):"]
    for row in table:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in
                                             zip(row[1:], widths[1:], strict=True)]
        lines.append("      " + "  ".join(cells))
    lines.append("    what each parameter means:")
    for p in info.params:
        bounds = "" if p.domain() == "any finite number" else f"; {p.domain()}"
        lines.append(f"      {p.name}: {p.meaning}{bounds}")
    return lines
