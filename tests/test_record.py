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
    packs_of_run,
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


@pytest.mark.parametrize("variant, policies, seed, game", [
    ("ordinary", ["expert", "random"], 31, 4),
    ("rubicon", ["learned", "greedy"], 5, 11),
    ("six_pack", ["learned", "learned"], 77, 0),
    ("four_handed_partners", ["greedy", "random", "expert", "random"], 2, 0),
])
def test_a_deal_given_card_by_card_replays_the_same_game(tmp_path, variant, policies, seed,
                                                         game):
    """A run's record with its deal written out card by card (the dealer and each hand's
    pack, as another program would write it): read back, it replays to the run's result,
    every hand alike."""
    rules = Rules.make(variant)
    record = record_of_run(rules, policies, seed, game)
    hands = replay(record).hand
    data = record.as_json()
    data["deal"] = packs_of_run(rules, seed, game, hands).as_json()
    assert set(data["deal"]) == {"dealer", "packs"} and len(data["deal"]["packs"]) == hands
    assert all(len(pack) == rules.packs * 32 for pack in data["deal"]["packs"])
    path = tmp_path / "dealt.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    dealt = read_record(path)
    assert dealt.as_json()["deal"] == data["deal"]
    info = run_games(rules, policies, seed, game, 1).game_info[0]
    replayed = replay(dealt)
    assert replayed.over
    assert np.array_equal(replayed.result().game_info[0][C.GI_SCORE:],
                          info[C.GI_SCORE:])
    assert np.array_equal(replayed.result().hand_info[0], replay(record).result().hand_info[0])


def _pack_for(rules, dealt: dict[int, list[str]], turnup: str, next_card: str) -> list[str]:
    """An ordinary pack in dealing order (dealer 1: batches of 3, 2, 3 from seat 0) giving
    each seat the named cards, then the turn-up, then the stock from its top."""
    from bezsim.cards import card_name

    order = []
    for size in (3, 2, 3):
        for seat in (0, 1):
            order += [dealt[seat].pop(0) for _ in range(size)]
    order += [turnup, next_card]
    rest = [card_name(c) for c in range(64)]
    for name in order:
        rest.remove(name)
    return order + rest


def test_a_given_deal_goes_out_in_the_rules_batches_from_the_dealers_left():
    """Dealer 1: seat 0 gets the pack's cards 1-3, 7-8 and 11-13, seat 1 the others of the
    first 16, the 17th is turned up, the trick's winner draws the 18th and the other seat
    the 19th."""
    from bezsim.cards import card_name
    from bezsim.engine import state as st

    rules = Rules.make("ordinary")
    mine = ["Q♠", "J♦", "Q♠", "J♦", "A♥", "10♥", "K♥", "7♣"]
    theirs = ["8♠", "9♠", "8♦", "9♦", "8♣", "9♣", "8♥", "9♥"]
    pack = _pack_for(rules, {0: list(mine), 1: list(theirs)}, "7♦", "A♠")
    record = record_from_json({
        "format": "bezsim game record", "version": 1, "variant": "ordinary",
        "deal": {"dealer": 1, "packs": [pack]}, "end": "left", "actions": []})
    game = replay(record)
    assert game.seat == 0 and game.hand == 0
    view = game.observation()
    assert sorted(view["hand"]) == sorted(mine)
    assert view["turn_up"] == "7♦" and view["dealer"] == 1 and view["stock_left"] == 47
    game.step(next(a for a in game.actions() if a.name == "7♣").index)
    game.step(next(a for a in game.actions() if a.name == "9♣").index)   # seat 1 wins
    while game.decision == "declare":
        game.step(next(a for a in game.actions() if a.kind == "stop").index)
    view = game.observation()
    assert (game.seat, view["trick_number"], view["stock_left"]) == (1, 2, 45)
    assert "A♠" in view["hand"] and view["hand"].count("A♠") == 1
    loser = set(pack[18:19])
    S = game.state_array()
    held = {card_name(int(S[st.O_HANDS + C.MAX_HAND * 0 + i]))
            for i in range(int(S[st.O_HAND_N]))}
    assert loser <= held


@pytest.mark.parametrize("deal, message", [
    ({"dealer": 2, "packs": []}, '"dealer" must be a seat, 0 to 1'),
    ({"dealer": 0, "packs": []}, '"packs" must list each hand'),
    ({"dealer": 0, "packs": [["Q♠"] * 64]}, "has Q♠ more than 2 time"),
    ({"dealer": 0, "packs": [["Q♠"]]}, "pack 1 must list 64 card names"),
    ({"dealer": 0, "packs": [["Z♠"] * 64]}, "pack 1, card 1: unknown rank"),
    ({"dealer": 0, "packs": [["A♠#1", "A♠#1"] + ["Q♠"] * 62]}, "names a copy of a card twice"),
    ({"dealer": 0, "packs": [], "seed": 1}, '"deal" must be'),
])
def test_a_bad_given_deal_is_refused_in_one_line(deal, message):
    data = record_of_run(Rules.make("ordinary"), ["random", "random"], 3, 0).as_json()
    data["deal"] = deal
    with pytest.raises(RecordError, match=message) as caught:
        record_from_json(data)
    assert "\n" not in str(caught.value)


def test_a_record_that_outruns_its_given_packs_is_refused():
    rules = Rules.make("ordinary")
    record = record_of_run(rules, ["greedy", "greedy"], 8, 0)
    assert replay(record).hand >= 2
    data = record.as_json()
    data["deal"] = packs_of_run(rules, 8, 0, 1).as_json()
    with pytest.raises(RecordError, match="goes on to hand 2, and the deal gives 1 pack"):
        replay(record_from_json(data))
