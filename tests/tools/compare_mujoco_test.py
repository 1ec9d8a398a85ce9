#!/usr/bin/python3
"""tools/compare_mujoco.py gives MuJoCo the scene impactsim runs, and compares like with like.

Usage: compare_mujoco_test.py IMPACTSIM OUT
- A flat box (0.3 x 0.2 x 0.1 m, unequal inertias) thrown spinning about a tilted axis, in free
  flight for 0.2 s: its kinetic energy at the end is the closed form 0.5 m |v0 + g t|^2 +
  0.5 w^T I w (body-frame spin, torque-free), impactsim's to 1e-9 and MuJoCo's to 1e-4 (its explicit
  Euler step lets the spin's energy drift by 5e-4 of it). Reading the spin in the world frame
  would be off by 0.0056 J, the body's axes swapped by 0.07 J: 2 and 27 times the tolerance.
- The 25-body pile (boxes and spheres in a bin of four walls, mu = 0.3) to 0.5 s: MuJoCo keeps
  every body inside the bin and above the ground (its deepest penetration below 5 mm, no blow-up,
  the pile at rest), which a flipped wall normal or a wrong half size would break; the table's
  ratio is impactsim's seconds over MuJoCo's, and the CSV holds the same row. Every body ends on
  the ground at impactsim's height to 0.1 mm (MuJoCo rests 0.4 um deep): a shape 2% too large would not.
- A run of impactsim stopped by --timeout is reported as such, MuJoCo timed to the same instant.
- A scene of listed contact points (the rocking block), a revolute joint, a malformed and a missing
  scene fail with a message naming the key or the file (and line), exit non-zero.
"""
import csv
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "compare_mujoco.py"

THROW = """name: flat_box_throw
world:
  gravity: [0, 0, -9.81]
  shapes:
    - {name: ground, type: halfspace, normal: [0, 0, 1]}
bodies:
  - name: slab
    joint: {type: free}
    density: 700
    shapes: [{name: slab, type: box, size: [0.3, 0.2, 0.1]}]
    initial: {z: 2.0, rpy_deg: [30, -20, 50], vx: 0.7, vy: -0.3, vz: 1.2, wx: 3, wy: -1, wz: 2}
materials: {mu: 0.4}
collide: all
simulation: {t_end: 0.2, output_interval: 0.1}
"""


def compare(impactsim, out, *args):
    return subprocess.run(["/usr/bin/python3", str(SCRIPT), "--impactsim", impactsim, "--out", str(out), *args],
                          capture_output=True, text=True)


def rows(csv_path):
    with open(csv_path) as f:
        return list(csv.DictReader(f))


def main():
    impactsim, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    throw = out / "flat_box_throw.yaml"
    throw.write_text(THROW)
    p = compare(impactsim, out / "throw", str(throw), "--reps", "1", "--csv", str(out / "throw.csv"))
    assert p.returncode == 0, p.stderr
    (r,) = rows(out / "throw.csv")
    m, (a, b, c), w = 700 * 0.3 * 0.2 * 0.1, (0.3, 0.2, 0.1), (3, -1, 2)
    inertia = (m / 12 * (b * b + c * c), m / 12 * (a * a + c * c), m / 12 * (a * a + b * b))
    closed = 0.5 * m * (0.7**2 + 0.3**2 + (1.2 - 9.81 * 0.2) ** 2) + 0.5 * sum(i * x * x for i, x in zip(inertia, w))
    e_is, e_mj = float(r["impactsim_kinetic_energy"]), float(r["mujoco_kinetic_energy"])
    assert abs(e_is - closed) <= 1e-9 * closed and abs(e_mj - closed) <= 1e-4 * closed, (closed, e_is, e_mj)
    assert float(r["t_final"]) == 0.2 and r["impactsim_status"] == "ok", r

    pile = out / "pile.yaml"
    with open(pile, "w") as f:
        subprocess.run(["/usr/bin/python3", str(ROOT / "tools" / "make_box_pile_scene.py"), "25", "0.3"], stdout=f, check=True)
    p = compare(impactsim, out / "pile", str(pile), "--t-end", "0.5", "--reps", "1", "--csv", str(out / "pile.csv"))
    assert p.returncode == 0, p.stderr
    (r,) = rows(out / "pile.csv")
    assert float(r["mujoco_penetration"]) < 5e-3 and float(r["mujoco_kinetic_energy"]) < 1e-3, r
    assert float(r["impactsim_penetration"]) <= 1e-6 and float(r["impactsim_kinetic_energy"]) < 1e-3, r
    ratio = float(r["impactsim_s"]) / float(r["mujoco_s"])
    assert abs(float(r["ratio"]) - ratio) <= 1e-9 * ratio, r
    assert "| pile | 0.5 |" in p.stdout, p.stdout
    # Every body has landed on the ground in both, at the same height to 0.1 mm (MuJoCo rests 0.4 um deep): a
    # shape 2% too large in MuJoCo would stand 1 mm higher.
    with open(out / "pile" / "pile" / "trajectory.csv") as f:
        last = list(csv.DictReader(f))[-1]
    qpos = json.loads((out / "pile" / "pile.mujoco.json").read_text())["final_qpos"]
    for i in range(25):
        z_is, z_mj = float(last[f"b{i}.z"]), qpos[7 * i + 2]
        assert z_is < 0.09 and abs(z_mj - z_is) < 1e-4, (i, z_is, z_mj)

    # A run stopped by the timeout: MuJoCo is timed to the instant impactsim's trajectory reached
    # (on one clock the pile takes some 0.6 s here; islands on their own clocks, 0.07 s).
    slow = out / "slow_pile.yaml"
    slow.write_text(pile.read_text().replace("output_interval: 0.01}", "output_interval: 0.01, island_clocks: false}"))
    p = compare(impactsim, out / "stopped", str(slow), "--timeout", "0.1", "--reps", "1", "--csv", str(out / "stopped.csv"))
    assert p.returncode == 0, p.stderr
    (r,) = rows(out / "stopped.csv")
    mj = json.loads((out / "stopped" / "slow_pile.mujoco.json").read_text())
    assert r["impactsim_status"] == "timeout" and float(r["t_final"]) < 1 and "(timeout)" in p.stdout, (r, p.stdout)
    assert abs(mj["t_final"] - max(float(r["t_final"]), 1e-3)) < 1e-3, (r, mj)

    p = compare(impactsim, out / "bad", str(ROOT / "scenes" / "rocking_block.yaml"))
    assert p.returncode != 0 and "rocking_block.yaml: contacts: not translated" in p.stderr, p.stderr
    hinged = out / "hinged.yaml"
    hinged.write_text(THROW.replace("joint: {type: free}", "joint: {type: revolute, axis: [0, 0, 1]}"))
    p = compare(impactsim, out / "bad", str(hinged))
    assert p.returncode != 0 and "hinged.yaml: bodies[0].joint: free or planar joints only" in p.stderr, p.stderr
    malformed = out / "malformed.yaml"
    malformed.write_text(THROW.replace("materials: {mu: 0.4}", "materials: {mu: [0.4"))
    p = compare(impactsim, out / "bad", str(malformed))
    assert p.returncode != 0 and "malformed.yaml:13:8: not YAML" in p.stderr, p.stderr
    p = compare(impactsim, out / "bad", str(out / "no_such_scene.yaml"))
    assert p.returncode != 0 and "no_such_scene.yaml" in p.stderr, p.stderr
    print("compare_mujoco: translation, pile and bad input checked")


if __name__ == "__main__":
    main()
