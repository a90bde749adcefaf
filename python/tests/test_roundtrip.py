"""DataFrame -> write_parquet -> read_parquet gives the same DataFrame, dtypes included, for
every dtype strata converts, with and without nulls."""

import datetime
import decimal

import numpy as np
import pandas as pd
import pytest

import strata

N = 1000
rng = np.random.default_rng(7)


def _nulls(values, every=7):
    """Values with every 7th one None (object lists)."""
    return [None if i % every == 3 else v for i, v in enumerate(values)]


def _masked(values, dtype):
    data = pd.array(values, dtype=dtype)
    data[3::7] = pd.NA
    return data


COLUMNS = {
    # numpy numerics: no nulls possible.
    **{f"np_{t}": (lambda t=t: rng.integers(np.iinfo(t).min, np.iinfo(t).max, N, dtype=t, endpoint=True))
       for t in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]},
    "np_float32": lambda: rng.standard_normal(N).astype("float32"),
    "np_float64": lambda: rng.standard_normal(N),
    "np_float64_nan": lambda: np.where(np.arange(N) % 5 == 0, np.nan, rng.standard_normal(N)),
    "np_bool": lambda: rng.integers(0, 2, N).astype(bool),
    # pandas nullable dtypes, with nulls.
    **{f"pd_{t}": (lambda t=t: _masked(rng.integers(0, 100, N), t))
       for t in ["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]},
    "pd_Int64_no_nulls": lambda: pd.array(rng.integers(-5, 5, N), dtype="Int64"),
    "pd_boolean": lambda: _masked(rng.integers(0, 2, N).astype(bool), "boolean"),
    "str": lambda: [f"value {i} ü" for i in range(N)],
    "str_nulls": lambda: _nulls([f"s{i}" * (i % 4) for i in range(N)]),
    "bytes": lambda: [bytes([i % 256, 0, 255]) * (i % 3) for i in range(N)],
    "bytes_nulls": lambda: _nulls([bytes([i % 256]) for i in range(N)]),
    "datetime": lambda: pd.Series(pd.date_range("1999-12-31 23:00", periods=N, freq="37min")),
    "datetime_nat": lambda: pd.Series(pd.date_range("2021-01-01", periods=N, freq="1s")).where(np.arange(N) % 4 > 0),
    "datetime_ns": lambda: pd.Series(pd.to_datetime(rng.integers(0, 2**62, N))),
    "datetime_utc": lambda: pd.Series(pd.date_range("2020-03-29", periods=N, freq="h", tz="UTC")),
    "datetime_paris": lambda: pd.Series(pd.date_range("2020-03-29", periods=N, freq="h", tz="Europe/Paris")),
    "datetime_tz_nat": lambda: pd.Series(pd.date_range("2020-01-01", periods=N, freq="D", tz="America/New_York"))
    .where(np.arange(N) % 3 > 0),
    "timedelta": lambda: pd.Series(pd.to_timedelta(rng.integers(-10**15, 10**15, N))),
    "timedelta_nat": lambda: pd.Series(pd.to_timedelta(np.arange(N), unit="s")).where(np.arange(N) % 6 > 0),
    "categorical": lambda: pd.Categorical(rng.choice(["red", "green", "blue"], N)),
    "categorical_nulls": lambda: pd.Categorical(_nulls(list(rng.choice(["a", "b"], N)))),
    "categorical_ordered": lambda: pd.Categorical(rng.choice(["lo", "hi"], N), categories=["lo", "hi"], ordered=True),
    # Numeric categories come back in ascending order (pandas' default): Parquet keeps no order.
    "categorical_int": lambda: pd.Categorical(rng.choice([30, 10, 20], N)),
    "categorical_float_nulls": lambda: pd.Categorical(_nulls(list(rng.choice([0.5, -1.5], N)))),
    "categorical_datetime": lambda: pd.Categorical(pd.to_datetime(rng.choice(["2020-01-01", "2019-05-05"], N))),
    "decimal": lambda: [decimal.Decimal(int(v)).scaleb(-2) for v in rng.integers(-10**9, 10**9, N)],
    "decimal_nulls": lambda: _nulls([decimal.Decimal("1.5"), decimal.Decimal("-22.25"), decimal.Decimal("0")] * 333
                                    + [decimal.Decimal("99999.99")]),
    "decimal_wide": lambda: [decimal.Decimal("1234567890123456789012345678901234567.8")] * N,
    "date": lambda: [datetime.date(1970, 1, 1) + datetime.timedelta(days=int(d)) for d in rng.integers(-700000, 2900000, N)],
    "date_nulls": lambda: _nulls([datetime.date(2000, 2, 29)] * N),
    "time": lambda: [datetime.time(i % 24, i % 60, i % 60, i * 997 % 1000000) for i in range(N)],
    "time_nulls": lambda: _nulls([datetime.time(23, 59, 59, 999999)] * N),
    "list_int": lambda: [list(range(i % 5)) for i in range(N)],
    "list_nulls": lambda: _nulls([[i, None, i + 1] for i in range(N)]),
    "list_str": lambda: [["x"] * (i % 3) for i in range(N)],
    "list_nested": lambda: _nulls([[[1, 2], [], None] for _ in range(N)]),
    "struct": lambda: [{"a": i, "b": f"t{i}"} for i in range(N)],
    "struct_nulls": lambda: _nulls([{"a": None if i % 5 == 0 else i, "b": "x", "c": [i]} for i in range(N)]),
    "all_null": lambda: [None] * N,
}


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_round_trip(tmp_path, name):
    frame = pd.DataFrame({name: COLUMNS[name](), "row": np.arange(N)})
    path = tmp_path / "t.parquet"
    strata.write_parquet(frame, path)
    back = strata.read_parquet(path)
    pd.testing.assert_frame_equal(back, frame, check_dtype=True, check_exact=True)
    # Every row group converts to the same dtypes: several small row groups, read whole and
    # by row group.
    strata.write_parquet(frame, path, row_group_rows=300)
    pd.testing.assert_frame_equal(strata.read_parquet(path), frame, check_dtype=True, check_exact=True)
    part = strata.read_parquet(path, row_groups=[1])
    pd.testing.assert_frame_equal(part, frame.iloc[300:600].reset_index(drop=True), check_dtype=True)


def test_all_columns_at_once(tmp_path):
    frame = pd.DataFrame({name: make() for name, make in sorted(COLUMNS.items())})
    strata.write_parquet(frame, tmp_path / "all.parquet", codec="zstd")
    pd.testing.assert_frame_equal(strata.read_parquet(tmp_path / "all.parquet"), frame, check_dtype=True)


def test_empty_row_groups_give_full_dtypes(tmp_path):
    frame = pd.DataFrame({name: make() for name, make in sorted(COLUMNS.items())})
    strata.write_parquet(frame, tmp_path / "all.parquet")
    empty = strata.read_parquet(tmp_path / "all.parquet", row_groups=[])
    assert len(empty) == 0
    assert list(empty.columns) == list(frame.columns)
    for name in frame.columns:
        full, meta = frame[name].dtype, empty[name].dtype
        if isinstance(full, pd.CategoricalDtype):
            # The categories are the data's: an empty read has none (Dask's "unknown categories").
            assert isinstance(meta, pd.CategoricalDtype) and meta.ordered == full.ordered, name
            assert meta.categories.dtype == full.categories.dtype, name
        else:
            assert meta == full, name


def test_nullable_floats_on_request(tmp_path):
    frame = pd.DataFrame({"f": pd.array([1.5, None, 2.5], dtype="Float64"),
                          "g": pd.array([1.0, 2.0, None], dtype="Float32")})
    strata.write_parquet(frame, tmp_path / "f.parquet")
    pd.testing.assert_frame_equal(strata.read_parquet(tmp_path / "f.parquet", nullable_floats=True), frame)
    # By default: NaN for nulls, as pyarrow does.
    plain = strata.read_parquet(tmp_path / "f.parquet")
    assert plain["f"].dtype == np.float64 and np.isnan(plain["f"][1]) and plain["f"][2] == 2.5
    assert plain["g"].dtype == np.float32


def test_pandas_strings_on_request(tmp_path):
    frame = pd.DataFrame({"s": pd.array(["a", None, "ccc"], dtype="string"),
                          "none": pd.array([None, None, None], dtype="string")})
    strata.write_parquet(frame, tmp_path / "s.parquet")
    pd.testing.assert_frame_equal(strata.read_parquet(tmp_path / "s.parquet", strings="pandas"), frame)
    assert list(strata.read_parquet(tmp_path / "s.parquet")["s"]) == ["a", None, "ccc"]
    assert strata.ParquetFile(tmp_path / "s.parquet").schema.types == ["string", "string"]


def test_decimals_as_float(tmp_path):
    frame = pd.DataFrame({"d": [decimal.Decimal("1.25"), None, decimal.Decimal("-3.5")]})
    strata.write_parquet(frame, tmp_path / "d.parquet")
    # Precision 38 whatever the values (separately written parts agree), the values' largest scale.
    assert strata.ParquetFile(tmp_path / "d.parquet").schema.types == ["decimal128(38, 2)"]
    back = strata.read_parquet(tmp_path / "d.parquet", decimals="float")
    assert back["d"].dtype == np.float64
    assert back["d"][0] == 1.25 and np.isnan(back["d"][1]) and back["d"][2] == -3.5


def test_index_is_written_unless_default(tmp_path):
    frame = pd.DataFrame({"a": [1, 2, 3]}, index=pd.Index([10, 20, 30], name="key"))
    strata.write_parquet(frame, tmp_path / "i.parquet")
    back = strata.read_parquet(tmp_path / "i.parquet")
    assert list(back.columns) == ["key", "a"]
    assert list(back["key"]) == [10, 20, 30]
    unnamed = pd.DataFrame({"a": [1, 2]}, index=pd.Index(["x", "y"]))
    strata.write_parquet(unnamed, tmp_path / "u.parquet")
    assert list(strata.read_parquet(tmp_path / "u.parquet").columns) == ["__index_level_0__", "a"]
    default = pd.DataFrame({"a": [1, 2]})
    strata.write_parquet(default, tmp_path / "d.parquet")
    assert list(strata.read_parquet(tmp_path / "d.parquet").columns) == ["a"]


def test_schema_types(tmp_path):
    frame = pd.DataFrame({"i": np.arange(3, dtype="int16"), "n": pd.array([1, None, 2], dtype="Int64"),
                          "t": pd.date_range("2020", periods=3, tz="Asia/Tokyo"), "l": [[1], [2], []],
                          "c": pd.Categorical(["a", "b", "a"])})
    strata.write_parquet(frame, tmp_path / "s.parquet")
    schema = strata.ParquetFile(tmp_path / "s.parquet").schema
    assert schema.names == ["i", "n", "t", "l", "c"]
    assert schema.types == ["int16", "int64", "timestamp[ns, tz=Asia/Tokyo]", "list<element: int64>",
                            "dictionary<values=string, indices=int32>"]
    assert len(schema) == 5 and list(schema)[0] == ("i", "int16")
    assert "timestamp[ns, tz=Asia/Tokyo]" in repr(schema)


def test_all_null_object_column_is_string(tmp_path):
    strata.write_parquet(pd.DataFrame({"n": [None, None]}), tmp_path / "n.parquet")
    assert strata.ParquetFile(tmp_path / "n.parquet").schema.types == ["string"]


def test_mixed_object_column_names_column_and_row(tmp_path):
    frame = pd.DataFrame({"ok": [1, 2, 3, 4], "mixed": ["a", "b", 3, "d"]})
    with pytest.raises(ValueError, match=r"column 'mixed': row 2 holds 3 \(int\), not a str"):
        strata.write_parquet(frame, tmp_path / "m.parquet")
    assert not (tmp_path / "m.parquet").exists()


def test_times_and_maps_from_a_table(tmp_path):
    # Types pandas has no dtype for come back as Python objects.
    frame = pd.DataFrame({"d": [datetime.date(2024, 2, 29)]})
    strata.write_parquet(frame, tmp_path / "d.parquet")
    assert strata.read_parquet(tmp_path / "d.parquet")["d"][0] == datetime.date(2024, 2, 29)
