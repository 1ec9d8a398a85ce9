#!/usr/bin/python3
"""The bouncing ball to t = 8.5 s (44 impacts) under impactsim run and Siconos's event-driven scheme.

Usage (Debian's python3-siconos; the script installs it if it may):
  /usr/bin/python3 tools/compare_bouncing_ball_siconos.py build/impactsim scenes/bouncing_ball.yaml [REPEATS]

Both integrate the ball dropped from 1 m (g = 9.81, e = 0.9) with an output point every 0.01 s:
impactsim through `run --set simulation.t_end=8.5` (its own timing line: integration, events and
the rows written), Siconos 4.4 through its Python driver (EventDriven with LsodarOSI and LCPs for
the impacts and the accelerations, a 0.01 s time discretisation, the state read at every event),
timed around its event loop. Prints the smallest wall time of REPEATS runs (default 10) of each and
each one's error in the 1st, 10th, 20th, 30th, 40th and 44th impact times against the closed form
t_1 = sqrt(2 h / g), t_{k+1} = t_k + 2 e^k v_1 / g. Siconos is an oracle, never a dependency.
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import time

from compare_lcp_siconos import ensure_siconos

G, E, H, T_END = 9.81, 0.9, 1.0, 8.5


def closed_form(count):
    t, v, out = math.sqrt(2 * H / G), math.sqrt(2 * G * H), []
    for k in range(count):
        out.append(t)
        t += 2 * E ** (k + 1) * v / G
    return out


def siconos_run():
    """(seconds of the event loop, impact times)."""
    import numpy as np
    import siconos.kernel as sk
    ball = sk.LagrangianLinearTIDS(np.array([H]), np.array([0.0]), np.array([[1.0]]))
    ball.setFExtPtr(np.array([-G]))
    interaction = sk.Interaction(sk.NewtonImpactNSL(E), sk.LagrangianLinearTIR(np.array([[1.0]])))
    nsds = sk.NonSmoothDynamicalSystem(0.0, T_END)
    nsds.insertDynamicalSystem(ball)
    nsds.link(interaction, ball)
    simulation = sk.EventDriven(nsds, sk.TimeDiscretisation(0.0, 0.01))
    simulation.insertIntegrator(sk.LsodarOSI())
    simulation.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_IMPACT)
    simulation.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_SMOOTH_ACC)
    q, v, rows, impacts = ball.q(), ball.velocity(), [], []
    start = time.perf_counter()
    while simulation.hasNextEvent():
        simulation.advanceToEvent()
        event = simulation.eventsManager().nextEvent()
        if event.getType() == 2:  # a nonsmooth event: an impact
            impacts.append(event.getDoubleTimeOfEvent())
        simulation.processEvents()
        rows.append((simulation.startingTime(), q[0], v[0]))
    return time.perf_counter() - start, impacts


def impactsim_run(binary, scene, out):
    """(seconds from impactsim's timing line, impact times from events.csv)."""
    result = subprocess.run([binary, "run", scene, "--set", f"simulation.t_end={T_END}", "-o", out],
                            check=True, capture_output=True, text=True)
    seconds = float(re.search(r"simulated in ([0-9.]+) s wall", result.stderr + result.stdout).group(1))
    with open(os.path.join(out, "events.csv")) as f:
        impacts = [float(r["t"]) for r in csv.DictReader(f) if r["kind"] == "impact"]
    return seconds, impacts


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    binary, scene = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) == 4 else 10
    ensure_siconos()
    reference = closed_form(44)
    with tempfile.TemporaryDirectory() as tmp:
        ours = [impactsim_run(binary, scene, os.path.join(tmp, str(k))) for k in range(repeats)]
    theirs = [siconos_run() for _ in range(repeats)]
    print(f"bouncing ball to t = {T_END} s, output every 0.01 s; smallest wall time of {repeats} runs")
    print("| | wall ms | impacts | error of impact 1, 10, 20, 30, 40, 44 [s] |")
    print("| --- | --- | --- | --- |")
    for name, runs in (("impactsim run", ours), ("Siconos 4.4 EventDriven (Python)", theirs)):
        best = min(seconds for seconds, _ in runs)
        impacts = runs[0][1]
        errors = ", ".join(f"{impacts[k] - reference[k]:.1e}" if k < len(impacts) else "-" for k in (0, 9, 19, 29, 39, 43))
        print(f"| {name} | {1000 * best:.2f} | {len(impacts)} | {errors} |")
    print("impactsim's times are its events.csv's, printed to 12 significant digits (1e-11 s at t = 8)")


if __name__ == "__main__":
    main()
