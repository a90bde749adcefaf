"""Row filters in disjunctive normal form, as pyarrow and Dask spell them.

A filter is a list of (column, op, value) predicates, ANDed, or a list of such lists, ORed.
Ops: ==, =, !=, <, <=, >, >=, in, not in, is null, is not null (value ignored). Rows match as
in SQL: a null never satisfies a comparison (nor `in` / `not in`); NaN counts as null, as pandas'
isna() has it.

Two halves: prune_row_groups() picks the row groups whose footer statistics allow a match, and
apply() masks the rows of a DataFrame. read_parquet reads the pruned row groups and applies the
mask in pandas. (Pushing predicates into strata's C++ reader, per page, is a later issue.)
"""

import numpy as np
import pandas as pd

COMPARISONS = ("==", "=", "!=", "<", "<=", ">", ">=")
MEMBERSHIP = ("in", "not in")
NULL_TESTS = ("is null", "is not null")
OPS = COMPARISONS + MEMBERSHIP + NULL_TESTS


def _is_predicate(item):
    return isinstance(item, tuple) or (isinstance(item, list) and len(item) in (2, 3) and isinstance(item[0], str)
                                        and isinstance(item[1], str) and item[1].lower() in OPS)


def _check_predicate(item):
    if len(item) not in (2, 3):
        raise ValueError(f"filter predicate {item!r} is not (column, op, value)")
    column, op = item[0], item[1]
    value = item[2] if len(item) == 3 else None
    if not isinstance(column, str):
        raise ValueError(f"filter predicate {item!r}: the column {column!r} is not a string")
    if not isinstance(op, str) or op.lower() not in OPS:
        raise ValueError(f"filter predicate {item!r}: unknown op {op!r} (ops: {', '.join(OPS)})")
    op = op.lower()
    if len(item) == 2 and op not in NULL_TESTS:
        raise ValueError(f"filter predicate {item!r}: op {op!r} needs a value")
    if op in MEMBERSHIP:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise ValueError(f"filter predicate {item!r}: op {op!r} takes a list, tuple or set of values")
        value = list(value)
    if op == "=":
        op = "=="
    return (column, op, value)


def normalize(filter):
    """The filter as a list of conjunctions (lists of checked (column, op, value) tuples), or
    None for no filter. ValueError says what is wrong with a malformed one."""
    if filter is None:
        return None
    if isinstance(filter, tuple) and filter and isinstance(filter[0], str):
        raise ValueError(f"filter {filter!r}: a predicate must be inside a list: [(column, op, value)]")
    if not isinstance(filter, (list, tuple)):
        raise ValueError(f"filter {filter!r} is not a list of (column, op, value) tuples or a list of such lists")
    if len(filter) == 0:
        raise ValueError("filter is empty: give a list of (column, op, value) tuples, or None")
    if all(_is_predicate(item) for item in filter):
        return [[_check_predicate(item) for item in filter]]
    conjunctions = []
    for conjunction in filter:
        if _is_predicate(conjunction):
            raise ValueError(f"filter mixes predicates and lists of predicates: {conjunction!r} is not in a list")
        if not isinstance(conjunction, (list, tuple)) or len(conjunction) == 0:
            raise ValueError(f"filter term {conjunction!r} is not a non-empty list of (column, op, value) tuples")
        for item in conjunction:
            if not _is_predicate(item):
                raise ValueError(f"filter term {conjunction!r}: {item!r} is not a (column, op, value) tuple")
        conjunctions.append([_check_predicate(item) for item in conjunction])
    return conjunctions


def validate(filter):
    """Checks a filter's shape and ops (ValueError naming what is wrong); returns it normalized."""
    return normalize(filter)


def columns(filter):
    """The columns a (normalized) filter reads, in first-use order."""
    out = []
    for conjunction in filter or []:
        for column, _, _ in conjunction:
            if column not in out:
                out.append(column)
    return out


# ---- row group pruning ---------------------------------------------------------------------

def _may_match(stats, num_rows, physical_type, op, value):
    """False only when the statistics prove that no row of the row group satisfies the predicate."""
    if stats is None:
        return True
    null_count = stats.get("null_count")
    floating = physical_type in ("FLOAT", "DOUBLE") or physical_type is None
    if op == "is null":
        # NaN counts as null for apply(), and the statistics do not count NaNs.
        return floating or null_count is None or null_count > 0
    if op == "is not null":
        return null_count is None or null_count < num_rows
    if null_count is not None and null_count >= num_rows:
        return False  # only nulls: no comparison matches
    lo, hi = stats.get("min"), stats.get("max")
    if lo is None or hi is None:
        return True
    exact = stats.get("min_exact", False) and stats.get("max_exact", False)
    try:
        if op == "==":
            return bool(lo <= value <= hi)
        if op == "!=":
            return not (exact and lo == hi == value)
        if op == "<":
            return bool(lo < value)
        if op == "<=":
            return bool(lo <= value)
        if op == ">":
            return bool(hi > value)
        if op == ">=":
            return bool(hi >= value)
        if op == "in":
            return any(v is not None and lo <= v <= hi for v in value)
        if op == "not in":
            return not (exact and lo == hi and lo in value)
    except TypeError:
        return True  # values the statistics cannot be compared with: keep the row group
    return True


def prune_row_groups(metadata, filter):
    """The indices of the row groups that may hold matching rows, by the min/max/null_count
    statistics in `metadata` (ParquetFile.metadata). A row group without usable statistics for
    a column is kept. Only top-level, non-nested columns are pruned on."""
    conjunctions = normalize(filter)
    groups = metadata["row_groups"]
    if conjunctions is None:
        return list(range(len(groups)))
    keep = []
    for index, group in enumerate(groups):
        chunks = group["columns"]

        def predicate_may_match(column, op, value):
            chunk = chunks.get(column)
            if chunk is None:  # nested (or absent): no statistics of the column as a whole
                return True
            return _may_match(chunk.get("statistics"), group["num_rows"], chunk.get("physical_type"), op, value)

        if any(all(predicate_may_match(*p) for p in conjunction) for conjunction in conjunctions):
            keep.append(index)
    return keep


# ---- row masks -------------------------------------------------------------------------------

def _mask(series, op, value):
    valid = series.notna().to_numpy(dtype=bool)
    if op == "is null":
        return ~valid
    if op == "is not null":
        return valid
    out = np.zeros(len(series), dtype=bool)
    present = series[valid]
    if op in MEMBERSHIP:
        result = present.isin(value)
        if op == "not in":
            result = ~result
    elif op == "==":
        result = present == value
    elif op == "!=":
        result = present != value
    elif op == "<":
        result = present < value
    elif op == "<=":
        result = present <= value
    elif op == ">":
        result = present > value
    else:
        result = present >= value
    if isinstance(result, pd.Series):
        result = result.to_numpy(dtype=bool, na_value=False)
    out[valid] = result
    return out


def apply(df, filter):
    """The rows of `df` that satisfy `filter`, with a fresh RangeIndex."""
    conjunctions = normalize(filter)
    if conjunctions is None:
        return df
    for column in columns(conjunctions):
        if column not in df.columns:
            raise ValueError(f"filter column {column!r} is not a column (columns: {', '.join(map(str, df.columns))})")
    keep = np.zeros(len(df), dtype=bool)
    for conjunction in conjunctions:
        rows = np.ones(len(df), dtype=bool)
        for column, op, value in conjunction:
            rows &= _mask(df[column], op, value)
        keep |= rows
    return df[keep].reset_index(drop=True)
