#!/usr/bin/python3
"""Siconos's Lemke against impactsim's on random SPD and frictional impact LCPs: speed and answers.

Usage (Debian's python3-siconos and numpy; the script installs them if it may):
  build/lcp_speed_dump DIR
  /usr/bin/python3 tools/compare_lemke_speed_siconos.py DIR

Reads DIR/lcp_NNNNN.txt (n, W row by row, w) and DIR/impactsim.csv (tests/bench/lcp_speed_dump.cpp:
impactsim's solve_lemke timed in C++ on each), solves each problem with Siconos 4.4's
lexicographic Lemke (SICONOS_LCP_LEMKE) through its Python binding, timed the same way (the
smallest mean over 5 batches of repeated calls of at least 5 ms each, around the driver call
alone), checks every answer with impactsim's residual (accepted at 1e-9), and prints per kind and
size the median time of each and their ratio. The Python call costs Siconos a fixed overhead per
call; the script measures it on a 1-variable problem and prints the ratio with it subtracted too.
Siconos is an oracle here, never a dependency of the simulator.
"""
import os
import statistics
import sys
import time


# The problem files, the Siconos install and the residual are compare_lcp_siconos.py's (beside this).
from compare_lcp_siconos import problem_set, read_lcp, residual  # noqa: E402


def siconos_solve(W, w):
    """Siconos's lexicographic Lemke on LCP(W, w): (residual, seconds per call)."""
    import numpy as np
    import siconos.numerics as sn
    n = len(w)
    problem = sn.LCP(np.ascontiguousarray(W), np.ascontiguousarray(w))
    z, s = np.zeros(n), np.zeros(n)
    options = sn.SolverOptions(sn.SICONOS_LCP_LEMKE)
    driver = sn.linearComplementarity_driver
    best = float("inf")
    sys.stdout.flush()
    saved = os.dup(1)  # Siconos prints its failures from C; keep them off the table
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            for _ in range(5):
                calls, start = 0, time.perf_counter()
                while True:
                    driver(problem, z, s, options)
                    calls += 1
                    elapsed = time.perf_counter() - start
                    if elapsed >= 5e-3:
                        break
                best = min(best, elapsed / calls)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    finite = bool(np.all(np.isfinite(z)))
    return (residual(W, w, z) if finite else float("inf")), best


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    files, ours = problem_set(directory, "compare_lemke_speed_siconos", "lcp_speed_dump")
    import numpy as np
    _, overhead = siconos_solve(np.eye(1), -np.ones(1))
    groups = {}
    for path in files:
        index = int(os.path.basename(path)[4:9])
        mine = ours[index]
        W, w = read_lcp(path)
        r, seconds = siconos_solve(W, w)
        g = groups.setdefault((mine["kind"], len(w)), {"ours": [], "theirs": [], "solved": [0, 0, 0]})
        g["ours"].append(float(mine["seconds"]))
        g["theirs"].append(seconds)
        g["solved"][0] += 1
        g["solved"][1] += int(mine["solved"]) and float(mine["residual"]) <= 1e-9
        g["solved"][2] += r <= 1e-9
    print(f"{len(files)} LCPs from {directory}; medians per size; solved = residual <= 1e-9 (numerics/lcp.hpp's measure);")
    print(f"Siconos's Python call overhead, measured on a 1-variable LCP: {1e6 * overhead:.2f} us")
    print("| kind | n | solved impactsim / Siconos | impactsim us | Siconos us | Siconos / impactsim | the same, less the call overhead |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (kind, n), g in groups.items():
        a, b = statistics.median(g["ours"]), statistics.median(g["theirs"])
        count, mine_ok, theirs_ok = g["solved"]
        print(f"| {kind} | {n} | {mine_ok}/{count} / {theirs_ok}/{count} | {1e6 * a:.2f} | {1e6 * b:.2f} | "
              f"{b / a:.2f} | {max(b - overhead, 0.0) / a:.2f} |")


if __name__ == "__main__":
    main()
