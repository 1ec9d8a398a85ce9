"""impact and batch from Python: the numbers of samples.csv and runs.csv, the same on any number
of threads."""
import numpy as np

import impactsim
from conftest import cell_text, command, read_csv, scene_path


def test_impact_is_samples_csv_bit_for_bit(out):
    for name in ("rocking_block", "cube_toss", "compass_gait_3d"):
        scene = impactsim.load_scene(scene_path(name), overrides={"output.precision": 17})
        samples = impactsim.impact(scene, 300, seed=4, threads=2)
        command("impact", scene_path(name), "--samples", 300, "--seed", 4, "-o", out / name, "--set",
                "output.precision=17")
        header, rows = read_csv(out / name / "samples.csv")
        table = samples.table()
        assert header == table.columns
        for k, column in enumerate(header):
            cells = [r[k] for r in rows]
            if column.endswith(".class"):
                assert cells == table[column]
            else:
                assert np.array_equal(np.array(cells, dtype=float), np.asarray(table[column], dtype=float)), column


def test_impact_at_the_default_precision_prints_as_the_file(out):
    scene = impactsim.load_scene(scene_path("rocking_block"))
    samples = impactsim.impact(scene, 200)
    command("impact", scene_path("rocking_block"), "--samples", 200, "-o", out)
    header, rows = read_csv(out / "samples.csv")
    column = header.index("block.omega")
    assert [r[column] for r in rows] == [cell_text(x, scene.precision) for x in samples.v_plus[:, 2]]


def test_samples_are_the_same_on_any_number_of_threads():
    scene = impactsim.load_scene(scene_path("rocking_block"))
    one = impactsim.impact(scene, 2000, seed=11, threads=1)
    three = impactsim.impact(scene, 2000, seed=11, threads=3)
    for key in ("v_plus", "impulse_n", "impulse_t", "classes", "status", "kinetic_energy"):
        assert np.array_equal(getattr(one, key), getattr(three, key)), key
    assert not np.array_equal(one.v_plus, impactsim.impact(scene, 2000, seed=12).v_plus)


def test_batch_is_runs_csv(out):
    name = "rocking_block_random_tilt"
    scene = impactsim.load_scene(scene_path(name), overrides={"output.precision": 17})
    runs = impactsim.batch(scene, 24, seed=5, threads=2)
    command("batch", scene_path(name), "--runs", 24, "--seed", 5, "--quiet", "-o", out, "--set", "output.precision=17")
    header, rows = read_csv(out / "runs.csv")
    assert header == runs.columns and len(rows) == len(runs)
    for k, column in enumerate(header):
        cells = [r[k] for r in rows]
        if column in ("status", "reason", "message"):
            assert cells == runs[column], column
        else:
            expected = np.array([float(c) if c else np.nan for c in cells])
            assert np.array_equal(expected, np.asarray(runs[column], dtype=float), equal_nan=True), column
    again = impactsim.batch(scene, 24, seed=5, threads=1)
    assert all(np.array_equal(np.asarray(runs[c], dtype=object), np.asarray(again[c], dtype=object)) for c in runs)
    slice_ = impactsim.batch(scene, 4, seed=5, first=20)
    assert list(slice_["run"]) == [20, 21, 22, 23] and np.array_equal(slice_["t_final"], runs["t_final"][20:])


def test_to_pandas_gives_the_files_columns():
    import pytest

    pandas = pytest.importorskip("pandas")
    scene = impactsim.load_scene(scene_path("rocking_block"))
    frame = impactsim.impact(scene, 50).to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame.columns)[:4] == ["sample", "block.vx", "block.vy", "block.omega"]
    assert impactsim.batch(impactsim.load_scene(scene_path("rocking_block_random_tilt")), 3).to_pandas().shape[0] == 3
