#!/usr/bin/python3
"""Siconos's Lemke against impactsim's LCP solver on the generated jammed impact LCPs.

Usage (Debian's python3-siconos and numpy; the script installs them if it may):
  build/jammed_lcp_dump DIR 1000
  /usr/bin/python3 tools/compare_lcp_siconos.py DIR

Reads DIR/lcp_NNNNN.txt (n, W row by row, w) and DIR/impactsim.csv, solves each problem with
Siconos's lexicographic Lemke (SICONOS_LCP_LEMKE) and its pivot-based Lemke (SICONOS_LCP_PIVOT),
checks every answer with the same scaled residual as impactsim (numerics/lcp.hpp, accepted at 1e-9)
and prints, per solver, how many it solved, by problem size, and the time per problem.
Siconos is an oracle here, never a dependency of the simulator.
"""
import csv
import glob
import os
import subprocess
import sys
import time


def ensure_siconos():
    try:
        import numpy  # noqa: F401
        import siconos.numerics  # noqa: F401
    except ImportError:
        if os.geteuid() != 0:
            sys.exit("compare_lcp_siconos: needs Debian's python3-siconos (apt-get install -y python3-siconos)")
        subprocess.run(["apt-get", "install", "-y", "python3-siconos"], check=True, stdout=subprocess.DEVNULL)


def read_lcp(path):
    import numpy as np
    with open(path) as f:
        values = f.read().split()
    n = int(values[0])
    numbers = np.array([float(v) for v in values[1:]])
    return numbers[: n * n].reshape(n, n), numbers[n * n : n * n + n]


def residual(W, w, z):
    """numerics/lcp.cpp's lcp_residual: -z over 1 + |z|_inf, -s over 1 + |w|_inf, z s over both."""
    import numpy as np
    s = W @ z + w
    w_scale = 1.0 + np.max(np.abs(w))
    z_scale = 1.0 + np.max(np.abs(z))
    return max(np.max(-z) / z_scale, np.max(-s) / w_scale, np.max(np.abs(z * s)) / (z_scale * w_scale), 0.0)


def solve_siconos(W, w, solver):
    import numpy as np
    import siconos.numerics as sn
    n = len(w)
    problem = sn.LCP(np.ascontiguousarray(W), np.ascontiguousarray(w))
    z, s = np.zeros(n), np.zeros(n)
    options = sn.SolverOptions(solver)
    # Siconos prints its failures from C; keep them off the table.
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            start = time.perf_counter()
            info = sn.linearComplementarity_driver(problem, z, s, options)
            seconds = time.perf_counter() - start
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    finite = bool(np.all(np.isfinite(z)))
    return info, (residual(W, w, z) if finite else float("inf")), seconds


def problem_set(directory, script, dump):
    """The problem files of directory, in order, and impactsim.csv's rows by index; Siconos ready."""
    files = sorted(glob.glob(os.path.join(directory, "lcp_*.txt")))
    if not files:
        sys.exit(f"{script}: no lcp_*.txt in {directory} (run build/{dump} {directory} first)")
    ensure_siconos()
    with open(os.path.join(directory, "impactsim.csv")) as f:
        return files, {int(r["index"]): r for r in csv.DictReader(f)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    files, ours = problem_set(directory, "compare_lcp_siconos", "jammed_lcp_dump")
    import siconos.numerics as sn
    solvers = {"siconos lexicolemke": sn.SICONOS_LCP_LEMKE, "siconos pivot": sn.SICONOS_LCP_PIVOT}
    bands = [(0, 40), (41, 80), (81, 120)]
    stats = {name: {b: [0, 0, 0.0] for b in bands} for name in ["impactsim", *solvers]}
    for path in files:
        index = int(os.path.basename(path)[4:9])
        W, w = read_lcp(path)
        band = next(b for b in bands if b[0] <= len(w) <= b[1])
        mine = ours[index]
        entry = stats["impactsim"][band]
        entry[0] += 1
        entry[1] += int(mine["solved"]) and float(mine["residual"]) <= 1e-9
        entry[2] += float(mine["seconds"])
        for name, solver in solvers.items():
            _, r, seconds = solve_siconos(W, w, solver)
            entry = stats[name][band]
            entry[0] += 1
            entry[1] += r <= 1e-9
            entry[2] += seconds
    print(f"{len(files)} jammed impact LCPs from {directory}; solved = residual <= 1e-9 (numerics/lcp.hpp's measure)")
    print("| solver | " + " | ".join(f"n {a}-{b}: solved" for a, b in bands) + " | total solved | ms per problem |")
    print("| --- |" + " --- |" * (len(bands) + 2))
    for name, per_band in stats.items():
        total = sum(v[0] for v in per_band.values())
        solved = sum(v[1] for v in per_band.values())
        seconds = sum(v[2] for v in per_band.values())
        cells = " | ".join(f"{v[1]}/{v[0]}" for v in per_band.values())
        print(f"| {name} | {cells} | {solved}/{total} | {1000 * seconds / total:.3f} |")


if __name__ == "__main__":
    main()
