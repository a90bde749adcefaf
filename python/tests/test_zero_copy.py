"""Zero-copy conversion, proven on strata's pool counters and buffer addresses: numpy arrays
point into strata's buffers (and DataFrames into numpy memory on the way out)."""

import gc

import numpy as np
import pandas as pd

import strata
from strata import _strata

ROWS = 10_000_000


def test_ten_million_int64_to_pandas_allocates_nothing(tmp_path):
    path = tmp_path / "big.parquet"
    strata.write_parquet(pd.DataFrame({"x": np.arange(ROWS, dtype=np.int64)}), path, row_group_rows=ROWS,
                         dictionary=False)
    table = strata.read_table(path)
    assert table._table.num_chunks(0) == 1  # one row group, one chunk
    address = table._table._buffer_address(0, 0, 1)
    before = _strata._pool_stats()
    frame = table.to_pandas()
    after = _strata._pool_stats()
    allocated = after["total_bytes_allocated"] - before["total_bytes_allocated"]
    print(f"\npool before: {before}\npool after:  {after}\nallocated by to_pandas: {allocated} bytes")
    assert allocated < 1 << 20
    values = frame["x"].to_numpy()
    assert values.__array_interface__["data"][0] == address  # the very buffer strata decoded into
    assert not values.flags.writeable  # the Table still shares the buffer
    assert values.flags.aligned and address % 64 == 0  # pool buffers are 64-byte aligned
    assert values.dtype == np.int64 and values[0] == 0 and values[-1] == ROWS - 1
    # The array keeps the buffer alive after the table is gone; the buffer goes with the array.
    in_use = _strata._pool_stats()["bytes_in_use"]
    del table
    gc.collect()
    assert _strata._pool_stats()["bytes_in_use"] == in_use
    assert values[ROWS // 2] == ROWS // 2
    del frame, values
    gc.collect()
    assert _strata._pool_stats()["bytes_in_use"] <= in_use - ROWS * 8


def test_read_parquet_arrays_are_writable_views(tmp_path):
    path = tmp_path / "w.parquet"
    strata.write_parquet(pd.DataFrame({"x": np.arange(1000, dtype=np.int32), "y": np.ones(1000)}), path)
    frame = strata.read_parquet(path)
    x = frame["x"].to_numpy()
    assert x.base is not None and not x.flags.owndata  # a view of strata's buffer
    assert x.flags.writeable  # the DataFrame is the buffer's only owner
    frame.loc[0, "x"] = 42
    assert frame["x"][0] == 42


def test_nullable_int_values_are_shared(tmp_path):
    path = tmp_path / "n.parquet"
    strata.write_parquet(pd.DataFrame({"x": pd.array([1, None, 3] * 1000, dtype="Int64")}), path)
    table = strata.read_table(path)
    frame = table.to_pandas()
    assert frame["x"].array._data.__array_interface__["data"][0] == table._table._buffer_address(0, 0, 1)


def test_write_shares_numpy_memory():
    values = np.arange(100_000, dtype=np.float64)
    frame = pd.DataFrame({"v": values})
    before = _strata._pool_stats()
    table = strata.Table.from_pandas(frame)
    after = _strata._pool_stats()
    assert after["total_bytes_allocated"] - before["total_bytes_allocated"] < 4096
    assert table._table._buffer_address(0, 0, 1) == frame["v"].to_numpy().__array_interface__["data"][0]
    del frame, values
    gc.collect()
    # The strata buffer keeps the numpy array alive.
    assert table.to_pandas()["v"][99_999] == 99_999.0


def test_no_buffer_outlives_its_frames(tmp_path):
    # Every strata buffer a conversion shares is freed with the last pandas object using it.
    import decimal
    frame = pd.DataFrame({"i": np.arange(50_000), "n": pd.array(np.arange(50_000), dtype="Int32"),
                          "s": [str(i) for i in range(50_000)], "c": pd.Categorical(["a", "b"] * 25_000),
                          "t": pd.date_range("2020", periods=50_000, freq="s", tz="UTC"),
                          "l": [[i] for i in range(50_000)], "d": [decimal.Decimal("1.5")] * 50_000})
    path = tmp_path / "leak.parquet"
    strata.write_parquet(frame, path, row_group_rows=20_000)
    gc.collect()
    baseline = _strata._pool_stats()["bytes_in_use"]
    for _ in range(5):
        back = strata.read_parquet(path)
        table = strata.read_table(path)
        view = table.to_pandas()
        again = strata.Table.from_arrow(table).to_pandas()
        batches = list(strata.ParquetFile(path).iter_batches(batch_rows=7_000))
        assert len(back) == len(view) == len(again) == 50_000 and len(batches) == 8
        del back, table, view, again, batches
    gc.collect()
    assert _strata._pool_stats()["bytes_in_use"] == baseline
