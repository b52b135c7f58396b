"""The game record (bezsim/review/record.py): a run's game written as a record replays to the
run's own result; a record that breaks a rule, or is not a record, is refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bezsim.engine import constants as C
from bezsim.engine_api.games import run_games
from bezsim.review.record import (
    RecordError,
    read_record,
    record_from_json,
    record_of_run,
    replay,
)
from bezsim.rules import Rules


@pytest.mark.parametrize("variant, policies, seed, game", [
    ("ordinary", ["expert", "random"], 31, 4),
    ("rubicon", ["learned", "greedy"], 5, 11),
    ("four_handed_partners", ["greedy", "random", "expert", "random"], 2, 0),
    # six packs: copies on the table declared in different combinations play differently
    ("six_pack", ["learned", "learned"], 77, 0),
])
def test_a_runs_game_as_a_record_replays_to_the_runs_result(tmp_path, variant, policies,
                                                             seed, game):
    rules = Rules.make(variant)
    record = record_of_run(rules, policies, seed, game)
    path = tmp_path / "game.json"
    record.write(path)
    replayed = replay(read_record(path))
    info = run_games(rules, policies, seed, game, 1).game_info[0]
    assert replayed.over
    assert replayed.scores() == [int(v) for v in info[C.GI_SCORE:C.GI_SCORE + rules.players]]
    assert np.array_equal(replayed.result().game_info[0], info)
    assert {a.seat for a in record.actions} == set(range(rules.players))
    if variant == "six_pack":       # the record names which of unlike table copies it played
        assert any(a.declared_in is not None for a in record.actions)


def test_the_first_illegal_action_is_named_with_its_hand_trick_and_seat():
    rules = Rules.make("ordinary")
    data = record_of_run(rules, ["random", "random"], 8, 1).as_json()
    first = data["actions"][0]
    # a card the leader does not hold: every card it holds is offered on the lead
    game = replay(record_from_json({**data, "actions": [], "end": "left"}))
    held = {a.name for a in game.actions()}
    missing = next(f"{r}{s}" for s in "♠♥♦♣" for r in ("A", "10", "K", "Q", "J", "9", "8", "7")
                   if f"{r}{s}" not in held)
    data["actions"][0] = {"seat": first["seat"], "play": missing}
    with pytest.raises(RecordError) as caught:
        replay(record_from_json(data))
    message = str(caught.value)
    assert message.startswith(f"action 1 (hand 1, trick 1, seat {first['seat']}): {missing} "
                              "is not legal here (offered: ")
    assert "\n" not in message
    data["actions"][0] = {"seat": 1 - first["seat"], "play": first["play"]}
    with pytest.raises(RecordError, match=f"it is seat {first['seat']}'s turn"):
        replay(record_from_json(data))


def test_a_record_that_stops_early_or_runs_on_is_refused():
    rules = Rules.make("ordinary")
    data = record_of_run(rules, ["random", "random"], 3, 0).as_json()
    with pytest.raises(RecordError, match="says the game is over, but it stops at hand 1"):
        replay(record_from_json({**data, "actions": data["actions"][:20]}))
    assert not replay(record_from_json({**data, "actions": data["actions"][:20],
                                        "end": "left"})).over
    extra = {**data, "actions": [*data["actions"], data["actions"][-1]]}
    with pytest.raises(RecordError, match=f"action {len(extra['actions'])} .*already over"):
        replay(record_from_json(extra))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("deal"), '"deal" must be'),
    (lambda d: d.update(format="something else"), "not a bezsim game record"),
    (lambda d: d.update(version=7), "record version 7 is not supported"),
    (lambda d: d.update(variant="polsh"), "polsh"),
    (lambda d: d["actions"][2].update(seat=5), 'action 3: "seat" must be 0 to 1'),
    (lambda d: d["actions"][0].update(play="Z♠"), "action 1: unknown rank"),
    (lambda d: d["actions"][1].update(copy="pocket"), 'action 2: "copy" is "hand" or "table"'),
    (lambda d: d.update(actions={"seat": 0}), '"actions" must be a list'),
    (lambda d: d.update(end="won"), '"end" must be one of over, resigned, left'),
])
def test_a_malformed_record_is_refused_in_one_line(tmp_path, change, message):
    data = record_of_run(Rules.make("ordinary"), ["random", "random"], 3, 0).as_json()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(RecordError, match=message) as caught:
        read_record(path)
    assert "\n" not in str(caught.value)


def test_the_documented_example_record_replays():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "review.md").read_text("utf-8")
    example = json.loads(page.split("```json")[1].split("```")[0])
    game = replay(record_from_json(example, "docs/review.md"))
    assert not game.over and game.seat == 1 and len(example["actions"]) == 6
