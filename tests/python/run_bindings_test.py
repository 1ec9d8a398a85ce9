"""One run from Python: the command's trajectory.csv and events.csv, number for number; the event
callback; a failed run's partial result."""
import json

import numpy as np
import pytest

import impactsim
from conftest import cell_text, command, read_csv, scene_path


def test_a_run_is_the_commands_files_number_for_number(out):
    for name, overrides in (("rocking_block_tilted", {}), ("cube_toss", {"simulation.t_end": 1.0})):
        overrides = dict(overrides, **{"output.precision": 17})
        scene = impactsim.load_scene(scene_path(name), overrides=overrides)
        run = scene.run()
        sets = [f"--set={k}={v}" for k, v in overrides.items()]
        command("run", scene_path(name), "-o", out / name, *sets)
        header, rows = read_csv(out / name / "trajectory.csv")
        assert header == run.trajectory.columns and len(rows) == len(run.trajectory)
        assert np.array_equal(np.array(rows, dtype=float), run.trajectory.to_numpy())
        header, events = read_csv(out / name / "events.csv")
        assert [e[1] for e in events] == run.events["kind"]
        assert np.array_equal([float(e[0]) for e in events], run.events["t"])
        assert [e[6] for e in events] == [";".join(cell_text(x, 17) for x in i) for i in run.events["impulse_n"]]
        assert [e[2] for e in events] == [";".join(c) for c in run.events["contacts"]]
        assert [e[8] for e in events] == [";".join(cell_text(x, 17) for x in i) for i in run.events["impulse_t"]]
        assert header[9] == "duration" and [e[9] for e in events] == [cell_text(x, 17) for x in run.events["duration"]]
        summary = json.loads((out / name / "summary.json").read_text())
        assert summary == run.summary


def test_the_law_seed_integrator_and_t_end_can_be_changed():
    scene = impactsim.load_scene(scene_path("rocking_block_tilted"))
    short = scene.run(t_end=0.05)
    assert short.trajectory["t"][-1] == pytest.approx(0.05)
    assert scene.run(law="sequential", seed=3).law == "sequential"
    stepped = scene.run(integrator="time-stepping", step=1e-3, t_end=0.1)
    assert stepped.trajectory["t"][-1] == pytest.approx(0.1) and stepped.stats["solves"] > 0
    assert short.stats["solves"] == 0 and short.stats["evaluations"] > 0  # the event loop solves no step LCPs
    with pytest.raises(ValueError, match="no law named"):
        scene.run(law="newton")
    with pytest.raises(ValueError):
        scene.run(integrator="leapfrog")


def test_each_event_reaches_the_callback_as_it_happens():
    scene = impactsim.load_scene(scene_path("rocking_block_tilted"))
    seen = []
    run = scene.run(on_event=seen.append)
    assert [e["kind"] for e in seen] == run.events["kind"] and len(seen) == run.summary["events"]
    impacts = [e for e in seen if e["kind"] in ("impact", "zeno")]
    assert impacts and all((e["impulse_n"] >= 0).all() for e in impacts)
    assert all(e["kinetic_energy_after"] <= e["kinetic_energy_before"] + 1e-12 for e in impacts)

    class Enough(Exception):
        pass

    def stop_at_third(event):
        if len(seen) >= 3:
            raise Enough()
        seen.append(event)

    seen = []
    with pytest.raises(Enough):
        scene.run(on_event=stop_at_third)
    assert len(seen) == 3


def test_a_run_that_cannot_go_on_keeps_what_it_computed():
    scene = impactsim.load_scene(scene_path("rocking_block_tilted"), overrides={"simulation.contact.max_events": 3})
    with pytest.raises(impactsim.SimulationError) as failed:
        scene.run()
    e = failed.value
    assert e.reason == "event_limit" and e.time > 0 and "more than 3 events" in str(e)
    assert len(e.partial.events) >= 3 and e.partial.summary["status"] == "failed"
    assert e.partial.trajectory["t"][-1] <= e.time + 1e-12


def test_replaying_a_batch_run_is_its_row():
    scene = impactsim.load_scene(scene_path("rocking_block_random_tilt"))
    runs = impactsim.batch(scene, 4, seed=9)
    replay = scene.run(seed=9, run=2)
    assert replay.seed == runs["seed"][2]
    assert replay.summary["t_final"] == runs["t_final"][2] and replay.summary["events"] == runs["events"][2]
