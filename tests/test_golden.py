"""Golden regressions: for fixed seeds, the SHA-256 digest of every variant's three
tables is stored here, so any change to what the engine plays or what the io layer writes is
seen, and must be deliberate.

The digests go through the whole path a user's run takes: rules -> engine -> tables ->
Parquet shards -> ``read_run``; they cover column names, stored types, nulls and values
(bezsim/io/digest.py), not the Parquet encoding.

To regenerate after a deliberate change (a rule fix, a changed random stream, a new column),
run ``python tests/test_golden.py``, paste the block it prints over ``GOLDEN`` below, and say
in the commit message why the tables changed.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bezsim.io.digest import frame_digest, run_digests, stored_schema
from bezsim.io.reader import read_run
from bezsim.rules import Rules
from bezsim.running.simulation import run_simulation

SEED = 2024
GAMES = 36
SHARD_SIZE = 16          # three shards (16, 16, 4): shard joins are part of what is pinned
REGENERATE = "python tests/test_golden.py"

# (variant, policies) -> digests of (hands, games, declarations); one policy is every seat's
GOLDEN: dict[tuple[str, str], dict[str, str]] = {
    ("ordinary", "random"): {
        "hands": "41e1ad181f4476cbe9cc75cf38c8a148329dd570132759bdbf1bbaf3d1db3c93",
        "games": "f0205c04622985b7a879d57720096201d2f90b43cae028d136c515d6d714f003",
        "declarations": "2f64ee810c8d706c7c8ebc0cc9e50ab02b922cbf96dd4a84aab7d77946abff26",
    },
    ("three_handed", "random"): {
        "hands": "ec5b05c614ba0dfa0c7cef99ff247f6504706a3a8d08f4078362f2d5d8c0f3d9",
        "games": "1ff1421ba211a7ef82fd3cdd7d2854301fac8a9fdb1c15259f503e197b099d3d",
        "declarations": "8ad082ff1e845283a883aaf95d084b827bf8522c5140ef76dc402a070cee20cb",
    },
    ("four_handed", "random"): {
        "hands": "858966fd8e71b1b84c47b87e1e7e83aebacaee3fdc70ac6b56d6cb8b54a0df22",
        "games": "c1da3c01b12061a9ca9f8fb81af499c17e7aeacf5c8962ac59a0263516dd34e8",
        "declarations": "4f938d4589c600d545f446a21986f0f29b42a2a2c46cbfc493bcd13692509cc0",
    },
    ("four_handed_partners", "random"): {
        "hands": "d417136d114cc966214a2e64831b443d732dfd6c9ead9dfdcdb7812a1422fb6b",
        "games": "a26581cc0090b2bb1d088b022b942dd76635247b27e3f61e46d4466316d33fc1",
        "declarations": "9f088122be35853e2eb340d03938335f91d92d1fc911b8c25a73ae2d7cf6f085",
    },
    ("polish", "random"): {
        "hands": "54dd844d802e3072ec57c172de64fc27fce2e520d7a80ca5fbe65655426d82cd",
        "games": "92c1754b38b9c2eb69befd9ed6fcb1ff550d000641bb0b31450086fa7fd9c2ce",
        "declarations": "869d3c5d2acfec8297ab98627265dd8557e2598782e722c3644b65f63cff15b0",
    },
    ("rubicon", "random"): {
        "hands": "0d22cb609f474e712223714ff834fb7a877c8498d38cc18db952de120af7502a",
        "games": "6b3989f9dcc813669681190c35deb0450c158cf08f663c1ab9a961a2dd3db686",
        "declarations": "33f5486f307785df781384a8a4a3d0b617ddb4ec11882d099be286e847f3448c",
    },
    ("ordinary", "greedy,heuristic"): {
        "hands": "84ec2b8ba559810549e96e885934c9ac44251f3c8389d2c2518484cadc224fb7",
        "games": "8ba7f16f575e53718488d7720003c1bdc91c6d84125a45f2c4891ca89402f5f4",
        "declarations": "2e008d90a1ad65b84305136f4df27875c60acb9ebcb7ba483fa301d66d9d413e",
    },
    ("four_handed_partners", "heuristic,greedy,heuristic,greedy"): {
        "hands": "c4e9e212e1ecdd26b36660e29b2316495ef9d996763c81a345ce067ac871c05a",
        "games": "259bccca5420dca8e9da8bf90c6039d095bd91fccf5972284c980fdcdb37d635",
        "declarations": "ce32e02ff3a39a09be7f9c2040919334ea9258506b95bc68dfec79bb68591e40",
    },
    ("six_pack", "random"): {
        "hands": "ea501591a5cb154e161ee9da352fa92ebdc7fe56dd624ac61715e426deaffd1b",
        "games": "7d9b197cc3764b47da624ff2753a7a1620749cea923a9ef6307fc84ca898c939",
        "declarations": "57441c23d7b24de089998d013e32bc3821291adb54c11ec670cf15de9f2c55e8",
    },
    ("six_pack", "heuristic,greedy"): {
        "hands": "3d79b4679cf11ae087915b23c0edb050f3efa752fa51d799e7c2d147b77ae140",
        "games": "46a2d7e70466949d5e84526eae60d8ae2845c31ba839f87ddb075f0880132d8d",
        "declarations": "154ff2481b0cc54bf3eebfd5857bdeee1e29b2889cde35c44b4674b23616e613",
    },
    ("rubicon", "heuristic,greedy"): {
        "hands": "e1bedc9d6b69b6249dd899bf1f930bde6a874436d7cdb5dc9cfee6d365256006",
        "games": "476fb37aed0ec74d5dce2ad8b3bb44f1d2e9811d0b2de75b406d503d4726892e",
        "declarations": "daf13dc9582d6cb39ef5be3786e9b688ed8b4b66ac6dd864e2093ec0823c3e51",
    },
    ("ordinary", "expert"): {
        "hands": "d0d8e43756c9bc8d33a6a8435273432312fb3f4d91f9ca19de6ce0d17cc6fac0",
        "games": "778c4e0b267ac935ffc28eb3fc2e90bca55717ae10ae2b4bb75f6a18cec25b20",
        "declarations": "e46520e7b51b27196631e3868f72a44d51d6b27129acde93ff9a030a40626bbc",
    },
    ("three_handed", "expert"): {
        "hands": "5f4e8ec26371c56da711fa321912a18ae0d231b2b41f035026c7acac2023af76",
        "games": "cd8c2cfd6a63330364c57f8e1dc6ecdd846e9d4f03238fe5e56f262f55c36afa",
        "declarations": "0599ff9d4b9c5edafc0913ee952d57198b47ec778d1aae869ebcc46eae76ef00",
    },
    ("four_handed", "expert"): {
        "hands": "b220aded4f8ab6f751fc2317d3ba2e7ab713c9099d21e5281ff25a16e50b4b02",
        "games": "d2166e98dd4ee7896b23139eed4ef49353711e40d6c3b63278c14fa625977793",
        "declarations": "c2cc2f937d018830800b45e86ebb20341a451fe42ce887eaca11cde3f7f5893e",
    },
    ("four_handed_partners", "expert"): {
        "hands": "05cd41be95f1e3e9f1e3466e26a432dd632b693d3e3411f02fab589b67d670da",
        "games": "a70a7c50b3d1e55efc86982e8865612f14dff31fcc51fc1c37eac2029b60e5db",
        "declarations": "05bbd0247f8731a639f97268507e6af56cde3cbbff49d15756135fe817fae215",
    },
    ("polish", "expert"): {
        "hands": "edd1ec24b99511be5646789a46fc5531d07aac81baa5a5b5caa360c5c3270b48",
        "games": "e16a5be25d9c8894f1ec3ed688e4453b48a9413031513f0fa9b34e2fa500ed0b",
        "declarations": "870031f154b4ea338dce99c7ca7b07fb046b5ec7a1d289e62469b11d03b3fa0e",
    },
    ("rubicon", "expert"): {
        "hands": "e0a28865ebc75ff12cb552ee4417d3dbff587feb1d1e27387470cbaf4854a095",
        "games": "53e9799122c9cdce07aafc051183cb487e334e9996ec1399700bceb1e1e24367",
        "declarations": "f35a37e174fe084672ac5f600168f22bcc3a9f679837b7cc752c8fe2216db3e5",
    },
}


def play(variant: str, policies: str, out: Path, threads: int = 1,
         shard_size: int = SHARD_SIZE) -> dict[str, str]:
    rules = Rules.make(variant, {})
    seats = policies.split(",")
    seats = seats * rules.players if len(seats) == 1 else seats
    run_simulation(rules, seats, SEED, GAMES, out, threads=threads, shard_size=shard_size,
                   progress=False)
    return run_digests(out)


def _entry(case: tuple[str, str], digests: dict[str, str]) -> str:
    """One case of the GOLDEN block, as source to paste."""
    lines = [f'    ("{case[0]}", "{case[1]}"): {{']
    lines += [f'        "{name}": "{digests[name]}",' for name in ("hands", "games",
                                                                  "declarations")]
    return "\n".join(lines + ["    },"])


def _mismatch(case: tuple[str, str], changed: list[str], digests: dict[str, str]) -> str:
    variant, policies = case
    return (
        f"golden tables changed: variant {variant}, policies {policies}, seed {SEED}, "
        f"{GAMES} games: table(s) {', '.join(changed)} differ from the stored digests.\n"
        "The engine's output for a fixed seed may only change deliberately: a rule fix or a "
        "changed random stream (or a schema change in the io layer), explained in the commit "
        "message. If that is what happened, regenerate every digest with\n"
        f"    {REGENERATE}\n"
        "and paste the GOLDEN block it prints over the one in tests/test_golden.py (this "
        f"case's new entry:\n{_entry(case, digests)}\n). If it was not meant, a change in the "
        "engine, rules, policies or io layer altered the games: compare the tables of this "
        "run before and after it (bezsim.io.read_run)."
    )


@pytest.mark.parametrize("case", list(GOLDEN), ids=lambda c: f"{c[0]}-{c[1]}")
def test_tables_match_their_golden_digests(case, tmp_path):
    digests = play(*case, tmp_path / "run")
    changed = [name for name, want in GOLDEN[case].items() if digests[name] != want]
    assert not changed, _mismatch(case, changed, digests)


def test_digests_ignore_threads_and_shard_size(tmp_path):
    """The digest is of the games, not of how the run was cut: two threads and shards of 7
    give the stored ordinary digests."""
    case = ("ordinary", "random")
    assert play(*case, tmp_path / "run", threads=2, shard_size=7) == GOLDEN[case]


def test_digest_ignores_parquet_encoding_but_not_content(tmp_path):
    """Rewriting every file without compression or dictionaries, in small row groups, keeps
    the digests; one changed value, a null, or a changed column type changes them."""
    out = tmp_path / "run"
    digests = play("polish", "random", out)
    for path in out.glob("*/part-*.parquet"):
        table = pq.read_table(path)
        pq.write_table(table, path, compression="none", use_dictionary=False,
                       row_group_size=50)
    assert run_digests(out) == digests

    declarations = read_run(out)["declarations"]
    schema = stored_schema(out, "declarations")
    assert frame_digest(declarations, schema) == digests["declarations"]
    for column, row, value in (("points", 5, None), ("kind", 0, "bezique"),
                               ("game_id", len(declarations) - 1, 99)):
        changed = declarations.copy()
        if value is None:
            value = changed.at[row, column] + 10
        elif column == "kind" and changed.at[row, column] == value:
            value = "last_trick"
        changed.at[row, column] = value
        assert frame_digest(changed, schema) != digests["declarations"], column
    null_row = int(declarations["compound_id"].notna().idxmax())
    nulled = declarations.copy()
    nulled.at[null_row, "compound_id"] = None
    assert frame_digest(nulled, schema) != digests["declarations"]
    wider = schema.set(schema.get_field_index("points"), pa.field("points", pa.int64()))
    assert frame_digest(declarations, wider) != digests["declarations"]
    reordered = declarations.iloc[::-1].reset_index(drop=True)
    assert frame_digest(reordered, schema) != digests["declarations"]
    assert isinstance(declarations["kind"].dtype, pd.CategoricalDtype)


def regenerate() -> str:
    """The GOLDEN block for the current engine, to paste over the one above."""
    with tempfile.TemporaryDirectory() as tmp:
        entries = [_entry(case, play(*case, Path(tmp) / f"run-{i}"))
                   for i, case in enumerate(GOLDEN)]
    return "GOLDEN: dict[tuple[str, str], dict[str, str]] = {\n" + "\n".join(entries) + "\n}"


if __name__ == "__main__":
    print(regenerate())
