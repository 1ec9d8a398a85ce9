"""impactsim from Python: scenes, runs, batches, and the impact laws on your own matrices.

Units are SI throughout: lengths in m, velocities in m/s (rad/s for angular coordinates), impulses
in N s, energies in J, times in s. Signs follow the library (docs/guide.md#conventions): J_n v > 0
is a separating contact, normal impulses are >= 0, and M (v+ - v-) = J_n^T lambda_n + J_t^T lambda_t.

    import impactsim
    scene = impactsim.load_scene("scenes/rocking_block.yaml", overrides={"materials.mu": 0.3})
    run = scene.run()                          # trajectory, events, summary
    samples = impactsim.impact(scene, 10000)   # the first impact's post-impact set
    runs = impactsim.batch(scene, 100)         # runs.csv's numbers

Every stochastic result is a function of its seed alone, the same for any number of threads, and
equal to what the command writes for the same scene, law and seed. Long calls release the GIL and
stop at Ctrl-C with KeyboardInterrupt.
"""
from __future__ import annotations

import json
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Union


class SceneError(ValueError):
    """A scene (or a law's settings) that cannot be read: ``file``, ``line`` and ``column``
    (1-based, 0 if unknown) and ``key`` say where, ``detail`` what is wrong; str() is the whole
    located message the command prints."""

    file: str = ""
    line: int = 0
    column: int = 0
    key: str = ""
    detail: str = ""


class SimulationError(RuntimeError):
    """A run that could not go on: ``time`` [s] where it stopped, ``reason`` (runs.csv's code),
    and for Scene.run ``partial``, the RunResult up to there (nothing computed is lost)."""

    time: float = 0.0
    reason: str = ""
    partial = None


from . import _impactsim  # noqa: E402  (the exception classes above must exist first)
from ._samples import CLASS_NAMES, STATUS_NAMES, Samples  # noqa: E402
from ._table import Table  # noqa: E402
from . import laws, lcp  # noqa: E402
from .laws import ContactSpace  # noqa: E402

__all__ = ["load_scene", "scene_from_yaml", "Scene", "RunResult", "impact", "batch", "Table", "Samples",
           "ContactSpace", "laws", "lcp", "SceneError", "SimulationError", "CLASS_NAMES", "STATUS_NAMES"]

Overrides = Union[None, Mapping[str, object], Sequence[str]]


def _value_text(value: object) -> str:
    """A Python value as scene text: true/false, the shortest round-trip of a float, [a, b] lists."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)


def _override_texts(overrides: Overrides) -> List[str]:
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        return [f"{key}={_value_text(value)}" for key, value in overrides.items()]
    if isinstance(overrides, str):
        raise TypeError("overrides: a dict {key: value} or a list of 'KEY=VALUE' strings, not one string")
    return [str(o) for o in overrides]


class RunResult:
    """One run: ``trajectory`` (a Table of trajectory.csv's columns t, q..., v..., kinetic_energy,
    potential_energy: a row every output_interval and two at each event), ``events`` (a Table of
    events.csv's: t, kind, contacts, law, kinetic_energy_before, kinetic_energy_after, impulse_n
    (an array per event, N s), ordering, impulse_t (tangent_dim components per contact in its
    tangent basis, N s), duration (a step's length [s], 0 for every other event), and
    normal_velocity_after, rowwise_loss), ``summary``
    (summary.json as a dict), ``stats`` (steps, rejected_steps, evaluations, events, impacts,
    penetration [m], wall_seconds, ...), ``seed`` and ``law``."""

    EVENT_COLUMNS = ("t", "kind", "contacts", "law", "kinetic_energy_before", "kinetic_energy_after", "impulse_n",
                     "ordering", "impulse_t", "duration", "normal_velocity_after", "rowwise_loss")

    def __init__(self, raw: dict):
        import numpy as np

        table = raw["trajectory"]
        self.trajectory = Table(raw["columns"], {c: table[:, k] for k, c in enumerate(raw["columns"])})
        events = raw["events"]
        data: Dict[str, object] = {}
        for c in self.EVENT_COLUMNS:
            values = [e[c] for e in events]
            numeric = c in ("t", "kinetic_energy_before", "kinetic_energy_after", "rowwise_loss")
            data[c] = np.array(values, dtype=float) if numeric else values
        self.events = Table(self.EVENT_COLUMNS, data)
        self.summary: dict = json.loads(raw["summary"])
        self.stats: dict = dict(raw["stats"])
        self.seed: int = raw["seed"]
        self.law: str = raw["law"]

    def __repr__(self) -> str:
        return (f"RunResult({len(self.trajectory)} rows, {len(self.events)} events, "
                f"status {self.summary.get('status')}, t_final {self.summary.get('t_final')})")


class Scene:
    """A scene loaded from YAML (scenes/README.md describes the format). Read-only: overrides are
    given when loading. ``name``, ``source``, ``law``, ``seed``, ``t_end`` [s], ``q_names``,
    ``v_names``, ``contact_names``, ``initial_q``, ``initial_v``, ``precision`` (CSV digits)."""

    def __init__(self, handle):
        self._handle = handle

    def __getattr__(self, name: str):
        if name in ("name", "description", "source", "law", "seed", "t_end", "planar", "q_names", "v_names",
                    "contact_names", "initial_q", "initial_v", "precision", "text_sha256"):
            return getattr(self._handle, name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"Scene({self._handle.name!r} from {self._handle.source!r})"

    def check(self) -> dict:
        """What ``impactsim check`` prints, as a dict (bodies, contacts, energies, integrator, law,
        seed, randomize, outcomes, ...); its ``text`` entry is the printed text itself."""
        return self._handle.check()

    def describe(self) -> str:
        """The text ``impactsim check`` prints."""
        return self._handle.describe()

    def run(self, law: Optional[str] = None, seed: Optional[int] = None, integrator: Optional[str] = None,
            t_end: Optional[float] = None, step: Optional[float] = None, run: Optional[int] = None,
            on_event: Optional[Callable[[dict], object]] = None) -> RunResult:
        """Simulates the scene as ``impactsim run`` does and returns a RunResult.

        law, seed, integrator: None keeps the scene's (simulation.law, .seed, .integrator); step
        [s] the fixed-step integrators' h; t_end [s] ends the run sooner or later; run=i replays
        run i of a batch seeded ``seed`` (its randomize draws). on_event(event) is called at each
        event with a dict (t, kind, contacts, law, kinetic_energy_before/after, impulse_n, ...); an
        exception it raises ends the run and is raised here. A run that cannot go on raises
        SimulationError with the result so far in its ``partial``.

        Units: t in s, q in m and rad, v in m/s and rad/s (the scene's q_names and v_names), energies
        in J, impulse_n in N s (>= 0), normal_velocity_after in m/s (> 0: separating).
        """
        try:
            raw = _impactsim.run(self._handle, law or "", -1 if seed is None else _whole(seed, "seed"),
                                 -1 if run is None else _whole(run, "run"), integrator or "", step or 0.0,
                                 -1.0 if t_end is None else float(t_end), on_event)
        except SimulationError as e:
            if isinstance(e.partial, dict):
                e.partial = RunResult(e.partial)
            raise
        return RunResult(raw)

    def first_impact(self) -> dict:
        """The impact ``impactsim impact`` samples: at the initial state if a contact touches and
        approaches there, else the first one the run meets. A dict: ``t`` [s], ``q``, ``v_minus``
        (the pre-impact velocity), ``space`` (a laws.ContactSpace: M, J_n, J_t, mu, e of its
        touching contacts) and ``contact_names``; hand them to any law. ValueError if none happens
        before t_end."""
        raw = _impactsim.first_impact(self._handle)
        raw["space"] = ContactSpace._wrap(raw["space"])
        return raw

    def impact(self, samples: int = 1024, law: Optional[str] = None, seed: Optional[int] = None,
               threads: int = 1) -> Samples:
        """impactsim.impact(self, ...)."""
        return impact(self, samples, law, seed, threads)

    def batch(self, runs: int = 100, law: Optional[str] = None, seed: Optional[int] = None, threads: int = 1,
              first: int = 0) -> Table:
        """impactsim.batch(self, ...)."""
        return batch(self, runs, law, seed, threads, first)


def _whole(x: object, what: str) -> int:
    if isinstance(x, bool) or int(x) != x or int(x) < 0:
        raise ValueError(f"{what}: must be a whole number >= 0, got {x!r}")
    return int(x)


def load_scene(path: str, overrides: Overrides = None) -> Scene:
    """Reads the scene file at ``path`` (YAML, scenes/README.md), with ``overrides`` applied first
    (as ``--set``: a dict {"materials.mu": 0.3} or a list of "KEY=VALUE"). Raises SceneError naming
    the file, line and key of any problem, a missing file included.

    The scene's numbers are SI: lengths in m, masses in kg, times in s, velocities in m/s (rad/s
    for angular coordinates), angles in rad. Its runs report impulses in N s (normal impulses >= 0,
    pushing the contact's bodies apart) and energies in J; a contact's normal velocity J_n v is
    positive when it separates."""
    import os

    return Scene(_impactsim.load_scene(os.fspath(path), _override_texts(overrides)))


def scene_from_yaml(text: str, overrides: Overrides = None, name: str = "<yaml>") -> Scene:
    """A scene from YAML text; ``name`` stands for the file in messages. Relative paths in it (meshes,
    URDF) are taken from the current directory."""
    return Scene(_impactsim.scene_from_yaml(text, name, _override_texts(overrides)))


def impact(scene: Scene, samples: int = 1024, law: Optional[str] = None, seed: Optional[int] = None,
           threads: int = 1) -> Samples:
    """Samples the post-impact set of the scene's first impact, as ``impactsim impact``: sample i
    from seed (seed, i), the same arrays for any ``threads`` and the numbers of samples.csv.
    law and seed: None keeps the scene's. The result also holds the impact's ``t``, ``q``,
    ``v_minus`` and contact ``space`` (a laws.ContactSpace)."""
    raw = _impactsim.impact(scene._handle, _whole(samples, "samples"), law or "",
                            -1 if seed is None else _whole(seed, "seed"), int(threads))
    out = Samples(raw, scene.v_names, raw["contact_names"], raw["space"].tangent_dim, raw["law"], raw["seed"])
    out.t, out.q, out.v_minus = raw["t"], raw["q"], raw["v_minus"]
    out.space = ContactSpace._wrap(raw["space"])
    return out


def batch(scene: Scene, runs: int = 100, law: Optional[str] = None, seed: Optional[int] = None, threads: int = 1,
          first: int = 0) -> Table:
    """Runs ``runs`` runs of the scene as ``impactsim batch`` (run i seeded by (seed, i) alone,
    drawing the scene's randomize section) and returns runs.csv's columns as a Table: numbers as
    float64 (NaN where the file's cell is empty), run and seed as integers, status, reason and
    message as strings. The same numbers for any ``threads``; ``first`` starts at run first."""
    raw = _impactsim.batch(scene._handle, _whole(runs, "runs"), law or "", -1 if seed is None else _whole(seed, "seed"),
                           int(threads), _whole(first, "first"))
    table = Table(raw["columns"], raw["data"])
    table.seed, table.law = raw["seed"], raw["law"]
    return table
