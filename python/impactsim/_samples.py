"""Samples of a post-impact set as arrays (what ``impactsim impact`` writes to samples.csv)."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from ._table import Table

CLASS_NAMES: Tuple[str, ...] = ("rest", "stick", "slide", "lift")
"""Outcome classes by code (``Samples.classes``): a contact lifts (J_n v+ > tol), slides (closed,
|J_t v+| > tol), sticks (closed, not sliding, the system moving) or the system rests."""

STATUS_NAMES: Tuple[str, ...] = ("accepted", "collide", "failed")
"""Sample statuses by code (``Samples.status``): accepted; collide (the law hit its step cap with a
contact still approaching); failed (an LCP failure or a rise of kinetic energy)."""


class Samples:
    """n samples of one impact's post-impact set, sample i drawn from a generator seeded by
    (seed, i) alone: the same arrays for any number of threads.

    Arrays (n rows each): ``v_plus`` (n, nv) [m/s, rad/s]; ``impulse_n`` (n, m) and ``impulse_t``
    (n, m * tangent_dim) [N s, M (v+ - v-) = J_n^T impulse_n + J_t^T impulse_t]; ``vn`` = J_n v+
    (> 0 separating) and ``vt`` = J_t v+ [m/s]; ``kinetic_energy_minus``, ``kinetic_energy`` [J];
    ``lcp_solves``, ``steps``, ``terminated``, ``ok``, ``lcp_residual``, ``cone_residual``;
    ``status`` (codes of STATUS_NAMES) and ``classes`` (n, m; codes of CLASS_NAMES, meaningful where
    status is accepted). ``failures`` lists (sample, diagnostic) of the samples that failed.
    """

    def __init__(self, raw: dict, v_names: Sequence[str], contact_names: Sequence[str], tangent_dim: int,
                 law: str, seed: int):
        for key in ("sample", "v_plus", "impulse_n", "impulse_t", "vn", "vt", "kinetic_energy_minus",
                    "kinetic_energy", "lcp_solves", "steps", "terminated", "ok", "status", "classes",
                    "lcp_residual", "cone_residual"):
            setattr(self, key, raw[key])
        self.failures: List[Tuple[int, str]] = list(raw["failures"])
        self.tolerance: float = raw["tolerance"]
        self.v_names = list(v_names)
        self.contact_names = list(contact_names)
        self.tangent_dim = tangent_dim
        self.law = law
        self.seed = seed
        # Set by impactsim.impact: the impact's time, configuration, v- and contact space.
        self.t: Optional[float] = None
        self.q: Optional[np.ndarray] = None
        self.v_minus: Optional[np.ndarray] = None
        self.space = None

    def __len__(self) -> int:
        return len(self.sample)

    def __repr__(self) -> str:
        return f"Samples({len(self)} of law {self.law}, seed {self.seed}, {len(self.contact_names)} contacts)"

    @property
    def accepted(self) -> np.ndarray:
        """Boolean mask of the samples with an outcome (status accepted)."""
        return self.status == 0

    def class_labels(self) -> List[List[str]]:
        """Each sample's per-contact labels as samples.csv writes them: the class name where the
        sample is accepted, else its status name."""
        return [[CLASS_NAMES[c] if s == 0 else STATUS_NAMES[s] for c in row]
                for row, s in zip(self.classes.tolist(), self.status.tolist())]

    def class_counts(self) -> dict:
        """Accepted samples per combination of classes, a tuple of class names per contact."""
        counts: dict = {}
        for row in self.classes[self.accepted].tolist():
            key = tuple(CLASS_NAMES[c] for c in row)
            counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    def table(self) -> Table:
        """The columns of samples.csv: sample, v+, each contact's vn and vt (vt1, vt2 in 3-D),
        kinetic_energy, lcp_solves, terminated, each contact's class."""
        data, columns = {"sample": self.sample}, ["sample"]
        for k, name in enumerate(self.v_names):
            columns.append(name)
            data[name] = self.v_plus[:, k]
        td = self.tangent_dim
        for i, c in enumerate(self.contact_names):
            columns.append(f"{c}.vn")
            data[f"{c}.vn"] = self.vn[:, i]
            for k in range(td):
                name = f"{c}.vt" if td == 1 else f"{c}.vt{k + 1}"
                columns.append(name)
                data[name] = self.vt[:, i * td + k]
        data["kinetic_energy"] = self.kinetic_energy
        data["lcp_solves"] = self.lcp_solves
        data["terminated"] = self.terminated.astype(np.int64)
        columns += ["kinetic_energy", "lcp_solves", "terminated"]
        labels = self.class_labels()
        for i, c in enumerate(self.contact_names):
            columns.append(f"{c}.class")
            data[f"{c}.class"] = [row[i] for row in labels]
        return Table(columns, data)

    def to_pandas(self):
        """samples.csv's columns as a pandas DataFrame (needs pandas)."""
        return self.table().to_pandas()
