"""Figures for the Python module (issue 16), whole process, one measurement per run:

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/lineitem.py read [decimals]
    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/lineitem.py dask

`read`: strata.read_parquet of bench/data/lineitem_snappy.parquet (scripts/bench-data), wall
time and the process's peak RSS; `decimals` "float" (default here) or "decimal" (Decimal
objects). `dask`: a TPC-H Q1-style group-by through strata.dask on a LocalCluster of 2 worker
processes (1 thread each), wall time of the compute (cluster start excluded).
"""

import os
import resource
import sys
import time

import strata

FILE = os.environ.get("LINEITEM", os.path.join(os.path.dirname(__file__), "..", "data", "lineitem_snappy.parquet"))


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read(decimals):
    start = time.perf_counter()
    frame = strata.read_parquet(FILE, decimals=decimals)
    seconds = time.perf_counter() - start
    print(f"read_parquet decimals={decimals}: {len(frame)} rows x {len(frame.columns)} columns, "
          f"{seconds:.2f} s, peak RSS {peak_rss_mib():.0f} MiB, frame {frame.memory_usage(deep=False).sum() / 2**20:.0f} MiB")


def dask_group_by():
    import distributed
    import strata.dask

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster):
        ddf = strata.dask.read_parquet(FILE, columns=["l_returnflag", "l_linestatus", "l_quantity",
                                                      "l_extendedprice", "l_discount"], decimals="float")
        start = time.perf_counter()
        result = ddf.groupby(["l_returnflag", "l_linestatus"]).agg(
            n=("l_quantity", "count"), quantity=("l_quantity", "sum"), price=("l_extendedprice", "sum"),
            discount=("l_discount", "mean")).compute()
        seconds = time.perf_counter() - start
        print(f"dask group-by on 2 workers: {ddf.npartitions} partitions, {len(result)} groups, {seconds:.2f} s")
        print(result.sort_index())


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "read"
    if what == "read":
        read(sys.argv[2] if len(sys.argv) > 2 else "float")
    elif what == "dask":
        dask_group_by()
    else:
        sys.exit(f"unknown measurement '{what}' (read, dask)")
