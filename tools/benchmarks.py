#!/usr/bin/env python3
"""Regenerates docs/benchmarks.md: every figure in it comes from this script's own runs.

    /usr/bin/python3 tools/benchmarks.py [--build build] [--out docs/benchmarks.md]
                                         [--repetitions 3] [--threads 2] [--quick]

It runs build/impactsim_bench (Google Benchmark, JSON), the command line's own timing lines on the
shipped scenes and the throughput of `impact` and `batch`, and writes the tables with the machine,
the commit and the date. --quick runs the cheap benchmarks once (a check that the script works;
ctest runs it that way), never to be committed as the figures.
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# What each Google Benchmark measures; the name's prefix before '/' is the key.
BENCHMARKS = {
    "BM_LemkePlanarTwoContactLcp": "Lemke on the rocking block's 8-variable impact LCP (2 contacts, planar)",
    "BM_AnitescuPotraRockingBlock": "the Anitescu-Potra law on the rocking block: LCP from M and J, solve, v+",
    "BM_RouthRockingBlockSample": "one Routh sample of the rocking block, h = 0.3 (about 2.5 step LCPs)",
    "BM_ImpactsInTheCone": "every impact of the named scene's run resolved again by anitescu-potra, in the circular "
                           "cone or the scene's polygon (cube_toss: 5 impacts, 8 edges; box_stack: 3, 4 edges)",
    "BM_BouncingBallFirst40Impacts": "the bouncing ball through its first 40 impacts, events located to 1e-14 max(1, t) s",
    "BM_RockingBlockFullRuns": "full runs of the rocking block dropped flat (Routh, Zeno rule, ended at rest); one run per iteration",
    "BM_SphereRow": "`sphere_row` (100 balls, 201 contacts) run to 1 s under the named law",
    "BM_SpherePile": "`sphere_pile` (10 frictionless spheres into a bin) run to 1 s",
    "BM_SpherePile50": "`tests/scenes/contact/frictionless_pile_50.yaml` (50 frictionless spheres) run to 1 s",
    "BM_FrictionalSpherePile": "`sphere_pile` with mu = 0.3 run to 1 s (stick, slip, slips from rest together)",
    "BM_BoxPileLanding": "a pile of n boxes and spheres (layers of 25) to t = 0.1 s, the first layer landing; "
                         "horizon 0 follows every contact, 1 the near set; islands 1 on their own clocks",
    "BM_SettlingPile": "one layer of n boxes and spheres landing and settling in a bin grown to fit them, run to "
                       "1 s: the same work per body at every n (per_body: seconds per body per simulated second); "
                       "islands 1 on their own clocks",
    "BM_BroadphasePile": "one broadphase pass over a pile of n bodies (`collide: all`)",
    "BM_BroadphasePileNear": "the event loop's pass over the same pile: its near set, checked and updated",
    "BM_PileLoad": "that pile's scene read and checked, its closed contacts found: what a run pays once",
    "run_pair": "one shape-pair signed distance (exact forms; FCL's GJK where named)",
}
QUICK = ("Lemke|AnitescuPotraRocking|RouthRockingBlockSample|ImpactsInTheCone|BouncingBall|run_pair/Box|BroadphasePile/25|"
         "PileLoad/25")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def google_benchmarks(build, repetitions, quick):
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "bench.json"
        cmd = [str(build / "impactsim_bench"), "--benchmark_format=json", f"--benchmark_out={out}",
               "--benchmark_out_format=json"]
        if quick:
            cmd += [f"--benchmark_filter={QUICK}", "--benchmark_min_time=0.01"]
        elif repetitions > 1:
            cmd += [f"--benchmark_repetitions={repetitions}", "--benchmark_report_aggregates_only=true"]
        run(cmd)
        data = json.loads(out.read_text())
    rows = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"]).replace("/iterations:1", "").replace("/real_time", "")
        rows[name] = (b["real_time"], b["time_unit"])
    return data["context"], rows


def unit_text(value, unit):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
    seconds = value * scale
    for name, factor in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= factor or name == "ns":
            return f"{seconds / factor:.3g} {name}"


def scene_timings(build, scenes):
    """impactsim run's own timing line for each shipped scene: wall time of the run, events."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for scene in scenes:
            r = subprocess.run([str(build / "impactsim"), "run", str(scene), "-o", tmp],
                               capture_output=True, text=True)
            m = re.search(r"timing: ([\d.]+) s simulated in ([\d.]+) s wall", r.stderr)
            events = re.search(r"and (\d+) events", r.stderr)
            if r.returncode != 0 or not m:
                rows.append((scene.stem, "exit %d" % r.returncode, "", ""))
                continue
            simulated, wall = float(m.group(1)), float(m.group(2))
            rows.append((scene.stem, f"{simulated:g}", f"{wall:.3g}", events.group(1) if events else ""))
    return rows


def throughput(build, threads, quick):
    """Samples and runs per second of `impact` and `batch` on the rocking block, files written."""
    samples = 65536 if quick else 1048576
    runs = 1000 if quick else 10000
    rows = []
    scene = ROOT / "scenes" / "rocking_block.yaml"
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("csv", "hdf5"):
            r = run([str(build / "impactsim"), "impact", str(scene), "--samples", str(samples), "--threads",
                     str(threads), "--format", fmt, "-o", f"{tmp}/i{fmt}"])
            m = re.search(r"timing\s+([\d.]+) s, (\d+) samples per second", r.stdout)
            rows.append((f"`impact scenes/rocking_block.yaml --samples {samples} --threads {threads} --format {fmt}`",
                         f"{int(m.group(2)):,} samples/s"))
        r = run([str(build / "impactsim"), "batch", str(scene), "--runs", str(runs), "--threads", str(threads),
                 "-o", f"{tmp}/b", "--force"])
        m = re.search(r"timing: [\d.]+ s wall, (\d+) runs/s", r.stderr)
        rows.append((f"`batch scenes/rocking_block.yaml --runs {runs} --threads {threads}`",
                     f"{int(m.group(1)):,} runs/s"))
    return rows


def python_sampling(build, quick):
    """tools/python_sampling_bench.py's lines: 10^6 Routh samples through impactsim.impact against
    `impactsim impact` (--quick: 65,536 once). None where the package was not built."""
    if not (build / "python" / "impactsim").is_dir():
        return None
    samples, repeats = (65536, 1) if quick else (1000000, 3)
    env = dict(os.environ, PYTHONPATH=str(build / "python"))
    r = subprocess.run(["/usr/bin/python3", str(ROOT / "tools" / "python_sampling_bench.py"), "--samples",
                        str(samples), "--repeats", str(repeats), "--binary", str(build / "impactsim")],
                       capture_output=True, text=True, check=True, env=env)
    return r.stdout.strip().splitlines()


def commit():
    try:
        return run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"]).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def render(context, bench, scenes, rates, args, python=None):
    cpu = context.get("mhz_per_cpu", "?")
    lines = [
        "# Benchmarks",
        "",
        "Written by `/usr/bin/python3 tools/benchmarks.py` (run it again to refresh every figure here; the",
        "history of these figures is in the commit log). Speed is measured, never asserted in unit tests.",
        "",
        f"Measured on {context.get('num_cpus', '?')} CPUs at {cpu} MHz ({platform.machine()}, "
        f"{platform.system()}), commit {commit()}, {datetime.date.today().isoformat()}; "
        f"{'one run each (--quick)' if args.quick else f'medians of {args.repetitions} repetitions'}."
        " A virtual machine's speed drifts by tens of percent within an hour: compare figures taken in one sitting.",
        "",
        "## Google Benchmark (`build/impactsim_bench`)",
        "",
        "| benchmark | what it measures | time |",
        "| --- | --- | --- |",
    ]
    for name, (value, unit) in bench.items():
        key = name.split("/")[0]
        lines.append(f"| `{name}` | {BENCHMARKS.get(key, '')} | {unit_text(value, unit)} |")
    lines += ["", "## Throughput of the command line", "", "| command | rate |", "| --- | --- |"]
    lines += [f"| {c} | {r} |" for c, r in rates]
    lines += ["", "## Shipped scenes (`impactsim run SCENE`, the run's own timing line)", "",
              "| scene | simulated (s) | wall (s) | events |", "| --- | --- | --- | --- |"]
    lines += [f"| `{s}` | {t} | {w} | {e} |" for s, t, w, e in scenes]
    if python:
        lines += ["", "## Python", "", "Sampling through the Python package (`tools/python_sampling_bench.py`, one thread; the",
                  "command's figure is its own timing line, which includes writing samples.csv):", "", "```text"]
        lines += python + ["```"]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default=str(ROOT / "build"))
    p.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"))
    p.add_argument("--repetitions", type=int, default=3)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    build = pathlib.Path(args.build)
    for binary in ("impactsim", "impactsim_bench"):
        if not (build / binary).exists():
            sys.exit(f"benchmarks: {build / binary} is missing: build it first (tools/build.sh)")
    context, bench = google_benchmarks(build, args.repetitions, args.quick)
    scenes = sorted((ROOT / "scenes").glob("*.yaml"))
    if args.quick:
        scenes = [s for s in scenes if s.stem in ("bouncing_ball", "rocking_block", "cube_toss")]
    text = render(context, bench, scene_timings(build, scenes), throughput(build, args.threads, args.quick), args,
                  python_sampling(build, args.quick))
    pathlib.Path(args.out).write_text(text)
    print(f"benchmarks: wrote {args.out}")


if __name__ == "__main__":
    main()
