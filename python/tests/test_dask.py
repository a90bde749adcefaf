"""strata.dask against DuckDB (the pinned npm @duckdb/node-api), on a real distributed cluster
of two worker processes: DuckDB writes lineitem-like data, strata reads it into Dask, and the
answers are checked against DuckDB's own; what strata.dask writes is read back by DuckDB."""

import json
import os
import shutil
import subprocess

import pandas as pd
import pytest

try:
    import dask
    import dask.dataframe as dd
    import distributed
except ImportError as error:  # a skip elsewhere; under CI a failure, never a silent pass
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        raise
    pytest.skip(f"dask is not installed (scripts/install-deps): {error}", allow_module_level=True)

import strata  # noqa: E402
import strata.dask  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = 300_000
ROW_GROUP_ROWS = 49_152  # a multiple of DuckDB's 2048-row vectors and of 4 lines per order


def _need(condition, why):
    """Skips outside CI; under CI a missing peer is a failure, never a silent pass."""
    if condition:
        return
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(why)
    pytest.skip(why)


def duckdb(*statements):
    node = shutil.which("node")
    _need(node is not None, "node is not installed (scripts/install-deps)")
    _need(
        os.path.isdir(os.path.join(HERE, "..", "..", "node_modules", "@duckdb", "node-api")),
        "the npm peers are not installed (scripts/install-deps)",
    )
    result = subprocess.run(
        [node, os.path.join(HERE, "duckdb_sql.mjs"), *statements], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def sql_string(text):
    return "'" + str(text).replace("'", "''") + "'"


# TPC-H lineitem's shape: 4 lines per order (l_orderkey sorted), decimals, dates, flags.
LINEITEM_SQL = f"""
SELECT (i // 4 + 1)::BIGINT AS l_orderkey,
  (1 + hash(i * 7 + 1) % 200000)::BIGINT AS l_partkey,
  (i % 4 + 1)::INTEGER AS l_linenumber,
  (1 + hash(i * 7 + 2) % 50)::DECIMAL(15,2) AS l_quantity,
  ((1 + hash(i * 7 + 3) % 100000) / 100)::DECIMAL(15,2) AS l_extendedprice,
  ((hash(i * 7 + 4) % 11) / 100)::DECIMAL(15,2) AS l_discount,
  CASE WHEN hash(i * 7 + 5) % 3 = 0 THEN 'R' WHEN hash(i * 7 + 5) % 3 = 1 THEN 'A' ELSE 'N' END AS l_returnflag,
  CASE WHEN hash(i * 7 + 6) % 2 = 0 THEN 'O' ELSE 'F' END AS l_linestatus,
  DATE '1992-01-02' + (hash(i * 7 + 7) % 2526)::INTEGER AS l_shipdate,
  CASE WHEN hash(i * 7 + 8) % 10 = 0 THEN NULL ELSE 'comment ' || (hash(i) % 1000)::VARCHAR END AS l_comment
FROM range(0, {ROWS}) t(i) ORDER BY i"""


@pytest.fixture(scope="module")
def lineitem(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("dask") / "lineitem.parquet")
    duckdb(
        "SET threads = 1",
        f"COPY ({LINEITEM_SQL}) TO {sql_string(path)} (FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP_ROWS})",
        "SELECT 1",
    )
    return path


@pytest.fixture(scope="module")
def row_group_stats(lineitem):
    """Per row group, DuckDB's view of l_orderkey's statistics and the row count."""
    rows = duckdb(
        "SELECT row_group_id, row_group_num_rows, stats_min_value, stats_max_value "
        f"FROM parquet_metadata({sql_string(lineitem)}) WHERE path_in_schema = 'l_orderkey' ORDER BY row_group_id"
    )
    return [(int(r["row_group_num_rows"]), int(r["stats_min_value"]), int(r["stats_max_value"])) for r in rows]


@pytest.fixture(scope="module")
def client():
    # Two worker processes: partitions are read and written in other processes than this one.
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


Q1_SQL = """
SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity)::DOUBLE AS quantity,
  sum(l_extendedprice)::DOUBLE AS price, avg(l_discount)::DOUBLE AS discount,
  sum(l_orderkey) AS orderkeys, count(l_comment) AS comments
FROM read_parquet({}) GROUP BY ALL ORDER BY ALL"""


def test_group_by_on_two_workers_equals_duckdb(client, lineitem, row_group_stats):
    ddf = strata.dask.read_parquet(lineitem, decimals="float")
    assert ddf.npartitions == len(row_group_stats) >= 6

    # The partitions are read in both worker processes, not here.
    def reader_pid(frame):
        return pd.DataFrame({"pid": [os.getpid()]})

    pids = set(ddf.map_partitions(reader_pid, meta={"pid": "int64"}).compute()["pid"])
    assert os.getpid() not in pids and len(pids) == 2

    grouped = ddf.groupby(["l_returnflag", "l_linestatus"]).agg(
        n=("l_orderkey", "count"),
        quantity=("l_quantity", "sum"),
        price=("l_extendedprice", "sum"),
        discount=("l_discount", "mean"),
        orderkeys=("l_orderkey", "sum"),
        comments=("l_comment", "count"),
    )
    ours = grouped.compute().sort_index().reset_index()
    theirs = duckdb(Q1_SQL.format(sql_string(lineitem)))
    assert len(ours) == len(theirs) == 6
    for mine, expected in zip(ours.to_dict("records"), theirs):
        assert (mine["l_returnflag"], mine["l_linestatus"]) == (expected["l_returnflag"], expected["l_linestatus"])
        assert mine["n"] == int(expected["n"])
        assert mine["orderkeys"] == int(expected["orderkeys"])
        assert mine["comments"] == int(expected["comments"])
        for column in ("quantity", "price", "discount"):
            assert mine[column] == pytest.approx(float(expected[column]), rel=1e-12)


def test_to_parquet_on_workers_reads_back_in_duckdb(client, lineitem, tmp_path):
    ddf = strata.dask.read_parquet(lineitem)
    out = tmp_path / "dataset"
    written = strata.dask.to_parquet(ddf, out, codec="zstd")
    assert [w["path"] for w in written] == [str(out / f"part-{i}.parquet") for i in range(ddf.npartitions)]
    assert sum(w["rows"] for w in written) == ROWS
    assert os.getpid() not in {w["pid"] for w in written}

    # Same rows both ways, compared in DuckDB with the source's types.
    columns = (
        "l_orderkey, l_partkey, l_linenumber, l_quantity::DECIMAL(15,2), l_extendedprice::DECIMAL(15,2), "
        "l_discount::DECIMAL(15,2), l_returnflag, l_linestatus, l_shipdate::DATE, l_comment"
    )
    source = f"SELECT {columns} FROM read_parquet({sql_string(lineitem)})"
    ours = f"SELECT {columns} FROM read_parquet({sql_string(str(out / '*.parquet'))})"
    [counts] = duckdb(
        f"SELECT (SELECT count(*) FROM ({source} EXCEPT ALL {ours})) AS missing, "
        f"(SELECT count(*) FROM ({ours} EXCEPT ALL {source})) AS extra, "
        f"(SELECT count(*) FROM ({ours})) AS rows"
    )
    assert counts == {"missing": "0", "extra": "0", "rows": str(ROWS)}

    with pytest.raises(FileExistsError):
        strata.dask.to_parquet(ddf, out)
    again = strata.dask.to_parquet(ddf.partitions[:2], out, overwrite=True)
    assert sorted(os.listdir(out)) == ["part-0.parquet", "part-1.parquet"]
    assert sum(w["rows"] for w in again) == row_count(out)


def test_encrypted_datasets_on_workers(client, lineitem, tmp_path):
    # Workers write encrypted parts (a key of its own for the prices), read them back with the
    # keys, and the rows are the source's; without the keys the dataset does not open.
    keys = {"footer_key": b"0123456789012345", "column_keys": {"l_extendedprice": b"1234567890123450"}}
    ddf = strata.dask.read_parquet(lineitem)
    out = tmp_path / "encrypted"
    strata.dask.to_parquet(ddf, out, **keys)
    with open(out / "part-0.parquet", "rb") as part:
        assert part.read(4) == b"PARE"
    back = strata.dask.read_parquet(str(out), **keys)
    ours = back.compute().sort_values("l_orderkey", kind="stable").reset_index(drop=True)
    source = ddf.compute().sort_values("l_orderkey", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(ours, source)
    with pytest.raises(strata.InvalidInput, match="footer key"):
        strata.dask.read_parquet(str(out))


def row_count(directory):
    return sum(strata.ParquetFile(str(directory / name)).num_rows for name in os.listdir(directory))


def test_divisions_come_from_sorted_statistics(lineitem, row_group_stats):
    ddf = strata.dask.read_parquet(lineitem, columns=["l_quantity"], index="l_orderkey")
    expected = tuple(low for _, low, _ in row_group_stats) + (row_group_stats[-1][2],)
    assert ddf.known_divisions
    assert ddf.divisions == expected
    # Dask uses them: a loc on the index touches only the partitions that can hold it.
    key = row_group_stats[2][1] + 5
    selected = ddf.loc[key]
    assert selected.npartitions == 1
    assert list(selected.compute(scheduler="sync").index) == [key] * 4

    # An unsorted column proves nothing: divisions stay unknown.
    assert not strata.dask.read_parquet(lineitem, columns=["l_quantity"], index="l_partkey").known_divisions
    assert not strata.dask.read_parquet(lineitem, index="l_orderkey", calculate_divisions=False).known_divisions


def test_filter_drops_row_groups_before_any_task(lineitem, row_group_stats):
    limit = row_group_stats[2][1] + 5  # inside row group 2
    ddf = strata.dask.read_parquet(lineitem, columns=["l_orderkey", "l_returnflag"], filter=[("l_orderkey", "<", limit)])
    assert ddf.npartitions == 3
    frame = ddf.compute(scheduler="sync")
    [expected] = duckdb(
        f"SELECT count(*) AS n, count(*) FILTER (l_returnflag = 'R') AS r FROM read_parquet({sql_string(lineitem)}) "
        f"WHERE l_orderkey < {limit}"
    )
    assert len(frame) == int(expected["n"])
    assert (frame["l_returnflag"] == "R").sum() == int(expected["r"])
    assert list(frame.columns) == ["l_orderkey", "l_returnflag"]

    # A filter that no row group can match leaves one empty partition with the right columns.
    empty = strata.dask.read_parquet(lineitem, columns=["l_orderkey"], filter=[("l_orderkey", ">", 10**12)])
    assert empty.npartitions == 1
    assert len(empty.compute(scheduler="sync")) == 0

    with pytest.raises(ValueError):
        strata.dask.read_parquet(lineitem, filter=[("l_orderkey", "~", 1)])


def test_string_filter_is_pushed_into_each_partition(lineitem, row_group_stats):
    limit = row_group_stats[2][1] + 5
    text = f"l_orderkey < {limit} AND l_returnflag = 'R'"
    frame = strata.dask.read_parquet(lineitem, columns=["l_orderkey"], filter=text).compute(scheduler="sync")
    [expected] = duckdb(f"SELECT count(*) AS n FROM read_parquet({sql_string(lineitem)}) WHERE {text}")
    assert len(frame) == int(expected["n"]) > 0
    assert list(frame.columns) == ["l_orderkey"]


def test_column_projection_reaches_the_reads(lineitem):
    from dask.dataframe.optimize import optimize_dataframe_getitem

    ddf = strata.dask.read_parquet(lineitem)
    projected = ddf[["l_quantity", "l_shipdate"]]
    # Dask's getitem optimisation hands the projection to the read layer's function (ours).
    graph = optimize_dataframe_getitem(projected.__dask_graph__(), keys=projected.__dask_keys__())
    readers = [layer.io_func for layer in graph.layers.values() if hasattr(layer, "io_func")]
    assert len(readers) == 1
    assert isinstance(readers[0], strata.dask._PartitionReader)
    assert sorted(readers[0].columns) == ["l_quantity", "l_shipdate"]
    frame = projected.compute(scheduler="sync")
    assert list(frame.columns) == ["l_quantity", "l_shipdate"] and len(frame) == ROWS
    # meta matches what the partitions return.
    assert dict(ddf.dtypes) == dict(ddf.partitions[0].compute(scheduler="sync").dtypes)


def test_paths_globs_directories_and_partitioning(lineitem, tmp_path, row_group_stats):
    directory = tmp_path / "parts"
    directory.mkdir()
    full = strata.read_parquet(lineitem, columns=["l_orderkey", "l_comment"])
    for i in range(11):  # part-10 must sort after part-9
        strata.write_parquet(full.iloc[i * 1000 : (i + 1) * 1000].reset_index(drop=True), str(directory / f"part-{i}.parquet"))
    (directory / "_SUCCESS").write_text("")
    (directory / ".hidden.parquet").write_text("not parquet")

    by_directory = strata.dask.read_parquet(directory).compute(scheduler="sync")
    assert list(by_directory["l_orderkey"]) == list(full["l_orderkey"][:11000])
    by_glob = strata.dask.read_parquet(str(directory / "part-*.parquet"))
    assert by_glob.npartitions == 11
    by_list = strata.dask.read_parquet([str(directory / "part-3.parquet"), str(directory / "part-1.parquet")])
    assert list(by_list.compute(scheduler="sync")["l_orderkey"]) == list(full["l_orderkey"][3000:4000]) + list(
        full["l_orderkey"][1000:2000]
    )

    per_file = strata.dask.read_parquet(lineitem, split_row_groups=False)
    assert per_file.npartitions == 1
    assert strata.dask.read_parquet(lineitem, split_row_groups="auto").npartitions == 1
    assert strata.dask.read_parquet(lineitem, split_row_groups="auto", small_file_bytes=1).npartitions == len(row_group_stats)

    with pytest.raises(FileNotFoundError):
        strata.dask.read_parquet(str(tmp_path / "nothing-*.parquet"))
    with pytest.raises(FileNotFoundError):
        strata.dask.read_parquet(str(tmp_path / "missing.parquet"))
    other = tmp_path / "other.parquet"
    strata.write_parquet(pd.DataFrame({"l_orderkey": [1.5]}), str(other))
    with pytest.raises(ValueError, match="same columns"):
        strata.dask.read_parquet([str(directory / "part-0.parquet"), str(other)])
    with pytest.raises(ValueError, match="no column"):
        strata.dask.read_parquet(lineitem, columns=["nope"])


@pytest.fixture(scope="module")
def s3_server(tmp_path_factory):
    """The S3 test server (testing/s3: s3rver behind a SigV4-checking proxy) on 127.0.0.1."""
    state = tmp_path_factory.mktemp("s3")
    script = os.path.join(HERE, "..", "..", "scripts", "s3-test-server")
    run = subprocess.run([script, "start", str(state), "--bucket", "lake", "--parent-pid", str(os.getpid())],
                         capture_output=True, text=True, timeout=60, check=False)
    _need(run.returncode == 0, f"the S3 test server did not start ({run.returncode}): {run.stdout}{run.stderr}")
    options = {"endpoint_url": f"http://127.0.0.1:{int(run.stdout.split()[-1])}", "key": "STRATATESTACCESSKEY",
               "secret": "strata-test-secret-key", "region": "us-east-1"}
    yield options
    subprocess.run([script, "stop", str(state)], capture_output=True, timeout=60, check=False)


def test_s3_dataset_read_and_written_by_workers(client, lineitem, s3_server, tmp_path, monkeypatch):
    # A hive dataset under a prefix, put there by strata's own writer from this process.
    source = strata.read_parquet(lineitem)
    for flag in ("A", "N", "R"):
        part = source[source["l_returnflag"] == flag]
        strata.write_parquet(part, f"s3://lake/in/flag={flag}/part-0.parquet", row_group_rows=ROW_GROUP_ROWS,
                             storage_options=s3_server)
    # Workers run in other processes and in another folder: nothing of the dataset is local.
    monkeypatch.chdir(tmp_path)
    ddf = strata.dask.read_parquet("s3://lake/in/flag=*/*.parquet", storage_options=s3_server)
    assert ddf.npartitions >= 3
    assert len(ddf) == ROWS
    written = strata.dask.to_parquet(ddf, "s3://lake/out/", storage_options=s3_server)
    assert os.getpid() not in {w["pid"] for w in written}
    assert all(w["path"].startswith("s3://lake/out/part-") for w in written)
    assert os.listdir(tmp_path) == []  # no worker wrote a local "s3:" folder
    back = strata.dask.read_parquet("s3://lake/out/", storage_options=s3_server).compute()
    assert len(back) == ROWS
    assert sorted(back["l_orderkey"].tolist()) == sorted(source["l_orderkey"].tolist())
    with pytest.raises(FileExistsError):
        strata.dask.to_parquet(ddf, "s3://lake/out", storage_options=s3_server)
    strata.dask.to_parquet(ddf.partitions[:1], "s3://lake/out", overwrite=True, storage_options=s3_server)
    remaining = strata._strata._list_objects("s3://lake/out/", s3_server)
    assert [url for url, _ in remaining] == ["s3://lake/out/part-0.parquet"]
