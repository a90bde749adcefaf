"""The fast conversions of read_parquet: decimals="float" in C++ (correctly rounded, as
float(Decimal(text)) is), and object columns (strings, bytes, dates, times) whose repeated values
share one Python object."""

import datetime
import decimal
import math

import numpy as np
import pandas as pd
import pytest

import strata

D = decimal.Decimal


def _write_read(tmp_path, frame, **options):
    path = tmp_path / "t.parquet"
    strata.write_parquet(frame, path, row_group_rows=700)  # several chunks per column
    return strata.read_parquet(path, **options), strata.ParquetFile(path).schema.types


DECIMAL_CASES = {
    "scale2": ["0", "-0.01", "1.25", "-3.50", "99999.99", "0.10", "-0.30"],
    "scale0": ["0", "-1", str(2**53 - 1), str(2**53 + 1), str(-(2**53 + 1)), str(10**37 + 1), "-7"],
    "scale10": ["0.0000000001", "-1234567.8901234567", "12345678901234567890.1234567890", "0.3000000000",
                "-0.0000000003"],
    "scale23": ["0.00000000000000000000001", "1.23456789012345678901234", "-0.00000000000000000000007"],
    "digits38": ["12345678901234567890123456789012345678", "-99999999999999999999999999999999999999", "1"],
    "scale37": ["-1.2345678901234567890123456789012345678", "9.9999999999999999999999999999999999999", "0"],
    # decimal256: more than 38 digits.
    "digits76": ["1" * 70, "-" + "9" * 64 + ".123456", "0.5"],
}


@pytest.mark.parametrize("name", sorted(DECIMAL_CASES))
def test_decimals_as_float_are_correctly_rounded(tmp_path, name):
    texts = DECIMAL_CASES[name]
    values = [D(t) for t in texts] + [None]
    frame, types = _write_read(tmp_path, pd.DataFrame({"d": values}), decimals="float")
    assert types[0].startswith("decimal256" if name == "digits76" else "decimal128"), types
    got = frame["d"].to_numpy()
    assert got.dtype == np.float64
    for text, value in zip(texts, got):
        assert value == float(D(text)), (text, value)
        assert math.copysign(1, value) == math.copysign(1, float(D(text))) or value == 0
    assert math.isnan(got[-1])


def test_decimals_as_float_random_against_decimal_objects(tmp_path):
    rng = np.random.default_rng(11)
    for scale in (0, 2, 9, 15, 18):
        unscaled = [int(v) for v in rng.integers(-10**18, 10**18, 3000)] + [2**53, -(2**53) - 3, 10**18 - 1]
        values = [D(v).scaleb(-scale) for v in unscaled]
        values[5] = None
        path = tmp_path / f"r{scale}.parquet"
        strata.write_parquet(pd.DataFrame({"d": values}), path, row_group_rows=1000)
        as_float = strata.read_parquet(path, decimals="float")["d"].to_numpy()
        as_decimal = strata.read_parquet(path)["d"].tolist()
        for k, (f, d) in enumerate(zip(as_float, as_decimal)):
            if d is None:
                assert k == 5 and math.isnan(f)
            else:
                assert d == values[k] and f == float(d), (scale, k, d, f)


def test_low_cardinality_strings_share_objects(tmp_path):
    words = ["alpha", "beta", "", "gamma é"]
    expected = [None if i % 11 == 4 else words[i % 4] for i in range(3000)]
    frame, _ = _write_read(tmp_path, pd.DataFrame({"s": expected}))
    column = frame["s"]
    assert column.tolist() == expected
    # Equal values are one object, across row groups too: 4 strings and None.
    assert len({id(v) for v in column}) == 5
    assert column.iloc[0] is column.iloc[2992] and column.iloc[1] is column.iloc[1001]
    assert all(isinstance(v, str) for v in column if v is not None)


def test_repeated_bytes_share_objects(tmp_path):
    expected = [b"\x00\xff", b"xy", None] * 900
    frame, _ = _write_read(tmp_path, pd.DataFrame({"b": expected}))
    assert frame["b"].tolist() == expected
    assert frame["b"].iloc[0] is frame["b"].iloc[2100] and type(frame["b"].iloc[0]) is bytes


def test_long_and_many_distinct_strings_keep_their_values(tmp_path):
    # Past the memo's size (64 Ki entries) and length (64 bytes) limits: values still exact.
    long = "x" * 65 + "é"
    expected = [f"v{i}" for i in range(70000)] + ["v1", long, long, None, "v69999"] * 20
    frame, _ = _write_read(tmp_path, pd.DataFrame({"s": expected}))
    assert frame["s"].tolist() == expected
    pandas_strings = strata.read_parquet(tmp_path / "t.parquet", strings="pandas")["s"]
    assert pandas_strings.dtype == "string"
    assert pandas_strings.tolist()[-5:] == ["v1", long, long, pd.NA, "v69999"]


def test_pandas_strings_from_shared_objects(tmp_path):
    expected = ["a", "b", None] * 500
    frame, _ = _write_read(tmp_path, pd.DataFrame({"s": expected}), strings="pandas")
    assert frame["s"].dtype == "string"
    assert frame["s"].tolist() == ["a", "b", pd.NA] * 500


def test_repeated_dates_share_objects(tmp_path):
    days = [datetime.date(1992, 1, 2), datetime.date(2024, 2, 29), datetime.date(1, 1, 1), datetime.date(9999, 12, 31)]
    expected = [None if i % 9 == 8 else days[i % 4] for i in range(2800)]
    frame, types = _write_read(tmp_path, pd.DataFrame({"d": expected}))
    assert types == ["date32[day]"]
    column = frame["d"]
    assert column.tolist() == expected
    assert all(type(v) is datetime.date for v in column if v is not None)
    assert column.iloc[1] is column.iloc[2701] and len({id(v) for v in column}) == 5


def test_many_distinct_dates_keep_their_values(tmp_path):
    start = datetime.date(1900, 1, 1)
    expected = [start + datetime.timedelta(days=i) for i in range(70000)] + [start] * 10
    frame, _ = _write_read(tmp_path, pd.DataFrame({"d": expected}))
    assert frame["d"].tolist() == expected


def test_repeated_times_share_objects(tmp_path):
    times = [datetime.time(0, 0), datetime.time(23, 59, 59, 999999), datetime.time(12, 30, 1, 5)]
    expected = [None if i % 10 == 9 else times[i % 3] for i in range(2100)]
    frame, types = _write_read(tmp_path, pd.DataFrame({"t": expected}))
    assert types == ["time64[us]"]
    assert frame["t"].tolist() == expected
    assert frame["t"].iloc[2] is frame["t"].iloc[2000]
