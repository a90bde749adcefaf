"""pandas <-> strata column specs.

The C++ side (_strata) turns strata columns into specs (see python/src/to_pandas.cc) and
builds strata columns from specs (python/src/from_pandas.cc); this module is the pandas end of
both: it assembles pandas arrays from specs and takes DataFrames apart into specs. Only
per-column work happens here; per-value loops live in C++.
"""

import datetime
import re

import numpy as np
import pandas as pd

_OFFSET = re.compile(r"^([+-])(\d{2}):?(\d{2})$")


def _timezone(name):
    """A time zone pandas accepts, from an Arrow zone name ("UTC", "Europe/Paris", "+01:00")."""
    m = _OFFSET.match(name)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        minutes = int(m.group(2)) * 60 + int(m.group(3))
        return datetime.timezone(sign * datetime.timedelta(minutes=minutes))
    return name


def _timezone_name(tz):
    """The Arrow name of a pandas time zone."""
    if isinstance(tz, datetime.timezone):
        if tz == datetime.timezone.utc:
            return "UTC"
        offset = tz.utcoffset(None)
        minutes = int(offset.total_seconds() // 60)
        sign = "-" if minutes < 0 else "+"
        minutes = abs(minutes)
        return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"
    zone = getattr(tz, "zone", None) or getattr(tz, "key", None)
    return zone if zone else str(tz)


def assemble(spec):
    """The pandas array (or numpy array) for one column spec."""
    kind = spec[0]
    if kind == "numpy" or kind == "object":
        return spec[1]
    if kind == "masked":
        values, mask = spec[1], spec[2]
        if values.dtype == np.bool_:
            return pd.arrays.BooleanArray(values, mask)
        if values.dtype.kind == "f":
            return pd.arrays.FloatingArray(values, mask)
        return pd.arrays.IntegerArray(values, mask)
    if kind == "datetime":
        values, tz = spec[1], spec[2]
        if tz is None:
            return values
        return pd.arrays.DatetimeArray(values, dtype=pd.DatetimeTZDtype(tz=_timezone(tz)))
    if kind == "string":
        return pd.array(spec[1], dtype="string")
    if kind == "categorical":
        chunks, ordered = spec[1], spec[2]
        parts = []
        for codes, categories_spec in chunks:
            categories = pd.Index(assemble(categories_spec))
            parts.append(pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(categories, ordered)))
        if len(parts) == 1:
            return parts[0]
        # Row groups with dictionaries of their own: one set of categories for the column.
        return pd.api.types.union_categoricals(parts, sort_categories=False)
    raise ValueError(f"internal: unknown column spec {kind!r}")


def to_dataframe(table, nullable_floats=False, strings="object", decimals="decimal", exclusive=False):
    """A DataFrame of a _strata.Table: numeric columns share strata's buffers (zero-copy)."""
    if strings not in ("object", "pandas"):
        raise ValueError(f"strings={strings!r}: takes 'object' (str objects) or 'pandas' (the string dtype)")
    if decimals not in ("decimal", "float"):
        raise ValueError(f"decimals={decimals!r}: takes 'decimal' (decimal.Decimal objects) or 'float' (float64)")
    if not isinstance(nullable_floats, bool):
        raise ValueError(f"nullable_floats={nullable_floats!r}: takes True or False")
    specs = table.to_pandas_specs(nullable_floats=nullable_floats, pandas_strings=strings == "pandas",
                                  decimals_as_float=decimals == "float", exclusive=exclusive)
    names = [name for name, _ in specs]
    index = pd.RangeIndex(table.num_rows)
    # Object arrays as object Series: a bare one makes pandas scan every value for datetimes
    # to convert (0.2 s per 6M dates), and strata's object columns never hold any.
    arrays = [pd.Series(spec[1], index=index, dtype=object, copy=False) if spec[0] == "object" else assemble(spec)
              for _, spec in specs]
    if not names:
        return pd.DataFrame(index=index)
    # copy=False: pandas keeps each array as its own block instead of consolidating (copying)
    # columns of one dtype into a 2-d block. Keys by position allow duplicate column names.
    frame = pd.DataFrame(dict(enumerate(arrays)), index=index, copy=False)
    frame.columns = names
    return frame


CONVERSION_OPTIONS = ("nullable_floats", "strings", "decimals")


def check_conversion(options):
    for key in options:
        if key not in CONVERSION_OPTIONS:
            raise ValueError(f"unknown option {key!r} (conversion options: {', '.join(CONVERSION_OPTIONS)})")
    return options


# ---- DataFrame -> specs -----------------------------------------------------------------------

def _is_default_index(index):
    return (isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 and index.name is None)


def _series_spec(name, series):
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        categories = _series_spec(name, pd.Series(dtype.categories))
        return ("categorical", name, np.asarray(series.cat.codes), categories, bool(dtype.ordered))
    if isinstance(dtype, pd.DatetimeTZDtype):
        values = np.ascontiguousarray(series.array.asi8)
        return ("datetime", name, values, _timezone_name(dtype.tz))
    if isinstance(dtype, pd.StringDtype):
        return ("string", name, series.to_numpy(dtype=object, na_value=None))
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        array = series.array
        if isinstance(array, (pd.arrays.IntegerArray, pd.arrays.FloatingArray, pd.arrays.BooleanArray)):
            # pandas' masked arrays: values and mask (True = null), both shared with strata.
            return ("numeric", name, np.ascontiguousarray(array._data), np.ascontiguousarray(array._mask))
        raise ValueError(f"column {name!r}: pandas dtype {dtype} cannot be written")
    if dtype.kind == "M":
        values = series.to_numpy()
        if values.dtype != np.dtype("datetime64[ns]"):
            values = values.astype("datetime64[ns]")
        return ("datetime", name, np.ascontiguousarray(values).view("int64"), None)
    if dtype.kind == "m":
        values = series.to_numpy()
        if values.dtype != np.dtype("timedelta64[ns]"):
            values = values.astype("timedelta64[ns]")
        return ("timedelta", name, np.ascontiguousarray(values).view("int64"))
    if dtype.kind in "iufb":
        return ("numeric", name, np.ascontiguousarray(series.to_numpy()), None)
    if dtype == object:
        return ("object", name, np.ascontiguousarray(series.to_numpy(dtype=object)))
    raise ValueError(f"column {name!r}: dtype {dtype} cannot be written")


def dataframe_specs(frame):
    """The column specs of a DataFrame. A default RangeIndex (0, 1, 2, ... unnamed) is dropped;
    any other index is written first, as columns named after its levels (or
    __index_level_<i>__ when unnamed)."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame or a strata.Table, not {type(frame).__name__}")
    specs = []
    if not _is_default_index(frame.index):
        levels = frame.index.to_frame(index=False)
        for i, (level, name) in enumerate(zip(levels.columns, frame.index.names)):
            column = name if isinstance(name, str) else f"__index_level_{i}__"
            specs.append(_series_spec(column, levels[level]))
    for position, name in enumerate(frame.columns):
        if not isinstance(name, str):
            raise ValueError(f"column names must be strings: column {position} is named {name!r}")
        specs.append(_series_spec(name, frame.iloc[:, position]))
    return specs
