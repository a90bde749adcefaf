"""parquet-testing files read with known values (the values their .md files and the Arrow
test suites document)."""

import datetime
import decimal

import numpy as np
import pandas as pd

import pytest

import strata


def test_alltypes_plain(corpus):
    df = strata.read_parquet(corpus / "alltypes_plain.parquet")
    assert df.shape == (8, 11)
    assert list(df["id"]) == [4, 5, 6, 7, 2, 3, 0, 1]
    # Optional columns without nulls still get the nullable dtypes: the schema decides.
    assert df["id"].dtype == "Int32" and df["bool_col"].dtype == "boolean"
    assert list(df["bool_col"]) == [True, False] * 4
    assert list(df["bigint_col"]) == [0, 10] * 4
    assert df["float_col"].dtype == np.float32 and df["float_col"][1] == np.float32(1.1)
    assert list(df["double_col"]) == [0.0, 10.1] * 4
    assert df["date_string_col"][0] == b"03/01/09" and df["string_col"][1] == b"1"
    assert df["timestamp_col"].dtype == "datetime64[ns]"
    assert df["timestamp_col"][0] == pd.Timestamp("2009-03-01 00:00:00")
    assert df["timestamp_col"][1] == pd.Timestamp("2009-03-01 00:01:00")


def test_alltypes_columns_and_row_groups(corpus):
    df = strata.read_parquet(corpus / "alltypes_plain.parquet", columns=["string_col", "id"])
    assert list(df.columns) == ["string_col", "id"]
    assert list(df["id"]) == [4, 5, 6, 7, 2, 3, 0, 1]


def test_decimals(corpus):
    for name, type_text in [("int32_decimal.parquet", "decimal128(4, 2)"), ("int64_decimal.parquet", "decimal128(10, 2)"),
                            ("byte_array_decimal.parquet", "decimal128(4, 2)"),
                            ("fixed_length_decimal.parquet", "decimal128(25, 2)")]:
        f = strata.ParquetFile(corpus / name)
        assert f.schema.types == [type_text], name
        values = f.read()["value"]
        # 1.00 .. 24.00
        assert list(values) == [decimal.Decimal(i).quantize(decimal.Decimal("0.01")) for i in range(1, 25)], name
        assert str(values[0]) == "1.00"


def test_nested_lists(corpus):
    df = strata.read_parquet(corpus / "nested_lists.snappy.parquet")
    assert df["a"][0] == [[["a", "b"], ["c"]], [None, ["d"]]]
    assert df["a"][2] == [[["a", "b"], ["c", "d"], ["e"]], [None, ["f"]]]
    assert list(df["b"]) == [1, 1, 1]


def test_list_columns(corpus):
    df = strata.read_parquet(corpus / "list_columns.parquet")
    assert list(df["int64_list"]) == [[1, 2, 3], [None, 1], [4]]
    assert list(df["utf8_list"]) == [["abc", "efg", "hij"], None, ["efg", None, "hij", "xyz"]]


def test_structs_and_maps(corpus):
    nulls = strata.read_parquet(corpus / "nulls.snappy.parquet")
    assert list(nulls["b_struct"]) == [{"b_c_int": None}] * 8
    impala = strata.read_parquet(corpus / "nonnullable.impala.parquet")
    assert impala["ID"][0] == 8
    assert impala["Int_Map"][0] == [("k1", -1)]
    assert impala["int_array_array"][0] == [[-1, -2], []]
    assert impala["nested_Struct"][0]["c"] == {"D": [[{"e": -1, "f": "nonnullable"}]]}
    maps = strata.read_parquet(corpus / "map_no_value.parquet")
    assert maps["my_map"][0] == [(1, None), (2, None), (3, None)]
    assert maps["my_list"][2] == [7, 8, 9]


def test_binary_and_float16(corpus):
    df = strata.read_parquet(corpus / "binary.parquet")
    assert list(df["foo"]) == [bytes([i]) for i in range(12)]
    half = strata.read_parquet(corpus / "float16_nonzeros_and_nans.parquet")["x"]
    # A nullable float16 column with nulls is widened to float32 to hold NaN.
    assert half.dtype == np.float32
    assert np.isnan(half[0]) and half[1] == 1.0 and half[2] == -2.0


def test_datapage_v2(corpus):
    df = strata.read_parquet(corpus / "datapage_v2.snappy.parquet")
    assert list(df["a"]) == ["abc", "abc", "abc", None, "abc"]
    assert list(df["b"]) == [1, 2, 3, 4, 5]
    assert list(df["d"]) == [True, True, True, False, True]
    assert df["e"][0] == [1, 2, 3] and df["e"][1] is None


def test_delta_encodings_match_expected_csv(corpus):
    expected = pd.read_csv(corpus / "delta_binary_packed_expect.csv")
    df = strata.read_parquet(corpus / "delta_binary_packed.parquet")
    assert df.shape == expected.shape
    for column in ["bitwidth0", "bitwidth33", "bitwidth64", "int_value"] if "int_value" in expected else expected.columns[:5]:
        assert list(df[column].astype("int64")) == list(expected[column]), column


def test_metadata_of_a_corpus_file(corpus):
    md = strata.ParquetFile(corpus / "alltypes_plain.parquet").metadata
    assert md["num_rows"] == 8 and md["num_row_groups"] == 1
    assert md["columns"][:2] == ["id", "bool_col"]
    chunk = md["row_groups"][0]["columns"]["id"]
    assert chunk["physical_type"] == "INT32"
    assert chunk["codec"] == "UNCOMPRESSED"
    assert md["created_by"].startswith("impala")


def test_statistics_are_typed(corpus):
    md = strata.ParquetFile(corpus / "int32_decimal.parquet").metadata
    stats = md["row_groups"][0]["columns"]["value"]["statistics"]
    if stats is not None and stats["min"] is not None:
        assert stats["min"] == decimal.Decimal("1.00") and stats["max"] == decimal.Decimal("24.00")
    # parquet-mr 1.8 wrote only the legacy min/max: signed comparisons, trusted for numbers, not
    # for byte arrays (old writers compared them as signed bytes).
    md = strata.ParquetFile(corpus / "datapage_v2.snappy.parquet").metadata
    stats = md["row_groups"][0]["columns"]["a"]["statistics"]
    assert stats["min"] is None and stats["max"] is None and stats["null_count"] == 1
    stats = md["row_groups"][0]["columns"]["b"]["statistics"]
    assert (stats["min"], stats["max"], stats["null_count"]) == (1, 5, 0)
    # min_value / max_value: strings as str; INT96 has no defined order, so no bounds.
    md = strata.ParquetFile(corpus / "alltypes_tiny_pages.parquet").metadata
    columns = md["row_groups"][0]["columns"]
    assert (columns["id"]["statistics"]["min"], columns["id"]["statistics"]["max"]) == (0, 7299)
    assert (columns["string_col"]["statistics"]["min"], columns["string_col"]["statistics"]["max"]) == ("0", "9")
    assert columns["timestamp_col"]["statistics"]["min"] is None


def test_int96_beyond_nanoseconds_fails_or_reads_coarser(corpus):
    # Spark's int96_from_spark.parquet holds 9999-12-31, outside timestamp[ns]: an error naming
    # the column and row by default, the values at millisecond resolution on request.
    path = corpus / "int96_from_spark.parquet"
    with pytest.raises(strata.InvalidInput, match=r"column 'a'.*row 2 of the row group.*int96-unit"):
        strata.read_parquet(path)
    table = strata.read_table(path, int96_unit="ms")
    assert table.num_rows == 6 and table.schema.types == ["timestamp[ms]"]
    # (pandas holds only nanoseconds: the table's values are checked in C++, in
    # parquet_completeness_test.)
    with pytest.raises(strata.InvalidInput, match="outside pandas' nanosecond range"):
        table.to_pandas()
    with pytest.raises(strata.InvalidInput, match="int96_unit"):
        strata.read_parquet(path, int96_unit="s")
