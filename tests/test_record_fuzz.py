"""The game record reader under random damage: thousands of mutations of valid records (keys
dropped, values of the wrong type, cards illegal, unknown or repeated, actions dropped,
repeated or swapped, files cut short or with bytes changed). Each is either refused with a
one-line error or read and replayed as the legal game it still is; none ends in a traceback.
A record never imports the code a player's name points at."""

from __future__ import annotations

import copy
import json
import random
import sys

import pytest

from bezsim.errors import BezsimError
from bezsim.review.record import packs_of_run, read_record, record_of_run, replay
from bezsim.rules import Rules

MUTATIONS_PER_RECORD = 500
WRONG_VALUES = [None, True, -1, 2**70, 1.5, "", "Q♠", "♠", [], [1], {}, {"seat": 0}, "stop",
                "royal marriage ♥", "x" * 300, "\n", "hand", "table", 0]
CARDS = ["A♠", "10♥", "K♦", "Q♣", "J♠", "9♥", "8♦", "7♣", "QS", "KH", "11♠", "Z♠", "Q", "♥",
         "A♠♠", "q♠", " 7♣ "]


@pytest.fixture(scope="module")
def valid_records() -> list[dict]:
    """Records of three short games: ordinary, three-handed and Rubicon; and the ordinary
    one again with its deal given card by card."""
    games = [(Rules.make("ordinary", {"target": 300}), ["greedy", "random"], 3, 1),
             (Rules.make("three_handed", {"target": 200}), ["random"] * 3, 4, 0),
             (Rules.make("rubicon"), ["greedy", "random"], 5, 2)]
    records = [record_of_run(rules, policies, seed, game).as_json()
               for rules, policies, seed, game in games]
    dealt = copy.deepcopy(records[0])
    dealt["deal"] = packs_of_run(games[0][0], 3, 1, replay(read_json(dealt)).hand).as_json()
    return [*records, dealt]


def read_json(data: dict):
    from bezsim.review.record import record_from_json

    return record_from_json(data)


def mutate(record: dict, rng: random.Random) -> str:
    """A record damaged in one to three random ways, as the text of a file."""
    data = copy.deepcopy(record)
    for _ in range(rng.randint(1, 3)):
        actions = data.get("actions") if isinstance(data, dict) else None
        how = rng.randrange(10)
        if how == 0 and isinstance(data, dict) and data:            # a key dropped
            del data[rng.choice(sorted(data))]
        elif how == 1 and isinstance(data, dict) and data:          # a value's type wrong
            data[rng.choice(sorted(data))] = rng.choice(WRONG_VALUES)
        elif how == 2 and isinstance(actions, list) and actions:    # an action's field
            action = rng.choice(actions)
            if isinstance(action, dict):
                key = rng.choice(["seat", "play", "declare", "copy", "declared_in", "extra"])
                if rng.random() < 0.3 and key in action:
                    del action[key]
                else:
                    action[key] = rng.choice(WRONG_VALUES + CARDS)
        elif how == 3 and isinstance(actions, list) and actions:    # another card
            action = rng.choice(actions)
            if isinstance(action, dict) and "play" in action:
                action["play"] = rng.choice(CARDS)
        elif how == 4 and isinstance(actions, list) and actions:    # an action repeated
            i = rng.randrange(len(actions))
            actions.insert(i, copy.deepcopy(actions[i]))
        elif how == 5 and isinstance(actions, list) and actions:    # an action dropped
            del actions[rng.randrange(len(actions))]
        elif how == 6 and isinstance(actions, list) and len(actions) > 1:   # two swapped
            i, j = rng.randrange(len(actions)), rng.randrange(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
        elif how == 8 and isinstance(data, dict) and isinstance(data.get("deal"), dict) \
                and isinstance(data["deal"].get("packs"), list) and data["deal"]["packs"]:
            deal = data["deal"]                                     # a given deal damaged
            pack = rng.choice(deal["packs"])
            what = rng.randrange(6)
            if what == 0 and isinstance(pack, list) and len(pack) > 1:     # two cards swap
                i, j = rng.randrange(len(pack)), rng.randrange(len(pack))
                pack[i], pack[j] = pack[j], pack[i]
            elif what == 1 and isinstance(pack, list) and pack:     # a card changed
                pack[rng.randrange(len(pack))] = rng.choice(WRONG_VALUES + CARDS + ["A♠#1",
                                                                                    "A♠#7"])
            elif what == 2 and isinstance(pack, list) and pack:     # a pack cut short
                del pack[rng.randrange(len(pack)):]
            elif what == 3:                                         # the dealer
                deal["dealer"] = rng.choice(WRONG_VALUES + [1, 2])
            elif what == 4:                                         # a hand's pack lost
                deal["packs"].pop()
            else:                                                   # a key dropped
                del deal[rng.choice(sorted(deal))]
        elif how == 7 and isinstance(data, dict):                  # the deal or options
            key = rng.choice(["deal", "options", "variant", "end", "players"])
            data[key] = rng.choice([{"seed": -1, "game": 0}, {"seed": 1}, {"target": "x"},
                                    {"target": 7}, {"no_such_option": 1}, "polish",
                                    "rubicon", "four_handed_partners", "resigned", "left",
                                    ["a"], ["a", "b", "c", "d"], {"seed": 2**64, "game": 1}])
        else:
            pass
    text = json.dumps(data, ensure_ascii=False)
    damage = rng.randrange(6)
    if damage == 0:                                                 # cut short
        text = text[:rng.randrange(len(text) + 1)]
    elif damage == 1 and text:                                      # a character changed
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice(["{", "]", '"', ",", "\\", "\x00", "é", "9"]) + text[i + 1:]
    return text


def test_damaged_records_are_refused_in_one_line_or_replay_legally(valid_records, tmp_path):
    rng = random.Random(20261207)
    path = tmp_path / "record.json"
    outcomes = {"refused": 0, "replayed": 0}
    for record in valid_records:
        for _ in range(MUTATIONS_PER_RECORD):
            text = mutate(record, rng)
            path.write_text(text, encoding="utf-8")
            try:
                game = replay(read_record(path))
            except BezsimError as e:
                message = str(e)
                assert message and "\n" not in message, (text[:200], message)
                assert "Traceback" not in message
                outcomes["refused"] += 1
                continue
            # read and replayed: every action was legal; a finished game's record ends it
            assert game is not None
            outcomes["replayed"] += 1
    assert sum(outcomes.values()) == MUTATIONS_PER_RECORD * len(valid_records)
    assert outcomes["refused"] > 1000 and outcomes["replayed"] > 10, outcomes


def test_bytes_that_are_not_utf8_are_refused_in_one_line(tmp_path):
    path = tmp_path / "record.json"
    path.write_bytes(b'{"format": "bezsim game record", "\xff\xfe": 1}')
    with pytest.raises(BezsimError) as caught:
        read_record(path)
    assert "\n" not in str(caught.value)


def test_a_record_never_imports_the_code_a_player_names(valid_records, tmp_path):
    record = copy.deepcopy(valid_records[0])
    record["players"] = ["bezsim_no_such_module_x:policy", "json_fuzz_never_imported:policy"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    before = set(sys.modules)
    game = replay(read_record(path))
    assert game.over
    assert not {m for m in set(sys.modules) - before
                if m.startswith(("bezsim_no_such_module_x", "json_fuzz_never_imported"))}
