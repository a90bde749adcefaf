"""CSV: read_csv / write_csv round trips and options."""

import datetime

import numpy as np
import pandas as pd
import pytest

import strata


def test_round_trip(tmp_path):
    frame = pd.DataFrame({"i": np.arange(100, dtype=np.int64), "f": np.linspace(0, 1, 100),
                          "s": [f"text, with \"quotes\" {i}" for i in range(100)],
                          "b": np.arange(100) % 2 == 0})
    path = tmp_path / "r.csv"
    strata.write_csv(frame, path)
    back = strata.read_csv(path)
    assert list(back.columns) == ["i", "f", "s", "b"]
    assert list(back["i"]) == list(range(100))
    np.testing.assert_allclose(back["f"].to_numpy(), frame["f"].to_numpy())
    assert list(back["s"]) == list(frame["s"])
    assert list(back["b"]) == list(frame["b"])


def test_nulls_round_trip(tmp_path):
    frame = pd.DataFrame({"n": pd.array([1, None, 3], dtype="Int64"), "s": ["a", None, ""]})
    path = tmp_path / "n.csv"
    strata.write_csv(frame, path)
    back = strata.read_csv(path)
    assert back["n"].dtype == "Int64" and back["n"].isna().tolist() == [False, True, False]
    assert list(back["s"]) == ["a", None, ""]  # an empty string stays apart from null


def test_write_options(tmp_path):
    frame = pd.DataFrame({"a": [1, 2], "b": ["x", None]})
    path = tmp_path / "o.csv"
    strata.write_csv(frame, path, delimiter=";", header=False, null="NULL")
    assert path.read_text() == "1;x\n2;NULL\n"
    strata.write_csv(frame, path, delimiter="\t", line_ending="\r\n")
    assert path.read_bytes() == b"a\tb\r\n1\tx\r\n2\t\r\n"


def test_read_options(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("# comment\nskip me\nx|y|z\n1|a|2020-01-02\n-|b|2021-03-04\n")
    df = strata.read_csv(path, delimiter="|", skip_rows=2, null=["-"], header=True)
    assert list(df.columns) == ["x", "y", "z"]
    assert df["x"].isna().tolist() == [False, True]
    assert df["z"][0] == datetime.date(2020, 1, 2)
    strings = strata.read_csv(path, delimiter="|", skip_rows=2, all_strings=True)
    assert list(strings["x"]) == ["1", "-"]
    typed = strata.read_csv(path, delimiter="|", skip_rows=2, null=["-"], schema={"x": "float64", "y": "string"})
    assert typed["x"].dtype == np.float64
    spec = strata.read_csv(path, delimiter="|", skip_rows=2, null=["-"], schema="x:int32", columns=["y", "x"])
    assert list(spec.columns) == ["y", "x"] and spec["x"].dtype == "Int32"
    spaced = tmp_path / "spaced.csv"  # a two-byte delimiter, given and detected
    spaced.write_text('id, name\n1, "a, b"\n2, c\n')
    for df in (strata.read_csv(spaced, delimiter=", "), strata.read_csv(spaced)):
        assert list(df.columns) == ["id", "name"] and list(df["name"]) == ["a, b", "c"]
    with pytest.raises(Exception, match="1 to 4 characters"):
        strata.read_csv(spaced, delimiter=",,,,,")
    noheader = tmp_path / "nh.csv"
    noheader.write_text("1,2\n3,4\n")
    df = strata.read_csv(noheader, header=False)
    assert list(df.columns) == ["f0", "f1"] and list(df["f1"]) == [2, 4]
    assert strata.read_csv(noheader, header=False, threads=1, batch_rows=1).shape == (2, 2)


def test_ragged_rows(tmp_path):
    path = tmp_path / "rag.csv"
    path.write_text("a,b\n1,2\n3\n4,5\n")
    with pytest.raises(ValueError, match="line 3"):
        strata.read_csv(path)
    assert len(strata.read_csv(path, ragged="skip")) == 2
    assert strata.read_csv(path, ragged="fill")["b"].isna().tolist() == [False, True, False]
    # salvage pads short rows and skips long ones; losing more than half the rows fails unless
    # max_bad_rows allows it.
    path.write_text("a,b\n1,2\n3\n4,5,6\n7,8\n")
    salvaged = strata.read_csv(path, ragged="salvage")
    assert salvaged["a"].tolist() == [1, 3, 7] and salvaged["b"].isna().tolist() == [False, True, False]
    path.write_text("a,b,c\n1,2\n3,4,5,6\n7,8\n9,10,11,12\n")
    with pytest.raises(ValueError, match="4 of 4 rows skipped"):
        strata.read_csv(path, ragged="skip")
    assert len(strata.read_csv(path, ragged="skip", max_bad_rows=4)) == 0


def test_bad_csv_options(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a\n1\n")
    with pytest.raises(ValueError, match="unknown option 'sep'"):
        strata.read_csv(path, sep=",")
    with pytest.raises(ValueError, match="'ragged': 'maybe'"):
        strata.read_csv(path, ragged="maybe")
    with pytest.raises(ValueError, match="'header': 'yes' is not True or False"):
        strata.read_csv(path, header="yes")
    with pytest.raises(ValueError, match="column 'a'"):
        strata.read_csv(path, schema={"a": "int99"})
    with pytest.raises(ValueError, match="unknown option 'quoting'"):
        strata.write_csv(pd.DataFrame({"a": [1]}), tmp_path / "y.csv", quoting=1)


def test_csv_to_parquet(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("k,v\na,1.5\nb,\nc,3\n")
    frame = strata.read_csv(path)
    strata.write_parquet(frame, tmp_path / "c.parquet")
    pd.testing.assert_frame_equal(strata.read_parquet(tmp_path / "c.parquet"), frame)
