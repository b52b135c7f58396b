"""Bad positions: a position file or dict with impossible card counts, copies
beyond the packs, unknown cards, wrong types, missing fields, inconsistent stage, tricks or
trumps, or declarations a card cannot have made, is a one-line PositionError (bezsim explain
prints it as ``bezsim: error: ...``), never another exception.

The catalogue is data: (what, valid base, changes, fragment of the message). The property
test mutates valid positions at random: each either parses, and explains, or is refused.
"""

from __future__ import annotations

import copy

import pytest
from bad_input_helpers import raises_one_line
from hypothesis import given, settings
from hypothesis import strategies as st

from bezsim.position import PositionError, explain, load_position, parse_position

PROPERTY = settings(max_examples=200, deadline=None, derandomize=True)


DECLARE = {"variant": "ordinary", "trumps": "♥", "turnup": "9♥", "stock": 20, "trick": 12,
           "to_move": 0, "phase": "declare",
           "seats": [{"hand": ["K♥", "Q♥", "J♦", "Q♠"]}, {"hand": []}]}
PLAY = {"variant": "ordinary", "trumps": "♠", "stock": 0, "trick": 26, "to_move": 1,
        "current_trick": ["Q♥"], "played": ["A♥"],
        "seats": [{"hand": ["A♣", "10♣"]},
                  {"hand": ["K♥", "9♥", "7♠", "A♦"], "declared": {"K♥": ["marriage"]}}]}
POLISH = {"variant": "polish", "trumps": "♠", "turnup": "9♠", "stock": 20, "trick": 13,
          "to_move": 1, "phase": "declare", "won_trick": ["Q♠", "K♠"],
          "seats": [{"hand": []}, {"hand": [], "open": ["K♥", "K♦", "K♣", "Q♥", "Q♦", "Q♣",
                                                        "A♠", "10♠", "J♠"],
                                   "declared": {"K♥": ["marriage"], "Q♥": ["marriage"]}}]}
RUBICON = {"variant": "rubicon", "trumps": "♣", "stock": 60, "trick": 26, "to_move": 0,
           "phase": "declare",
           "seats": [{"hand": ["A♣#2", "9♦"], "declared": {
               "A♠": ["broken:four"], "A♥": ["broken:four"], "A♦": ["broken:four"]}},
                     {"hand": []}]}
PARTNERS = {"variant": "four_handed_partners", "trumps": "♥", "turnup": "8♥", "stock": 59,
            "trick": 10, "to_move": 2, "trick_winner": 0, "phase": "declare",
            "seats": [{"hand": ["Q♠", "J♦"], "declared": {"Q♠": ["bezique"], "J♦": ["bezique"]}},
                      {"hand": []}, {"hand": ["Q♠#1", "J♦#1", "9♣"]}, {"hand": []}]}
VALID = {"declare": DECLARE, "play": PLAY, "polish": POLISH, "rubicon": RUBICON,
         "partners": PARTNERS}
_ALL_FACES = [f"{r}{s}" for s in "♠♥♦♣" for r in ("A", "10", "K", "Q", "J", "9", "8", "7")]
_DROP = object()


def _seat0(**seat) -> dict:
    return {"seats": [seat, {"hand": []}]}


# (label, base, changes to the base (_DROP removes a key), fragment)
POSITIONS = [
    ("unknown key", DECLARE, {"foo": 1}, "unknown key 'foo' in position"),
    ("variant not text", DECLARE, {"variant": 5}, "variant must be a name"),
    ("variant null", DECLARE, {"variant": None}, "variant must be a name"),
    ("unknown variant", DECLARE, {"variant": "pinochle"}, "unknown variant 'pinochle'"),
    ("options a list", DECLARE, {"options": ["target=5"]}, "options must map option names"),
    ("options text", DECLARE, {"options": "target=5"}, "options must map option names"),
    ("option out of range", DECLARE, {"options": {"target": 0}}, "option target=0 is out of"),
    ("unknown option", DECLARE, {"options": {"x": 1}}, "unknown option 'x'"),
    ("option of another variant", DECLARE, {"options": {"rubicon_reuse": "any_class"}},
     "applies to rubicon"),
    ("seats missing", DECLARE, {"seats": _DROP}, "'seats' must be a list of 2 seats"),
    ("three seats for two", DECLARE, {"seats": [{"hand": []}] * 3}, "a list of 2 seats"),
    ("seats an object", DECLARE, {"seats": {"0": {"hand": []}}}, "a list of 2 seats"),
    ("seat a list", DECLARE, {"seats": [["Q♠"], {"hand": []}]}, "seat 0: must be an object"),
    ("hand text", DECLARE, _seat0(hand="Q♠"), "seat 0: must be an object with a 'hand' list"),
    ("hand null", DECLARE, _seat0(hand=None), "with a 'hand' list"),
    ("open outside Polish", DECLARE, _seat0(hand=[], open=["K♥"]), "seat 0: unknown key 'open'"),
    ("unknown rank", DECLARE, _seat0(hand=["X♣"]), "seat 0 hand: unknown rank in card 'X♣'"),
    ("six", DECLARE, _seat0(hand=["6♣"]), "unknown rank in card '6♣'"),
    ("empty card", DECLARE, _seat0(hand=[""]), "unknown card ''"),
    ("card a number", DECLARE, _seat0(hand=[7]), "a card must be a string like 'Q♠', got 7"),
    ("card null", DECLARE, _seat0(hand=[None]), "got None"),
    ("two suits", DECLARE, _seat0(hand=["Q♠♠"]), "unknown rank in card 'Q♠♠'"),
    ("copy 2 of 2 packs", DECLARE, _seat0(hand=["7♣#2"]), "pack 2 does not exist with 2 packs"),
    ("empty copy number", DECLARE, _seat0(hand=["7♣#"]), "bad copy number in card '7♣#'"),
    ("negative copy", DECLARE, _seat0(hand=["7♣#-1"]), "bad copy number in card '7♣#-1'"),
    ("three copies, two packs", DECLARE, _seat0(hand=["7♣", "7♣", "7♣"]),
     "seat 0 hand: more copies of 7♣ than 2 packs hold"),
    ("one copy twice", DECLARE, _seat0(hand=["7♣#1", "7♣#1"]), "card 7♣#1 is listed twice"),
    ("third copy on the trick", PLAY, {"current_trick": ["A♣"], "played": ["A♣"]},
     "played: more copies of A♣ than 2 packs hold"),
    ("third turn-up copy", DECLARE, _seat0(hand=["9♥", "9♥"]),
     "turnup: more copies of 9♥ than 2 packs hold"),
    ("third copy declared by the other seat", DECLARE,
     {"seats": [{"hand": ["Q♠", "Q♠"]}, {"hand": [], "declared": {"Q♠": ["bezique"]}}]},
     "seat 1 declared: more copies of Q♠ than 2 packs hold"),
    ("hand of ten", DECLARE, _seat0(hand=_ALL_FACES[8:18]), "seat 0: 10 cards in hand, at "
                                                            "most 9 possible"),
    ("more cards than the packs", DECLARE,
     {"played": _ALL_FACES + ["7♣", "8♣", "7♦", "8♦", "7♠", "8♠", "A♣", "10♣"]},
     "the position holds 45 named cards and 20 in the stock: more than the 64 cards"),
    ("declared a list", DECLARE, _seat0(hand=["Q♠"], declared=["Q♠"]),
     "seat 0: 'declared' must map cards to declaration lists"),
    ("declared kind a number", DECLARE, _seat0(hand=["Q♠"], declared={"Q♠": [5]}),
     "seat 0: unknown declaration 5 for Q♠"),
    ("declared unknown kind", DECLARE, _seat0(hand=["Q♠"], declared={"Q♠": ["foo"]}),
     "unknown declaration 'foo'"),
    ("declared unknown card", DECLARE, _seat0(hand=[], declared={"X♠": ["bezique"]}),
     "seat 0 declared: unknown rank in card 'X♠'"),
    ("marriage of an ace", DECLARE, _seat0(hand=["A♠"], declared={"A♠": ["marriage"]}),
     "seat 0: A♠ cannot have scored in 'marriage'"),
    ("bezique of a seven", DECLARE, _seat0(hand=["7♣"], declared={"7♣": ["bezique"]}),
     "7♣ cannot have scored in 'bezique'"),
    ("four nines", DECLARE, _seat0(hand=["9♣"], declared={"9♣": ["four"]}),
     "9♣ cannot have scored in 'four'"),
    ("seven not of trumps", DECLARE, _seat0(hand=["7♣"], declared={"7♣": ["seven"]}),
     "7♣ cannot have scored in 'seven'"),
    ("sequence not of trumps", DECLARE, _seat0(hand=["K♣"], declared={"K♣": ["sequence"]}),
     "K♣ cannot have scored in 'sequence'"),
    ("bezique pair by trump", DECLARE | {"options": {"bezique_pair": "by_trump"}},
     _seat0(hand=["Q♣"], declared={"Q♣": ["bezique"]}), "Q♣ cannot have scored in 'bezique'"),
    ("triple in a two-pack game", DECLARE,
     _seat0(hand=["Q♠"], declared={"Q♠": ["triple_bezique"]}), "no triple bezique in this"),
    ("broken outside Rubicon", DECLARE, _seat0(hand=["Q♠"], declared={"Q♠": ["broken:bezique"]}),
     "'broken:' applies to Rubicon"),
    ("trumps missing", DECLARE, {"trumps": _DROP}, "'trumps' must be a suit"),
    ("trumps a number", DECLARE, {"trumps": 1}, "'trumps' must be a suit"),
    ("unknown trumps", DECLARE, {"trumps": "X"}, "'trumps': unknown suit 'X'"),
    ("two trumps", DECLARE, {"trumps": "SS"}, "unknown suit 'SS'"),
    ("turn-up not trumps", DECLARE, {"turnup": "9♣"}, "turnup must be of the trump suit"),
    ("turn-up a number", DECLARE, {"turnup": 9}, "turnup: a card must be a string"),
    ("stock negative", DECLARE, {"stock": -1}, "'stock'=-1 is out of range (0..47)"),
    ("stock too big", DECLARE, {"stock": 48}, "'stock'=48 is out of range (0..47)"),
    ("stock a float", DECLARE, {"stock": 1.5}, "'stock' must be a whole number, got 1.5"),
    ("stock text", DECLARE, {"stock": "20"}, "'stock' must be a whole number, got '20'"),
    ("stock true", DECLARE, {"stock": True}, "got True"),
    ("stock without turn-up", DECLARE, {"turnup": None}, "needs its 'turnup' card"),
    ("trick 0", DECLARE, {"trick": 0}, "'trick'=0 is out of range (1..32)"),
    ("trick 33", DECLARE, {"trick": 33}, "'trick'=33 is out of range (1..32)"),
    ("trick text", DECLARE, {"trick": "12"}, "'trick' must be a whole number, got '12'"),
    ("stage-2 trick with a stock", DECLARE, {"trick": 30},
     "'trick' 30 is after the stock is gone (stage 1 has tricks 1..24)"),
    ("stage-1 trick without a stock", PLAY, {"trick": 3}, "'trick' 3 is a stage-1 trick"),
    ("to_move 2 of 2 seats", DECLARE, {"to_move": 2}, "'to_move'=2 is out of range (0..1)"),
    ("to_move text", DECLARE, {"to_move": "0"}, "'to_move' must be a whole number"),
    ("unknown phase", DECLARE, {"phase": "x"}, "'phase' must be 'play' or 'declare', got 'x'"),
    ("phase null", DECLARE, {"phase": None}, "got None"),
    ("declaring with a trick", DECLARE, {"current_trick": ["7♣"]},
     "'current_trick' must be empty when the phase is 'declare'"),
    ("trick text not list", PLAY, {"current_trick": "Q♥"},
     "'current_trick' must be a list of cards, got 'Q♥'"),
    ("trick a number", PLAY, {"current_trick": 5}, "'current_trick' must be a list of cards"),
    ("full trick", PLAY, {"current_trick": ["Q♥", "K♣"]}, "'current_trick' holds 2 cards; a "
                                                          "trick has 2"),
    ("played text", PLAY, {"played": "A♥"}, "'played' must be a list of cards, got 'A♥'"),
    ("played a number", PLAY, {"played": 5}, "'played' must be a list of cards, got 5"),
    ("scored text", DECLARE, {"scored_this_trick": "bezique"},
     "'scored_this_trick' must be a list of kinds"),
    ("scored a mapping", DECLARE, {"scored_this_trick": {"bezique": 1}},
     "'scored_this_trick' must be a list"),
    ("scored unknown kind", DECLARE, {"scored_this_trick": ["x"]}, "unknown kind 'x'"),
    ("seven_exchanged text", DECLARE, {"seven_exchanged": "yes"},
     "'seven_exchanged' must be true or false, got 'yes'"),
    ("seven_exchanged 1", DECLARE, {"seven_exchanged": 1}, "must be true or false, got 1"),
    ("stage text", DECLARE, {"stage": "1"}, "'stage' must be 1 or 2, got '1'"),
    ("stage 3", DECLARE, {"stage": 3}, "'stage' must be 1 or 2, got 3"),
    ("stage true", DECLARE, {"stage": True}, "'stage' must be 1 or 2, got True"),
    ("stage contradicting stock", DECLARE, {"stage": 2}, "'stage' 2 does not match stock 20"),
    ("trick_winner not the partner", DECLARE, {"trick_winner": 1},
     "seat 0 cannot declare on seat 1's win"),
    ("trick_winner text", DECLARE, {"trick_winner": "x"}, "'trick_winner' must be a whole"),
    ("won_trick outside Polish", DECLARE, {"won_trick": ["7♣", "8♣"]},
     "'won_trick' (Polish only)"),
    ("won_trick text", POLISH, {"won_trick": "Q♠"}, "'won_trick' must be a list of cards"),
    ("Polish won_trick of three", POLISH, {"won_trick": ["Q♠", "K♠", "A♣"]},
     "lists the 2 cards of the trick"),
    ("Polish declare without won_trick", POLISH, {"won_trick": _DROP}, "needs 'won_trick'"),
    ("Polish open text", POLISH, {"seats": [{"hand": []}, {"hand": [], "open": "K♥"}]},
     "seat 1: 'open' must be a list of cards"),
    ("Polish open seven", POLISH, {"seats": [{"hand": []}, {"hand": [], "open": ["7♥"]}]},
     "seat 1: 7♥ cannot be an open card"),
    ("Rubicon seven", RUBICON, _seat0(hand=["7♣"], declared={"7♣": ["seven"]}),
     "no seven of trumps scores in Rubicon"),
    ("Rubicon turn-up", RUBICON, {"turnup": "9♣"}, "rubicon bézique has no turn-up"),
    ("Rubicon exchanged seven", RUBICON, {"seven_exchanged": True}, "has no seven to exchange"),
    ("Rubicon copy 4", RUBICON, _seat0(hand=["7♣#4"]), "pack 4 does not exist with 4 packs"),
    ("Rubicon five copies", RUBICON, _seat0(hand=["7♣"] * 5), "more copies of 7♣ than 4 packs"),
    ("Rubicon hand of eleven", RUBICON, _seat0(hand=["7♣"] * 4 + ["8♣"] * 4 + ["9♣"] * 3),
     "seat 0: 11 cards in hand, at most 10 possible"),
    ("Rubicon stock 111", RUBICON, {"stock": 111}, "'stock'=111 is out of range (0..110)"),
    ("Rubicon trick 65", RUBICON, {"trick": 65}, "'trick'=65 is out of range (1..64)"),
    ("Rubicon intact and broken", RUBICON,
     _seat0(hand=["A♠"], declared={"A♠": ["four", "broken:four"]}),
     "A♠ cannot be both 'four' and 'broken:four'"),
    ("Rubicon broken unknown", RUBICON, _seat0(hand=["A♠"], declared={"A♠": ["broken:foo"]}),
     "unknown declaration 'broken:foo'"),
    ("partners: 3 seats", PARTNERS, {"seats": [{"hand": []}] * 3}, "a list of 4 seats"),
    ("partners: opponent's win", PARTNERS, {"trick_winner": 1},
     "seat 2 cannot declare on seat 1's win"),
]


def _mutated(base: dict, changes: dict) -> dict:
    data = copy.deepcopy(base)
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key, None)
        else:
            data[key] = copy.deepcopy(value)
    return data


def test_valid_bases_parse_and_explain():
    """Each bad case changes one thing of a valid position."""
    for name, data in VALID.items():
        assert explain(parse_position(copy.deepcopy(data)))["variant"] == data["variant"], name


@pytest.mark.parametrize(("label", "base", "changes", "fragment"), POSITIONS,
                         ids=[case[0] for case in POSITIONS])
def test_bad_position_is_one_line_position_error(label, base, changes, fragment):
    raises_one_line(lambda: parse_position(_mutated(base, changes)), fragment, PositionError)


@pytest.mark.parametrize(("data", "fragment"), [
    ([1, 2], "a position must be a JSON object"),
    ("ordinary", "a position must be a JSON object"),
    (None, "a position must be a JSON object"),
])
def test_position_that_is_not_an_object(data, fragment):
    raises_one_line(lambda: parse_position(data), fragment, PositionError)


@pytest.mark.parametrize(("content", "fragment"), [
    (None, "cannot read position file"),
    ("{trumps: ♥}", "is not valid JSON: Expecting property name"),
    ("", "is not valid JSON: Expecting value at line 1"),
    (b"\xff\xfe{", "is not UTF-8 text"),
    ("[" * 100_000, "nests too deeply to be a position"),
    ('{"seats": NaN}', "'seats' must be a list of 2 seats"),
    ("[]", "a position must be a JSON object"),
])
def test_bad_position_file(tmp_path, content, fragment):
    path = tmp_path / "pos.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    raises_one_line(lambda: load_position(path), fragment, PositionError)


def test_position_path_of_the_wrong_type(tmp_path):
    raises_one_line(lambda: load_position(None), "a position file must be a path, got None",
                    PositionError)
    raises_one_line(lambda: load_position(tmp_path), "cannot read position file", PositionError)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.floats(-2, 70)
                     | st.sampled_from(["", "♠", "S", "x", "Q♠", "7♥#1", "K♥#9", "play",
                                        "declare", "bezique", "broken:four", "undecided"]),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["hand", "Q♠", "declared", "x"]),
                                       inner, max_size=3), max_leaves=8)
_CARDS = st.sampled_from(_ALL_FACES + ["Q♠#1", "J♦#1", "A♣#2", "7♣#3", "K♥#0", "X♣", "10",
                                       "6♦", "qs", "TH"])
_KINDS = st.sampled_from(["marriage", "sequence", "bezique", "double_bezique",
                          "triple_bezique", "quadruple_bezique", "four", "seven",
                          "broken:four", "broken:marriage", "nonsense"])
_KEYS = ["variant", "options", "trumps", "turnup", "seven_exchanged", "stock", "stage",
         "trick", "to_move", "phase", "current_trick", "seats", "played",
         "scored_this_trick", "won_trick", "trick_winner"]


@st.composite
def mutated_positions(draw) -> dict:
    """A valid position with a few things changed: keys dropped or given random values,
    cards dropped, duplicated or replaced, declarations added."""
    data = copy.deepcopy(VALID[draw(st.sampled_from(sorted(VALID)))])
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["drop", "value", "card", "declare", "int"]))
        key = draw(st.sampled_from(_KEYS))
        seats = data.get("seats")
        seat = draw(st.integers(0, max(len(seats) - 1, 0))) if isinstance(seats, list) else 0
        hand = (seats[seat].setdefault("hand", []) if isinstance(seats, list) and seats
                and isinstance(seats[seat], dict) else None)
        if action == "drop":
            data.pop(key, None)
        elif action == "value":
            data[key] = draw(_JSON)
        elif action == "int":
            data[key] = draw(st.integers(-2, 130))
        elif action == "card" and isinstance(hand, list):
            how = draw(st.sampled_from(["add", "drop", "duplicate"]))
            if how == "add" or not hand:
                hand.append(draw(_CARDS))
            elif how == "drop":
                hand.pop(draw(st.integers(0, len(hand) - 1)))
            else:
                hand.append(hand[draw(st.integers(0, len(hand) - 1))])
        elif action == "declare" and isinstance(hand, list):
            declared = seats[seat].setdefault("declared", {})
            if isinstance(declared, dict):
                declared[draw(_CARDS)] = draw(st.lists(_KINDS, min_size=1, max_size=2))
    return data


@PROPERTY
@given(mutated_positions())
def test_mutated_position_parses_or_is_a_position_error(data):
    """Never another exception: a position either parses (and explain then works on it, the
    engine never sees an inconsistent state) or is refused in one line."""
    try:
        pos = parse_position(data)
    except PositionError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    result = explain(pos)
    assert result["seat"] == pos.to_move and result["variant"] == pos.rules.variant
    named = sum(map(len, pos.hands)) + len(pos.current_trick) + len(pos.played)
    assert named + pos.stock <= pos.rules.packs * 32
