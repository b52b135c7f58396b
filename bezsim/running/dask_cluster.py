"""Shards as Dask tasks: the same run on a local Dask cluster or on an existing one.

Each task computes one shard (a pure function of rules, policies, seed and its game range)
and writes its three files itself, atomically, into an output directory every worker can
reach; the client only tracks which shards finished. So the tables equal a local run's
bit for bit, and an interrupted run resumes like a local one (finished shards are skipped).

Install with ``pip install 'bezsim[dask]'``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from bezsim.errors import BezsimError


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise BezsimError("--dask needs Dask: pip install 'bezsim[dask]'") from None
    return distributed


def check_target(target: str) -> None:
    """``local`` or a scheduler address; Dask installed. Checked before any file is written."""
    _import_distributed()
    if target != "local" and "://" not in target:
        raise BezsimError(f"--dask takes 'local' or a scheduler address like "
                          f"tcp://host:8786, got {target!r}")


@contextlib.contextmanager
def dask_client(target: str) -> Iterator[Any]:
    """``local``: a LocalCluster on this machine (one worker process; each shard uses all its
    cores through the engine's threads). Otherwise the address of a running scheduler,
    ``tcp://host:port``."""
    distributed = _import_distributed()
    if target == "local":
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as client:
            yield client
        return
    check_target(target)
    try:
        client = distributed.Client(target, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise BezsimError(f"cannot reach the Dask scheduler at {target}: {exc}") from None
    with client:
        yield client


def shard_task(rules_dict: dict[str, Any], policies: list[str], seed: int, index: int,
               game_start: int, n_games: int, out: str, identity: dict[str, Any],
               threads: int | None) -> int:
    """Run on a worker: compute one shard, write it; returns its hands."""
    from bezsim.rules import Rules
    from bezsim.running.shard_work import Shard, compute_shard, count_hands, write_tables

    rules = Rules.make(rules_dict["variant"], rules_dict["options"])
    shard = Shard(index, game_start, n_games)
    batches = compute_shard(rules, policies, seed, shard, threads, lambda n: None)
    write_tables(out, shard, batches, policies, identity)
    return count_hands(batches)


def run_shards(target: str, rules, policies: list[str], seed: int, todo: list, out,
               identity: dict[str, Any], threads: int | None,
               advance: Callable[[int], Any]) -> int:
    """Every shard of ``todo`` as a task on the cluster; returns the hands played. Ctrl-C
    cancels the tasks not yet finished (finished shards are on disk)."""
    distributed = _import_distributed()
    with dask_client(target) as client:
        futures = {client.submit(shard_task, rules.to_dict(), list(policies), seed, s.index,
                                 s.game_start, s.n_games, out.local_path(), identity,
                                 threads, key=f"bezsim-shard-{s.index}-{seed}",
                                 pure=False): s for s in todo}
        hands = 0
        try:
            for future in distributed.as_completed(futures):
                hands += future.result()
                advance(futures[future].n_games)
        except BaseException:
            client.cancel(list(futures))
            raise
    return hands
