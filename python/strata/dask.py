"""strata as Dask's Parquet reader and writer.

    import strata.dask
    ddf = strata.dask.read_parquet("data/", columns=["a", "b"], filter=[("a", ">", 10)])
    strata.dask.to_parquet(ddf, "out/", codec="zstd")

`read_parquet` makes one partition per row group (or per file, `split_row_groups=False`, or
per small file, `"auto"`) through `dask.dataframe.from_map`. The footers are read once, on the
client: they give the partitions, the `meta` (a zero-row read of the first file, so dtypes are
exactly what the partitions return), the row groups a filter cannot match (dropped before any
task exists) and, when `index` names a column whose statistics prove it sorted across
partitions, the divisions. Column projection is pushed into every partition's read: a
`ddf[["a"]]` reads only column `a`'s bytes.

`to_parquet` writes `part-N.parquet` per partition, on the workers, each with strata's writer
(options as in `strata.write_parquet` / `strata convert`).
"""

from __future__ import annotations

import fnmatch as _fnmatch
import glob as _glob
import os
import re
from concurrent.futures import ThreadPoolExecutor

import dask
import dask.dataframe as dd
from dask.base import tokenize
from dask.dataframe.utils import clear_known_categories

import strata
from strata import filters as _filters

__all__ = ["read_parquet", "to_parquet"]

# split_row_groups="auto": files smaller than this (compressed bytes) are one partition each.
DEFAULT_SMALL_FILE_BYTES = 64 * 1024 * 1024

_GLOB_CHARACTERS = re.compile(r"[*?\[]")


def _natural_key(path):
    """Sort key that puts part-9 before part-10."""
    return [int(piece) if piece.isdigit() else piece for piece in re.split(r"(\d+)", path)]


def _is_data_file(name):
    # Hidden files and metadata sidecars (_SUCCESS, _metadata, .crc) are not data.
    return not name.startswith((".", "_"))


def _is_s3(path):
    return path.startswith("s3://")


def _match_parts(parts, pattern):
    """Key parts against glob segments: one part per segment, '**' any number of parts."""
    if not pattern:
        return not parts
    if pattern[0] == "**":
        return any(_match_parts(parts[skip:], pattern[1:]) for skip in range(len(parts) + 1)
                   if all(_is_data_file(p) for p in parts[:skip]))
    return bool(parts) and _is_data_file(parts[0]) and _fnmatch.fnmatchcase(parts[0], pattern[0]) and \
        _match_parts(parts[1:], pattern[1:])


def _expand_s3(path, storage_options, sizes):
    """An s3:// object, prefix ending in '/' (every data object below it) or glob, listed by
    ListObjectsV2 from the machine that builds the graph; workers only read the objects."""
    bucket_end = path.find("/", 5)
    bucket_url, key = (path, "") if bucket_end < 0 else (path[:bucket_end], path[bucket_end + 1:])
    parts = key.split("/")
    fixed = 0
    while fixed < len(parts) and not _GLOB_CHARACTERS.search(parts[fixed]):
        fixed += 1
    if fixed < len(parts):
        prefix = bucket_url + "/" + "".join(p + "/" for p in parts[:fixed])
        pattern = parts[fixed:]
        found = [(url, size) for url, size in strata._strata._list_objects(prefix, storage_options)
                 if _match_parts(url[len(prefix):].split("/"), pattern)]
        what = f"no objects match '{path}'"
    elif path.endswith("/") or not key:
        prefix = path if path.endswith("/") else path + "/"
        found = [(url, size) for url, size in strata._strata._list_objects(prefix, storage_options)
                 if all(_is_data_file(p) for p in url[len(prefix):].split("/"))]
        what = f"no objects under '{path}'"
    else:
        found = [(url, size) for url, size in strata._strata._list_objects(path, storage_options) if url == path]
        what = f"no such object '{path}'"
    if not found:
        raise FileNotFoundError(f"strata.dask: {what}")
    sizes.update(found)
    return sorted((url for url, _ in found), key=_natural_key)


def expand_paths(path, storage_options=None, sizes=None):
    """The Parquet files named by a path, a glob, a directory (recursively) or a list of them,
    in a stable natural order; s3:// URLs alike (an object, a prefix ending in '/', a glob),
    their sizes added to `sizes`. Raises FileNotFoundError when nothing matches."""
    sizes = {} if sizes is None else sizes
    if isinstance(path, (list, tuple)):
        files = []
        for item in path:
            files.extend(expand_paths(item, storage_options, sizes))
        if not files:
            raise FileNotFoundError("strata.dask: an empty list of paths")
        return files
    path = os.fspath(path)
    if _is_s3(path):
        return _expand_s3(path, storage_options, sizes)
    if os.path.isdir(path):
        files = []
        for root, directories, names in os.walk(path):
            directories[:] = [d for d in directories if _is_data_file(d)]
            files.extend(os.path.join(root, name) for name in names if _is_data_file(name))
        if not files:
            raise FileNotFoundError(f"strata.dask: no files in directory '{path}'")
        return sorted(files, key=_natural_key)
    if _GLOB_CHARACTERS.search(path):
        files = [f for f in _glob.glob(path, recursive=True) if os.path.isfile(f)]
        if not files:
            raise FileNotFoundError(f"strata.dask: no files match '{path}'")
        return sorted(files, key=_natural_key)
    if not os.path.exists(path):
        raise FileNotFoundError(f"strata.dask: no such file '{path}'")
    return [path]


_KEY_OPTIONS = ("footer_key", "column_keys", "aad_prefix", "int96_unit", "storage_options")


def _read_footers(files, keys):
    """(schema, metadata) of every file; footers read in parallel (strata releases the GIL)."""

    def footer(path):
        with strata.ParquetFile(path, **keys) as parquet_file:
            return parquet_file.schema, parquet_file.metadata

    if len(files) <= 4:
        return [footer(f) for f in files]
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        return list(pool.map(footer, files))


def _check_same_schema(files, schemas):
    first = list(schemas[0])
    for path, schema in zip(files[1:], schemas[1:]):
        if list(schema) != first:
            raise ValueError(
                f"strata.dask: '{path}' has schema {list(schema)}, but '{files[0]}' has {first}; "
                "every file of a dataset must have the same columns and types"
            )


class _PartitionReader:
    """Reads one partition: (path, row groups). Follows Dask's DataFrameIOFunction protocol
    (`columns`, `project_columns`) so that Dask's optimizer narrows the columns read."""

    def __init__(self, columns, filter, index, threads, conversion):
        self._columns = list(columns)
        self._filter = filter
        self._index = index
        self._threads = threads
        self._conversion = dict(conversion)

    @property
    def columns(self):
        return self._columns

    def project_columns(self, columns):
        columns = list(columns)
        if columns == self._columns:
            return self
        return _PartitionReader(columns, self._filter, self._index, self._threads, self._conversion)

    def read_columns(self):
        if self._index is None or self._index in self._columns:
            return self._columns
        return self._columns + [self._index]

    def read(self, path, row_groups):
        frame = strata.read_parquet(
            path,
            columns=self.read_columns(),
            filter=self._filter,
            row_groups=row_groups,
            threads=self._threads,
            **self._conversion,
        )
        if self._index is not None:
            frame = frame.set_index(self._index)
        return frame

    def __call__(self, part):
        path, row_groups = part
        return self.read(path, row_groups)


def _partitions(files, metadatas, filter, split_row_groups, small_file_bytes):
    """[(path, row groups)] in file order, the row groups no filter can match left out."""
    parts = []
    for path, metadata in zip(files, metadatas):
        groups = list(range(metadata["num_row_groups"]))
        if filter is not None and not isinstance(filter, str):
            # A --filter string is pruned by each partition's reader, in C++.
            groups = _filters.prune_row_groups(metadata, filter)
        if not groups:
            continue
        one_partition = split_row_groups is False
        if split_row_groups == "auto":
            size = sum(
                chunk["compressed_size"]
                for group in metadata["row_groups"]
                for chunk in group["columns"].values()
            )
            one_partition = size < small_file_bytes
        if one_partition:
            parts.append((path, groups))
        else:
            parts.extend((path, [group]) for group in groups)
    return parts


def _index_bounds(metadata, row_groups, column):
    """(min, max) of `column` over the row groups, when every group's statistics give exact
    bounds and the column has no nulls; else None."""
    low = high = None
    for group in row_groups:
        chunk = metadata["row_groups"][group]["columns"].get(column)
        statistics = chunk and chunk.get("statistics")
        if not statistics or statistics.get("null_count") != 0:
            return None
        minimum, maximum = statistics.get("min"), statistics.get("max")
        if minimum is None or maximum is None:
            return None
        if not statistics.get("min_exact", False) or not statistics.get("max_exact", False):
            return None
        low = minimum if low is None or minimum < low else low
        high = maximum if high is None or maximum > high else high
    return low, high


def _divisions(parts, metadata_of, index):
    """Dask divisions (min of each partition, then the last maximum) when the index column's
    statistics prove the partitions sorted and disjoint; None (unknown) otherwise."""
    bounds = []
    for path, groups in parts:
        found = _index_bounds(metadata_of[path], groups, index)
        if found is None:
            return None
        bounds.append(found)
    for (_, previous_max), (next_min, _) in zip(bounds, bounds[1:]):
        if not previous_max < next_min:
            return None
    return tuple(low for low, _ in bounds) + (bounds[-1][1],)


def read_parquet(
    path,
    columns=None,
    filter=None,
    *,
    index=None,
    split_row_groups=True,
    small_file_bytes=DEFAULT_SMALL_FILE_BYTES,
    calculate_divisions=True,
    threads=1,
    **conversion,
):
    """A Dask DataFrame over Parquet files.

    path: a file, a glob ('data/*.parquet', '**' recursive), a directory (every file below it
        but hidden and _-prefixed ones) or a list of these.
    columns: top-level columns to read (default all); filter: as in strata.read_parquet (DNF
        tuples); row groups whose statistics rule the filter out become no partition at all.
    index: a column to use as the index; its statistics give the divisions when they prove
        the partitions sorted and disjoint (calculate_divisions=False skips that).
    split_row_groups: True, one partition per row group; False, one per file; "auto", one per
        file for files under small_file_bytes, else per row group.
    threads: strata's decode threads inside each partition's read (Dask's workers already
        run partitions in parallel). Other keywords are strata.read_parquet's conversion
        options (e.g. decimals="float") and the keys of encrypted files (footer_key,
        column_keys, aad_prefix; they travel to the workers with the task graph).
    """
    if split_row_groups not in (True, False, "auto"):
        raise ValueError(f"strata.dask: split_row_groups must be True, False or 'auto', not {split_row_groups!r}")
    if filter is not None and not isinstance(filter, str):
        _filters.validate(filter)
    keys = {name: conversion.pop(name) for name in _KEY_OPTIONS if conversion.get(name) is not None}
    remote_sizes = {}
    files = expand_paths(path, keys.get("storage_options"), remote_sizes)
    footers = _read_footers(files, keys)
    schemas = [schema for schema, _ in footers]
    metadatas = [metadata for _, metadata in footers]
    _check_same_schema(files, schemas)

    names = list(schemas[0].names)
    if columns is None:
        columns = [name for name in names if name != index]
    else:
        columns = list(columns)
        missing = [c for c in columns if c not in names]
        if missing:
            raise ValueError(f"strata.dask: no column {missing[0]!r} in '{files[0]}' (columns: {names})")
    if index is not None and index not in names:
        raise ValueError(f"strata.dask: index column {index!r} is not in '{files[0]}' (columns: {names})")

    # The reader's options are the conversion options and the keys; the token hashes only the
    # former (no key material in task names).
    reader = _PartitionReader(columns, filter, index, threads, {**conversion, **keys})
    meta = clear_known_categories(reader.read(files[0], []))

    parts = _partitions(files, metadatas, filter, split_row_groups, small_file_bytes)
    if not parts:
        # Every row group ruled out: one empty partition keeps the collection valid.
        parts = [(files[0], [])]
    divisions = None
    if index is not None and calculate_divisions:
        divisions = _divisions(parts, dict(zip(files, metadatas)), index)

    stamps = [(f, remote_sizes[f]) if f in remote_sizes else (f, os.path.getmtime(f), os.path.getsize(f)) for f in files]
    token = tokenize(stamps, parts, columns, filter, index, threads, sorted(conversion.items()))
    return dd.from_map(
        reader,
        parts,
        meta=meta,
        divisions=divisions,
        label="strata-read-parquet",
        token=token,
        enforce_metadata=False,
    )


def _write_partition(frame, path, write_index, options):
    if write_index:
        frame = frame.reset_index()
    strata.write_parquet(frame, path, **options)
    return {"path": path, "rows": len(frame), "pid": os.getpid()}


def to_parquet(ddf, directory, *, write_index=None, overwrite=False, compute=True, **options):
    """Writes `directory/part-N.parquet`, one file per partition, on the workers.

    write_index: write the index as a column (default: when the index is not a plain
        RangeIndex-like default, i.e. it has a name). overwrite: remove the part-*.parquet files
        already in the directory first (otherwise their presence is an error). Other keywords
        are strata.write_parquet's options (codec, row_group_rows, ...). Returns, with
        compute=True, one dict per partition: path, rows and the writer's process id;
        otherwise the delayed values.
    """
    directory = os.fspath(directory)
    storage_options = options.get("storage_options")
    if _is_s3(directory):
        # An S3 "directory" is a key prefix: nothing to create; the parts are objects under it.
        prefix = directory.rstrip("/") + "/"
        existing = [url[len(prefix):] for url, _ in strata._strata._list_objects(prefix, storage_options)
                    if re.fullmatch(r"part-\d+\.parquet", url[len(prefix):])]
        def join(name):
            return prefix + name
    else:
        os.makedirs(directory, exist_ok=True)
        existing = [name for name in os.listdir(directory) if re.fullmatch(r"part-\d+\.parquet", name)]
        def join(name):
            return os.path.join(directory, name)
    if existing and not overwrite:
        raise FileExistsError(
            f"strata.dask: '{directory}' already holds {len(existing)} part files; pass overwrite=True to replace them"
        )
    for name in existing:
        if _is_s3(directory):
            strata._strata._delete_object(join(name), storage_options)
        else:
            os.remove(join(name))
    if write_index is None:
        write_index = ddf.index.name is not None
    # Options are checked once on the client, so a typo fails before any task runs.
    strata.check_write_options(**options)
    writes = [
        dask.delayed(_write_partition)(part, join(f"part-{i}.parquet"), write_index, options)
        for i, part in enumerate(ddf.to_delayed())
    ]
    if not compute:
        return writes
    return list(dask.compute(*writes))
