"""Shared fixtures: the parquet-testing corpus (STRATA_PARQUET_TESTING, default
<repo>/../shared/parquet-testing). A missing corpus skips its tests, except under CI=true,
where it fails them."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


@pytest.fixture(scope="session")
def corpus():
    root = pathlib.Path(os.environ.get("STRATA_PARQUET_TESTING", REPO.parent / "shared" / "parquet-testing"))
    data = root / "data"
    if not data.is_dir():
        message = f"parquet-testing corpus not found at {root} (set STRATA_PARQUET_TESTING)"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return data


def pytest_sessionfinish(session, exitstatus):
    """A run that skipped anything (a missing corpus or peer, outside CI) exits 77, which
    CTest reports as Skipped: a test that did not run is never counted as passed."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if exitstatus == 0 and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = 77
