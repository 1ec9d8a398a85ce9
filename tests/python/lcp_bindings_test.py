"""The LCP solver from Python: complementarity on random problems, every solution of a small one."""
import numpy as np
import pytest

from impactsim import lcp


def test_lemke_solves_positive_semidefinite_problems():
    rng = np.random.default_rng(3)
    for n in (1, 3, 8, 20):
        A = rng.normal(size=(n, n))
        W = A @ A.T + 1e-3 * np.eye(n)
        q = rng.normal(size=n)
        s = lcp.solve(W, q)
        assert s["ok"] and s["status"] == "solved"
        z, w = s["z"], s["w"]
        assert np.allclose(w, W @ z + q, atol=1e-10)
        assert z.min() >= -1e-12 and w.min() >= -1e-9 and abs(z @ w) < 1e-8


def test_every_solution_of_a_small_problem():
    W = np.array([[1.0, 2.0], [2.0, 1.0]])
    q = np.array([-1.0, -1.0])
    found = sorted(tuple(np.round(z, 12)) for z in lcp.all_solutions(W, q))
    assert found == [(0.0, 1.0), (1 / 3, 1 / 3), (1.0, 0.0)] or np.allclose(found, [(0, 1), (1 / 3, 1 / 3), (1, 0)])
    assert len(lcp.all_solutions(np.eye(3), [1.0, 2.0, 3.0])) == 1


def test_bad_problems_are_named():
    with pytest.raises(ValueError, match="square"):
        lcp.solve(np.ones((2, 3)), [1.0, 1.0])
    with pytest.raises(ValueError, match="q: expected shape"):
        lcp.solve(np.eye(2), [1.0])
    with pytest.raises(ValueError, match="nan"):
        lcp.solve(np.eye(2), [1.0, np.nan])
    with pytest.raises(ValueError, match="20"):
        lcp.all_solutions(np.eye(21), np.ones(21))
