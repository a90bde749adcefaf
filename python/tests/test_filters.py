"""Filters: every op, DNF, nulls (never match a comparison), row group pruning proven on a
file of sorted row groups, validation errors."""

import numpy as np
import pandas as pd
import pytest

import strata
from strata import filters

GROUP = 100


@pytest.fixture
def sorted_file(tmp_path):
    """10 row groups of 100 rows: x = 0..999 sorted, so group g holds [100g, 100g + 99]; y has
    nulls only in group 3; s is a string per group."""
    n = 10 * GROUP
    x = np.arange(n, dtype=np.int64)
    y = pd.array(np.arange(n), dtype="Int64")
    y[300:400] = pd.NA
    s = [f"g{i // GROUP}" for i in range(n)]
    frame = pd.DataFrame({"x": x, "y": y, "s": s, "f": x / 10})
    path = tmp_path / "sorted.parquet"
    strata.write_parquet(frame, path, row_group_rows=GROUP)
    return path, frame


def prune(path, filter):
    return filters.prune_row_groups(strata.ParquetFile(path).metadata, filter)


def test_pruning_picks_exactly_the_groups(sorted_file):
    path, _ = sorted_file
    assert prune(path, [("x", "==", 250)]) == [2]
    assert prune(path, [("x", "=", 250)]) == [2]
    assert prune(path, [("x", "<", 150)]) == [0, 1]
    assert prune(path, [("x", "<=", 199)]) == [0, 1]
    assert prune(path, [("x", "<", 100)]) == [0]
    assert prune(path, [("x", ">", 899)]) == [9]
    assert prune(path, [("x", ">=", 899)]) == [8, 9]
    assert prune(path, [("x", "in", [5, 505, 5000])]) == [0, 5]
    assert prune(path, [("x", "!=", 5)]) == list(range(10))
    assert prune(path, [("x", "not in", [1, 2])]) == list(range(10))
    assert prune(path, [("y", "is null", None)]) == [3]
    assert prune(path, [("y", "is not null", None)]) == [0, 1, 2, 4, 5, 6, 7, 8, 9]
    assert prune(path, [("y", "==", 350)]) == []  # group 3 is all null
    assert prune(path, [("s", "==", "g7")]) == [7]
    assert prune(path, [("s", ">=", "g8")]) == [8, 9]
    # AND within a list, OR across lists.
    assert prune(path, [("x", ">=", 100), ("x", "<", 300)]) == [1, 2]
    assert prune(path, [[("x", "<", 50)], [("x", ">", 950)]]) == [0, 9]
    assert prune(path, [[("x", "<", 50), ("s", "==", "g5")], [("x", "==", 420)]]) == [4]
    assert prune(path, None) == list(range(10))


def test_single_valued_groups_prune_not_equal(tmp_path):
    frame = pd.DataFrame({"k": np.repeat(np.arange(4), 10)})
    strata.write_parquet(frame, tmp_path / "k.parquet", row_group_rows=10)
    assert prune(tmp_path / "k.parquet", [("k", "!=", 2)]) == [0, 1, 3]
    assert prune(tmp_path / "k.parquet", [("k", "not in", [0, 3])]) == [1, 2]


def test_groups_without_statistics_are_kept(tmp_path):
    frame = pd.DataFrame({"x": np.arange(40)})
    strata.write_parquet(frame, tmp_path / "n.parquet", row_group_rows=10, statistics=False)
    assert prune(tmp_path / "n.parquet", [("x", "==", 5)]) == [0, 1, 2, 3]
    assert list(strata.read_parquet(tmp_path / "n.parquet", filter=[("x", "==", 5)])["x"]) == [5]


def test_read_parquet_applies_each_op(sorted_file):
    path, frame = sorted_file
    cases = [
        (("x", "==", 250), frame.x == 250), (("x", "!=", 250), frame.x != 250),
        (("x", "<", 150), frame.x < 150), (("x", "<=", 150), frame.x <= 150),
        (("x", ">", 990), frame.x > 990), (("x", ">=", 990), frame.x >= 990),
        (("x", "in", [1, 500, 999]), frame.x.isin([1, 500, 999])),
        (("x", "not in", list(range(10, 1000))), ~frame.x.isin(range(10, 1000))),
        (("s", "==", "g4"), frame.s == "g4"),
        (("f", "<", 1.0), frame.f < 1.0),
    ]
    for predicate, mask in cases:
        got = strata.read_parquet(path, filter=[predicate])
        expected = frame[mask.to_numpy()].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected, check_dtype=True, obj=str(predicate))


def test_nulls_never_match_comparisons(sorted_file):
    path, frame = sorted_file
    # y is null for 300..399: none of those rows satisfy != or not in.
    got = strata.read_parquet(path, filter=[("y", "!=", 5)])
    assert len(got) == 1000 - 100 - 1
    assert not got["y"].isna().any()
    got = strata.read_parquet(path, filter=[("y", "not in", [0])])
    assert len(got) == 899
    nulls = strata.read_parquet(path, filter=[("y", "is null", None)])
    assert list(nulls["x"]) == list(range(300, 400))
    assert len(strata.read_parquet(path, filter=[("y", "is not null", None)])) == 900
    objects = pd.DataFrame({"s": ["a", None, "c", None]})
    assert list(filters.apply(objects, [("s", "<", "b")])["s"]) == ["a"]
    assert list(filters.apply(objects, [("s", "!=", "a")])["s"]) == ["c"]


def test_dnf_and_column_selection(sorted_file):
    path, frame = sorted_file
    got = strata.read_parquet(path, columns=["s"], filter=[[("x", "<", 3)], [("x", "==", 999), ("s", "==", "g9")]])
    assert list(got.columns) == ["s"]  # the filter's columns are read, then dropped
    assert list(got["s"]) == ["g0", "g0", "g0", "g9"]
    assert isinstance(got.index, pd.RangeIndex) and list(got.index) == [0, 1, 2, 3]
    # A filter matching nothing: an empty frame of the right dtypes.
    none = strata.read_parquet(path, filter=[("x", ">", 10_000)])
    assert len(none) == 0 and (none.dtypes == frame.dtypes).all()


def test_filter_with_row_groups(sorted_file):
    path, _ = sorted_file
    got = strata.read_parquet(path, row_groups=[0, 5], filter=[("x", ">=", 50)])
    assert list(got["x"]) == list(range(50, 100)) + list(range(500, 600))


@pytest.mark.parametrize("bad, message", [
    ([("x", "~", 1)], "unknown op '~'"),
    ([("x", "in", 5)], "takes a list"),
    ([("x", "in", "abc")], "takes a list"),
    ([(1, "==", 1)], "is not a string"),
    ([("x", "==")], "needs a value"),
    ([("x", "==", 1, 2)], "is not \\(column, op, value\\)"),
    (("x", "==", 1), "must be inside a list"),
    ([], "filter is empty"),
    ([("x", "==", 1), [("x", "==", 2)]], "mixes predicates"),
    ([[]], "not a non-empty list"),
    (42, "is not a list"),  # a string is the --filter text (tests below)
])
def test_malformed_filters(sorted_file, bad, message):
    path, _ = sorted_file
    with pytest.raises(ValueError, match=message):
        strata.read_parquet(path, filter=bad)


def test_unknown_filter_column(sorted_file):
    path, _ = sorted_file
    with pytest.raises(ValueError, match="filter column 'nope'"):
        strata.read_parquet(path, filter=[("nope", "==", 1)])


def test_pruning_on_timestamps_dates_and_decimals(tmp_path):
    import datetime
    import decimal
    tz = datetime.timezone(datetime.timedelta(hours=-3, minutes=-30))
    frame = pd.DataFrame({
        "t": pd.date_range("2020-01-01", periods=100, freq="D", tz=tz),
        "d": [datetime.date(2020, 1, 1) + datetime.timedelta(days=i) for i in range(100)],
        "m": [decimal.Decimal(i).scaleb(-1) for i in range(100)],
    })
    path = tmp_path / "t.parquet"
    strata.write_parquet(frame, path, row_group_rows=25)
    assert prune(path, [("t", ">=", pd.Timestamp("2020-03-01", tz="UTC"))]) == [2, 3]
    assert prune(path, [("d", "<", datetime.date(2020, 1, 10))]) == [0]
    assert prune(path, [("m", ">", decimal.Decimal("7.4"))]) == [3]
    assert prune(path, [("m", ">=", decimal.Decimal("7.4"))]) == [2, 3]
    got = strata.read_parquet(path, filter=[("d", "<", datetime.date(2020, 1, 10))])
    pd.testing.assert_frame_equal(got, frame.iloc[:9])


# String filters: the --filter grammar, pushed into the C++ reader.

@pytest.mark.parametrize("text, expected", [
    ("x >= 250 AND x < 260", lambda f: (f.x >= 250) & (f.x < 260)),
    ("y IS NULL", lambda f: f.y.isna()),
    ("s IN ('g1', 'g7') AND NOT (x > 750)", lambda f: f.s.isin(["g1", "g7"]) & ~(f.x > 750)),
    ("f < 1.5 OR y = 998", lambda f: (f.f < 1.5) | (f.y == 998).fillna(False)),
    ("x < 0", lambda f: f.x < 0),
])
def test_string_filters_equal_pandas(sorted_file, text, expected):
    path, frame = sorted_file
    got = strata.read_parquet(path, filter=text)
    want = frame[expected(frame).astype(bool)].reset_index(drop=True)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_dtype=False)


def test_string_filter_with_columns_and_row_groups(sorted_file):
    path, frame = sorted_file
    got = strata.ParquetFile(path).read(columns=["s"], row_groups=[2, 3], filter="x >= 295")
    assert list(got.columns) == ["s"]
    assert len(got) == 105  # 295..399


def test_string_filter_errors_name_the_position(sorted_file):
    path, _ = sorted_file
    with pytest.raises(ValueError, match="at 6"):
        strata.read_parquet(path, filter="x >= ")
    with pytest.raises(ValueError, match="nope"):
        strata.read_parquet(path, filter="nope = 3")


def test_row_numbers_are_file_positions_whatever_is_filtered(sorted_file):
    """row_number=True: x is the row's position in sorted.parquet, so file_row_number must
    equal it through a pushed filter, a DNF filter, row_groups and iter_batches."""
    path, frame = sorted_file
    pushed = strata.read_parquet(path, columns=["s"], filter="x >= 250 AND x < 260 OR x = 999", row_number=True)
    assert list(pushed.columns) == ["s", "file_row_number"]
    assert pushed["file_row_number"].tolist() == list(range(250, 260)) + [999]
    dnf = strata.read_parquet(path, columns=["y"], filter=[("x", ">", 995)], row_number="pos")
    assert list(dnf.columns) == ["y", "pos"]
    assert dnf["pos"].tolist() == [996, 997, 998, 999]
    with strata.ParquetFile(path, row_number=True) as f:
        groups = f.read(columns=["x"], row_groups=[7, 2])
        assert groups["file_row_number"].tolist() == groups["x"].tolist()
        assert groups["x"].tolist() == list(range(700, 800)) + list(range(200, 300))
        seen = []
        for batch in f.iter_batches(batch_rows=33, columns=["x"]):
            assert batch["file_row_number"].tolist() == batch["x"].tolist()
            seen += batch["x"].tolist()
        assert seen == list(range(len(frame)))
    with pytest.raises(ValueError, match="already"):
        strata.ParquetFile(path, row_number="x")
