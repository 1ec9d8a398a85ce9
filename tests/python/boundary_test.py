"""The boundary between Python and the library: arrays checked by name, the GIL released during
long calls, Ctrl-C ending them with KeyboardInterrupt and nothing broken after."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import impactsim
from conftest import scene_path
from law_bindings_test import V_MINUS, block


def long_sampling():
    return impactsim.laws.routh(h=0.01, steps=1000).prepare(block(), V_MINUS)


def test_arrays_of_the_wrong_shape_or_not_finite_are_named():
    with pytest.raises(ValueError, match=r"v_minus: expected shape \(3\), got \(3, 1\)"):
        impactsim.laws.routh().prepare(block(), np.zeros((3, 1)))
    with pytest.raises(ValueError, match=r"v_minus: entry \[2\] is -inf"):
        impactsim.laws.routh().prepare(block(), [0.0, -1.0, -np.inf])
    with pytest.raises(ValueError, match="v_minus: not an array of numbers"):
        impactsim.laws.routh().prepare(block(), ["fast", "slow", 0])


def test_the_gil_is_released_while_sampling():
    prepared = long_sampling()
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.perf_counter()
    prepared.sample(3000, seed=1)
    end = time.perf_counter()
    done.set()
    counter.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05 and len(during) > 5  # the other thread ran while the samples were drawn


def test_ctrl_c_interrupts_a_long_call_cleanly():
    prepared = long_sampling()
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        prepared.sample(10**7, seed=1, threads=2)
    assert time.perf_counter() - start < 5.0
    timer.join()
    # Nothing is left broken: the same samples as a fresh call, and Python's own handler is back.
    assert np.array_equal(prepared.sample(20, seed=1).v_plus, long_sampling().sample(20, seed=1).v_plus)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    scene = impactsim.load_scene(scene_path("rocking_block_random_tilt"))
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        impactsim.batch(scene, 10**6, threads=2)
    timer.join()
    assert len(impactsim.batch(scene, 2)) == 2
