"""Columns of numbers with names: what the command writes as CSV, held as numpy arrays."""
from __future__ import annotations

from typing import Dict, Iterator, List, Sequence

import numpy as np


class Table:
    """Named columns of equal length, in the order of the command's CSV file.

    ``table["t"]`` is a column (a numpy array, or a list of strings for text columns),
    ``table.columns`` their names, ``len(table)`` the number of rows, ``table.to_numpy()`` the
    numeric columns as one 2-D float64 array and ``table.to_pandas()`` a DataFrame (needs pandas,
    Debian's python3-pandas).
    """

    def __init__(self, columns: Sequence[str], data: Dict[str, object]):
        self.columns: List[str] = list(columns)
        self._data = {name: data[name] for name in self.columns}

    def __getitem__(self, name: str):
        return self._data[name]

    def __contains__(self, name: str) -> bool:
        return name in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self._data[self.columns[0]]) if self.columns else 0

    def __repr__(self) -> str:
        shown = ", ".join(self.columns[:6]) + (", ..." if len(self.columns) > 6 else "")
        return f"Table({len(self)} rows: {shown})"

    def numeric_columns(self) -> List[str]:
        """The columns that hold numbers, in order."""
        return [c for c in self.columns if isinstance(self._data[c], np.ndarray)]

    def to_numpy(self) -> np.ndarray:
        """The numeric columns as a (rows, columns) float64 array, in numeric_columns() order."""
        names = self.numeric_columns()
        if not names:
            return np.empty((len(self), 0))
        return np.column_stack([np.asarray(self._data[c], dtype=float) for c in names])

    def to_pandas(self):
        """A pandas DataFrame of every column (ImportError without pandas)."""
        import pandas  # optional: Debian's python3-pandas

        return pandas.DataFrame({c: self._data[c] for c in self.columns}, columns=self.columns)
