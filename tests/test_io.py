"""io layer: schemas, batch -> tables, atomic shards, manifest, readers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import pack_event

from bezsim.engine import constants as C
from bezsim.engine_api.games import GameBatch
from bezsim.errors import BezsimError
from bezsim.io import manifest as mf
from bezsim.io import shards
from bezsim.io.reader import read_run
from bezsim.io.schema import declarations_schema, games_schema, hands_schema, table_schemas
from bezsim.io.tables import batch_to_tables
from bezsim.rules import Rules

DICT8 = pa.dictionary(pa.int8(), pa.string())
POLICIES = ["random", "greedy"]


def _kinds(**points: int) -> np.ndarray:
    row = np.zeros(C.N_KINDS, dtype=np.int32)
    for name, value in points.items():
        row[C.KIND_NAMES.index(name)] = value
    return row


def _seat(kinds: np.ndarray, score_after: int, tricks: int,
          declared: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    """A hand_seat row; ``declared`` is (combinations, declaring tricks, compounds)."""
    brisques = kinds[C.K_BRISQUES]
    return np.concatenate([[kinds.sum(), score_after, tricks, *declared, brisques, 0],
                           kinds]).astype(np.int32)


def handmade_batch() -> GameBatch:
    """Games 40 (two hands) and 41 (one hand); junk (999) everywhere past the counts."""
    hand_seat = np.full((2, 3, 2, C.HS_SIZE), 999, dtype=np.int32)
    hand_info = np.full((2, 3, C.HI_SIZE), 999, dtype=np.int32)
    info = np.zeros((2, C.GI_SIZE), dtype=np.int64)
    events = np.full((2, 4), 999, dtype=np.int64)

    hand_seat[0, 0, 0] = _seat(_kinds(common_marriage=20, brisques=80, last_trick=10), 110, 9,
                               (1, 1, 0))
    hand_seat[0, 0, 1] = _seat(_kinds(bezique=40, brisques=80), 120, 7, (1, 1, 0))
    hand_seat[0, 1, 0] = _seat(_kinds(brisques=100), 210, 10)
    hand_seat[0, 1, 1] = _seat(_kinds(brisques=60, last_trick=10), 190, 6)
    hand_seat[1, 0, 0] = _seat(_kinds(four_aces=100, brisques=90), 190, 11, (1, 1, 0))
    hand_seat[1, 0, 1] = _seat(_kinds(brisques=70, last_trick=10), 80, 5)
    # dealer, trump, turn-up (39 = 7♠ of pack 1; -1 = none), winners, the trick that fixed
    # trumps (0: the turn-up at the deal)
    hand_info[0, 0] = [1, C.DIAMONDS, 39, 0, 0, 0]
    hand_info[0, 1] = [0, C.HEARTS, -1, 1, 1, 12]
    hand_info[1, 0] = [0, C.CLUBS, 13, 0, 1, 0]

    info[0, [C.GI_HANDS, C.GI_FIRST_DEALER, C.GI_WINNER, C.GI_DOUBLE, C.GI_STAKE,
             C.GI_N_EVENTS]] = [2, 1, 0, 0, 1, 3]
    info[0, C.GI_SCORE:C.GI_SCORE + 2] = [210, 190]
    info[1, [C.GI_HANDS, C.GI_FIRST_DEALER, C.GI_WINNER, C.GI_DOUBLE, C.GI_STAKE,
             C.GI_N_EVENTS]] = [1, 0, 0, 1, 2, 2]
    info[1, C.GI_SCORE:C.GI_SCORE + 2] = [190, 80]

    events[0, 0] = pack_event(0, 0, 0, C.K_COMMON_MARRIAGE, C.EV_SCORED, C.DIAMONDS + 1, 20)
    events[0, 1] = pack_event(0, 5, 1, C.K_BEZIQUE, C.EV_SCORED_PENDING, 0, 40)
    events[0, 2] = pack_event(1, 17, 0, C.K_BRISQUES, C.EV_SCORED, 0, 100)
    events[1, 0] = pack_event(0, 3, 0, C.K_FOUR_ACES, C.EV_SCORED, 0, 100)
    events[1, 1] = pack_event(0, 9, 1, C.K_ROYAL_MARRIAGE, C.EV_LOST, C.CLUBS + 1, 0)
    return GameBatch(40, 2, hand_seat, hand_info, info, events)


# --- schemas ---------------------------------------------------------------------------------

def test_hands_schema_types():
    schema = hands_schema()
    assert schema.names[:12] == ["game_id", "hand", "seat", "team", "policy", "dealer", "trump",
                                 "turnup", "trump_trick", "points", "score_after",
                                 "tricks_won"]
    assert [schema.field(n).type for n in ("game_id", "hand", "seat", "team", "dealer",
                                           "trump_trick", "points", "score_after",
                                           "tricks_won")] == [
        pa.int64(), pa.int16(), pa.int8(), pa.int8(), pa.int8(), pa.int16(), pa.int32(),
        pa.int32(), pa.int16()]
    assert schema.field("trump_trick").nullable and not schema.field("hand").nullable
    for name in ("policy", "trump", "turnup"):
        assert schema.field(name).type == DICT8
    kind_columns = [n for n in schema.names if n.startswith("pts_")]
    # the fours in trumps only in six-pack (R7.3), whose schema has every kind
    assert kind_columns == [f"pts_{k}" for k in C.KIND_NAMES[:C.N_BASE_KINDS]]
    assert [n for n in hands_schema(C.N_KINDS).names if n.startswith("pts_")] == [
        f"pts_{k}" for k in C.KIND_NAMES]
    assert {"pts_common_marriage", "pts_brisques", "pts_last_trick"} <= set(kind_columns)
    assert all(schema.field(n).type == pa.int32() for n in kind_columns)


def test_games_and_declarations_schema_types():
    games = games_schema(2)
    assert games.names == ["game_id", "first_dealer", "hands", "winner", "score_0", "score_1",
                           "double_game", "stake", "rubicon", "rounded_0", "rounded_1",
                           "brisques_0", "brisques_1", "policy_0", "policy_1"]
    assert [f.type for f in games] == [pa.int64(), pa.int8(), pa.int16(), pa.int8(), pa.int32(),
                                       pa.int32(), pa.bool_(), pa.int32(), pa.bool_(),
                                       pa.int32(), pa.int32(), pa.int32(), pa.int32(),
                                       DICT8, DICT8]
    decl = declarations_schema()
    assert decl.names == ["game_id", "hand", "trick", "seat", "kind", "points", "status", "suit",
                          "compound_id", "compound_size"]
    assert [f.type for f in decl] == [pa.int64(), pa.int16(), pa.int16(), pa.int8(), DICT8,
                                      pa.int32(), DICT8, DICT8, pa.int16(), pa.int8()]
    assert set(table_schemas(3)["games"].names) >= {"score_2", "policy_2"}


# --- batch -> tables -------------------------------------------------------------------------

def test_tables_have_exact_values():
    tables = batch_to_tables(handmade_batch(), POLICIES)
    assert tables["hands"].schema == hands_schema()
    hands = tables["hands"].to_pandas()
    got = hands[["game_id", "hand", "seat", "policy", "dealer", "trump", "turnup", "points",
                 "score_after", "tricks_won", "pts_common_marriage", "pts_brisques",
                 "pts_last_trick", "pts_four_aces"]].astype(object).where(hands.notna(), None)
    assert [tuple(r) for r in got.itertuples(index=False)] == [
        (40, 0, 0, "random", 1, "♦", "7♠", 110, 110, 9, 20, 80, 10, 0),
        (40, 0, 1, "greedy", 1, "♦", "7♠", 120, 120, 7, 0, 80, 0, 0),
        (40, 1, 0, "random", 0, "♥", None, 100, 210, 10, 0, 100, 0, 0),
        (40, 1, 1, "greedy", 0, "♥", None, 70, 190, 6, 0, 60, 10, 0),
        (41, 0, 0, "random", 0, "♣", "9♥", 190, 190, 11, 0, 90, 0, 100),
        (41, 0, 1, "greedy", 0, "♣", "9♥", 80, 80, 5, 0, 70, 10, 0),
    ]
    assert hands["pts_bezique"].tolist() == [0, 40, 0, 0, 0, 0]
    assert hands["trump_trick"].tolist() == [0, 0, 12, 12, 0, 0]
    assert hands["combinations"].tolist() == [1, 1, 0, 0, 1, 0]
    assert hands["declaring_tricks"].tolist() == [1, 1, 0, 0, 1, 0]
    assert hands["compounds"].tolist() == [0] * 6

    games = tables["games"].to_pandas()
    assert games.to_dict("list") == {
        "game_id": [40, 41], "first_dealer": [1, 0], "hands": [2, 1], "winner": [0, 0],
        "score_0": [210, 190], "score_1": [190, 80], "double_game": [False, True],
        "stake": [1, 2], "rubicon": [False, False], "rounded_0": [0, 0], "rounded_1": [0, 0],
        "brisques_0": [0, 0], "brisques_1": [0, 0],
        "policy_0": ["random", "random"], "policy_1": ["greedy", "greedy"]}

    decl = tables["declarations"].to_pandas().astype(object)
    decl = decl.where(decl.notna(), None)
    assert [tuple(r) for r in decl.itertuples(index=False)] == [
        (40, 0, 0, 0, "common_marriage", 20, "scored", "♦", 0, 1),
        (40, 0, 5, 1, "bezique", 40, "scored_pending", None, 1, 1),
        (40, 1, 17, 0, "brisques", 100, "scored", None, None, None),
        (41, 0, 3, 0, "four_aces", 100, "scored", None, 0, 1),
        (41, 0, 9, 1, "royal_marriage", 0, "lost", "♣", None, None),
    ]


def _declarations_of(events_by_game: list[list[int]], hands: list[int]):
    """The declarations table (pandas) of two-player games with these packed events."""
    n = len(events_by_game)
    events = np.zeros((n, max(map(len, events_by_game)) + 1), dtype=np.int64)
    for g, game_events in enumerate(events_by_game):
        events[g, :len(game_events)] = game_events
    info = np.zeros((n, C.GI_SIZE), dtype=np.int64)
    info[:, C.GI_HANDS] = hands
    info[:, C.GI_N_EVENTS] = [len(e) for e in events_by_game]
    batch = GameBatch(0, 2, np.zeros((n, max(hands), 2, C.HS_SIZE), np.int32),
                      np.zeros((n, max(hands), C.HI_SIZE), np.int32), info, events)
    return batch_to_tables(batch, POLICIES)["declarations"].to_pandas()


def test_combinations_of_one_trick_form_one_compound():
    """R5.2: every combination scored on one trick won is one (compound) declaration."""
    decl = _declarations_of([
        [pack_event(0, 4, 1, C.K_BRISQUES, C.EV_SCORED, 0, 20),
         pack_event(0, 4, 1, C.K_ROYAL_MARRIAGE, C.EV_SCORED, C.SPADES + 1, 40),
         pack_event(0, 4, 1, C.K_FOUR_KINGS, C.EV_SCORED, 0, 80),
         pack_event(0, 4, 1, C.K_SEQUENCE, C.EV_SCORED, 0, 250),
         pack_event(0, 6, 0, C.K_BEZIQUE, C.EV_SCORED, 0, 40)],
        [pack_event(0, 2, 0, C.K_FOUR_ACES, C.EV_SCORED, 0, 100),
         pack_event(1, 2, 0, C.K_FOUR_JACKS, C.EV_SCORED, 0, 40)],
    ], hands=[1, 2])
    assert decl["compound_id"].fillna(-1).tolist() == [-1, 0, 0, 0, 1, 0, 1]
    assert decl["compound_size"].fillna(-1).tolist() == [-1, 3, 3, 3, 1, 1, 1]


def test_compounds_skip_other_events_and_lost_combinations_and_restart_each_game():
    """A brisque between two combinations of one trick does not split their compound; a
    lost combination (never scored) belongs to none; the same trick and seat in another
    hand is another compound; compound ids restart at 0 in every game."""
    decl = _declarations_of([
        [pack_event(0, 4, 1, C.K_FOUR_KINGS, C.EV_SCORED, 0, 80),
         pack_event(0, 4, 1, C.K_BRISQUES, C.EV_SCORED, 0, 10),
         pack_event(0, 4, 1, C.K_FOUR_QUEENS, C.EV_SCORED, 0, 60),
         pack_event(0, 5, 0, C.K_BEZIQUE, C.EV_LOST, 0, 0),
         pack_event(0, 6, 0, C.K_COMMON_MARRIAGE, C.EV_SCORED_PENDING, C.HEARTS + 1, 20),
         pack_event(1, 4, 1, C.K_FOUR_JACKS, C.EV_SCORED, 0, 40),
         pack_event(1, 4, 1, C.K_LAST_TRICK, C.EV_SCORED, 0, 10)],
        [pack_event(0, 1, 1, C.K_BRISQUES, C.EV_SCORED, 0, 10),
         pack_event(0, 2, 1, C.K_FOUR_ACES, C.EV_SCORED, 0, 100),
         pack_event(0, 2, 1, C.K_BEZIQUE, C.EV_SCORED, 0, 40)],
    ], hands=[2, 1])
    assert decl["compound_id"].fillna(-1).tolist() == [0, -1, 0, -1, 1, 2, -1, -1, 0, 0]
    assert decl["compound_size"].fillna(-1).tolist() == [2, -1, 2, -1, 1, 1, -1, -1, 2, 2]
    assert decl["suit"].isna().tolist() == [True] * 4 + [False] + [True] * 5


def test_tables_of_fake_engine_batch_match_arrays(fake_engine, rules):
    batch = fake_engine.batch(rules, POLICIES, 3, 1000, 60)
    tables = batch_to_tables(batch, POLICIES)
    n_hands = batch.game_info[:, C.GI_HANDS]
    assert tables["hands"].num_rows == 2 * n_hands.sum()
    assert tables["games"].num_rows == 60
    assert tables["declarations"].num_rows == batch.game_info[:, C.GI_N_EVENTS].sum()
    hands = tables["hands"].to_pandas()
    # hand points are the sum of the kind columns, and no junk row leaked in
    kind_sum = hands[[f"pts_{k}" for k in C.KIND_NAMES[:C.N_BASE_KINDS]]].sum(axis=1)
    assert (kind_sum == hands["points"]).all()
    assert hands["points"].max() < 7777
    last = hands.groupby(["game_id", "seat"])["score_after"].last().unstack()
    games = tables["games"].to_pandas().set_index("game_id")
    assert (last[0] == games["score_0"]).all() and (last[1] == games["score_1"]).all()
    decl = tables["declarations"].to_pandas()
    assert set(decl["kind"].cat.categories) == set(C.KIND_NAMES[:C.N_BASE_KINDS])
    marriage = decl["kind"].isin(["common_marriage", "royal_marriage"])
    assert decl.loc[marriage, "suit"].notna().all()
    assert decl.loc[~marriage, "suit"].isna().all()


def test_overflow_is_refused():
    batch = handmade_batch()
    batch.game_info[1, C.GI_OVERFLOW] = 1
    with pytest.raises(RuntimeError, match=r"game\(s\) 41 overflowed"):
        batch_to_tables(batch, POLICIES)


# --- shards ----------------------------------------------------------------------------------

def _identity(seed: int = 7, **options) -> dict:
    return mf.run_identity(Rules.make("ordinary", options), POLICIES, seed, 100, 50)


def _write(out, index=3, seed=7):
    meta = shards.shard_metadata(_identity(seed), index, 40, 2)
    shards.write_shard(out, index, batch_to_tables(handmade_batch(), POLICIES), meta)
    return meta


def test_write_shard_files_and_metadata(tmp_path):
    meta = _write(tmp_path)
    paths = shards.shard_paths(tmp_path, 3)
    assert [p.relative_to(tmp_path).as_posix() for p in paths.values()] == [
        "hands/part-000003.parquet", "games/part-000003.parquet",
        "declarations/part-000003.parquet"]
    for path in paths.values():
        stored = json.loads(pq.read_schema(path).metadata[b"bezsim"])
        assert stored["run"]["seed"] == 7
        assert stored["shard"] == {"index": 3, "game_start": 40, "n_games": 2}
    assert pq.read_schema(paths["hands"]).field("policy").type == DICT8
    assert shards.shard_complete(tmp_path, 3, meta)
    assert not list(tmp_path.rglob(".*.tmp"))


def test_shard_complete_detects_missing_corrupt_or_foreign(tmp_path):
    meta = _write(tmp_path)
    paths = shards.shard_paths(tmp_path, 3)
    assert not shards.shard_complete(tmp_path, 4, meta)          # never written
    other = shards.shard_metadata(_identity(seed=8), 3, 40, 2)
    assert not shards.shard_complete(tmp_path, 3, other)         # another run's shard
    wrong_range = shards.shard_metadata(_identity(), 3, 40, 3)
    assert not shards.shard_complete(tmp_path, 3, wrong_range)
    data = paths["declarations"].read_bytes()
    paths["declarations"].write_bytes(data[: len(data) // 2])    # truncated footer
    assert not shards.shard_complete(tmp_path, 3, meta)
    _write(tmp_path)
    paths["games"].unlink()
    assert not shards.shard_complete(tmp_path, 3, meta)


def test_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    meta = _write(tmp_path)                                      # a good shard 3
    good = shards.shard_paths(tmp_path, 3)["hands"].read_bytes()

    def broken_write(table, where, **kwargs):
        where.write(b"PAR1 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", broken_write)
    tables = batch_to_tables(handmade_batch(), POLICIES)
    with pytest.raises(BezsimError, match="cannot write .*part-000003.parquet: No space left"):
        shards.write_shard(tmp_path, 3, tables, meta)
    with pytest.raises(BezsimError, match="part-000005.parquet"):
        shards.write_shard(tmp_path, 5, tables, meta)
    # the old file is untouched, the new one never appeared, no temporary is left
    assert shards.shard_paths(tmp_path, 3)["hands"].read_bytes() == good
    assert not shards.shard_paths(tmp_path, 5)["hands"].exists()
    assert not list(tmp_path.rglob(".*.tmp"))
    assert shards.shard_complete(tmp_path, 3, meta)


def test_stale_temporaries_removed(tmp_path):
    _write(tmp_path)
    stale = tmp_path / "hands" / ".part-000004.parquet.123.tmp"
    stale.write_bytes(b"junk")
    assert shards.remove_stale_temporaries(tmp_path) == 1
    assert not stale.exists()


# --- manifest --------------------------------------------------------------------------------

def test_manifest_new_resume_and_different(tmp_path):
    out = tmp_path / "run"
    identity = _identity(seed=5)
    assert mf.check_out_dir(out, identity) == "new"               # absent
    out.mkdir()
    assert mf.check_out_dir(out, identity) == "new"               # empty
    mf.write_manifest(out, mf.build_manifest(identity))
    assert mf.check_out_dir(out, identity) == "resume"
    with pytest.raises(BezsimError) as err:
        mf.check_out_dir(out, _identity(seed=7))
    assert f"output directory {out} holds a different run (seed 5, not 7)" in str(err.value)
    with pytest.raises(BezsimError, match=r"\(option target=1000, not 1500\)"):
        mf.check_out_dir(out, _identity(seed=5, target=1500))
    swapped = mf.run_identity(Rules.make(), ["greedy", "random"], 5, 100, 50)
    with pytest.raises(BezsimError, match=r"\(policies random,greedy, not greedy,random\)"):
        mf.check_out_dir(out, swapped)
    with pytest.raises(BezsimError, match=r"\(shard size 50, not 10\)"):
        mf.check_out_dir(out, mf.run_identity(Rules.make(), POLICIES, 5, 100, 10))


def test_manifest_contents(tmp_path):
    from bezsim.compile_cache import kernel_digest

    mf.write_manifest(tmp_path, mf.build_manifest(_identity(seed=5)))
    stored = json.loads((tmp_path / "manifest.json").read_text())
    assert stored["seed"] == 5 and stored["games"] == 100 and stored["shard_size"] == 50
    assert stored["policies"] == POLICIES
    assert stored["rules"] == Rules.make().to_dict()
    assert stored["bezsim_version"] == "0.1.0"
    assert stored["kernels"] == kernel_digest()
    assert set(stored["versions"]) >= {"numba", "numpy", "pyarrow", "python"}
    assert stored["versions"]["pyarrow"] == pa.__version__
    assert stored["created"].startswith("20")
    assert not list(tmp_path.glob(".*.tmp"))


def test_out_dir_with_foreign_files_or_a_file_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BezsimError, match="not empty and holds no bezsim run"):
        mf.check_out_dir(tmp_path, _identity())
    with pytest.raises(BezsimError, match="is not a directory"):
        mf.check_out_dir(tmp_path / "notes.txt", _identity())
    (tmp_path / "manifest.json").write_text("{broken")
    with pytest.raises(BezsimError, match="not valid JSON"):
        mf.check_out_dir(tmp_path, _identity())


# --- readers ---------------------------------------------------------------------------------

def test_pandas_reads_table_folders_directly(tmp_path, fake_engine, rules):
    identity = mf.run_identity(rules, POLICIES, 9, 30, 10)
    for k in range(3):
        batch = fake_engine.batch(rules, POLICIES, 9, 10 * k, 10)
        shards.write_shard(tmp_path, k, batch_to_tables(batch, POLICIES),
                           shards.shard_metadata(identity, k, 10 * k, 10))
    (tmp_path / "hands" / ".part-000003.parquet.1.tmp").write_bytes(b"crash leftover")

    hands = pd.read_parquet(tmp_path / "hands")
    whole = batch_to_tables(fake_engine.batch(rules, POLICIES, 9, 0, 30), POLICIES)
    assert len(hands) == whole["hands"].num_rows
    assert hands["game_id"].tolist() == whole["hands"].column("game_id").to_pylist()
    assert isinstance(hands["trump"].dtype, pd.CategoricalDtype)
    assert list(hands["trump"].cat.categories) == ["♠", "♥", "♦", "♣"]
    assert pd.read_parquet(tmp_path / "games")["game_id"].tolist() == list(range(30))

    run = read_run(tmp_path)
    assert set(run) == {"hands", "games", "declarations"}
    assert run["games"]["score_0"].tolist() == whole["games"].column("score_0").to_pylist()
    assert len(run["declarations"]) == whole["declarations"].num_rows


def test_read_run_on_empty_dir_is_a_user_error(tmp_path):
    with pytest.raises(BezsimError, match="no hands table"):
        read_run(tmp_path)


@pytest.mark.parametrize("field, value, message", [
    ("kind", 120, "event kind code 120"),
    ("status", 9, "event status code 9"),
    ("suit", 7, "event suit code 6"),
])
def test_engine_codes_outside_the_dictionaries_are_refused(field, value, message):
    """A corrupt engine row must stop the write, not become a wrong category or a null."""
    batch = handmade_batch()
    args = {"kind": C.K_BEZIQUE, "status": C.EV_SCORED, "suit": 0}
    args[field] = value
    batch.events[0, 0] = pack_event(0, 3, 0, args["kind"], args["status"], args["suit"], 40)
    with pytest.raises(RuntimeError, match=message):
        batch_to_tables(batch, POLICIES)


def test_trump_code_outside_the_suits_is_refused():
    batch = handmade_batch()
    batch.hand_info[0, 0, C.HI_TRUMP] = 4
    with pytest.raises(RuntimeError, match="trump code 4, outside 0..3"):
        batch_to_tables(batch, POLICIES)


def test_a_hand_without_trumps_has_no_trump_trick():
    """Rubicon (R6.2): a hand in which no marriage or sequence fixed trumps has a null trump
    and a null trump_trick, on its rows only."""
    batch = handmade_batch()
    batch.hand_info[0, 1, C.HI_TRUMP] = C.NO_TRUMP
    batch.hand_info[0, 1, C.HI_TRUMP_TRICK] = -1
    hands = batch_to_tables(batch, POLICIES)["hands"].to_pydict()
    assert hands["trump"] == ["♦", "♦", None, None, "♣", "♣"]
    assert hands["trump_trick"] == [0, 0, None, None, 0, 0]
