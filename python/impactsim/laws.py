"""The impact laws as algebra: a contact space from your own arrays, a law, and its post-impact set.

    import numpy as np, impactsim
    space = impactsim.ContactSpace(M, J_n, J_t, mu=[1, 1], e=[0, 0])
    law = impactsim.laws.routh()
    samples = law.prepare(space, v_minus).sample(100000, seed=1, threads=2)

Conventions (impact/impact_law.hpp): M is nv x nv, symmetric positive definite; J_n (m x nv) maps v
to the contacts' normal velocities (> 0 separating); J_t has one row per contact in a planar problem
(m x nv) or two orthonormal ones in 3-D (2m x nv, contact i at rows 2i, 2i+1); impulses act as
M (v+ - v-) = J_n^T lambda_n + J_t^T lambda_t with lambda_n >= 0, in N s. Contacts are named by
their position ("0", "1", ...) in settings that name contacts (sequential's start and list).
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from . import _impactsim
from ._samples import Samples


class ContactSpace:
    """The contacts of one impact: M, J_n, J_t, friction coefficients mu (>= 0) and Newton
    restitution coefficients e (in [0, 1]), one per contact. ``friction_directions`` is the number
    of edges of the polygonal cone (3-D, polygon only); ``circular_cone`` solves 3-D friction in the
    circular Coulomb cone (the default, as scenes do). ValueError names any array of the wrong shape,
    with a non-finite entry, or an M that is not symmetric positive definite."""

    def __init__(self, M, J_n, J_t, mu, e, friction_directions: int = 8, circular_cone: bool = True):
        self._handle = _impactsim.ContactSpaceHandle(M, J_n, J_t, mu, e, int(friction_directions), bool(circular_cone))

    @classmethod
    def _wrap(cls, handle) -> "ContactSpace":
        space = cls.__new__(cls)
        space._handle = handle
        return space

    def __getattr__(self, name: str):
        if name in ("M", "J_n", "J_t", "mu", "e", "tangent_dim", "friction_directions", "circular_cone", "contacts"):
            return getattr(self._handle, name)
        raise AttributeError(name)

    @property
    def nv(self) -> int:
        """Velocity coordinates."""
        return self.M.shape[0]

    def __repr__(self) -> str:
        return f"ContactSpace({self.contacts} contacts, nv {self.nv}, tangent_dim {self.tangent_dim})"


class Prepared:
    """A law's impact at one (space, v-), prepared once and sampled many times."""

    def __init__(self, handle, space: ContactSpace, law: str):
        self._handle, self.space, self.law = handle, space, law

    @property
    def v_minus(self) -> np.ndarray:
        return self._handle.v_minus

    def sample(self, n: int, seed: int = 0, threads: int = 1, first: int = 0) -> Samples:
        """Samples first .. first + n - 1, sample i drawn from a generator seeded by (seed, i)
        alone (the same arrays for any ``threads``). The GIL is released; Ctrl-C stops it."""
        raw = self._handle.sample(int(n), int(seed), int(threads), int(first))
        names = [str(i) for i in range(self.space.contacts)]
        v_names = [f"v{k}" for k in range(self.space.nv)]
        out = Samples(raw, v_names, names, self.space.tangent_dim, self.law, int(seed))
        out.v_minus, out.space = self.v_minus, self.space
        return out


class Law:
    """An impact law with its settings (impactsim.laws.routh(), ...). ``name`` is the law's."""

    def __init__(self, name: str, **settings):
        from . import _value_text

        self._handle = _impactsim.make_law(name, {k: _value_text(v) for k, v in settings.items()})
        self.settings = dict(settings)

    @property
    def name(self) -> str:
        return self._handle.name

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"Law({self.name}{', ' + shown if shown else ''})"

    def prepare(self, space: ContactSpace, v_minus) -> Prepared:
        """The impact of ``space``'s contacts from pre-impact velocity ``v_minus`` (nv entries)."""
        return Prepared(_impactsim.prepare(self._handle, space._handle, v_minus), space, self.name)

    def resolve(self, space: ContactSpace, v_minus, seed: int = 0) -> dict:
        """One outcome, drawn from a generator seeded ``seed``: v_plus, impulse_n, impulse_t,
        kinetic_energy_minus, kinetic_energy, ok, terminated, steps, ordering (sequential and
        propagative: positions in the order resolved), diagnostic."""
        return self._handle.resolve(space._handle, v_minus, int(seed))


def make(name: str, **settings) -> Law:
    """The law ``name`` ("anitescu-potra", "routh", "sequential", "propagative") with ``settings``,
    the keys of the scene section simulation.<name> (scenes/README.md); SceneError names a bad one."""
    return Law(name, **settings)


def names() -> Sequence[str]:
    """The registered laws."""
    return list(_impactsim.law_names())


def routh(h: Optional[float] = None, steps: Optional[int] = None, sampling: Optional[str] = None,
          solution: Optional[str] = None) -> Law:
    """Halm and Posa's set-valued Routh sampler: h [N s] the impulse per step (default: the impulse
    that stops the most violated contact alone), steps before a sample is flagged as not
    terminated (100), sampling "uniform" or "sobol", solution "lemke" or "random". Restitution is
    not part of its model."""
    return Law("routh", **_given(h=h, steps=steps, sampling=sampling, solution=solution))


def anitescu_potra() -> Law:
    """Anitescu and Potra's simultaneous LCP impact with Newton restitution (deterministic)."""
    return Law("anitescu-potra")


def sequential(order: Optional[str] = None, start: Optional[int] = None, list: Optional[Sequence[int]] = None,
               max_impacts: Optional[int] = None, tolerance: Optional[float] = None) -> Law:
    """One contact at a time: order "cyclic" (from contact ``start``), "random" or "list" (the
    contacts of ``list`` in turn); contacts are positions in the space. max_impacts single impacts
    (default 10 per contact) before the rest is resolved simultaneously; tolerance [m/s]."""
    return Law("sequential", **_given(order=order, start=start, list=None if list is None else [int(i) for i in list],
                                      max_impacts=max_impacts, tolerance=tolerance))


def propagative(R: Optional[float] = None, order: Optional[str] = None,
                max_reflections: Optional[int] = None) -> Law:
    """Seghete and Murphey's propagative law: R the energetic restitution (1 elastic, 0 plastic;
    default the smallest e of the impact), order "most_violated" or "random", max_reflections.
    Frictionless by its model."""
    return Law("propagative", **_given(R=R, order=order, max_reflections=max_reflections))


def _given(**settings) -> dict:
    return {k: v for k, v in settings.items() if v is not None}
