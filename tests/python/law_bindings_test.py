"""The laws as algebra on arrays a user builds by hand: Halm and Posa's rocking block (§5.4.1,
Table 4) from numpy matrices alone, closed forms, invariants, and every error path."""
import math

import numpy as np
import pytest

import impactsim
from impactsim import laws

# Halm and Posa Table 4: a 1 x 2 m, 1 kg block, corners A (-0.5, -1) and B (0.5, -1), mu = 1.
M = np.diag([1.0, 1.0, 5.0 / 12.0])
J_n = np.array([[0.0, 1.0, -0.5], [0.0, 1.0, 0.5]])
J_t = np.array([[1.0, 0.0, 1.0], [1.0, 0.0, 1.0]])
V0 = math.sqrt(2 * 9.81 * 0.01)
V_MINUS = np.array([0.0, -V0, 0.0])
SEQUENTIAL_LIFT = 0.0930  # the digest's table: a sequential order leaves a corner lifting at 0.0930 m/s


def block(mu=1.0):
    return impactsim.ContactSpace(M, J_n, J_t, mu=[mu, mu], e=[0.0, 0.0])


def test_the_rocking_block_set_from_matrices_alone():
    samples = laws.routh(h=0.3, steps=10).prepare(block(), V_MINUS).sample(4096, seed=1, threads=2)
    assert samples.accepted.all()
    counts = samples.class_counts()
    assert ("rest", "rest") in counts  # the simultaneous outcome
    lift_a = sum(n for k, n in counts.items() if k[0] == "lift")
    lift_b = sum(n for k, n in counts.items() if k[1] == "lift")
    assert lift_a > 0.2 * len(samples) and lift_b > 0.2 * len(samples)  # both corners lift, by symmetry alike
    assert abs(lift_a - lift_b) < 0.1 * len(samples)
    # Lift speeds fill [0, 0.0930]: the sequential extreme bounds them; h = 0.3 reaches near it.
    assert samples.vn.max() <= SEQUENTIAL_LIFT + 5e-4 and samples.vn.max() > 0.08
    assert (samples.vn >= -samples.tolerance).all() and (samples.impulse_n >= 0).all()
    assert (samples.kinetic_energy <= samples.kinetic_energy_minus + 1e-12).all()  # Thm 7: never gains energy
    # M (v+ - v-) = J_n^T lambda_n + J_t^T lambda_t, sample by sample.
    residual = (samples.v_plus - V_MINUS) @ M - samples.impulse_n @ J_n - samples.impulse_t @ J_t
    assert np.abs(residual).max() < 1e-12


def test_closed_forms_of_the_deterministic_laws():
    rest = laws.anitescu_potra().resolve(block(), V_MINUS)
    assert np.abs(rest["v_plus"]).max() < 1e-12 and rest["ok"]
    first_a = laws.sequential(order="cyclic", start=0).resolve(block(), V_MINUS)
    vn = J_n @ first_a["v_plus"]
    # A first, then B: the block pivots about B and A lifts (Fig. 1's sequential outcome).
    assert vn[0] == pytest.approx(SEQUENTIAL_LIFT, abs=5e-4) and vn[1] == pytest.approx(0.0, abs=1e-6)
    assert first_a["ordering"][0] == 0
    first_b = laws.sequential(order="list", list=[1, 0]).resolve(block(), V_MINUS)
    assert (J_n @ first_b["v_plus"])[1] == pytest.approx(SEQUENTIAL_LIFT, abs=5e-4) and first_b["ordering"][0] == 1
    # A sphere (m = 2 kg, r = 0.1 m) falling straight onto the ground in 3-D: v+ = -e v-, no spin.
    Ms = np.diag([2.0, 2.0, 2.0, 0.008, 0.008, 0.008])
    Jn = np.array([[0, 0, 1.0, 0, 0, 0]])
    Jt = np.array([[1.0, 0, 0, 0, -0.1, 0], [0, 1.0, 0, 0.1, 0, 0]])
    ball = impactsim.ContactSpace(Ms, Jn, Jt, mu=[0.5], e=[0.6])
    assert ball.tangent_dim == 2
    out = laws.anitescu_potra().resolve(ball, [0, 0, -3.0, 0, 0, 0])
    assert out["v_plus"] == pytest.approx([0, 0, 1.8, 0, 0, 0], abs=1e-12)
    assert out["impulse_n"] == pytest.approx([2.0 * 4.8])
    elastic = laws.propagative(R=1.0).resolve(ball, [0, 0, -3.0, 0, 0, 0])
    assert elastic["v_plus"][2] == pytest.approx(3.0)


def test_prepared_samples_match_the_scenes_impact():
    scene = impactsim.load_scene(__import__("conftest").scene_path("rocking_block"))
    first = scene.first_impact()
    assert first["contact_names"] == ["A", "B"] and first["t"] == pytest.approx(math.sqrt(2 * 0.01 / 9.81), abs=1e-9)
    assert np.allclose(first["space"].J_n, J_n) and np.allclose(first["space"].M, M, atol=1e-15)
    assert first["v_minus"][1] == pytest.approx(-V0, rel=1e-6)
    with pytest.raises(ValueError, match="no impact"):
        impactsim.load_scene(__import__("conftest").scene_path("double_pendulum")).first_impact()
    from_scene = impactsim.impact(scene, 500, seed=2)
    by_hand = laws.routh(h=0.3, steps=10).prepare(from_scene.space, from_scene.v_minus).sample(500, seed=2)
    assert np.array_equal(from_scene.v_plus, by_hand.v_plus) and np.array_equal(from_scene.classes, by_hand.classes)


def test_settings_and_arrays_are_checked():
    with pytest.raises(impactsim.SceneError, match="routh.h"):
        laws.routh(h=-0.1)
    with pytest.raises(impactsim.SceneError, match="sampling"):
        laws.routh(sampling="halton")
    with pytest.raises(impactsim.SceneError, match="list"):
        laws.sequential(order="list")
    with pytest.raises(impactsim.SceneError):
        laws.make("routh", stepsize=1)
    with pytest.raises(ValueError, match="no law named"):
        laws.make("newton")
    assert set(laws.names()) >= {"anitescu-potra", "routh", "sequential", "propagative"}
    bad = [
        (dict(M=np.eye(2)), "J_n"),
        (dict(M=np.ones((3, 3))), "positive definite"),
        (dict(M=np.array([[1.0, 0.5, 0], [0, 1, 0], [0, 0, 1]])), "symmetric"),
        (dict(M=np.eye(3)[:2]), "square"),
        (dict(J_t=np.ones((3, 3))), "J_t"),
        (dict(mu=[1.0, np.inf]), r"mu: entry \[1\] is inf"),
        (dict(mu=[1.0, -1.0]), ">= 0"),
        (dict(e=[0.0, 2.0]), r"\[0, 1\]"),
        (dict(e=[0.0]), "e: expected shape"),
        (dict(J_n=[[0.0, 1.0, float("nan")], [0.0, 1.0, 0.5]]), r"J_n: entry \[0, 2\] is nan"),
        (dict(M="heavy"), "M"),
    ]
    for change, message in bad:
        args = dict(M=M, J_n=J_n, J_t=J_t, mu=[1.0, 1.0], e=[0.0, 0.0])
        args.update(change)
        with pytest.raises(ValueError, match=message):
            impactsim.ContactSpace(**args)
    with pytest.raises(ValueError, match="v_minus"):
        laws.routh().prepare(block(), [0.0, -1.0])
    with pytest.raises(ValueError, match="v_minus"):
        laws.anitescu_potra().resolve(block(), [0.0, np.nan, 0.0])
    prepared = laws.routh().prepare(block(), V_MINUS)
    with pytest.raises(ValueError, match="threads"):
        prepared.sample(10, threads=0)
    with pytest.raises(ValueError, match="n: must be"):
        prepared.sample(-1)
