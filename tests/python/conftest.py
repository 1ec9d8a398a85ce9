"""Shared by the Python package's tests: where the sources and the command are, and how to read
the command's CSV files (the csv module: pandas is optional)."""
import csv
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("IMPACTSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("IMPACTSIM_BINARY", str(ROOT / "build" / "impactsim"))


def scene_path(name):
    return str(ROOT / "scenes" / f"{name}.yaml")


def command(*args, cwd=None):
    """Runs the impactsim command; its stdout (a failure fails the test with stderr)."""
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_csv(path):
    """(header, rows) of a CSV file, cells as text."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def cell_text(x, precision):
    """A number as the command's CSV writes it: printf's %.<precision>g."""
    return "%.*g" % (precision, x)


@pytest.fixture
def out(tmp_path):
    return tmp_path
