"""ParquetFile: schema, metadata, reads by row group, streaming batches, context manager."""

import numpy as np
import pandas as pd
import pytest

import strata
from strata import _strata


@pytest.fixture
def groups_file(tmp_path):
    frame = pd.DataFrame({"a": np.arange(1000, dtype=np.int32), "b": [f"v{i}" for i in range(1000)],
                          "c": pd.array([i if i % 3 else None for i in range(1000)], dtype="Int16")})
    path = tmp_path / "g.parquet"
    strata.write_parquet(frame, path, row_group_rows=250)
    return path, frame


def test_properties_and_metadata(groups_file):
    path, frame = groups_file
    with strata.ParquetFile(path) as f:
        assert f.num_rows == 1000 and f.num_row_groups == 4
        assert f.schema.names == ["a", "b", "c"] and f.schema.types == ["int32", "string", "int16"]
        md = f.metadata
        assert md["num_rows"] == 1000 and md["num_row_groups"] == 4 and md["columns"] == ["a", "b", "c"]
        assert md["created_by"].startswith("strata version")
        assert "ARROW:schema" in md["key_value_metadata"]
        rg = md["row_groups"][1]
        assert rg["num_rows"] == 250 and rg["total_byte_size"] > 0
        a = rg["columns"]["a"]
        assert a["physical_type"] == "INT32" and a["codec"] == "SNAPPY"
        assert "PLAIN" in a["encodings"] and a["compressed_size"] > 0 and a["uncompressed_size"] > 0
        assert a["statistics"] == {"null_count": 0, "min": 250, "max": 499, "min_exact": True, "max_exact": True}
        assert rg["columns"]["b"]["statistics"]["min"] == "v250"
        assert rg["columns"]["c"]["statistics"]["null_count"] == 83


def test_typed_statistics(tmp_path):
    import datetime
    import decimal
    frame = pd.DataFrame({
        "u": np.array([1, 2**64 - 1], dtype=np.uint64),
        "t": pd.to_datetime(["2020-01-01", "2021-06-01"]).tz_localize("Europe/Paris"),
        "d": [datetime.date(2000, 1, 1), datetime.date(2001, 1, 1)],
        "m": [decimal.Decimal("-1.5"), decimal.Decimal("2.25")],
        "by": [b"\x00", b"\xff"],
        "bo": [True, False],
        "ti": [datetime.time(1, 2, 3, 4), datetime.time(23, 0)],
    })
    strata.write_parquet(frame, tmp_path / "s.parquet")
    stats = {k: v["statistics"] for k, v in strata.ParquetFile(tmp_path / "s.parquet").metadata["row_groups"][0]["columns"].items()}
    assert (stats["u"]["min"], stats["u"]["max"]) == (1, 2**64 - 1)  # unsigned order
    assert stats["t"]["min"] == pd.Timestamp("2020-01-01", tz="Europe/Paris")
    assert stats["t"]["max"].tz is not None
    assert (stats["d"]["min"], stats["d"]["max"]) == (datetime.date(2000, 1, 1), datetime.date(2001, 1, 1))
    assert (stats["m"]["min"], stats["m"]["max"]) == (decimal.Decimal("-1.5"), decimal.Decimal("2.25"))
    assert (stats["by"]["min"], stats["by"]["max"]) == (b"\x00", b"\xff")
    assert (stats["bo"]["min"], stats["bo"]["max"]) == (False, True)
    assert (stats["ti"]["min"], stats["ti"]["max"]) == (datetime.time(1, 2, 3, 4), datetime.time(23, 0))


def test_read_row_group_and_columns(groups_file):
    path, frame = groups_file
    with strata.ParquetFile(path) as f:
        part = f.read_row_group(2, columns=["c", "a"])
        pd.testing.assert_frame_equal(part, frame[["c", "a"]].iloc[500:750].reset_index(drop=True))
        both = f.read(row_groups=[3, 0])
        pd.testing.assert_frame_equal(both, pd.concat([frame.iloc[750:], frame.iloc[:250]]).reset_index(drop=True))
        with pytest.raises(ValueError, match="no row group 4"):
            f.read(row_groups=[4])
        with pytest.raises(ValueError, match="no column 'zz'"):
            f.read(columns=["zz"])
        assert f.read(threads=0).equals(frame)
        assert f.read(threads=2).equals(frame)


def test_iter_batches_streams(groups_file):
    path, frame = groups_file
    with strata.ParquetFile(path) as f:
        sizes = []
        parts = []
        for batch in f.iter_batches(batch_rows=100, columns=["a", "c"]):
            sizes.append(len(batch))
            parts.append(batch)
            assert list(batch.dtypes.astype(str)) == ["int32", "Int16"]
        # A batch never spans row groups (250 rows each): 100, 100, 50, ...
        assert sizes == [100, 100, 50] * 4
        pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), frame[["a", "c"]])


def test_iter_batches_memory_is_one_batch(tmp_path):
    rows = 2_000_000
    path = tmp_path / "m.parquet"
    # Uncompressed: a 16 MB chunk is read page by page (compressed chunks under 8 MB are read whole).
    strata.write_parquet(pd.DataFrame({"x": np.arange(rows, dtype=np.int64)}), path, row_group_rows=rows,
                         codec="uncompressed", dictionary=False)
    peaks = []
    total = 0
    with strata.ParquetFile(path) as f:
        for batch in f.iter_batches(batch_rows=50_000):
            total += int(batch["x"].sum())
            peaks.append(_strata._pool_stats()["bytes_in_use"])
            del batch
    assert total == rows * (rows - 1) // 2
    # Far below the column's 16 MB: one batch (400 kB) plus the reader's pages (1 MB).
    assert max(peaks) < 4 << 20


def test_closed_file(groups_file):
    path, _ = groups_file
    f = strata.ParquetFile(path)
    f.close()
    with pytest.raises(ValueError, match="closed"):
        f.read()


def test_read_table(groups_file):
    path, frame = groups_file
    table = strata.read_table(path, columns=["b"], row_groups=[1])
    assert table.num_rows == 250 and table.num_columns == 1 and table.column_names == ["b"]
    assert table.schema.types == ["string"]
    assert table.to_pandas()["b"][0] == "v250"
    assert "250 rows" in repr(table)


def test_write_a_table(groups_file, tmp_path):
    path, frame = groups_file
    table = strata.read_table(path)
    strata.write_parquet(table, tmp_path / "copy.parquet", codec="zstd", level=3)
    assert strata.read_table(tmp_path / "copy.parquet").equals(table)
    pd.testing.assert_frame_equal(strata.read_parquet(tmp_path / "copy.parquet"), frame)


@pytest.mark.parametrize("options", [
    dict(codec="gzip"), dict(codec="ZSTD", level=9), dict(codec="uncompressed"), dict(codec="lz4_raw"),
    dict(codec="brotli"), dict(row_group_bytes=1 << 12), dict(page_bytes=256, page_rows=10), dict(page_version=2),
    dict(dictionary=False), dict(encoding="plain"), dict(encoding={"a": "delta_binary_packed", "c": "byte_stream_split"}), dict(encoding={"b": "delta_byte_array"}),
    dict(bloom_filter=["a", "b"]), dict(statistics=False), dict(threads=1), dict(threads=0),
    dict(content_defined_chunking=True),
    dict(content_defined_chunking={"min_chunk_size": 256, "max_chunk_size": 1024, "norm_level": 1}),
])
def test_writer_options_round_trip(groups_file, tmp_path, options):
    path, frame = groups_file
    out = tmp_path / "o.parquet"
    strata.write_parquet(frame, out, **options)
    pd.testing.assert_frame_equal(strata.read_parquet(out), frame)


def test_writer_options_take_effect(groups_file, tmp_path):
    path, frame = groups_file
    out = tmp_path / "o.parquet"
    strata.write_parquet(frame, out, codec="zstd", row_group_rows=100, encoding={"a": "delta_binary_packed"},
                         statistics=False)
    md = strata.ParquetFile(out).metadata
    assert md["num_row_groups"] == 10
    a = md["row_groups"][0]["columns"]["a"]
    assert a["codec"] == "ZSTD" and "DELTA_BINARY_PACKED" in a["encodings"]
    assert a["statistics"] is None or a["statistics"]["min"] is None


def test_no_columns_gives_the_row_count(groups_file):
    path, _ = groups_file
    frame = strata.read_parquet(path, columns=[])
    assert frame.shape == (1000, 0)
    assert strata.read_parquet(path, columns=[], row_groups=[1, 2]).shape == (500, 0)
    assert strata.read_parquet(path, columns=[], filter=[("a", "<", 10)]).shape == (10, 0)
    with strata.ParquetFile(path) as f:
        assert [len(b) for b in f.iter_batches(batch_rows=200, columns=[])] == [200, 50] * 4


def test_concurrent_reads_of_one_file(groups_file):
    # Dask's threaded scheduler reads row groups of one file from several threads at once.
    from concurrent.futures import ThreadPoolExecutor
    path, frame = groups_file
    with strata.ParquetFile(path) as f:
        with ThreadPoolExecutor(4) as pool:
            parts = list(pool.map(lambda g: f.read_row_group(g % 4), range(40)))
    for g, part in enumerate(parts):
        start = (g % 4) * 250
        pd.testing.assert_frame_equal(part, frame.iloc[start:start + 250].reset_index(drop=True))


def test_batches_outlive_close(groups_file):
    path, frame = groups_file
    f = strata.ParquetFile(path)
    batches = f.iter_batches(batch_rows=500)
    first = next(batches)
    f.close()
    rest = list(batches)  # the iterator holds the reader it started with
    assert len(first) + sum(len(b) for b in rest) == 1000
