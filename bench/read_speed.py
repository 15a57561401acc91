"""Rows per second of fastpr.io.read_columns on a 1M-row predictions file, per reader and format.

Run: python bench/read_speed.py [n_rows]. Writes its files to a temporary folder; prints the
median of three reads for each CSV reader installed, Parquet (pyarrow) and .npz.
"""
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from fastpr.io import read_columns

COLUMNS = ["label", "score", "score2"]


def _write(folder, n_rows):
    rng = np.random.default_rng(0)
    label = (rng.random(n_rows) < 0.1).astype(np.int8)
    columns = {"label": label, "score": rng.normal(size=n_rows) + label,
               "score2": rng.normal(size=n_rows) + 0.5 * label}
    with open(folder / "p.csv", "w") as handle:
        handle.write(",".join(COLUMNS) + "\n")
        np.savetxt(handle, np.column_stack(list(columns.values())), fmt=["%d", "%.6f", "%.6f"],
                   delimiter=",")
    np.savez(folder / "p.npz", **columns)
    if importlib.util.find_spec("pyarrow"):
        import pyarrow
        import pyarrow.parquet

        pyarrow.parquet.write_table(pyarrow.table(columns), folder / "p.parquet")


def _median_seconds(path, reader=None):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        read_columns(path, COLUMNS, reader=reader)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(n_rows=1_000_000):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _write(folder, n_rows)
        cases = [(f"csv ({r})", folder / "p.csv", r) for r in ("pyarrow", "pandas", "csv")
                 if r == "csv" or importlib.util.find_spec(r)]
        cases += [("parquet", folder / "p.parquet", None)] if (folder / "p.parquet").exists() else []
        cases += [("npz", folder / "p.npz", None)]
        for label, path, reader in cases:
            seconds = _median_seconds(path, reader)
            print(f"{label:<16}{seconds:8.3f} s {n_rows / seconds:14,.0f} rows/s")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
