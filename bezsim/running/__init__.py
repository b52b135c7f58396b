"""Running many games: a run planned in shards (``simulation``), each shard played and written
(``shard_work``), on local threads or a Dask cluster (``dask_cluster``), with a faulting
plug-in policy named instead of crashing the run (``faults``)."""
