"""Errors: Python exceptions carrying strata's messages."""

import numpy as np
import pandas as pd
import pytest

import strata


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.parquet"
    with pytest.raises(FileNotFoundError, match="nope.parquet") as info:
        strata.read_parquet(missing)
    assert isinstance(info.value, strata.StrataError)
    assert info.value.errno == 2
    with pytest.raises(FileNotFoundError, match="nope.csv"):
        strata.read_csv(tmp_path / "nope.csv")


def test_corrupt_file(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1" + b"\x00" * 100 + b"PAR1")
    with pytest.raises(ValueError) as info:
        strata.read_parquet(path)
    assert isinstance(info.value, strata.InvalidFile)
    assert "bad.parquet" in str(info.value)


def test_corrupt_page_in_corpus(corpus):
    with pytest.raises(strata.InvalidFile, match="checksum mismatch"):
        strata.read_parquet(corpus / "datapage_v1-corrupt-checksum.parquet")


def test_not_parquet(tmp_path):
    path = tmp_path / "text.parquet"
    path.write_text("hello, this is not parquet at all")
    with pytest.raises(ValueError, match="text.parquet"):
        strata.ParquetFile(path)


@pytest.mark.parametrize("options, message", [
    (dict(codec="zip"), "unknown codec 'zip'"),
    (dict(compression="snappy"), "unknown option 'compression'"),
    (dict(page_version=3), "'page_version': 3 is out of range"),
    (dict(dictionary="yes"), "'dictionary': 'yes' is not True or False"),
    (dict(row_group_rows=0), "'row_group_rows': 0 is out of range"),
    (dict(level="high"), "'level': 'high' is not an integer"),
    (dict(encoding="fast"), "unknown encoding 'fast'"),
    (dict(encoding=5), "'encoding': 5 is not a string or a dict"),
    (dict(bloom_filter=[1]), "'bloom_filter': 1 is not a string"),
    (dict(threads=-1), "'threads': -1 is out of range"),
    (dict(content_defined_chunking={"min_size": 1}), "unknown option 'min_size'"),
    (dict(content_defined_chunking={"min_chunk_size": 4096, "max_chunk_size": 1024}), "min chunk size < max chunk size"),
    (dict(content_defined_chunking="yes"), "'content_defined_chunking': 'yes' is not True or False"),
])
def test_bad_writer_options(tmp_path, options, message):
    with pytest.raises(ValueError, match=message) as info:
        strata.write_parquet(pd.DataFrame({"a": [1]}), tmp_path / "x.parquet", **options)
    assert isinstance(info.value, strata.InvalidInput)
    assert not (tmp_path / "x.parquet").exists()


def test_encoding_that_does_not_apply(tmp_path):
    with pytest.raises(ValueError, match="DELTA_BINARY_PACKED encoding does not apply to BYTE_ARRAY"):
        strata.write_parquet(pd.DataFrame({"s": ["a"]}), tmp_path / "x.parquet", encoding="delta_binary_packed")


def test_bad_read_arguments(tmp_path):
    path = tmp_path / "a.parquet"
    strata.write_parquet(pd.DataFrame({"a": [1, 2]}), path)
    with pytest.raises(ValueError, match="unknown option 'nullable'"):
        strata.read_parquet(path, nullable=True)
    with pytest.raises(ValueError, match="strings='str'"):
        strata.read_parquet(path, strings="str")
    with pytest.raises(ValueError, match="row_groups must be a list of ints"):
        strata.read_parquet(path, row_groups=["0"])
    with pytest.raises(ValueError, match="columns must be a list of column names"):
        strata.read_parquet(path, columns="a")
    with pytest.raises(ValueError, match="threads must be an int"):
        strata.read_parquet(path, threads="4")


def test_unwritable_values(tmp_path):
    with pytest.raises(ValueError, match=r"column 'o': row 0 holds .*object.*which strata cannot write"):
        strata.write_parquet(pd.DataFrame({"o": [object()]}), tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="column names must be strings"):
        strata.write_parquet(pd.DataFrame({0: [1]}), tmp_path / "x.parquet")
    with pytest.raises(TypeError, match="DataFrame"):
        strata.write_parquet([1, 2], tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="outside int64"):
        strata.write_parquet(pd.DataFrame({"big": [1, 2**70]}), tmp_path / "x.parquet")


def test_timestamp_out_of_pandas_range(tmp_path):
    # Microsecond timestamps beyond 2262 do not fit datetime64[ns]: a ValueError naming the column.
    import struct
    from strata import _strata  # noqa: F401
    frame = pd.DataFrame({"t": pd.to_datetime(["2000-01-01"])})
    strata.write_parquet(frame, tmp_path / "t.parquet")
    # Build a microsecond table through the capsule of a CSV read (timestamps are µs there).
    csv = tmp_path / "t.csv"
    csv.write_text("t\n9999-12-31T00:00:00\n")
    with pytest.raises(ValueError, match="column 't'.*outside pandas' nanosecond range"):
        strata.read_csv(csv, schema={"t": "timestamp[us]"})


def test_exception_hierarchy():
    assert issubclass(strata.InvalidFile, ValueError) and issubclass(strata.InvalidFile, strata.StrataError)
    assert issubclass(strata.InvalidInput, ValueError)
    assert issubclass(strata.FileNotFound, FileNotFoundError)
    assert issubclass(strata.StrataMemoryError, MemoryError)
    assert issubclass(strata.StrataNotImplementedError, NotImplementedError)
    assert issubclass(strata.StrataIOError, OSError)


def test_out_of_memory_is_memory_error(tmp_path):
    from strata import _strata
    path = tmp_path / "m.parquet"
    strata.write_parquet(pd.DataFrame({"x": np.arange(1_000_000)}), path)
    _strata._set_pool_limit(1 << 20)
    try:
        with pytest.raises(MemoryError, match="exceeds the memory limit") as info:
            strata.read_parquet(path)
        assert isinstance(info.value, strata.StrataMemoryError)
    finally:
        _strata._set_pool_limit(0)
    assert len(strata.read_parquet(path)) == 1_000_000


def test_memory_limit_is_fitted_to_and_named_when_too_small(tmp_path):
    # 40 int64 columns x 200,000 rows (64 MB decoded) in one row group: under 16 MiB the read
    # shrinks its batches and windows and still yields every row; under 256 KiB it fails naming
    # the limit. The limit takes bytes or text, and None lifts it.
    path = tmp_path / "w.parquet"
    frame = pd.DataFrame({f"c{i}": np.arange(200_000, dtype=np.int64) * (i + 1) for i in range(40)})
    strata.write_parquet(frame, path, row_group_rows=200_000, dictionary=False)
    try:
        strata.set_memory_limit("16MiB")
        assert strata.memory_limit() == 16 << 20
        f = strata.ParquetFile(path)
        lengths = [len(batch) for batch in f.iter_batches(batch_rows=200_000)]
        assert sum(lengths) == 200_000
        assert max(lengths) * 40 * 8 <= 2 << 20  # an eighth of the limit a batch
        strata.set_memory_limit(256 << 10)
        with pytest.raises(strata.StrataMemoryError, match="memory limit of 262144 bytes"):
            strata.read_parquet(path)
        with pytest.raises(strata.InvalidInput, match="not a byte size"):
            strata.set_memory_limit("lots")
    finally:
        strata.set_memory_limit(None)
    assert strata.memory_limit() == 0
    assert len(strata.read_parquet(path)) == 200_000


def test_encrypted_file_says_so(corpus):
    # No key given: strata says the file is encrypted (whatever its support for decryption).
    with pytest.raises(strata.StrataError, match="encrypt"):
        strata.read_parquet(corpus / "encrypt_columns_and_footer.parquet.encrypted")
