"""The linear complementarity problem: find z >= 0 with w = W z + q >= 0 and z . w = 0."""
from __future__ import annotations

from typing import List

import numpy as np

from . import _impactsim


def solve(W, q, pivot_tolerance: float = 1e-12, accept_tolerance: float = 1e-9, max_pivots: int = 0) -> dict:
    """Lemke's method with impactsim's fallbacks (a smaller pivot tolerance, enumeration of small
    problems, proximal points). Returns a dict: z, w (= W z + q), ok, status ("solved", ...),
    method ("lemke", "enumeration", "proximal", "support"), pivots, residual (scaled, see
    numerics/lcp.hpp). max_pivots 0: 50 n + 100 with the fallbacks. ValueError for a W that is not
    square, a q of another size, or a non-finite entry."""
    return _impactsim.lcp_solve(W, q, float(pivot_tolerance), float(accept_tolerance), int(max_pivots))


def all_solutions(W, q, tolerance: float = 1e-9) -> List[np.ndarray]:
    """Every distinct solution at a complementary basis (W_SS z_S = -q_S, W_SS nonsingular), for
    up to 20 rows (2^n bases): the multi-valued outcomes of a simultaneous impact."""
    return list(_impactsim.lcp_all_solutions(W, q, float(tolerance)))
