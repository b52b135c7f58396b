"""`bezsim play` (bezsim/step/play.py, bezsim/step/narrate.py) driven by scripted input: the
story told at each decision (checked against the engine's trace and state), the hand by suit, the
prompt and its answers to bad input, hints, resigning, leaving, continuing a saved game, and
the transcript of the saved game."""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from bezsim.cards import card_name
from bezsim.cli import cli
from bezsim.engine import constants as C
from bezsim.engine import state as st
from bezsim.replay import kind_label
from bezsim.rules import Rules
from bezsim.step.play import continue_terminal, menu, ordered, play_terminal
from bezsim.step.step_game import Action, StepGame, saved_json

SUITS = "♠♥♦♣"


def scripted(lines):
    """An input function that answers prompts from ``lines``, then ends the input."""
    it = iter(lines)
    prompts = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read, prompts


def play_screens(variant, seed, you, against, moves, tmp_path, game=0, options=None):
    """Play with ``moves`` typed; (the screen before each prompt and, last, what follows the
    last prompt; all output; the saved path)."""
    rules = Rules.make(variant, options)
    out: list[str] = []
    marks: list[int] = []
    read, _ = scripted(moves)

    def reading(prompt):
        marks.append(len(out))
        return read(prompt)
    path = play_terminal(rules, against, seed, you, save=tmp_path / f"{variant}.json",
                         game=game, read=reading, write=out.append)
    screens = ["\n".join(out[a:b]) for a, b in zip([0, *marks], [*marks, len(out)],
                                                    strict=True)]
    return screens, "\n".join(out), path


# --- the story of the hand, checked against the engine -----------------------------------

PRESETS = [("ordinary", 5, 0, {}), ("rubicon", 5, 1, {}), ("polish", 5, 0, {}),
           ("three_handed", 4, 2, {"target": 1000}), ("four_handed", 6, 3, {"target": 1000}),
           ("four_handed_partners", 3, 0, {"target": 1000}), ("six_pack", 4, 1, {})]


def who(rules, seat, you):
    if seat == you:
        return "you"
    return f"seat {seat} (partner)" if rules.partners and seat == (you + 2) % 4 \
        else f"seat {seat}"


def says(rules, seat, you, verb):
    return f"you {verb[:-1]}" if seat == you else f"{who(rules, seat, you)} {verb}"


@cache
def stepped(variant, seed, you, options):
    """The game ``play_screens`` plays typing 1 each time, decided again step by step: at
    each decision the person is asked (more than one move), the engine's trace rows so far
    and the state there."""
    rules = Rules.make(variant, dict(options))
    g = StepGame(rules, seed, 0, [None if s == you else "expert"
                                  for s in range(rules.players)])
    points = []
    while not g.over:
        moves = menu(g)
        if len(moves) > 1:
            points.append((g.history(), g.state_array(), g.observation()))
        g.step(moves[0].index)
    return rules, points, g.history()


@cache
def _played(variant, seed, you, options, tmp):
    from pathlib import Path

    return play_screens(variant, seed, you, "expert", ["1"] * 3000, Path(tmp),
                        options=dict(options))


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("games")

    def get(variant, seed, you, options):
        key = tuple(sorted(options.items()))
        screens, text, path = _played(variant, seed, you, key, str(tmp))
        rules, points, final = stepped(variant, seed, you, key)
        return rules, screens, text, path, points, final
    return get


def _windows(points, final):
    """Trace rows new at each decision, and after the last one (the game's end)."""
    counts = [len(rows) for rows, _, _ in points] + [len(final)]
    return [final[a:b].tolist() for a, b in zip([0, *counts], counts, strict=False)]


def _trick_line(rules, you, plays, won):
    text = f"trick {won[2]}: " + ", ".join(
        f"{says(rules, p[3], you, 'leads' if i == 0 else 'plays')} {card_name(p[4])}"
        for i, p in enumerate(plays))
    return text + f" -> {says(rules, won[3], you, 'wins')}"


@pytest.mark.parametrize("variant, seed, you, options", PRESETS, ids=[p[0] for p in PRESETS])
def test_every_trick_and_declaration_is_told_as_the_trace_has_it(games, variant, seed, you,
                                                                  options):
    rules, screens, text, _, points, final = games(variant, seed, you, options)
    assert "game over:" in screens[-1] and len(screens) == len(points) + 1
    plays: list = []
    told_declarations = tricks = 0
    for screen, rows in zip(screens, _windows(points, final), strict=True):
        polish_combos: dict = {}
        for r in rows:
            if r[0] == C.TR_PLAY:
                plays.append(r)
            elif r[0] == C.TR_TRICK_WON:
                line = _trick_line(rules, you, [p for p in plays if p[2] == r[2]], r)
                assert f"  {line}\n" in screen + "\n", (line, screen)
                plays = [p for p in plays if p[2] != r[2]]
                tricks += 1
            elif r[0] == C.TR_EVENT and r[4] <= C.K_FOUR_JACKS and r[5] == C.EV_SCORED:
                if rules.params()[C.PR_OPEN_CARDS]:
                    polish_combos.setdefault((r[1], r[2]), []).append(r)
                    continue
                line = f"{says(rules, r[3], you, 'declares')} {kind_label(r[4], r[6])}: {r[7]}"
                assert f"  {line} (" in screen, (line, screen)
                told_declarations += r[3] != you
        for combos in polish_combos.values():
            seat = says(rules, combos[0][3], you, "declares")
            if len(combos) == 1:
                r = combos[0]
                line = f"  {seat} {kind_label(r[4], r[6])}: {r[7]} ("
            else:
                parts = " + ".join(f"{kind_label(r[4], r[6])} {r[7]}" for r in combos)
                line = f"  {seat} {parts} = {sum(r[7] for r in combos)}\n"
            assert line in screen + "\n", (line, screen)
            told_declarations += combos[0][3] != you
    assert told_declarations > 0 and tricks == sum(r[0] == C.TR_TRICK_WON for r in final)
    if rules.partners:
        assert f"seat {(you + 2) % 4} (partner) declares" in text
        assert f"seat {(you + 2) % 4} (partner) plays" in text


@pytest.mark.parametrize("variant, seed, you, options", PRESETS, ids=[p[0] for p in PRESETS])
def test_no_concealed_card_of_another_seat_is_ever_named(games, variant, seed, you, options):
    """At each decision, a card name none of whose copies the seat has seen (every copy in
    the stock or another seat's concealed hand, by the engine's state) appears nowhere in
    what is told from the hand's start on; another seat's draw is never named unless it is
    the turn-up; the stock count told after the draws is the seat's own view."""
    rules, screens, _, _, points, _ = games(variant, seed, you, options)
    n_cards = rules.packs * 32
    checked = 0
    for screen, (_, S, obs) in zip(screens[:-1], points, strict=True):
        seen = S[st.O_SEEN + you * st.N_MAX:st.O_SEEN + you * st.N_MAX + n_cards]
        where = S[st.O_LOC:st.O_LOC + n_cards]
        concealed = set()
        for face in range(32):
            copies = [c for c in range(n_cards) if c % 32 == face]
            if all(seen[c] == C.V_UNSEEN for c in copies):
                assert all(where[c] == C.LOC_STOCK or (C.LOC_HAND <= where[c] < C.LOC_TABLE
                                                      and where[c] != C.LOC_HAND + you)
                           for c in copies)
                concealed.add(card_name(face))
        lines = screen.splitlines()
        starts = [i for i, x in enumerate(lines) if re.match(r"^  hand \d+: ", x)]
        told = lines[starts[-1] if starts else 0:]
        for line in told:
            names = set(re.findall(r"(?:10|[AKQJ987])[♠♥♦♣]", line))
            assert not names & concealed, (line, names & concealed)
            checked += bool(concealed)
            if line.startswith("  draws: "):
                for part in line[len("  draws: "):].split(" · ")[0].split(", "):
                    if not part.startswith("you"):
                        assert "(" not in part.replace("(partner)", "") or \
                            "(the turn-up " in part, line
                left = line.rsplit(" · ", 1)[1]
                assert left == ("the stock is out" if obs["stock_left"] == 0
                                else f"stock {obs['stock_left']}"), line
        assert f"stock {obs['stock_left']} · " in screen
    assert checked > 100


def test_the_hand_is_grouped_by_suit_in_the_order_of_the_moves(games):
    rules, screens, _, _, points, _ = games("ordinary", 5, 0, {})
    for screen, (_, _, obs) in list(zip(screens[:-1], points, strict=True))[:40]:
        hand_line = next(x for x in screen.splitlines() if x.startswith("your hand: "))
        groups = hand_line[len("your hand: "):].split("   ")
        assert [c for g in groups for c in g.split(" ")] == obs["hand"]
        suits = [{c[-1] for c in g.split(" ")} for g in groups]
        assert all(len(s) == 1 for s in suits)
        order = [SUITS.index(s.pop()) for s in suits]
        assert order == sorted(order) and len(set(order)) == len(order)
        moves = screen.splitlines()[-1]
        if moves.startswith("1) ") and "(" not in moves:
            named = re.findall(r"\d+\) (\S+)", moves)          # copies alike: one move
            assert named == list(dict.fromkeys(c for c in obs["hand"] if c in named))
            assert len(moves.split("     ")) == len(groups) or len(named) < len(obs["hand"])


def test_rubicon_trumps_undecided_then_fixed_and_brisques_aside(games):
    rules, screens, text, _, points, final = games("rubicon", 5, 1, {})
    rows = final.tolist()
    fixing = next(r for r in rows if r[0] == C.TR_EVENT and r[5] != C.EV_LOST
                  and r[4] in (C.K_ROYAL_MARRIAGE, C.K_COMMON_MARRIAGE, C.K_SEQUENCE,
                               C.K_PLAIN_SEQUENCE))
    at = next(i for i, (r, _, _) in enumerate(points) if len(r) > rows.index(fixing))
    trump = points[at][2]["trumps"]
    assert "  hand 1: you deal · no turn-up: trumps not yet fixed (R6.2) · seat 0 leads" \
        in screens[0]
    for screen in screens[:at]:
        assert "hand 1 · trumps not fixed yet · stock" in screen
        assert "\nthe first marriage or sequence declared fixes trumps (R6.2)\n" in screen
    assert "the first marriage or sequence declared fixes trumps" not in screens[at]
    what = "marriage" if fixing[4] <= C.K_ROYAL_MARRIAGE else "sequence"
    whose = "your" if fixing[3] == 1 else f"seat {fixing[3]}'s"
    assert f"  trumps are fixed: {trump}, by {whose} {what}, the first declared (R6.2)" \
        in screens[at]
    assert f"hand 1 · trumps {trump} · " in screens[at]
    for screen, (_, _, obs) in zip(screens[:-1], points, strict=True):
        b, h = obs["brisques_taken"], obs["hand_points"]
        assert f"\npoints: seat 0 {h[0]}, you {h[1]} · brisques aside: seat 0 {b[0]}, " \
               f"you {b[1]}\n" in screen
    assert "brisques counted aside (R6.7): seat 0 " in text and "stake " in text


def test_rubicon_carte_blanche_is_told_with_the_hand_shown(tmp_path):
    """Game 111 of seed 3 deals seat 1 a carte blanche (R6.4), shown again after each draw
    without a court card: the hand is shown to every seat, so it is named, with the card
    drawn."""
    screens, text, path = play_screens("rubicon", 3, 0, "greedy", ["1"] * 12 + ["q"],
                                       tmp_path, game=111)
    rows = StepGame.load(path).history().tolist()
    events = [r for r in rows if r[0] == C.TR_EVENT and r[4] == C.K_CARTE_BLANCHE]
    assert [r[3] for r in events] == [1] * len(events) and len(events) >= 2
    hand = [card_name(r[3]) for r in rows if r[0] == C.TR_DEAL and r[2] == 1]
    line = next(x for x in screens[0].splitlines() if "carte blanche" in x)
    assert line.startswith("  seat 1 shows carte blanche, no K, Q or J (")
    assert line.endswith("): 50") and sorted(line.split("(")[1][:-5].split()) == sorted(hand)
    drawn = [card_name(next(d[4] for d in rows if d[0] == C.TR_DRAW and d[2] == r[2]
                            and d[3] == 1)) for r in events[1:]]
    again = re.findall(r"^  seat 1 shows carte blanche again, having drawn (\S+) \(.+\): 50$",
                       text, re.M)
    assert again == drawn


def test_polish_open_cards_and_the_seven_are_told(games):
    _, _, text, _, _, final = games("polish", 5, 0, {})
    rows = final.tolist()
    assert re.search(r"\n  seat 1's open cards: .+ \(new: .+\)\n", text)
    assert re.search(r"\n  your open cards: .+ \(new: .+\)\n", text)
    sevens = sum(r[0] == C.TR_EVENT and r[4] in (C.K_SEVEN_EXCHANGE, C.K_SEVEN_PLAYED)
                 for r in rows)
    assert sevens == text.count("the trick's 7") + text.count("the seven of trumps 7") > 0


def test_the_end_of_a_rubicon_game_is_told_to_you(tmp_path):
    """The settlement says "you" for the person's seat to the end, and says plainly who is
    rubiconed and what it costs; replay, which has no "you", still names seats."""
    ends = []
    for against, seed, you, hinted in (("expert", 7, 1, False), ("random", 3, 0, True)):
        out: list[str] = []

        def read(prompt, out=out, hinted=hinted):
            asked = re.match(r"hint \(expert\): (\d+)\) ", out[-1]) if hinted else None
            return asked.group(1) if asked else ("h" if hinted else "1")
        path = play_terminal(Rules.make("rubicon"), against, seed, you,
                             save=tmp_path / f"{seed}.json", read=read, write=out.append)
        saved = StepGame.load(path)
        info = saved.result().game_info[0]
        winner, stake = int(info[C.GI_WINNER]), int(info[C.GI_STAKE])
        end = out[next(i for i, x in enumerate(out) if x.startswith("game over:")):]
        assert info[C.GI_RUBICON] == 1 and winner in (0, 1)
        assert not [x for x in end if f"seat {you}" in x], end
        other = f"seat {1 - you}"
        if winner == you:
            assert f"  you win {int(info[C.GI_ROUNDED + you])} to " in "\n".join(end)
            assert any(x.startswith(f"  {other} is rubiconed: ") for x in end), end
            assert f"you rubiconed {other}: you win {stake} points" in end
        else:
            assert any(x.startswith("  you are rubiconed: ") for x in end), end
            assert f"you are rubiconed: you lose {stake} points to {other}" in end
        assert f"  stake {stake} = " in "\n".join(end)
        assert f"seat {1 - winner} is rubiconed: " in saved.transcript()
        ends.append(winner == you)
    assert ends == [False, True]          # rubiconed, then rubiconing


def test_copies_of_a_card_that_differ_say_where_each_lies(games):
    """Two copies of a card, one declared on the table and one concealed, are two moves
    saying which is which (the seat's own knowledge row says where each lies); copies
    alike are one move, unlabelled."""
    rules, screens, _, _, points, _ = games("ordinary", 5, 0, {})
    labelled = 0
    for screen, (_, S, _) in zip(screens[:-1], points, strict=True):
        if S[st.O_DECISION] != C.D_PLAY:
            continue
        places: dict[str, set] = {}
        for c in S[st.O_ACTS:st.O_ACTS + S[st.O_N_ACTS]]:
            places.setdefault(card_name(int(c)), set()).add(
                "declared, on the table" if S[st.O_SEEN + c] == C.V_MINE_SHOWN else "in hand")
        expected = sorted((name, where if len(found) > 1 else "")
                          for name, found in places.items() for where in found)
        shown = re.findall(r"\d+\) (\S+)(?: \(([^)]*)\))?", screen.splitlines()[-1])
        assert sorted(shown) == expected, screen.splitlines()[-1]
        labelled += sum(bool(where) for _, where in shown)
    assert labelled >= 2


def test_a_card_with_copies_that_differ_typed_by_name_asks_which(tmp_path):
    rules = Rules.make("ordinary")
    g = StepGame(rules, 5, 0, [None, "expert"])
    asked = 0
    while not any(m.name.endswith(" (in hand)") for m in menu(g)):
        moves = menu(g)
        asked += len(moves) > 1
        g.step(moves[0].index)
    moves = menu(g)
    n = [i for i, m in enumerate(moves, 1) if m.name.endswith("(declared, on the table)")]
    card = moves[n[0] - 1].actions[0].value
    typed = card_name(card).lower().replace("♦", "d").replace("♠", "s").replace(
        "♥", "h").replace("♣", "c")
    out: list[str] = []
    read, _ = scripted(["1"] * asked + [typed, str(n[0]), "q"])
    path = play_terminal(rules, "expert", 5, 0, save=tmp_path / "g.json", read=read,
                         write=out.append)
    both = " or ".join(f"{i}) {m.name}" for i, m in enumerate(moves, 1)
                       if m.actions[0].value & 31 == card & 31)
    assert f"'{typed}' is {both}: type its number" in out and "(in hand)" in both
    rows = StepGame.load(path).history().tolist()
    assert [r for r in rows if r[0] == C.TR_PLAY and r[3] == 0][-1][4] == card


class _Offer:
    """A play decision offering ``cards`` (card -> (seen code, declaration history)) to seat
    0, with what ``menu`` reads."""

    decision, seat = "play", 0

    def __init__(self, cards):
        self.S = np.zeros(st.S_BASE, np.int32)
        for c, (code, history) in cards.items():
            self.S[st.O_SEEN + c], self.S[st.O_HIST + c] = code, history
        self.cards = list(cards)

    def actions(self):
        return [Action(i, "card", c, card_name(c)) for i, c in enumerate(self.cards)]

    def view(self):
        return self.S


def test_the_menu_joins_copies_alike_and_tells_apart_those_that_differ():
    king, queen, ace = 8 + C.KING, 8 + C.QUEEN, C.ACE          # K♥, Q♥, A♠; +32: the copy
    offer = _Offer({queen + 32: (C.V_MINE_SHOWN, C.H_MARRIAGE), queen: (C.V_MINE, 0),
                    king: (C.V_MINE_SHOWN, C.H_MARRIAGE), king + 32: (C.V_MINE_SHOWN, C.H_FOUR),
                    ace: (C.V_MINE, 0), ace + 32: (C.V_MINE, 0)})
    moves = menu(offer)
    assert [m.name for m in moves] == [
        "A♠", "K♥ (declared in marriage, on the table)",
        "K♥ (declared in four of a kind, on the table)", "Q♥ (in hand)",
        "Q♥ (declared, on the table)"]
    assert [[a.value for a in m.actions] for m in moves] == [
        [ace, ace + 32], [king], [king + 32], [queen], [queen + 32]]


def test_a_forced_move_is_played_and_said_in_one_line(games):
    """A decision with one move is not asked: it is played, told in one line, and saved
    like any other; the game is the one typed move by move."""
    rules, screens, text, path, points, final = games("rubicon", 5, 1, {})
    g = StepGame(rules, 5, 0, ["expert", None])
    forced = []
    while not g.over:
        moves = menu(g)
        if len(moves) == 1:
            forced.append(moves[0].name)
        g.step(moves[0].index)
    assert len(forced) >= 2
    assert re.findall(r"^only one legal card: you play (\S+)$", text, re.M) == forced
    assert len(saved_json(path)["decisions"]) == len(points) + len(forced)
    assert StepGame.load(path).history().tolist() == final.tolist()


def test_play_help_names_every_built_in_policy(monkeypatch):
    from bezsim.policy_specs import registry

    def against() -> str:
        text = " ".join(CliRunner().invoke(cli, ["play", "--help"]).output.split())
        return text[text.index("--against"):text.index("--seed")]
    assert "learned" in registry.POLICY_NAMES
    assert f"({', '.join(registry.POLICY_NAMES)})" in against()
    monkeypatch.setattr(registry, "POLICY_NAMES", (*registry.POLICY_NAMES, "newcomer"))
    assert ", search, newcomer)" in against()


# --- the prompt ------------------------------------------------------------------------------

def test_a_whole_game_typed_move_by_move_is_saved_and_replayed(tmp_path):
    rules = Rules.make("rubicon")
    out = []
    read, prompts = scripted(["1"] * 500)
    path = play_terminal(rules, "expert", 7, 1, save=tmp_path / "g.json", read=read,
                         write=out.append)
    text = "\n".join(out)
    assert "game over:" in text and "winner:" in text and f"saved to {path}" in text
    saved = StepGame.load(path)
    s0, s1 = saved.scores()
    assert saved.over and f"game over: seat 0 {s0}  you {s1}" in text
    # the first move typed each time: replaying the saved decisions gives the same game
    again = StepGame(rules, 7, 0, ["expert", None])
    while not again.over:
        again.step(ordered(again)[0].index)
    assert again.scores() == saved.scores()
    result = CliRunner().invoke(cli, ["replay", "--saved", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("bezsim replay | variant rubicon")
    assert "seat 0 expert" in result.output and "seat 1 open" in result.output
    assert result.output == saved.transcript()


def test_bad_input_gets_a_reason_and_the_prompt_again(tmp_path):
    out = []
    read, prompts = scripted(["zz", "9", "0", "?", "h", "q"])
    play_terminal(Rules.make("ordinary"), "expert", 7, 0, save=tmp_path / "g.json",
                  read=read, write=out.append)
    text = "\n".join(out)
    assert text.count("is not one of the moves: type 1 to 8") == 3
    assert "hint (expert): " in text and "r  resign" in text
    assert len(prompts) == 6 and all(p.startswith("your card [1-8") for p in prompts)
    assert "game left unfinished; saved to" in text and "bezsim play --load " in text
    data = saved_json(tmp_path / "g.json")
    assert data["decisions"] == [] and data["seed"] == 7 and data["policies"][0] is None
    assert data["resigned"] is False and data["over"] is False


def test_a_card_may_be_typed_by_name_and_the_end_of_input_saves(tmp_path):
    rules = Rules.make("ordinary")
    g = StepGame(rules, 7, 0, [None, "expert"])
    first = sorted(g.actions(), key=lambda a: (a.value & 31, a.value))[2]
    name = first.name.replace("♠", "s").replace("♥", "h").replace("♦", "d").replace("♣", "c")
    out = []
    read, _ = scripted([name])
    path = play_terminal(rules, "expert", 7, 0, save=tmp_path / "g.json", read=read,
                         write=out.append)
    saved = StepGame.load(path)
    assert not saved.over and len(saved_json(path)["decisions"]) == 1
    assert saved.seat == 0


def test_resigning_asks_first_and_is_recorded(tmp_path):
    out = []
    read, prompts = scripted(["2", "r", "n", "r", "", "1", "r", "y"])
    path = play_terminal(Rules.make("polish"), "greedy", 3, 0, save=tmp_path / "g.json",
                         read=read, write=out.append)
    assert prompts.count("resign this game? [y/N] ") == 3
    assert out.count("not resigned: the game goes on") == 2
    assert "you resigned" in out[-1]
    data = saved_json(path)
    assert data["resigned"] is True and data["over"] is False and len(data["decisions"]) == 2


def test_replay_saved_prints_an_unfinished_game_so_far(tmp_path):
    screens, _, path = play_screens("ordinary", 5, 0, "expert", ["1"] * 12 + ["q"], tmp_path)
    g = StepGame.load(path)
    trick = g.observation()["trick_number"]
    result = CliRunner().invoke(cli, ["replay", "--saved", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("bezsim replay | variant ordinary")
    assert lines[-1] == f"Game unfinished: left at hand 1, trick {trick}, seat 0 to play"
    assert "Hand 1 | dealer: seat 1 | trumps ♣ (turn-up K♣)" in result.output
    assert len([x for x in lines if re.match(r"^\s+trick\s+\d+: .* wins$", x)]) == trick - 1
    assert "seat 1 dealt: " in result.output                  # every card shown
    read, _ = scripted(["r", "y"])
    continue_terminal(path, read=read, write=lambda s: None)
    resigned = CliRunner().invoke(cli, ["replay", "--saved", str(path)])
    assert resigned.exit_code == 0 and resigned.output.splitlines()[-1] == (
        f"Game unfinished: seat 0 resigned at hand 1, trick {trick}")


def test_a_game_left_and_continued_is_the_game_played_in_one_go(tmp_path):
    rules = Rules.make("ordinary")
    whole = play_terminal(rules, "expert", 11, 1, save=tmp_path / "whole.json",
                          read=scripted(["1"] * 500)[0], write=lambda s: None)
    left = play_terminal(rules, "expert", 11, 1, save=tmp_path / "left.json",
                         read=scripted(["1"] * 30 + ["q"])[0], write=lambda s: None)
    assert saved_json(left)["over"] is False
    out: list[str] = []
    again = continue_terminal(left, read=scripted(["1"] * 500)[0], write=out.append)
    assert again == left and "continuing " in out[0] and "game over:" in "\n".join(out)
    assert "only one legal card: you play " in "\n".join(out)     # taken up, unasked
    a, b = saved_json(whole), saved_json(left)
    assert a["decisions"] == b["decisions"] and b["over"] is True
    assert StepGame.load(whole).scores() == StepGame.load(left).scores()
    # the first screen after continuing tells the last trick again, then the table
    assert re.match(r"^  trick \d+: ", out[2]), out[:4]


def test_play_load_on_the_command_line(tmp_path):
    path = tmp_path / "g.json"
    first = CliRunner().invoke(cli, ["play", "--variant", "polish", "--seed", "4", "--seat",
                                     "1", "--save", str(path)], input="1\n1\nq\n")
    assert first.exit_code == 0, first.output
    other = tmp_path / "other.json"
    more = CliRunner().invoke(cli, ["play", "--load", str(path), "--save", str(other),
                                    "--hint", "greedy"], input="h\n1\nq\n")
    assert more.exit_code == 0, more.output
    assert "you are seat 1" in more.output and "hint (greedy): " in more.output
    assert len(saved_json(other)["decisions"]) == 3
    assert len(saved_json(path)["decisions"]) == 2
    for args, message in (
            (["--seed", "4"], "--seed cannot be combined with --load"),
            (["--variant", "polish"], "--variant cannot be combined with --load"),
            (["--seat", "1"], "--seat cannot be combined with --load"),
            (["--against", "random"], "--against cannot be combined with --load")):
        bad = CliRunner().invoke(cli, ["play", "--load", str(path), *args])
        assert bad.exit_code == 2 and message in bad.output, bad.output
    resign = CliRunner().invoke(cli, ["play", "--load", str(other)], input="r\ny\n")
    assert resign.exit_code == 0 and "you resigned" in resign.output
    refused = CliRunner().invoke(cli, ["play", "--load", str(other)])
    assert refused.exit_code == 2 and "the game was resigned" in refused.output


def test_the_command_plays_from_standard_input(tmp_path):
    save = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["play", "--variant", "three_handed", "--seed", "5",
                                      "--seat", "2", "--against", "greedy", "--save",
                                      str(save)], input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "you are seat 2" in result.output and save.is_file()
    bad = CliRunner().invoke(cli, ["play", "--seat", "3", "--seed", "1"])
    assert bad.exit_code != 0 and "--seat 3: ordinary has seats 0 to 1" in bad.output


def test_play_and_replay_number_hands_from_one(games):
    """The screens count hands and tricks from 1, and so does replay (the tables' hand ids
    count from 0)."""
    _, screens, text, path, _, final = games("ordinary", 5, 0, {})
    hands = int(final[final[:, 0] == C.TR_HAND_START][:, 1].max()) + 1
    assert hands >= 2
    shown = sorted({int(m) for m in re.findall(r"^hand (\d+) · ", text, re.M)})
    assert shown == list(range(1, hands + 1))
    assert re.findall(r"^  hand (\d+) over", text, re.M) == [str(h) for h in shown]
    replayed = CliRunner().invoke(cli, ["replay", "--saved", str(path)]).output
    assert re.findall(r"^Hand (\d+) \|", replayed, re.M) == [str(h) for h in shown]
    assert screens[0].splitlines()[2].startswith("  hand 1: seat 1 deals")
