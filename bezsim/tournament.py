"""Round robin of policies with duplicate deals: ``bezsim tournament``.

The deals of game g depend only on (seed, g, hand number), never on the policies, so playing
the same game indices with the policies permuted over the seats deals the same cards: the
luck of the deal cancels (that of the draws only in part: see margin below).

Seating scheme, for each unordered pair (A, B), on the same game indices 0..games-1:

- everyone for himself (2, 3 or 4 seats): the rotations of (A, B, ..., B) and of
  (B, A, ..., A) — two seatings with 2 players, six with 3, eight with 4. Each policy sits in
  every seat equally often, plays alone against a field of the other and in the field against
  it once per seat, and the set of seatings is the same for (A, B) and (B, A);
- partnerships (R4.2): A takes team 0 (seats 0 and 2), then team 1: (A, B, A, B), (B, A, B, A).

Figures for A against B (95% intervals):

- win rate: games A wins (A's seat, or one of its seats or its team) out of the games decided
  (drawn Rubicon games are counted apart), Wilson interval over those games — it ignores the
  pairing, so it is conservative when the seatings of a deal tend to split;
- margin: A's final score minus B's best final score (Rubicon: the settlement R6.8 from A's
  point of view, + when A wins, - when B wins, 0 for a draw), averaged over the seatings of
  each deal, then over deals; the interval is over deals, so the pairing narrows it. Only the
  deal is shared: the stock is drawn by trick winners, so once play differs the seatings'
  cards differ too, and the gain is modest (docs: Tournaments);
- points per hand: per deal, A's points per seat and hand over the deal's seatings minus B's;
  mean and interval over deals.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bezsim import __version__
from bezsim.analysis.stats import mean_ci, wilson
from bezsim.engine import constants as C
from bezsim.engine_api import games as api
from bezsim.engine_api.plugin_faults import run_games_checked
from bezsim.errors import BezsimError
from bezsim.rules import Rules, variant_of
from bezsim.running.simulation import load_kernels_announced

if TYPE_CHECKING:
    from bezsim.policy_specs.registry import PolicySpec

MAX_SEED = 2**63 - 1
ALL = "(all)"          # policy_b of a policy's overall row (more than two policies)
PARQUET_NAME = "tournament.parquet"
JSON_NAME = "tournament.json"
METADATA_KEY = "bezsim"
# deals: game indices played; seatings: how often each deal was played (summed over the
# opponents in an ALL row); games = deals x seatings = wins_a + wins_b + draws
INT_COLUMNS = ("deals", "seatings", "games", "wins_a", "wins_b", "draws")
FLOAT_COLUMNS = ("win_rate_a", "win_rate_low", "win_rate_high", "margin", "margin_low",
                 "margin_high", "points_per_hand_diff", "pph_low", "pph_high")
COLUMNS = ("variant", "policy_a", "policy_b", *INT_COLUMNS, *FLOAT_COLUMNS, "seed")


class TournamentError(BezsimError, ValueError):
    """Policies, games, seed or threads a tournament cannot run with."""


def seatings(players: int, partners: bool = False) -> list[tuple[int, ...]]:
    """Seatings of one pair: per seat 0 for policy A, 1 for policy B (see the module doc)."""
    if partners:
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    out: list[tuple[int, ...]] = []
    for lone in (0, 1):
        base = (lone,) + (1 - lone,) * (players - 1)
        for shift in range(players):
            seating = base[-shift:] + base[:-shift] if shift else base
            if seating not in out:       # with 2 players both lists are (A, B), (B, A)
                out.append(seating)
    return out


def check_policies(policies: str | Sequence[str]) -> list[PolicySpec]:
    """The policies parsed, one spec each; a tournament needs two distinct ones."""
    from bezsim.policy_specs.registry import PolicySpec, spec_of, split_specs

    if isinstance(policies, str) and not isinstance(policies, PolicySpec):
        items = split_specs(policies, keep_empty=True)
        if len(items) > 1 and not all(items):      # "random,,greedy": one left out?
            raise TournamentError(f"empty policy in {policies!r}")
        items = [item for item in items if item]
    elif isinstance(policies, (list, tuple)) and all(isinstance(p, str) for p in policies):
        items = list(policies)
    else:
        raise TournamentError(f"policies must be a comma list or a list of policy names, got "
                              f"{policies!r}")
    names = [spec_of(item) for item in items]   # aliases and defaults spelled alike
    distinct = list(dict.fromkeys(names))
    if len(distinct) < 2:
        raise TournamentError(f"a tournament needs at least two distinct policies, got "
                              f"{len(distinct)} ({','.join(distinct) or 'none'})")
    if len(distinct) < len(names):
        twice = next(n for n in distinct if names.count(n) > 1)
        raise TournamentError(f"policy {twice!r} is listed twice")
    return names


def _is_whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _validate(games: Any, seed: Any, threads: Any) -> None:
    if not _is_whole(games) or games < 1:
        raise TournamentError(f"games must be at least 1, got {games}")
    if not _is_whole(seed) or not 0 <= seed <= MAX_SEED:
        raise TournamentError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed}")
    if threads is not None:
        if not _is_whole(threads):
            raise TournamentError(f"threads must be a whole number, got {threads}")
        api.check_threads(threads)


@dataclass
class PairTotals:
    """Per-deal sums over the seatings of one pair, from A's point of view."""

    games: int
    seatings: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    margin: np.ndarray = field(init=False)        # summed over seatings, per deal
    points: np.ndarray = field(init=False)        # [deal, side]: points of A's / B's seats
    seat_hands: np.ndarray = field(init=False)    # [deal, side]: seats x hands played

    def __post_init__(self) -> None:
        self.margin = np.zeros(self.games, np.float64)
        self.points = np.zeros((self.games, 2), np.int64)
        self.seat_hands = np.zeros((self.games, 2), np.int64)

    def margin_per_deal(self) -> np.ndarray:
        return self.margin / self.seatings

    def pph_diff_per_deal(self) -> np.ndarray:
        per_hand = self.points / self.seat_hands
        return per_hand[:, 0] - per_hand[:, 1]


def add_batch(totals: PairTotals, batch: api.GameBatch, roles: Sequence[int],
              one_hand_game: bool) -> None:
    """Add one seating's games (``roles[seat]``: 0 = A, 1 = B) to the pair's per-deal sums."""
    gi = batch.game_info
    deals = slice(batch.game_start, batch.game_start + batch.n_games)
    role = np.asarray(roles)
    is_a = role == 0
    winner = gi[:, C.GI_WINNER]
    # a partnership's winner is a team t, and seat t belongs to team t: role[t] is its side
    win_side = np.where(winner >= 0, role[np.maximum(winner, 0)], -1)
    totals.wins_a += int((win_side == 0).sum())
    totals.wins_b += int((win_side == 1).sum())
    totals.draws += int((win_side < 0).sum())

    scores = gi[:, C.GI_SCORE:C.GI_SCORE + batch.players]
    if one_hand_game:        # Rubicon: the settlement is what a game is worth (R6.8)
        sign = np.select([win_side == 0, win_side == 1], [1, -1], 0)
        totals.margin[deals] += sign * gi[:, C.GI_STAKE]
    else:
        totals.margin[deals] += scores[:, is_a].max(axis=1) - scores[:, ~is_a].max(axis=1)

    hands = gi[:, C.GI_HANDS]
    played = np.arange(batch.hand_seat.shape[1])[None, :] < hands[:, None]
    points = np.where(played[:, :, None], batch.hand_seat[:, :, :, C.HS_POINTS], 0).sum(axis=1)
    totals.points[deals, 0] += points[:, is_a].sum(axis=1)
    totals.points[deals, 1] += points[:, ~is_a].sum(axis=1)
    totals.seat_hands[deals, 0] += hands * int(is_a.sum())
    totals.seat_hands[deals, 1] += hands * int((~is_a).sum())


def play_pair(rules: Rules, a: str, b: str, games: int, seed: int, threads: int | None = None,
              advance=lambda n: None, compile_with: Sequence[str] = ()) -> PairTotals:
    """Play every seating of (a, b) on game indices 0..games-1; sums from a's side. The
    engine compiles in what ``compile_with`` plays too (the other pairs of a tournament:
    one engine for all of them)."""
    from bezsim.policy_specs.policy_set import resolve_policies
    from bezsim.running.shard_work import COMPUTE_CHUNK

    one_hand_game = rules.definition.one_hand_game
    totals = PairTotals(games)
    for roles in seatings(rules.players, rules.partners):
        seated = resolve_policies([(a, b)[r] for r in roles], rules,      # once per seating
                                  compile_with)
        for start in range(0, games, COMPUTE_CHUNK):
            n = min(COMPUTE_CHUNK, games - start)
            add_batch(totals, run_games_checked(rules, seated, seed, start, n, threads), roles,
                      one_hand_game)
            advance(n)
        totals.seatings += 1
    return totals


def _row(rules: Rules, seed: int, a: str, b: str, deals: int, seatings_: int, wins_a: int,
         wins_b: int, draws: int, margin: np.ndarray, pph: np.ndarray) -> dict[str, Any]:
    rate = wilson(wins_a, wins_a + wins_b)
    m = mean_ci(margin)
    p = mean_ci(pph)
    if wins_a + wins_b + draws != deals * seatings_:
        raise AssertionError(f"{a} vs {b}: {wins_a + wins_b + draws} games counted, "
                             f"{deals} deals x {seatings_} seatings played")
    return {"variant": rules.variant, "policy_a": a, "policy_b": b, "deals": deals,
            "seatings": seatings_, "games": deals * seatings_, "wins_a": wins_a,
            "wins_b": wins_b, "draws": draws,
            "win_rate_a": rate[0], "win_rate_low": rate[1], "win_rate_high": rate[2],
            "margin": m[0], "margin_low": m[1], "margin_high": m[2],
            "points_per_hand_diff": p[0], "pph_low": p[1], "pph_high": p[2], "seed": seed}


def _progress_bar(total: int, enabled: bool):
    from tqdm import tqdm

    # the runner's style: on stderr, only on a terminal
    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True,
                disable=not (enabled and sys.stderr.isatty()))


def run_tournament(rules: Rules, policies: str | Sequence[str], games: int, seed: int,
                   threads: int | None = None, progress: bool = False) -> pd.DataFrame:
    """Round robin of ``policies`` on duplicate deals: one row per ordered pair (A, B), then,
    with more than two policies, one row per policy against all the others (policy_b ALL).

    Each pair plays game indices 0..games-1 in every seating of ``seatings``; the result is
    a pure function of (rules, policies, games, seed), whatever ``threads``.
    """
    if not isinstance(rules, Rules):
        raise TournamentError(f"rules must be a bezsim.rules.Rules (Rules.make(variant, "
                              f"options)), got {rules!r}")
    names = check_policies(policies)
    _validate(games, seed, threads)
    games, seed = int(games), int(seed)
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    n_seatings = len(seatings(rules.players, rules.partners))
    results: dict[tuple[int, int], PairTotals] = {}
    first_seating = seatings(rules.players, rules.partners)[0]
    for i, j in pairs:        # compiled before the bar starts, so its rate measures games
        load_kernels_announced(rules, [(names[i], names[j])[r] for r in first_seating],
                               progress, names)
    with _progress_bar(len(pairs) * n_seatings * games, progress) as bar:
        for i, j in pairs:
            bar.set_description(f"{names[i]} vs {names[j]}")
            results[i, j] = play_pair(rules, names[i], names[j], games, seed, threads,
                                      bar.update, names)

    rows = []
    for i, j in pairs:
        t = results[i, j]
        margin, pph = t.margin_per_deal(), t.pph_diff_per_deal()
        rows.append(_row(rules, seed, names[i], names[j], games, t.seatings, t.wins_a,
                         t.wins_b, t.draws, margin, pph))
        rows.append(_row(rules, seed, names[j], names[i], games, t.seatings, t.wins_b,
                         t.wins_a, t.draws, -margin, -pph))
    if len(names) > 2:
        rows += _overall_rows(rules, seed, names, results, games)
    return _frame(rows)


def _overall_rows(rules: Rules, seed: int, names: list[str],
                  results: dict[tuple[int, int], PairTotals], games: int) -> list[dict]:
    """Per policy against every other: wins pooled; margin and points per hand averaged over
    the opponents per deal (the deals are shared by all pairs), intervals over deals."""
    rows = []
    for k, name in enumerate(names):
        wins = losses = draws = seatings_ = 0
        margin = np.zeros(games)
        pph = np.zeros(games)
        for (i, j), t in results.items():
            if k not in (i, j):
                continue
            sign = 1 if k == i else -1
            wins += t.wins_a if k == i else t.wins_b
            losses += t.wins_b if k == i else t.wins_a
            draws += t.draws
            seatings_ += t.seatings
            margin += sign * t.margin_per_deal()
            pph += sign * t.pph_diff_per_deal()
        opponents = len(names) - 1
        rows.append(_row(rules, seed, name, ALL, games, seatings_, wins, losses, draws,
                         margin / opponents, pph / opponents))
    return rows


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    for column in (*INT_COLUMNS, "seed"):
        frame[column] = frame[column].astype(np.int64)
    for column in FLOAT_COLUMNS:
        frame[column] = frame[column].astype(np.float64)
    return frame


def describe_run(rules: Rules, policies: Sequence[str], games: int, seed: int) -> dict[str, Any]:
    """The run description stored beside the table (and in its Parquet metadata)."""
    from bezsim.io.manifest import library_versions
    from bezsim.policy_specs.registry import resolved_values

    return {
        "command": "tournament",
        "variant": rules.variant,
        "options": dict(rules.options),
        "policies": list(policies),
        "policy_params": resolved_values(list(policies), rules.variant),
        "seed": int(seed),
        "games": int(games),
        "seatings": ["".join("AB"[r] for r in s)
                     for s in seatings(rules.players, rules.partners)],
        "bezsim_version": __version__,
        "versions": library_versions(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


IDENTITY_KEYS = ("variant", "options", "policies", "policy_params", "seed", "games")


def check_out_dir(out_dir: str | Path, description: dict[str, Any]) -> None:
    """Refuse an output directory that holds something else than this tournament: a file,
    a simulation run, another tournament, or foreign files (they would be mixed or
    overwritten). The same tournament again is fine: it writes the same table."""
    if not isinstance(out_dir, (str, Path)) or not str(out_dir):
        raise TournamentError(f"output directory must be a non-empty path, got {out_dir!r}")
    out = Path(out_dir)
    if not out.exists():
        return
    if not out.is_dir():
        raise TournamentError(f"output path {out} exists and is not a directory")
    if (out / "manifest.json").exists():
        raise TournamentError(f"output directory {out} holds a simulation run; choose another "
                              "output directory")
    try:
        stored = json.loads((out / JSON_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        if any(out.iterdir()):
            raise TournamentError(f"output directory {out} is not empty and holds no "
                                  f"tournament; choose another output directory") from None
        return
    except (OSError, ValueError):
        stored = None
    same = isinstance(stored, dict) and all(
        # policy_params: absent in tournaments written before expert (none of them ran it)
        stored.get(k, {} if k == "policy_params" else None)
        == json.loads(json.dumps(description.get(k))) for k in IDENTITY_KEYS)
    if not same:
        raise TournamentError(f"output directory {out} holds a different tournament; choose "
                              "another output directory or delete this one")


def write_tournament(frame: pd.DataFrame, out_dir: str | Path,
                     description: dict[str, Any]) -> Path:
    """Write ``DIR/tournament.parquet`` and ``DIR/tournament.json`` atomically; returns DIR."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bezsim.io.atomic import write_atomically

    check_out_dir(out_dir, description)
    out = Path(out_dir)
    text = json.dumps(description, indent=2, sort_keys=True, default=str)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({METADATA_KEY: text})
    write_atomically(out / PARQUET_NAME, lambda handle: pq.write_table(table, handle))
    write_atomically(out / JSON_NAME, lambda handle: handle.write((text + "\n").encode()))
    return out


def read_tournament(out_dir: str | Path) -> pd.DataFrame:
    path = Path(out_dir) / PARQUET_NAME
    if not path.is_file():
        raise TournamentError(f"no tournament in {out_dir} (no {PARQUET_NAME})")
    frame = pd.read_parquet(path)
    if "deals" not in frame.columns:     # a table whose "games" counted deals
        frame.insert(3, "deals", frame.pop("games"))
        frame.insert(5, "games", frame["deals"] * frame["seatings"])
    return frame


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows as plain Python values for JSON; an undefined interval (one deal, or no game
    decided) becomes None rather than NaN, which JSON lacks."""
    rows = frame.to_dict(orient="records")
    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
            for row in rows]


def _ci(value: float, low: float, high: float, fmt: str) -> str:
    return f"{value:{fmt}} [{low:{fmt}}, {high:{fmt}}]"


def format_table(frame: pd.DataFrame, description: dict[str, Any]) -> str:
    """The table as text, with what its figures mean, in at most TEXT_WIDTH columns (with
    the built-in policies' names): counts and win rate, then margin and points per hand, as
    two tables one above the other, and the prose wrapped between words."""
    import textwrap

    rows = list(frame.itertuples())
    counts = [("A", "B", "deals", "games", "wins A", "wins B", "draws", "win rate A [95%]")] + [
        (str(r.policy_a), str(r.policy_b), f"{r.deals:,}", f"{r.games:,}", f"{r.wins_a:,}",
         f"{r.wins_b:,}", f"{r.draws:,}",
         _ci(r.win_rate_a, r.win_rate_low, r.win_rate_high, ".4f")) for r in rows]
    figures = [("A", "B", "margin [95%]", "points/hand A-B [95%]")] + [
        (str(r.policy_a), str(r.policy_b), _ci(r.margin, r.margin_low, r.margin_high, ".1f"),
         _ci(r.points_per_hand_diff, r.pph_low, r.pph_high, ".2f")) for r in rows]
    seat_list = description["seatings"]
    definition = variant_of(description["variant"])
    margin_text = (f"the settlement ({definition.settlement_rule}) from A's side, + when A wins"
                   if definition.settlement
                   else "A's final score minus B's best final score")
    notes = ["Duplicate deals: every deal is played once in each seating (the same cards, each "
             "policy in every seat), so the luck of the deal cancels; games = deals x seatings "
             "= wins A + wins B + draws. Margin and points per hand are averaged over a deal's "
             "seatings and their intervals are over deals, which is where the pairing tightens "
             "them.",
             "win rate: games won by A out of games decided (Wilson interval).",
             f"margin: {margin_text}.",
             "points/hand: A's points per seat and hand minus B's."]
    if (frame["policy_b"] == ALL).any():
        notes.append(f"B = {ALL}: the policy against all others (its games against each of "
                     "them added up; margins averaged over its opponents per deal).")
    head = (f"tournament: {description['variant']}, {description['games']:,} deals per pair, "
            f"seed {description['seed']}, {len(seat_list)} seatings per deal "
            f"({', '.join(seat_list)})")
    out = [*textwrap.wrap(head, TEXT_WIDTH), "", *_aligned(counts), "", *_aligned(figures), ""]
    for note in notes:
        out += textwrap.wrap(note, TEXT_WIDTH)
    return "\n".join(out)


TEXT_WIDTH = 100


def _aligned(table: list[tuple[str, ...]]) -> list[str]:
    """Rows in columns two spaces apart: the policies (the first two) to the left, the
    figures to the right."""
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    return ["  ".join(cell.ljust(w) if c < 2 else cell.rjust(w)
                      for c, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in table]
