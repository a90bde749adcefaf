"""strata: Parquet and CSV files to and from pandas DataFrames, on strata's C++ readers and writers.

    import strata
    df = strata.read_parquet("data.parquet", columns=["a", "b"], filter=[("a", ">", 3)])
    strata.write_parquet(df, "out.parquet", codec="zstd")
    with strata.ParquetFile("data.parquet") as f:
        for batch in f.iter_batches(batch_rows=100_000):
            ...

Conversion to pandas (read_parquet, read_csv, Table.to_pandas), by strata type:
  int / uint     required (non-nullable) fields: numpy arrays over strata's buffers, zero-copy;
                 nullable fields: pandas Int8..Int64 / UInt8..UInt64 (values zero-copy, a mask)
  float          float32/float64 with NaN for nulls (pyarrow's choice); Float32/Float64 with
                 nullable_floats=True. Zero-copy without nulls. float16 stays float16.
  bool           bool (required) or "boolean" (nullable)
  string         object arrays of str; pandas "string" dtype with strings="pandas"
  binary         object arrays of bytes
  timestamp      datetime64[ns] (naive) or datetime64[ns, tz] (zone from the type, UTC for
                 isAdjustedToUTC without a name); other units converted to ns; a value outside
                 pandas' ns range (years 1677..2262) is a ValueError naming the column
  date           datetime.date objects (pyarrow's default)
  time           datetime.time objects (nanoseconds truncated to microseconds)
  duration       timedelta64[ns]
  interval       (month_day_nano, Parquet INTERVAL) pandas.DateOffset(months=, days=,
                 nanoseconds=) objects: a month has no fixed length, so no timedelta
  decimal        decimal.Decimal objects; float64 with decimals="float"
  dictionary     Categorical (codes zero-copy when pandas' code width matches). A written
                 Categorical reads back as one (through the file's ARROW:schema): string
                 categories from the file's dictionaries, numeric and temporal ones re-encoded in
                 ascending order. Parquet keeps no unused categories.
  list types     lists; struct: dicts; map: lists of (key, value) tuples; null: None
The dtype comes from the schema (a field's nullability), not from whether the rows read hold
nulls, so every row group, batch and empty read of a file converts to the same dtypes
(categories excepted: they are the data's).

Conversion from pandas (write_parquet, write_csv, Table.from_pandas): numpy numbers zero-copy
(required fields), pandas nullable dtypes with their mask (optional fields), NaN stays NaN,
datetime64 (with zone) -> timestamp[ns], timedelta64 -> duration[ns], Categorical ->
dictionary, object columns by their values: str, bytes, bool, int, float, Decimal ->
decimal128(38, largest scale), datetime.date -> date32, datetime.time -> time64[us], lists,
dicts (structs); None/NaN/pd.NA/NaT are null, a column of nulls only is a string column, mixed
values are a ValueError naming the column and row. A default RangeIndex is dropped; any other
index is written as leading columns (its level names, or __index_level_<i>__).

Zero-copy arrays of read_parquet are writable (the DataFrame is the only owner of the
buffers); those of Table.to_pandas are read-only (the Table still shares them).

Errors derive from strata.StrataError and the builtin a caller expects: FileNotFoundError
(strata.FileNotFound) for a missing file, ValueError for bad arguments or options
(strata.InvalidInput) and for corrupt files (strata.InvalidFile) or passed limits
(strata.LimitExceeded), MemoryError (strata.StrataMemoryError), OSError for other I/O failures
(strata.StrataIOError), NotImplementedError for what strata does not support yet.

The GIL is released while strata reads, decodes and writes.
"""

import os

import pandas as pd

from . import _strata
from . import filters
from ._pandas import CONVERSION_OPTIONS, check_conversion, dataframe_specs, to_dataframe
from ._strata import (FileNotFound, InvalidFile, InvalidInput, LimitExceeded, StrataError, StrataIOError,
                      StrataMemoryError, StrataNotImplementedError, memory_limit, set_memory_limit)

__all__ = [
    "read_parquet", "write_parquet", "check_write_options", "read_table", "read_csv", "write_csv", "ParquetFile", "Table", "Schema",
    "StrataError", "FileNotFound", "InvalidInput", "InvalidFile", "LimitExceeded", "StrataMemoryError",
    "StrataIOError", "StrataNotImplementedError", "filters", "set_memory_limit", "memory_limit",
]


class Schema:
    """Column names and strata's type text ("int64", "timestamp[ns, tz=UTC]", "list<item: string>")."""

    def __init__(self, names, types):
        self.names = list(names)
        self.types = list(types)

    def __len__(self):
        return len(self.names)

    def __iter__(self):
        return iter(zip(self.names, self.types))

    def __getitem__(self, name):
        return self.types[self.names.index(name)]

    def __eq__(self, other):
        return isinstance(other, Schema) and self.names == other.names and self.types == other.types

    def __repr__(self):
        fields = ", ".join(f"{n}: {t}" for n, t in self)
        return f"strata.Schema({fields})"


class Table:
    """strata's columns as read, without conversion. Exports and imports the Arrow PyCapsule
    protocol (__arrow_c_stream__, __arrow_c_schema__), zero-copy."""

    def __init__(self, table):
        if not isinstance(table, _strata.Table):
            raise TypeError("strata.Table wraps a table strata made: use read_table, Table.from_arrow or "
                            "Table.from_pandas")
        self._table = table

    @property
    def num_rows(self):
        return self._table.num_rows

    @property
    def num_columns(self):
        return self._table.num_columns

    @property
    def column_names(self):
        return self._table.names

    @property
    def schema(self):
        return Schema(self._table.names, self._table.types)

    def to_pandas(self, **conversion):
        """A DataFrame (see the module's docstring for the conversion). Zero-copy arrays are
        read-only: the Table still shares its buffers."""
        return to_dataframe(self._table, **check_conversion(conversion))

    def __arrow_c_stream__(self, requested_schema=None):
        # requested_schema may be declined by a producer (the protocol): strata exports its types.
        return self._table.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self):
        return self._table.__arrow_c_schema__()

    @classmethod
    def from_arrow(cls, source):
        """A Table from any object with __arrow_c_stream__ (or an "arrow_array_stream" capsule)."""
        return cls(_strata.Table.from_arrow(source))

    @classmethod
    def from_pandas(cls, frame):
        """A Table from a DataFrame, as write_parquet converts it (numeric columns zero-copy)."""
        return cls(_strata.Table.from_column_specs(dataframe_specs(frame)))

    def equals(self, other):
        return isinstance(other, Table) and self._table.equals(other._table)

    def __eq__(self, other):
        return self.equals(other)

    def __len__(self):
        return self.num_rows

    def __repr__(self):
        return f"strata.Table({self.num_rows} rows: {', '.join(f'{n}: {t}' for n, t in self.schema)})"


def _table_of(data):
    if isinstance(data, Table):
        return data._table
    return _strata.Table.from_column_specs(dataframe_specs(data))


def _int_list(values, what):
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"{what} must be a list of ints, not {values!r}")
    out = []
    for v in values:
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise ValueError(f"{what} must be a list of ints: {v!r} is not an int")
        out.append(v.__index__())
    return out


def _name_list(values, what):
    if values is None:
        return None
    if isinstance(values, str) or not hasattr(values, "__iter__"):
        raise ValueError(f"{what} must be a list of column names, not {values!r}")
    out = list(values)
    for v in out:
        if not isinstance(v, str):
            raise ValueError(f"{what} must be a list of column names: {v!r} is not a string")
    return out


def _threads(threads):
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ValueError(f"threads must be an int (0: every core), not {threads!r}")
    return threads


class ParquetFile:
    """An open Parquet file: its schema and metadata, whole or partial reads, streaming batches.

        with strata.ParquetFile(path) as f:
            f.schema, f.metadata, f.num_rows, f.num_row_groups
            f.read(columns=["a"], row_groups=[0, 2], filter=[("a", ">", 1)])
            f.read_row_group(1)
            for df in f.iter_batches(batch_rows=65536): ...
    """

    def __init__(self, path, footer_key=None, column_keys=None, aad_prefix=None, int96_unit=None,
                 storage_options=None, restore_arrow_schema=True, row_number=False):
        """An encrypted file (Parquet modular encryption) opens with its keys: footer_key,
        column_keys ({column path: key}) for columns with keys of their own, aad_prefix when the
        writer did not store it. Keys are bytes (or str, as its UTF-8 bytes). int96_unit: INT96
        timestamps as "ns" (default; a value outside years 1677-2262 fails), "us" or "ms".
        An s3:// path reads with storage_options as s3fs users write them ({"endpoint_url",
        "region", "key", "secret", "token", "anon", "profile", ...}); None: the environment's
        (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_PROFILE and ~/.aws, ...).
        restore_arrow_schema: the types an Arrow writer's ARROW:schema records (time zones,
        durations, categoricals) are restored (default); False: the Parquet types.
        row_number: True (or a column name) adds a last column file_row_number (or that name):
        each row's position in the file from 0, whatever a filter or row_groups leave out, as
        DuckDB's file_row_number gives it (table formats apply deletion vectors with it)."""
        self.path = os.fspath(path)
        keys = {k: v for k, v in (("footer_key", footer_key), ("column_keys", column_keys),
                                  ("aad_prefix", aad_prefix), ("int96_unit", int96_unit),
                                  ("storage_options", storage_options)) if v is not None}
        keys["restore_arrow_schema"] = bool(restore_arrow_schema)
        if row_number is True:
            row_number = "file_row_number"
        if row_number:
            if not isinstance(row_number, str):
                raise ValueError(f"row_number must be True, False or a column name, not {row_number!r}")
            keys["row_number"] = row_number
        self._row_number = row_number or None
        self._reader = _strata.ParquetReader(self.path, keys)
        self._metadata = None

    @property
    def schema(self):
        return Schema(self._reader.names, self._reader.types)

    @property
    def metadata(self):
        """The footer as a dict: num_rows, num_row_groups, created_by, key_value_metadata, columns
        and per row group num_rows, total_byte_size and per leaf column (dotted path)
        physical_type, codec, encodings, sizes and statistics (null_count, min, max as Python
        values of the column's type, min_exact, max_exact; None where unknown or untrusted)."""
        if self._metadata is None:
            self._metadata = self._reader.metadata()
        return self._metadata

    @property
    def num_rows(self):
        return self._reader.num_rows

    @property
    def num_row_groups(self):
        return self._reader.num_row_groups

    def read_table(self, columns=None, row_groups=None, threads=None):
        return Table(self._reader.read(_name_list(columns, "columns"), _int_list(row_groups, "row_groups"),
                                       _threads(threads)))

    def read(self, columns=None, row_groups=None, filter=None, threads=None, **conversion):
        """A DataFrame of the chosen columns (in that order) and row groups ([] reads none: an
        empty DataFrame of the dtypes a full read gives), with the rows satisfying `filter`:
        DNF tuples as pyarrow and Dask spell them (see strata.filters), or a string in the
        command line's --filter syntax ("a >= 3 AND b IN ('x', 'y')"), evaluated in the reader."""
        check_conversion(conversion)
        columns = _name_list(columns, "columns")
        row_groups = _int_list(row_groups, "row_groups")
        if isinstance(filter, str):
            # The --filter text: pushed into the reader (statistics, dictionaries, Bloom
            # filters, the page index), with SQL's semantics (NaN is a value, not null).
            table = self._reader.read(columns, row_groups, _threads(threads), filter)
            return to_dataframe(table, exclusive=True, **conversion)
        conjunctions = filters.normalize(filter)
        if conjunctions is None:
            table = self._reader.read(columns, row_groups, _threads(threads))
            return to_dataframe(table, exclusive=True, **conversion)
        names = self._reader.names
        for column in filters.columns(conjunctions):
            if column not in names:
                raise ValueError(f"filter column {column!r} is not a column of '{self.path}'")
        groups = filters.prune_row_groups(self.metadata, conjunctions)
        if row_groups is not None:
            allowed = set(groups)
            groups = [g for g in row_groups if g in allowed]
        wanted = columns if columns is not None else names
        read = wanted + [c for c in filters.columns(conjunctions) if c not in wanted]
        table = self._reader.read(read, groups, _threads(threads))
        frame = filters.apply(to_dataframe(table, exclusive=True, **conversion), conjunctions)
        if len(read) != len(wanted):
            frame = frame[wanted + ([self._row_number] if self._row_number else [])]
        return frame

    def read_row_group(self, index, columns=None, threads=None, **conversion):
        return self.read(columns=columns, row_groups=[index], threads=threads, **conversion)

    def iter_batches(self, batch_rows=65536, columns=None, threads=None, **conversion):
        """DataFrames of at most batch_rows rows (a batch never spans row groups), read one at a
        time: memory stays about one batch whatever the file's size."""
        check_conversion(conversion)
        if isinstance(batch_rows, bool) or not isinstance(batch_rows, int):
            raise ValueError(f"batch_rows must be an int, not {batch_rows!r}")
        columns = _name_list(columns, "columns")
        if columns == []:
            # No column: frames of the batch sizes alone (a batch never spans row groups).
            if batch_rows < 1:
                raise ValueError(f"batch_rows must be at least 1, not {batch_rows}")
            for group in self.metadata["row_groups"]:
                for start in range(0, group["num_rows"], batch_rows):
                    yield pd.DataFrame(index=pd.RangeIndex(min(batch_rows, group["num_rows"] - start)))
            return
        batches = self._reader.batches(batch_rows, columns, _threads(threads))
        for batch in batches:
            yield to_dataframe(batch, exclusive=True, **conversion)

    def close(self):
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"strata.ParquetFile({self.path!r})"


def read_parquet(path, columns=None, filter=None, row_groups=None, threads=None, footer_key=None, column_keys=None,
                 aad_prefix=None, int96_unit=None, storage_options=None, restore_arrow_schema=True, row_number=False,
                 **conversion):
    """A Parquet file (a path, or an s3:// or http(s):// URL) as a DataFrame; see ParquetFile.read.
    threads: None is strata's default (1: decode on the calling thread), 0 every core, n that
    many threads. Keys of an encrypted file, int96_unit, storage_options and
    restore_arrow_schema and row_number: see ParquetFile."""
    with ParquetFile(path, footer_key, column_keys, aad_prefix, int96_unit, storage_options,
                     restore_arrow_schema, row_number) as f:
        return f.read(columns=columns, row_groups=row_groups, filter=filter, threads=threads, **conversion)


def read_table(path, columns=None, row_groups=None, threads=None, footer_key=None, column_keys=None, aad_prefix=None,
               int96_unit=None, storage_options=None, restore_arrow_schema=True, row_number=False):
    """A Parquet file as a strata.Table (strata's arrays, no conversion)."""
    with ParquetFile(path, footer_key, column_keys, aad_prefix, int96_unit, storage_options,
                     restore_arrow_schema, row_number) as f:
        return f.read_table(columns=columns, row_groups=row_groups, threads=threads)


def write_parquet(data, path, **options):
    """Writes a DataFrame or a strata.Table. Options (those of `strata convert`): codec
    ("snappy" default, "zstd", "gzip", "lz4", "lz4_raw", "brotli", "uncompressed"), level,
    row_group_rows, row_group_bytes, page_bytes, page_rows, page_version (1|2), dictionary (bool),
    encoding (str for every column or {column: str}), bloom_filter ([columns]), statistics (bool),
    threads, content_defined_chunking (True, or {"min_chunk_size": bytes, "max_chunk_size": bytes,
    "norm_level": int} as pyarrow's use_content_defined_chunking). The file appears at `path` only once complete (written under a temporary name).
    Encryption (Parquet modular encryption) with footer_key (bytes, 16/24/32 of them): every
    column under it, or with column_keys ({column path or prefix: key}) only those columns, each
    under its own key; plaintext_footer (bool), encryption_algorithm ("AES_GCM_V1" default,
    "AES_GCM_CTR_V1"), aad_prefix, store_aad_prefix (bool, default True). An s3:// path is
    written with one PUT or a multipart upload that becomes visible only when complete (aborted
    on failure), with storage_options as for ParquetFile (also part_size, max_parts_in_flight)."""
    _strata._write_parquet(_table_of(data), os.fspath(path), options)


def check_write_options(**options):
    """Checks write_parquet's options (ValueError naming a bad one) without writing anything.
    Checks that depend on the columns (an encoding that does not apply to a column's type) are
    made when writing."""
    _strata._check_writer_options(options)


def read_csv(path, **options):
    """A CSV file (.csv, .tsv, .csv.gz, .csv.zst) as a DataFrame. Options: delimiter (1 to 4
    characters: ", " and "||" too; detected when absent), header
    (True/False; detected when absent), null ([spellings]), all_strings, schema ({column: type}
    or "name:type,..."), columns ([names]), skip_rows, quote, escape, comment, ragged
    ("error"|"fill"|"skip"|"salvage"), max_bad_rows (with skip or salvage: the read fails when
    more rows are skipped; default: more than half), infer_whole_file, sample_bytes, batch_rows,
    threads, storage_options
    (for s3:// paths; see ParquetFile); and the conversion options (nullable_floats, strings,
    decimals)."""
    conversion = {k: options.pop(k) for k in list(options) if k in CONVERSION_OPTIONS}
    table = _strata._read_csv(os.fspath(path), options)
    return to_dataframe(table, exclusive=True, **conversion)


def write_csv(data, path, **options):
    """Writes a DataFrame or a strata.Table as CSV. Options: delimiter, header (bool), null (the
    spelling of nulls, "" by default), quote, line_ending, storage_options (for s3:// paths; see
    write_parquet)."""
    _strata._write_csv(_table_of(data), os.fspath(path), options)
