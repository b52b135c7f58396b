"""The soak (benchmarks/soak.py) on a few games: its chunk counts games, hands and
violations, a broken trace is counted as a violation and the soak goes on, the plan gives
every preset its minimum, and a run resumes without redoing finished chunks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from script_modules import load_script

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games, trace_one
from bezsim.rules import VARIANTS, Rules

soak = load_script("benchmarks/soak.py", "soak")
RANDOM2 = ("random", "random")


def test_chunk_counts_games_and_hands():
    """Hands are the games' hands as the batch engine counts them; no violations."""
    for variant, games in (("ordinary", 4), ("polish", 3)):
        result = soak.check_chunk(variant, RANDOM2, 11, 5, games)
        batch = run_games(Rules.make(variant), list(RANDOM2), 11, 5, games)
        assert result["games"] == games
        assert result["hands"] == int(batch.game_info[:, C.GI_HANDS].sum()) > games
        assert result["violations"] == []
        assert result["seconds"] > 0


def _tampering(game_to_break: int, tamper):
    """A tracer like trace_one that passes game ``game_to_break``'s rows through ``tamper``."""
    def tracer(rules, policies, seed, game):
        batch, trace = trace_one(rules, policies, seed, game)
        if game == game_to_break:
            trace = np.array(tamper(trace.tolist()), dtype=trace.dtype)
        return batch, trace
    return tracer


def _card_not_held(rows):
    """The first card played replaced by a card dealt to the other seat."""
    play = next(i for i, r in enumerate(rows) if r[0] == C.TR_PLAY)
    seat = rows[play][3]
    rows[play][4] = next(r[3] for r in rows if r[0] == C.TR_DEAL and r[2] != seat)
    return rows


def _negative_score(rows):
    """The first hand's scores after the hand made negative for seat 0."""
    end = next(i for i, r in enumerate(rows) if r[0] == C.TR_HAND_END)
    rows[end][2] = -rows[end][2] - 10
    return rows


@pytest.mark.parametrize("tamper,message", [(_card_not_held, "does not hold"),
                                            (_negative_score, "negative score")])
def test_chunk_counts_a_broken_trace_and_goes_on(tamper, message):
    good = soak.check_chunk("ordinary", RANDOM2, 11, 5, 3)
    result = soak.check_chunk("ordinary", RANDOM2, 11, 5, 3, tracer=_tampering(6, tamper))
    assert result["games"] == 3 and result["hands"] == good["hands"]   # all three checked
    [violation] = result["violations"]
    assert {k: violation[k] for k in ("variant", "policies", "seed", "game")} == {
        "variant": "ordinary", "policies": list(RANDOM2), "seed": 11, "game": 6}
    assert violation["message"].startswith("Violation: ") and message in violation["message"]


def _sequence_scored_plain(rows):
    """The first sequence in trumps (250) of the trace rewritten as a plain one (150)."""
    i = next(i for i, r in enumerate(rows) if r[0] == C.TR_EVENT and r[4] == C.K_SEQUENCE)
    for r in rows[i - 5:i]:                      # its five declared cards, then the event
        assert r[0] == C.TR_DECLARED_CARD
        r[5] = C.K_PLAIN_SEQUENCE
    rows[i][4:8] = [C.K_PLAIN_SEQUENCE, rows[i][5], rows[i - 1][4] // 8 % 4 + 1, 150]
    return rows


def test_chunk_with_options_checks_those_rules():
    """Rule options reach the checker (benchmarks/check_options.py): seed 1 game 6 (greedy)
    opens with a sequence, in trumps by default; traced as plain 150, that is a violation
    under the default and a clean game under first_sequence=plain."""
    greedy = ("greedy", "greedy")
    plain = (("first_sequence", "plain"),)
    assert soak.check_chunk("rubicon", greedy, 1, 6, 1)["violations"] == []
    assert soak.check_chunk("rubicon", greedy, 1, 6, 1, options=plain)["violations"] == []
    broken = soak.check_chunk("rubicon", greedy, 1, 6, 1,
                              tracer=_tampering(6, _sequence_scored_plain))
    [violation] = broken["violations"]
    assert "R6.2" in violation["message"] and "options" not in violation
    first = [r for r in trace_one(Rules.make("rubicon", dict(plain)), list(greedy), 1, 6)[1]
             .tolist() if r[0] == C.TR_EVENT and r[4] in (C.K_SEQUENCE, C.K_PLAIN_SEQUENCE)]
    assert first[0][4] == C.K_PLAIN_SEQUENCE and first[0][7] == 150
    failing = soak.check_chunk("rubicon", greedy, 1, 6, 1, options=plain,
                               tracer=lambda *a: (_ for _ in ()).throw(RuntimeError("x")))
    assert failing["violations"][0]["options"] == {"first_sequence": "plain"}


def test_chunk_counts_an_exception_as_a_violation():
    def failing(rules, policies, seed, game):
        if game == 1:
            raise RuntimeError("engine fault")
        return trace_one(rules, policies, seed, game)

    result = soak.check_chunk("rubicon", RANDOM2, 2, 0, 3, tracer=failing)
    assert result["hands"] == 2                       # a Rubicon game is one hand
    assert [v["game"] for v in result["violations"]] == [1]
    assert result["violations"][0]["message"] == "RuntimeError: engine fault"


def test_chunk_counts_a_replay_that_differs_from_the_batch(monkeypatch):
    """Replay = batch: a batch engine that wrote another stake for game 6 than the traced
    game is a violation of game 6."""
    from bezsim.engine_api import games as api

    real = api.run_games

    def drifting(rules, policies, seed, game_start, games, **kwargs):
        batch = real(rules, policies, seed, game_start, games, **kwargs)
        batch.game_info[6 - game_start, C.GI_STAKE] += 1
        return batch

    monkeypatch.setattr(api, "run_games", drifting)
    result = soak.check_chunk("polish", RANDOM2, 11, 5, 3)
    assert [(v["game"], v["message"]) for v in result["violations"]] == [
        (6, "Violation: trace_one and run_games differ: game_info")]


def test_plan_gives_every_preset_its_minimum():
    cells = soak.plan(10_000_000, 1, 200)
    per_variant = {v: sum(c.quota for c in cells if c.variant == v) for v in soak.VARIANTS}
    assert all(h >= 1_000_000 for h in per_variant.values()), per_variant
    assert 10_000_000 <= sum(per_variant.values()) < 10_000_100
    for v in soak.VARIANTS:
        kinds = {c.kind for c in cells if c.variant == v}
        assert kinds == {"random", "greedy", "heuristic", "mixed", "search"}
        search = [c for c in cells if c.variant == v and c.kind == "search"]
        assert [c.quota for c in search] == [200] and search[0].chunk_games == 1
    assert len({c.seed for c in cells}) == len(cells)
    assert soak.line_ups(4)[3:] == [("heuristic", "greedy", "random", "heuristic"),
                                    ("random", "heuristic", "greedy", "random")]


def _chunk_lines(out: Path) -> list[dict]:
    lines = [json.loads(x) for x in (out / "chunks.jsonl").read_text().splitlines()]
    return [r for r in lines if r["type"] == "chunk"]


def test_small_soak_runs_and_resumes_without_redoing_chunks(tmp_path, capsys):
    out = tmp_path / "soak"
    args = ["--hands", "200", "--search-hands", "0", "--workers", "1", "--no-progress"]
    assert soak.main(args + ["--out", str(out)]) == 0
    summary = json.loads((out / "soak.json").read_text())
    chunks = _chunk_lines(out)
    assert summary["total"]["violations"] == 0 and summary["total"]["complete"]
    assert summary["total"]["hands"] == sum(r["hands"] for r in chunks) >= 200
    assert len(summary["cells"]) == 5 * len(VARIANTS) and all(c["hands"] >= c["quota"] > 0
                                               for c in summary["cells"])
    assert "0 violations" in capsys.readouterr().out

    # an interruption: the last chunk lost, a line cut in the middle
    text = (out / "chunks.jsonl").read_text().splitlines(keepends=True)
    last = max(i for i, x in enumerate(text) if '"chunk"' in x)
    lost = json.loads(text[last])
    (out / "chunks.jsonl").write_text("".join(text[:last] + text[last + 1:]) + '{"type": "ch')
    assert soak.main(["--resume", str(out), "--workers", "1", "--no-progress"]) == 0
    again = _chunk_lines(out)
    assert len(again) == len(chunks)                  # only the lost chunk was played again
    assert {(r["cell"], r["index"]) for r in again} == {(r["cell"], r["index"]) for r in chunks}
    replayed = again[-1]
    assert (replayed["cell"], replayed["index"], replayed["hands"]) == (
        lost["cell"], lost["index"], lost["hands"])
    assert json.loads((out / "soak.json").read_text())["total"]["hands"] == \
        summary["total"]["hands"]


def test_a_violation_fails_the_soak_with_its_reproduction(tmp_path, capsys, monkeypatch):
    real = soak.check_chunk

    def broken_first_ordinary_game(variant, policies, seed, game_start, games):
        tracer = _tampering(0, _card_not_held) if (variant, policies) == (
            "ordinary", RANDOM2) else None
        return real(variant, policies, seed, game_start, games, tracer=tracer)

    monkeypatch.setattr(soak, "check_chunk", broken_first_ordinary_game)
    out = tmp_path / "soak"
    assert soak.main(["--hands", "100", "--search-hands", "0", "--workers", "1",
                      "--no-progress", "--seed", "40", "--out", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "1 violations" in printed
    assert ("VIOLATION ordinary policies random,random seed 40 game 0: Violation: card "
            "played that the seat does not hold") in printed
    assert "bezsim replay --variant ordinary --policies random,random --seed 40 --game 0" \
        in printed
    summary = json.loads((out / "soak.json").read_text())
    assert summary["total"]["violations"] == 1 and summary["total"]["complete"]
    assert summary["cells"][0]["violations"] == 1


@pytest.mark.parametrize("args,message", [
    (["--workers", "0"], "--workers must be between 1 and"),
    (["--hands", "50"], "--hands must be at least 100"),
    (["--hands", "1000", "--search-hands", "100"], "--search-hands 100 leaves no room"),
    (["--seed", "-1"], "--seed must be between"),
    (["--resume"], "nothing to resume"),
    (["--hands", "x"], "invalid int value"),
], ids=["workers", "hands", "room", "seed", "resume", "not_a_number"])
def test_bad_arguments_are_one_line_errors(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as exit_info:
        code = soak.main(args + ["--out", str(tmp_path / "run")])
        raise SystemExit(code)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("soak: error: ") and message in err and "\n" not in err


def test_a_used_directory_is_refused(tmp_path, capsys):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "other").write_text("x")
    assert soak.main(["--out", str(tmp_path / "run"), "--hands", "100"]) == 2
    assert "is not empty" in capsys.readouterr().err
