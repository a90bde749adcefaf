"""Parquet INTERVAL columns (month_day_nano_interval in strata) read into pandas as objects:
pandas.DateOffset(months=, days=, nanoseconds=) per value, None for nulls, lists of them inside
lists. The files come from DuckDB, which writes INTERVAL as Parquet does."""

import json
import os
import shutil
import subprocess

import pandas as pd
import pytest

import strata

HERE = os.path.dirname(os.path.abspath(__file__))


def _duckdb(*statements):
    node = shutil.which("node")
    available = node is not None and os.path.isdir(os.path.join(HERE, "..", "..", "node_modules", "@duckdb", "node-api"))
    if not available:
        if os.environ.get("CI") == "true":
            pytest.fail("node and the npm peers are needed under CI (scripts/install-deps)")
        pytest.skip("node or the npm peers are not installed (scripts/install-deps)")
    result = subprocess.run(
        [node, os.path.join(HERE, "duckdb_sql.mjs"), *statements], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_intervals_read_as_date_offsets(tmp_path):
    path = tmp_path / "intervals.parquet"
    _duckdb(
        "COPY (SELECT i, INTERVAL (i) MONTH + INTERVAL (i * 2) DAY + INTERVAL (i * 3) MILLISECOND AS iv, "
        "CASE WHEN i % 4 = 0 THEN NULL ELSE INTERVAL (i) DAY END AS maybe, "
        "[INTERVAL (i) MONTH, NULL] AS ivs FROM range(50) t(i)) "
        f"TO '{path}' (FORMAT parquet)"
    )
    frame = strata.read_parquet(path)
    assert list(frame.columns) == ["i", "iv", "maybe", "ivs"]
    assert frame["iv"].dtype == object
    assert len(frame) == 50
    for i in range(50):
        value = frame["iv"][i]
        assert isinstance(value, pd.DateOffset), type(value)
        assert (value.months, value.days, value.nanoseconds) == (i, 2 * i, 3 * i * 1_000_000)
        maybe = frame["maybe"][i]
        if i % 4 == 0:
            assert maybe is None
        else:
            assert (maybe.months, maybe.days, maybe.nanoseconds) == (0, i, 0)
        first, second = frame["ivs"][i]
        assert (first.months, first.days, first.nanoseconds) == (i, 0, 0)
        assert second is None
    # A DateOffset applies the calendar: 3 months, 6 days, 9 ms after 2020-01-31.
    assert pd.Timestamp("2020-01-31") + frame["iv"][3] == pd.Timestamp("2020-05-06 00:00:00.009")
    assert strata.ParquetFile(path).schema.types[1] == "month_day_nano_interval"
