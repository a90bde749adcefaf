"""The GIL is released while strata reads and writes: another Python thread runs meanwhile.

Not timed: _strata._calls_without_gil() is non-zero only while a strata call runs with the GIL
released, so a Python thread that observes it non-zero has run Python code during that call,
which a held GIL would make impossible. The read is long (tens of ms) and repeated until
observed, so the observation does not depend on scheduling luck either.
"""

import threading

import numpy as np
import pandas as pd

import strata
from strata import _strata


def _observe_during(action, attempts=20):
    """Runs action() in a thread while this thread watches for a GIL-free strata call."""
    for _ in range(attempts):
        started = threading.Event()
        finished = threading.Event()
        errors = []

        def run():
            started.set()
            try:
                action()
            except BaseException as e:  # re-raised below
                errors.append(e)
            finally:
                finished.set()

        worker = threading.Thread(target=run)
        worker.start()
        started.wait()
        seen = 0
        spins = 0
        while not finished.is_set():
            spins += 1
            if _strata._calls_without_gil() > 0:
                seen += 1
        worker.join()
        if errors:
            raise errors[0]
        if seen > 0:
            return seen, spins
    return 0, 0


def test_read_releases_the_gil(tmp_path):
    path = tmp_path / "big.parquet"
    rows = 2_000_000
    strata.write_parquet(pd.DataFrame({"x": np.arange(rows), "s": np.arange(rows).astype(str)}), path, codec="zstd")
    seen, spins = _observe_during(lambda: strata.read_table(path))
    assert seen > 0, "no Python code ran while strata read"


def test_write_releases_the_gil(tmp_path):
    frame = pd.DataFrame({"x": np.arange(2_000_000), "y": np.random.default_rng(1).standard_normal(2_000_000)})
    table = strata.Table.from_pandas(frame)
    seen, _ = _observe_during(lambda: strata.write_parquet(table, tmp_path / "w.parquet", codec="zstd", threads=1))
    assert seen > 0, "no Python code ran while strata wrote"


def test_counter_is_zero_outside_strata():
    assert _strata._calls_without_gil() == 0


def test_csv_read_from_a_pipe_fed_by_python(tmp_path):
    """Deterministic: strata reads a named pipe that a Python thread of this process writes. The
    read blocks inside strata until the data arrives, so it completes only if the GIL was released
    (a held GIL would deadlock the writer; the watchdog then ends the process instead of hanging)."""
    import faulthandler
    import os
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    text = "a,b\n" + "".join(f"{i},x{i}\n" for i in range(10_000))

    def feed():
        with open(fifo, "w") as out:
            out.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    faulthandler.dump_traceback_later(120, exit=True)
    try:
        frame = strata.read_csv(fifo)
    finally:
        faulthandler.cancel_dump_traceback_later()
    writer.join()
    assert len(frame) == 10_000 and frame["b"][9_999] == "x9999"
