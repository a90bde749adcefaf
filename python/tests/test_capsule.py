"""The Arrow PyCapsule protocol: export and import through strata's C Stream Interface."""

import ctypes

import numpy as np
import pandas as pd
import pytest

import strata


def _capsule_name(capsule):
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    return get_name(capsule).decode()


@pytest.fixture
def table(tmp_path):
    frame = pd.DataFrame({"i": np.arange(1000), "s": [f"x{i}" for i in range(1000)],
                          "n": pd.array([None if i % 4 == 0 else i for i in range(1000)], dtype="Int32"),
                          "l": [[i, i + 1] for i in range(1000)],
                          "t": pd.date_range("2020", periods=1000, freq="h", tz="UTC")})
    strata.write_parquet(frame, tmp_path / "c.parquet", row_group_rows=300)
    return strata.read_table(tmp_path / "c.parquet"), frame


def test_capsule_names(table):
    t, _ = table
    assert _capsule_name(t.__arrow_c_stream__()) == "arrow_array_stream"
    assert _capsule_name(t.__arrow_c_schema__()) == "arrow_schema"
    assert _capsule_name(t.__arrow_c_stream__(requested_schema=None)) == "arrow_array_stream"


def test_round_trip_through_the_stream(table):
    t, frame = table
    back = strata.Table.from_arrow(t)
    assert back.equals(t)
    assert back.schema == t.schema
    pd.testing.assert_frame_equal(back.to_pandas(), frame)
    # A capsule itself is accepted too, once.
    capsule = t.__arrow_c_stream__()
    assert strata.Table.from_arrow(capsule).equals(t)
    with pytest.raises(ValueError, match="already consumed"):
        strata.Table.from_arrow(capsule)


def test_import_is_zero_copy(table):
    t, _ = table
    back = strata.Table.from_arrow(t)
    # The imported arrays view the exporter's buffers.
    assert back._table._buffer_address(0, 0, 1) == t._table._buffer_address(0, 0, 1)


def test_unreleased_capsules_are_freed(table):
    t, _ = table
    for _ in range(100):
        t.__arrow_c_stream__()  # dropped unconsumed: the destructor calls release
        t.__arrow_c_schema__()


def test_from_arrow_refuses_other_objects():
    with pytest.raises(ValueError, match="__arrow_c_stream__"):
        strata.Table.from_arrow(42)


def test_pandas_table_through_capsule(tmp_path):
    frame = pd.DataFrame({"a": np.arange(5, dtype=np.int16), "b": ["p", "q", None, "r", "s"]})
    table = strata.Table.from_pandas(frame)
    back = strata.Table.from_arrow(table)
    pd.testing.assert_frame_equal(back.to_pandas(), frame)
    strata.write_parquet(back, tmp_path / "p.parquet")
    pd.testing.assert_frame_equal(strata.read_parquet(tmp_path / "p.parquet"), frame)
