#!/usr/bin/python3
"""impactsim against MuJoCo on the same scene: seconds of computation per run, side by side.

Usage (Debian's libmujoco-dev; the script installs it if it may):
  /usr/bin/python3 tools/compare_mujoco.py SCENE.yaml... [--impactsim build/impactsim]
      [--t-end T] [--reps 3] [--timeout 600] [--timestep 0.001] [--contact stiff|default]
      [--out DIR] [--csv FILE]

Each scene is translated into MJCF exactly (masses and inertias from the scene's shapes and
density, checked against `impactsim check`; the initial state read from impactsim's own first
trajectory row), then impactsim's `run` and MuJoCo's mj_step loop (tools/peers/mujoco_timing.c)
take turns REPS times; the fastest of each is kept. A run of impactsim that passes --timeout is
stopped (`timeout`), one that fails ends early (`failed`), and MuJoCo is then timed to the instant
impactsim reached, so the ratio always compares the same simulated span. Prints a Markdown table (wall seconds, ratio, deepest penetration, final
kinetic energy of each) and writes it as CSV with --csv; DIR/<scene>.mujoco.json holds MuJoCo's
final state beside impactsim's run in DIR/<scene>/.

MuJoCo is an oracle here, never a dependency of the simulator. Its contacts are soft: `stiff`
(the default) takes the stiffest it accepts at the step (solref = 2 steps, critically damped;
solimp 0.99 0.99 0.001), `default` its own defaults. Friction is the elliptic (circular) cone,
as impactsim's events use. Scenes it can translate: free or planar bodies (a planar joint becomes
slides along x and y and a hinge about z) with one box or sphere each at their origin, halfspaces as the world's shapes, one friction coefficient, e = 0 (MuJoCo has no
restitution), `collide: all` or a list of pairs without their own materials.
"""
import argparse
import csv
import itertools
import json
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tools" / "peers" / "mujoco_timing.c"


# A joint's coordinates and velocities as impactsim's trajectory names them, in MuJoCo's order.
COORDINATES = {
    "free": (("x", "y", "z", "qw", "qx", "qy", "qz"), ("vx", "vy", "vz", "wx", "wy", "wz")),
    "planar": (("x", "y", "theta"), ("vx", "vy", "omega")),
}


class Untranslatable(Exception):
    """A scene this script cannot give MuJoCo exactly: its message names the key."""


def ensure_mujoco():
    if pathlib.Path("/usr/include/mujoco/mujoco.h").exists():
        return
    if os.geteuid() != 0:
        sys.exit("compare_mujoco: needs Debian's libmujoco-dev (apt-get install -y libmujoco-dev)")
    subprocess.run(["apt-get", "install", "-y", "-qq", "libmujoco-dev"], check=True, stdout=subprocess.DEVNULL)


def build_harness(out):
    exe = out / "mujoco_timing"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(HARNESS), "-lmujoco", "-lm"], check=True)
    return exe


def require(condition, where, what):
    if not condition:
        raise Untranslatable(f"{where}: {what}")


def check_supported(scene, path):
    for key in ("robot", "contacts", "constraints"):
        require(key not in scene, f"{path}: {key}", "not translated (free bodies with shapes only)")
    materials = scene.get("materials", {}) or {}
    require("pairs" not in materials, f"{path}: materials.pairs", "one friction coefficient only")
    require(float(materials.get("e", 0)) == 0, f"{path}: materials.e", "MuJoCo has no restitution: e must be 0")
    for i, s in enumerate(scene.get("world", {}).get("shapes", []) or []):
        where = f"{path}: world.shapes[{i}]"
        require(s.get("type") == "halfspace", where, "only halfspaces are translated as the world's shapes")
        require("position" not in s and "rpy_deg" not in s, where, "a halfspace in the world frame only")
    for i, b in enumerate(scene["bodies"]):
        where = f"{path}: bodies[{i}]"
        require(b.get("joint", {}).get("type") in COORDINATES, where + ".joint", "free or planar joints only")
        require(b.get("parent", "world") == "world", where + ".parent", "bodies hang from the world only")
        require(len(b.get("shapes", [])) == 1, where + ".shapes", "exactly one shape per body")
        shape = b["shapes"][0]
        require(shape.get("type") in ("box", "sphere"), where + ".shapes[0].type", "box or sphere only")
        require("position" not in shape and "rpy_deg" not in shape, where + ".shapes[0]", "shape at the body origin only")
        require("com" not in b, where + ".com", "centre of mass at the body origin only")
    collide = scene.get("collide", "all")
    if collide != "all":
        for i, pair in enumerate(collide):
            require(set(pair) == {"bodies"}, f"{path}: collide[{i}]", "pairs without their own mu or e only")


def mass_properties(body):
    """(mass kg, [Ixx, Iyy, Izz] kg m^2 about the body origin) of a free body with one shape."""
    shape = body["shapes"][0]
    if "density" in body:
        rho = float(body["density"])
        if shape["type"] == "box":
            a, b, c = (float(x) for x in shape["size"])
            m = rho * a * b * c
            return m, [m / 12 * (b * b + c * c), m / 12 * (a * a + c * c), m / 12 * (a * a + b * b)]
        r = float(shape["radius"])
        m = rho * 4 / 3 * math.pi * r**3
        return m, [0.4 * m * r * r] * 3
    inertia = [float(x) for x in body.get("inertia", [])]
    require(len(inertia) == 3, f"body {body['name']}: inertia", "a diagonal [Ixx, Iyy, Izz] with mass, or density")
    return float(body["mass"]), inertia


def check_against_impactsim(impactsim, scene_path, props):
    """The masses and inertias agree with impactsim's own model (check prints 6 digits)."""
    p = subprocess.run([impactsim, "check", scene_path], capture_output=True, text=True)
    if p.returncode != 0:
        raise Untranslatable(f"impactsim check rejects it:\n{p.stdout}{p.stderr}".rstrip())
    text = p.stdout
    line = re.compile(r"^\s+(\S+): (?:free|planar) joint to world, mass (\S+) kg, com \[[^]]*\], principal inertia \[([^]]*)\]")
    seen = {}
    for m in map(line.match, text.splitlines()):
        if m:
            seen[m.group(1)] = (float(m.group(2)), sorted(float(x) for x in m.group(3).split(",")))
    for name, (mass, inertia) in props.items():
        require(name in seen, f"{scene_path}: bodies {name}", "not in impactsim check's model")
        ours = [mass] + sorted(inertia)
        theirs = [seen[name][0]] + seen[name][1]
        for a, b in zip(ours, theirs):
            require(abs(a - b) <= 1e-5 * max(abs(a), abs(b), 1e-12), f"{scene_path}: bodies {name}",
                    f"mass properties {ours} differ from impactsim's {theirs}")


def initial_state(impactsim, scene_path, out, bodies):
    """Each body's (qpos, qvel) from the first row of a 1 us run of impactsim, in MuJoCo's order and
    conventions (impactsim's: a free joint's linear velocity in the world, its angular in the body)."""
    p = subprocess.run([impactsim, "run", scene_path, "-q", "-o", str(out), "--set", "simulation.t_end=1e-6"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise Untranslatable(f"impactsim cannot start it:\n{p.stdout}{p.stderr}".rstrip())
    with open(out / "trajectory.csv") as f:
        row = next(csv.DictReader(f))
    q, v = [], []
    for b in bodies:
        position, velocity = COORDINATES[b["joint"]["type"]]
        q.append([float(row[f"{b['name']}.{c}"]) for c in position])
        v.append([float(row[f"{b['name']}.{c}"]) for c in velocity])
    return q, v


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def excluded_pairs(scene):
    collide = scene.get("collide", "all")
    names = ["world"] + [b["name"] for b in scene["bodies"]]
    if collide == "all":
        return []
    allowed = {frozenset(p["bodies"]) for p in collide}
    return [(a, b) for a, b in itertools.combinations(names, 2) if frozenset((a, b)) not in allowed]


def mjcf(scene, props, qpos, qvel, timestep, contact):
    mu = float((scene.get("materials", {}) or {}).get("mu", 0))
    gravity = scene.get("world", {}).get("gravity", [0, 0, -9.81])
    soft = f'solref="{2 * timestep!r} 1" solimp="0.99 0.99 0.001"' if contact == "stiff" else ""
    condim = 3 if mu > 0 else 1
    lines = [f'<mujoco model="{scene.get("name", "scene")}">',
             f'  <option timestep="{timestep!r}" gravity="{fmt(gravity)}" cone="elliptic"/>',
             # MuJoCo 2.2 preallocates 100 contacts: room for every box corner on something.
             f'  <size nconmax="{100 + 16 * len(scene["bodies"])}" njmax="{300 + 48 * len(scene["bodies"])}"/>',
             f'  <default><geom condim="{condim}" friction="{mu!r} 0 0" {soft}/></default>',
             "  <worldbody>"]
    for i, s in enumerate(scene.get("world", {}).get("shapes", []) or []):
        n = [float(x) for x in s["normal"]]
        norm = math.sqrt(sum(x * x for x in n))
        n = [x / norm for x in n]
        pos = [float(s.get("offset", 0)) * x for x in n]
        lines.append(f'    <geom name="{s.get("name", f"world_{i}")}" type="plane" size="0 0 1" pos="{fmt(pos)}" zaxis="{fmt(n)}"/>')
    for i, b in enumerate(scene["bodies"]):
        shape = b["shapes"][0]
        size = [float(x) / 2 for x in shape["size"]] if shape["type"] == "box" else [float(shape["radius"])]
        mass, inertia = props[b["name"]]
        if b["joint"]["type"] == "free":
            lines += [f'    <body name="{b["name"]}" pos="{fmt(qpos[i][:3])}" quat="{fmt(qpos[i][3:])}">', "      <freejoint/>"]
        else:  # planar: x, y and the angle about z, each measured from the world origin
            lines += [f'    <body name="{b["name"]}">', '      <joint type="slide" axis="1 0 0"/>',
                      '      <joint type="slide" axis="0 1 0"/>', '      <joint type="hinge" axis="0 0 1"/>']
        lines += [
                  f'      <inertial pos="0 0 0" mass="{mass!r}" diaginertia="{fmt(inertia)}"/>',
                  f'      <geom type="{shape["type"]}" size="{fmt(size)}"/>',
                  "    </body>"]
    lines.append("  </worldbody>")
    pairs = excluded_pairs(scene)
    if pairs:
        lines += ["  <contact>"] + [f'    <exclude body1="{a}" body2="{b}"/>' for a, b in pairs] + ["  </contact>"]
    flat = lambda lists: [x for values in lists for x in values]  # noqa: E731
    lines += [f'  <keyframe><key qpos="{fmt(flat(qpos))}" qvel="{fmt(flat(qvel))}"/></keyframe>', "</mujoco>"]
    return "\n".join(lines) + "\n"


def last_time(trajectory, tail_bytes=1 << 20):
    """The simulated time of the last complete row a stopped run left, read from the file's tail
    (a stopped pile's trajectory runs to tens of megabytes; a row is at most tens of kilobytes)."""
    try:
        with open(trajectory, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            start = max(0, size - tail_bytes)
            f.seek(start)
            lines = f.read().split(b"\n")[:-1]  # the text after the last newline is not a whole row
    except FileNotFoundError:
        return 0.0
    if start > 0:
        lines = lines[1:]  # begun mid-row
    rows = [line for line in lines if line and not line.startswith(b"t,")]
    return float(rows[-1].split(b",", 1)[0]) if rows else 0.0


def run_impactsim(impactsim, scene_path, out, t_end, timeout):
    """Its own timing line's wall seconds, or, for a run stopped by the timeout or failing (a
    stall, a state without precision), the seconds it ran and the instant it reached."""
    cmd = [impactsim, "run", scene_path, "-o", str(out)]
    if t_end is not None:
        cmd += ["--set", f"simulation.t_end={t_end!r}"]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"wall_s": float(timeout), "t_final": last_time(out / "trajectory.csv"), "status": "timeout",
                "deepest_penetration": math.nan, "final_kinetic_energy": math.nan}
    wall = time.monotonic() - start
    log = p.stdout + p.stderr
    timing = re.search(r"timing: (\S+) s simulated in (\S+) s wall", log)
    summary_file = out / "summary.json"
    if not summary_file.exists() or (p.returncode == 0 and not timing):
        sys.exit(f"compare_mujoco: impactsim run {scene_path} failed (exit {p.returncode}):\n{log}")
    summary = json.loads(summary_file.read_text())
    depth = summary.get("deepest_penetration")  # null for a run that stopped early
    kinetic = summary.get("final_kinetic_energy")  # 0 at rest, exactly, where islands sleep
    return {"wall_s": float(timing.group(2)) if timing else wall, "t_final": float(summary["t_final"]),
            "status": summary["status"], "deepest_penetration": math.nan if depth is None else float(depth),
            "final_kinetic_energy": math.nan if kinetic is None else float(kinetic)}


def run_mujoco(harness, model, t_end, reps):
    # In the work directory: MuJoCo may leave its MUJOCO_LOG.TXT where it runs.
    p = subprocess.run([str(harness.resolve()), str(model.resolve()), repr(t_end), str(reps)], capture_output=True,
                       text=True, cwd=model.parent)
    if p.returncode != 0:
        sys.exit(f"compare_mujoco: MuJoCo on {model} failed (exit {p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def compare(args, harness, scene_path, work):
    try:
        with open(scene_path) as f:
            scene = yaml.safe_load(f)
    except OSError as e:
        raise Untranslatable(f"{scene_path}: {e.strerror}")
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{scene_path}:{mark.line + 1}:{mark.column + 1}" if mark else scene_path
        raise Untranslatable(f"{where}: not YAML: {getattr(e, 'problem', None) or e}")
    require(isinstance(scene, dict) and isinstance(scene.get("bodies"), list), f"{scene_path}: bodies", "a list of bodies is required")
    check_supported(scene, scene_path)
    props = {b["name"]: mass_properties(b) for b in scene["bodies"]}
    check_against_impactsim(args.impactsim, scene_path, props)
    name = pathlib.Path(scene_path).stem
    qpos, qvel = initial_state(args.impactsim, scene_path, work / f"{name}.initial", scene["bodies"])
    model = work / f"{name}.xml"
    model.write_text(mjcf(scene, props, qpos, qvel, args.timestep, args.contact))
    best_is, best_mj = None, None
    for _ in range(args.reps):
        result = run_impactsim(args.impactsim, scene_path, work / name, args.t_end, args.timeout)
        if best_is is None or result["wall_s"] < best_is["wall_s"]:
            best_is = result
        if result["status"] != "ok":
            break  # one stopped or failed run says enough; MuJoCo is timed to where it ended
        span = result["t_final"]
        mj = run_mujoco(harness, model, span, 1)
        if best_mj is None or mj["wall_s"] < best_mj["wall_s"]:
            best_mj = mj
    if best_is["status"] != "ok":
        best_mj = run_mujoco(harness, model, max(best_is["t_final"], args.timestep), args.reps)
    (work / f"{name}.mujoco.json").write_text(json.dumps(best_mj) + "\n")
    return {"scene": name, "t_final": best_is["t_final"], "impactsim_status": best_is["status"],
            "impactsim_s": best_is["wall_s"], "mujoco_s": best_mj["wall_s"],
            "ratio": best_is["wall_s"] / best_mj["wall_s"],
            "impactsim_penetration": best_is["deepest_penetration"], "mujoco_penetration": best_mj["deepest_penetration"],
            "impactsim_kinetic_energy": best_is["final_kinetic_energy"],
            "mujoco_kinetic_energy": best_mj["final_kinetic_energy"]}


def table(rows):
    out = ["| scene | simulated s | impactsim s | MuJoCo s | impactsim / MuJoCo | deepest penetration impactsim, MuJoCo m | final kinetic energy impactsim, MuJoCo J |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        span = f"{r['t_final']:.3g}" + ("" if r["impactsim_status"] == "ok" else f" ({r['impactsim_status']})")
        out.append(f"| {r['scene']} | {span} | {r['impactsim_s']:.3g} | {r['mujoco_s']:.3g} | {r['ratio']:.3g} | "
                   f"{r['impactsim_penetration']:.2g}, {r['mujoco_penetration']:.2g} | "
                   f"{r['impactsim_kinetic_energy']:.2g}, {r['mujoco_kinetic_energy']:.2g} |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenes", nargs="+")
    parser.add_argument("--impactsim", default=str(ROOT / "build" / "impactsim"))
    parser.add_argument("--t-end", type=float, help="simulated seconds (default: each scene's t_end)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0, help="impactsim's wall seconds per run")
    parser.add_argument("--timestep", type=float, default=1e-3, help="MuJoCo's step, s")
    parser.add_argument("--contact", choices=("stiff", "default"), default="stiff")
    parser.add_argument("--out", help="where the models and runs go (default: a temporary directory)")
    parser.add_argument("--csv")
    args = parser.parse_args()
    if args.reps < 1 or args.timestep <= 0 or args.timeout <= 0 or (args.t_end is not None and args.t_end <= 0):
        parser.error("--reps must be >= 1 and --timestep, --timeout, --t-end > 0")
    ensure_mujoco()
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(args.out or tmp)
        work.mkdir(parents=True, exist_ok=True)
        harness = build_harness(work)
        try:
            rows = [compare(args, harness, s, work) for s in args.scenes]
        except Untranslatable as e:
            sys.exit(f"compare_mujoco: {e}")
    print(table(rows))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
