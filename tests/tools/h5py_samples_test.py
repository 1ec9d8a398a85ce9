#!/usr/bin/python3
"""impact --format hdf5 read by h5py (Debian's python3-h5py), as docs/guide.md shows it.

Usage: h5py_samples_test.py IMPACTSIM SCENE OUT
Writes the same samples as CSV and as HDF5 and checks that h5py reads every column of samples.h5,
in the order of its `columns` attribute, equal to the CSV's values to their printed digits.
"""
import csv
import os
import subprocess
import sys

import h5py


def main():
    impactsim, scene, out = sys.argv[1:4]
    common = [impactsim, "impact", scene, "--samples", "500", "--seed", "3", "-q"]
    subprocess.run(common + ["-o", os.path.join(out, "csv")], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(common + ["--format", "hdf5", "-o", os.path.join(out, "h5")], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "csv", "samples.csv")) as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    with h5py.File(os.path.join(out, "h5", "samples.h5"), "r") as f:
        columns = [c.decode() if isinstance(c, bytes) else str(c) for c in f.attrs["columns"]]
        assert columns == header, (columns, header)
        for k, name in enumerate(columns):
            data = f[name][:]
            assert len(data) == len(rows) == 500, (name, len(data))
            for i, row in enumerate(rows):
                if data.dtype.kind == "S":
                    assert data[i].decode() == row[k], (name, i, data[i], row[k])
                else:
                    assert abs(float(data[i]) - float(row[k])) <= 1e-11 * (1 + abs(float(data[i]))), (name, i)
    print(f"samples.h5: {len(columns)} columns of {len(rows)} rows read by h5py, equal to samples.csv")


if __name__ == "__main__":
    main()
