#!/usr/bin/python3
"""Runs every shipped scene with each of its numbers mutated, and counts what no run may do.

Every numeric leaf of every scene in scenes/ (list entries included) is replaced, one at a time,
through `impactsim run SCENE --set KEY=VALUE`, by each value of the mutation classes the fuzz corpus
holds (huge, tiny, zero, negative, not a number, quoted or tagged strings, nothing, a list, a long
or wrapping number). A run may be refused (exit 1 to 4, with a message) or succeed (exit 0); it may
never end by a signal or, having succeeded, write a value that is not finite. Each run's t_end is
capped (--t-end) so the sweep measures faults, not the scenes' lengths.

    tools/mutation_sweep.py build/impactsim [--quick] [--jobs N] [--t-end S] [--timeout S]

Prints one line per scene and the totals; exits 1 when any run ended by a signal or wrote a value
that is not finite, 0 otherwise. Runs that exceed --timeout are counted and listed, not failed.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import signal
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MUTATIONS = {
    "huge": ["1e308", "-1e308"],
    "tiny": ["1e-300"],
    "zero": ["0"],
    "negative": ["-1"],
    "not_finite": [".nan", ".inf"],
    "string": ["'2'", "!!str 2"],
    "nothing": ["~"],
    "list": ["[]"],
    "long": ["1" + "0" * 120],
    "wrapping": ["4294967297"],
}
QUICK_SCENES = ["rocking_block.yaml", "compass_gait_urdf.yaml"]


def numeric_leaves(node, path=""):
    """Key paths (as --set names them) of the numbers in a parsed scene."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from numeric_leaves(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield from numeric_leaves(value, f"{path}[{k}]")
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


def not_finite_in_csv(path):
    with open(path, newline="") as f:
        for row in csv.reader(f):
            for cell in row:
                try:
                    if not math.isfinite(float(cell)):
                        return True
                except ValueError:
                    pass
    return False


def not_finite_in_json(value):
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(not_finite_in_json(v) for v in value.values())
    if isinstance(value, list):
        return any(not_finite_in_json(v) for v in value)
    return False


def run_one(binary, scene, t_end, key, value, timeout):
    """('ok' | 'refused' | 'signal' | 'not_finite' | 'timeout', detail)"""
    with tempfile.TemporaryDirectory(prefix="impactsim_sweep_") as out:
        cmd = [binary, "run", scene, "-o", out, "--quiet",
               "--set", f"simulation.t_end={t_end}", "--set", f"{key}={value}"]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", " ".join(cmd[2:])
        detail = f"{os.path.basename(scene)} --set {key}={value}: exit {done.returncode}"
        if done.returncode < 0 or done.returncode >= 128:
            return "signal", detail + " " + done.stderr.strip()[-300:]
        if done.returncode != 0:
            return "refused", detail
        for name in sorted(os.listdir(out)):
            path = os.path.join(out, name)
            if name.endswith(".csv") and not_finite_in_csv(path):
                return "not_finite", f"{detail}: {name}"
            if name.endswith(".json"):
                with open(path) as f:
                    # Python's json reads NaN and Infinity, which no JSON writer of impactsim may emit.
                    if not_finite_in_json(json.load(f)):
                        return "not_finite", f"{detail}: {name}"
        return "ok", detail


def jobs_of(scene_paths):
    for scene in scene_paths:
        with open(scene) as f:
            doc = yaml.safe_load(f)
        t_end = min(float(doc.get("simulation", {}).get("t_end", 1.0)), ARGS.t_end)
        for key in numeric_leaves(doc):
            for values in MUTATIONS.values():
                for value in values:
                    yield scene, t_end, key, value


def main():
    scenes = sorted(f for f in os.listdir(os.path.join(ROOT, "scenes")) if f.endswith(".yaml"))
    if ARGS.quick:
        scenes = QUICK_SCENES
    paths = [os.path.join(ROOT, "scenes", s) for s in scenes]
    jobs = list(jobs_of(paths))
    if ARGS.quick:
        jobs = jobs[:: max(1, len(jobs) // 60)]
    counts = {}
    bad = []
    with concurrent.futures.ThreadPoolExecutor(ARGS.jobs) as pool:
        futures = [pool.submit(run_one, ARGS.binary, *job, ARGS.timeout) for job in jobs]
        for job, future in zip(jobs, futures):
            outcome, detail = future.result()
            scene = os.path.basename(job[0])
            counts.setdefault(scene, {}).setdefault(outcome, 0)
            counts[scene][outcome] += 1
            if outcome in ("signal", "not_finite", "timeout"):
                bad.append(f"{outcome}: {detail}")
    total = {}
    for scene, c in counts.items():
        print(scene, " ".join(f"{k} {v}" for k, v in sorted(c.items())))
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    print(f"total: {len(jobs)} runs,", ", ".join(f"{k} {v}" for k, v in sorted(total.items())))
    for line in bad:
        print(line)
    return 1 if total.get("signal", 0) or total.get("not_finite", 0) else 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--quick", action="store_true", help="about 60 runs over two scenes (ctest)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--t-end", type=float, default=0.5, help="cap on each run's t_end [s] (default 0.5)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds a run may take (default 60)")
    ARGS = parser.parse_args()
    sys.exit(main())
