#!/usr/bin/env python3
"""What sampling through Python costs beside the command: N Routh samples of a scene's impact drawn
by `impactsim impact` (its own timing line: sampling and writing samples.csv) and by
impactsim.impact (one call, arrays returned), alternating, best of R. Prints microseconds per sample
and the ratio Python / command.

    PYTHONPATH=build/python /usr/bin/python3 tools/python_sampling_bench.py [--samples N] [--repeats R]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def command_seconds(binary, scene, samples, threads, out):
    done = subprocess.run([binary, "impact", scene, "--samples", str(samples), "--threads", str(threads), "--quiet",
                           "-o", out], capture_output=True, text=True, check=True)
    return float(re.search(r"^timing\s+([0-9.eE+-]+) s", done.stdout, re.M).group(1))


def python_seconds(impactsim, scene, samples, threads):
    start = time.perf_counter()
    impactsim.impact(scene, samples, threads=threads)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--scene", default=str(ROOT / "scenes" / "rocking_block.yaml"))
    parser.add_argument("--binary", default=str(ROOT / "build" / "impactsim"))
    args = parser.parse_args()
    import impactsim

    scene = impactsim.load_scene(args.scene)
    best_cli = best_py = float("inf")
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.repeats):
            best_cli = min(best_cli, command_seconds(args.binary, args.scene, args.samples, args.threads, out))
            best_py = min(best_py, python_seconds(impactsim, scene, args.samples, args.threads))
    per = 1e6 / args.samples
    print(f"{pathlib.Path(args.scene).stem}, law {scene.law}, {args.samples} samples, {args.threads} thread(s), "
          f"best of {args.repeats}")
    print(f"impactsim impact: {best_cli:.3f} s ({best_cli * per:.3f} us/sample)")
    print(f"impactsim.impact: {best_py:.3f} s ({best_py * per:.3f} us/sample)")
    print(f"Python / command: {best_py / best_cli:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
