#!/usr/bin/python3
"""The plots of one shipped scene: `impactsim run|impact|batch SCENE --plot` must leave valid,
non-blank PNG files (and a multi-frame GIF for planar runs) in the output directory; a run's
--view page stays under 2 MB.

  plots_test.py IMPACTSIM SCENE OUT_DIR COMMAND...    COMMAND in run, impact, batch
  plots_test.py --bad-input PLOT_TOOL                 the tool's errors on missing or malformed input
  plots_test.py --titles IMPACTSIM SCENE OUT_DIR      titles name the scene and law (metadata.json), and
                                                      --quiet keeps the tool's "wrote" lines off stderr
  plots_test.py --sweep IMPACTSIM SCENE OUT_DIR       sweep.png of an impact and a batch sweep: the
                                                      panels the statistics call for, not blank
  plots_test.py --reproduce SCRIPT BUILD_DIR OUT_DIR  tools/reproduce.sh --quick: every figure and table
                                                      it promises, valid and listed in its manifest
"""
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from PIL import Image


def check_png(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    assert data[12:16] == b"IHDR" and width >= 300 and height >= 200, f"{path}: bad header {width}x{height}"
    assert data.rstrip(b"\x00")[-8:-4] == b"IEND", f"{path}: truncated"
    image = Image.open(path).convert("L")
    image.load()
    low, high = image.getextrema()
    assert high - low > 100, f"{path}: blank image"
    # Something is drawn: a fair share of the pixels is not background.
    histogram = image.histogram()
    assert sum(histogram[:200]) > 0.01 * width * height, f"{path}: almost nothing drawn"


def check_gif(path, frames):
    image = Image.open(path)
    assert image.format == "GIF", f"{path}: not a GIF"
    assert image.n_frames >= frames, f"{path}: {image.n_frames} frame(s)"
    # At most the cap the tests run under (CMakeLists.txt), and its last row.
    most = os.environ.get("IMPACTSIM_PLOT_FRAMES")
    assert most is None or image.n_frames <= int(most) + 1, f"{path}: {image.n_frames} frames over {most}"


def check_frame(path):
    """The GIF's last frame is not blank: the bodies are drawn (several shades, some dark pixels)."""
    image = Image.open(path)
    image.seek(image.n_frames - 1)
    frame = image.convert("L")
    low, high = frame.getextrema()
    assert high - low > 100, f"{path}: blank last frame"
    assert sum(frame.histogram()[:160]) > 0.002 * frame.width * frame.height, f"{path}: nothing drawn"


def run(args, allowed=(0,)):
    result = subprocess.run(args, capture_output=True, text=True)
    assert result.returncode in allowed, f"{' '.join(args)} exited {result.returncode}:\n{result.stderr[-3000:]}"
    return result


def scene_plots(binary, scene, out, commands):
    shutil.rmtree(out, ignore_errors=True)
    planar = "planar: true" in open(scene).read()
    for command in commands:
        d = os.path.join(out, command)
        if command == "run":
            # A run that stops (exit 3, e.g. RAMone's contact-force LCP after its footfall) still
            # plots the rows it kept.
            r = run([binary, "run", scene, "--plot", "--view", "-q", "-o", d], allowed=(0, 3))
            if r.returncode == 3:
                print(f"note: the run stopped: {r.stderr.strip().splitlines()[0]}")
            # Its view.html too (opened in a browser by tests/tools/view_test.py): under 2 MB
            # without meshes.
            size = os.path.getsize(os.path.join(d, "view.html"))
            if "type: mesh" not in open(scene).read() and size >= 2 * 1024 * 1024:
                sys.exit(f"{d}/view.html is {size} bytes, over 2 MB")
            for name in ("trajectory.png", "energy.png"):
                check_png(os.path.join(d, name))
            # Every run is animated, planar or 3-D (bodies without shapes as their frames).
            check_gif(os.path.join(d, "animation.gif"), frames=2 if r.returncode == 0 else 1)
            check_frame(os.path.join(d, "animation.gif"))
        elif command == "impact":
            r = run([binary, "impact", scene, "--samples", "2000", "--plot", "-o", d], allowed=(0, 2))
            if r.returncode == 2:  # a scene without an impact (a box sliding down an incline)
                assert "no impact happens" in r.stderr, r.stderr
                print("note: no impact to plot")
                continue
            check_png(os.path.join(d, "post_impact.png"))
            if not os.path.exists(os.path.join(d, "anitescu_potra.csv")):
                # Too many contacts to enumerate the Anitescu-Potra solutions (sphere_row: 201).
                assert "no Anitescu-Potra overlay" in r.stderr, r.stderr
                print("note: no Anitescu-Potra overlay")
                continue
            assert os.path.getsize(os.path.join(d, "anitescu_potra.csv")) > 0
        elif command == "batch":
            run([binary, "batch", scene, "--runs", "40", "--threads", "2", "--trajectories", "1", "--plot", "-q",
                 "-o", d])
            check_png(os.path.join(d, "histograms.png"))
            check_png(os.path.join(d, "runs", "0", "trajectory.png"))
        else:
            raise SystemExit(f"unknown command {command}")
    print(f"plots of {os.path.basename(scene)} ({', '.join(commands)}): ok")


def bad_input(tool):
    with tempfile.TemporaryDirectory() as d:
        missing = os.path.join(d, "nothing_here")
        r = subprocess.run(["/usr/bin/python3", tool, "run", missing], capture_output=True, text=True)
        assert r.returncode == 2 and "trajectory.csv: no such file" in r.stderr, r.stderr
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write("")
        r = subprocess.run(["/usr/bin/python3", tool, "batch", d], capture_output=True, text=True)
        assert r.returncode == 2 and "runs.csv: empty file" in r.stderr, r.stderr
        r = subprocess.run(["/usr/bin/python3", tool, "sideways", d], capture_output=True, text=True)
        assert r.returncode == 1 and "plot.py run DIR" in r.stderr, r.stderr
    print("plot tool bad input: ok")


def titles(binary, scene, out):
    """plot.py titles its figures from metadata.json: the scene, the law and the overrides; a
    batch run's runs/<i>/ takes its batch's and names the run; a folder without one keeps its name."""
    import importlib.util
    shutil.rmtree(out, ignore_errors=True)
    d = os.path.join(out, "run")
    quiet = run([binary, "run", scene, "--plot", "-q", "--set", "materials.mu=0.5", "-o", d])
    assert "plot: wrote" not in quiet.stderr, quiet.stderr
    loud = run([binary, "run", scene, "--plot", "--set", "materials.mu=0.5", "-o", d])
    assert "plot: wrote" in loud.stderr, loud.stderr
    b = os.path.join(out, "batch")
    run([binary, "batch", scene, "--runs", "2", "--trajectories", "1", "-q", "-o", b])
    # A 3-D body without shapes is animated as its frame (it used to leave no animation at all).
    point = os.path.join(out, "point.yaml")
    with open(point, "w") as f:
        f.write("name: point\nbodies:\n  - name: point\n    joint: {type: free}\n    mass: 1\n"
                "    inertia: [0.01, 0.01, 0.01]\n    initial: {z: 1, vx: 0.5, wz: 3}\nsimulation: {t_end: 0.3}\n")
    p = os.path.join(out, "point")
    run([binary, "run", point, "--plot", "-q", "-o", p])
    check_gif(os.path.join(p, "animation.gif"), frames=2)
    check_frame(os.path.join(p, "animation.gif"))
    tool = os.environ.get("PLOT_TOOL")
    spec = importlib.util.spec_from_file_location("plot", tool)
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    assert plot.source_label(d) == "rocking_block, law routh (materials.mu=0.5)", plot.source_label(d)
    assert plot.source_label(os.path.join(b, "runs", "0")) == "rocking_block, law routh, run 0", \
        plot.source_label(os.path.join(b, "runs", "0"))
    with tempfile.TemporaryDirectory() as bare:
        assert plot.source_label(bare) == os.path.basename(bare)
    # One trajectory panel per unit, each coordinate in the panel of its unit.
    cube = ["cube." + c for c in ("x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz")]
    panels = dict(plot.unit_panels(cube, 7))
    assert list(panels) == ["position [m]", "orientation quaternion [1]", "linear velocity [m/s]",
                            "angular velocity [rad/s]"], list(panels)
    assert panels["angular velocity [rad/s]"] == ["cube.wx", "cube.wy", "cube.wz"]
    block = ["block.x", "block.y", "block.theta", "block.vx", "block.vy", "block.omega"]
    assert [label for label, _ in plot.unit_panels(block, 3)] == ["position [m]", "angle [rad]", "linear velocity [m/s]",
                                                                  "angular velocity [rad/s]"]
    # Histogram axes carry the units of runs.csv's columns where they are known.
    units = {name: plot.column_unit(name) for name in ("t_rest", "final.block.x", "init.block.theta", "final_tilt_deg",
                                                       "final.kinetic_energy", "init.cube.wz", "impacts_A", "stepped_time",
                                                       "deepest_penetration")}
    assert units == {"t_rest": "s", "final.block.x": "m", "init.block.theta": "rad", "final_tilt_deg": "deg",
                     "final.kinetic_energy": "J", "init.cube.wz": "rad/s", "impacts_A": "", "stepped_time": "s",
                     "deepest_penetration": "m"}, units
    # The 3-D animation turns body points by the pose's quaternion: a quarter turn about z takes x to y;
    # the frames keep the last row.
    quarter = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))
    assert all(abs(a - b) < 1e-12 for a, b in zip(plot.rotate(quarter, (1.0, 0.0, 0.0)), (0.0, 1.0, 0.0)))
    assert all(abs(a - b) < 1e-12 for a, b in zip(plot.rotate(quarter, (0.0, 0.0, 2.0)), (0.0, 0.0, 2.0)))
    rows = [[float(k)] for k in range(130)]
    frames = plot.frames_of(rows, 60)
    assert len(frames) <= 61 and frames[-1] is rows[-1] and frames[0] is rows[0], len(frames)
    # IMPACTSIM_PLOT_FRAMES caps the animations; a value that is not a count of two or more is refused.
    saved = os.environ.pop("IMPACTSIM_PLOT_FRAMES", None)
    try:
        assert plot.frame_limit(120) == 120
        os.environ["IMPACTSIM_PLOT_FRAMES"] = "8"
        assert plot.frame_limit(120) == 8 and plot.frame_limit(60) == 8
        for bad in ("one", "1", "-3", "2.5", "\u00b2"):
            os.environ["IMPACTSIM_PLOT_FRAMES"] = bad
            try:
                plot.frame_limit(120)
                raise AssertionError(f"IMPACTSIM_PLOT_FRAMES={bad} accepted")
            except plot.PlotError as e:
                assert "IMPACTSIM_PLOT_FRAMES" in str(e) and "at least 2" in str(e), e
    finally:
        os.environ.pop("IMPACTSIM_PLOT_FRAMES", None)
        if saved is not None:
            os.environ["IMPACTSIM_PLOT_FRAMES"] = saved
    # The rocking block's run: its trajectory.png is tall enough for four panels.
    from PIL import Image
    check_png(os.path.join(d, "trajectory.png"))
    assert Image.open(os.path.join(d, "trajectory.png")).size[1] > 900
    print("plot titles: ok")


def sweep_plots(binary, scene, out):
    import importlib.util
    shutil.rmtree(out, ignore_errors=True)
    tool = os.environ.get("PLOT_TOOL")
    spec = importlib.util.spec_from_file_location("plot", tool)
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    impact = os.path.join(out, "impact")
    run([binary, "sweep", scene, "--param", "materials.mu=0:0.6:4", "--plot", "-q", "-o", impact, "--",
         "impact", "--samples", "300", "--law", "routh"])
    check_png(os.path.join(impact, "sweep.png"))
    header, rows = plot.read_table(os.path.join(impact, "sweep.csv"))
    stats = header[header.index("exit") + 1:]
    titles = [title for title, _ in plot.sweep_panels(stats, rows, header)]
    assert "fraction of samples: A" in titles and "fraction of samples: B" in titles, titles
    lines = dict(plot.sweep_panels(stats, rows, header))["fraction of samples: A"]
    assert {label for label, _, _ in lines} >= {"stick", "slide"}, lines
    batch = os.path.join(out, "batch")
    run([binary, "sweep", scene, "--param", "simulation.routh.h=0.2,0.3", "--param", "bodies[0].initial.vx=-0.1:0.1:3",
         "--plot", "-q", "-o", batch, "--", "batch", "--runs", "20", "--law", "routh"])
    check_png(os.path.join(batch, "sweep.png"))
    header, rows = plot.read_table(os.path.join(batch, "sweep.csv"))
    stats = header[header.index("exit") + 1:]
    panels = dict(plot.sweep_panels(stats, rows, header))
    assert "lifts_A (mean, +-1 sd)" in panels, list(panels)
    assert all(errs is not None for _, _, errs in panels["lifts_A (mean, +-1 sd)"])
    print("sweep plots: ok")


def reproduce(script, build, out):
    shutil.rmtree(out, ignore_errors=True)
    bad = subprocess.run([script, "--no-such-option", out], capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown option --no-such-option" in bad.stderr, bad.stderr
    missing = subprocess.run([script, "--build", out if os.path.isdir(out) else "/", out], capture_output=True, text=True)
    assert missing.returncode != 0 and "impactsim not found" in missing.stderr, missing.stderr
    run([script, "--quick", "--build", build, out])
    manifest = open(os.path.join(out, "MANIFEST.md")).read()
    images = ["images/rocking_block_" + f for f in ("trajectory.png", "energy.png", "post_impact.png", "histograms.png")]
    paper = [f"paper/fig{n}_post_impact.png" for n in ("09_rocking_block", "10_compass_gait", "11_box_wall", "13_ramone",
                                                        "14_disk_stack")]
    for name in images + paper:
        check_png(os.path.join(out, name))
        assert f"| {name} | `impactsim " in manifest, (name, manifest)
    check_gif(os.path.join(out, "images", "rocking_block_animation.gif"), 10)
    # The pictures the README and docs/guide.md show are the ones the script makes: the same names.
    root = os.path.join(os.path.dirname(script), "..")
    shown = open(os.path.join(root, "README.md")).read() + open(os.path.join(root, "docs", "guide.md")).read()
    for name in images + ["images/rocking_block_animation.gif"]:
        assert f"docs/{name}" in shown or f"]({name})" in shown, name
    rows = [line for line in open(os.path.join(out, "tables", "throughput.md")) if line.startswith("| `impactsim")]
    assert len(rows) == 2, rows
    for row in rows:
        assert float(row.rstrip().rstrip("|").split("|")[-1]) > 0, row
    # Each figure's run folder says where it came from.
    assert os.path.exists(os.path.join(out, "runs", "fig13_ramone", "metadata.json"))
    print("reproduce: ok")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--bad-input":
        bad_input(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "--sweep":
        sweep_plots(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "--reproduce":
        reproduce(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "--titles":
        titles(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) >= 5:
        scene_plots(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        raise SystemExit(__doc__)
