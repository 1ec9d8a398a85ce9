"""Samples as arrays: codes and names of classes and statuses, slices of a design, failures."""
import numpy as np

import impactsim
from impactsim import CLASS_NAMES, STATUS_NAMES
from law_bindings_test import V_MINUS, block


def test_classes_and_statuses_follow_their_definitions():
    samples = impactsim.laws.routh(h=0.3, steps=10).prepare(block(), V_MINUS).sample(1000, seed=5)
    tol = samples.tolerance
    assert tol == 1e-6  # 1e-6 of the fastest approach, at least 1e-6 m/s
    lift = samples.vn > tol
    assert np.array_equal(samples.classes == CLASS_NAMES.index("lift"), lift)
    sliding = ~lift & (np.abs(samples.vt) > tol)
    assert np.array_equal(samples.classes == CLASS_NAMES.index("slide"), sliding)
    assert set(samples.status.tolist()) == {STATUS_NAMES.index("accepted")}
    labels = samples.class_labels()
    assert labels[0] == [CLASS_NAMES[c] for c in samples.classes[0]]
    assert sum(samples.class_counts().values()) == 1000


def test_a_slice_is_those_samples_of_the_whole():
    prepared = impactsim.laws.routh(sampling="sobol").prepare(block(), V_MINUS)
    whole = prepared.sample(300, seed=8)
    part = prepared.sample(100, seed=8, first=200)
    assert np.array_equal(part.sample, np.arange(200, 300)) and np.array_equal(part.v_plus, whole.v_plus[200:])


def test_samples_that_do_not_terminate_are_flagged_collide():
    # One Routh step of a small impulse cannot stop the block: every sample hits the step cap.
    samples = impactsim.laws.routh(h=0.01, steps=1).prepare(block(), V_MINUS).sample(50, seed=1)
    assert not samples.terminated.any() and set(samples.status.tolist()) == {STATUS_NAMES.index("collide")}
    assert samples.class_counts() == {} and samples.class_labels()[0] == ["collide", "collide"]
    assert not samples.accepted.any()
