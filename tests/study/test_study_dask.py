"""The Dask path: a LocalCluster with two worker processes gives the same rows as the local pool."""

from __future__ import annotations

from pathlib import Path

import pytest

from yukon.study import runner

from .helpers import rows, run_cli, status_by_seed, study_args

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.timeout(120)


def test_dask_cluster_gives_the_same_rows_as_the_local_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seeds = "1-12"
    local = tmp_path / "local.sqlite3"
    assert run_cli(*study_args(local, seeds, "yukon", "--workers", "2")) == 0

    def no_local_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("the local pool ran although --scheduler was given")

    monkeypatch.setattr(runner, "_local", no_local_pool)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    try:
        remote = tmp_path / "dask.sqlite3"
        capsys.readouterr()
        assert run_cli(*study_args(remote, seeds, "yukon"), "--scheduler", cluster.scheduler_address) == 0
        assert cluster.scheduler_address in capsys.readouterr().err
        with distributed.Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
        # resuming on the cluster computes nothing more
        assert run_cli(*study_args(remote, seeds, "yukon"), "--scheduler", cluster.scheduler_address) == 0
        assert "0 deals solved in this run" in capsys.readouterr().err
    finally:
        cluster.close()
    expected = status_by_seed(local)
    assert sorted(expected) == list(range(1, 13))
    assert {s for s, _, _ in expected.values()} >= {"won", "unknown"}  # a real mix, not a trivial range
    assert status_by_seed(remote) == expected  # status, nodes and line length per seed
    assert len(rows(remote)) == 12
