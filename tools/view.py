#!/usr/bin/env python3
"""Writes DIR/view.html: one self-contained page that shows a run in 3-D in a browser, opened from
disk with no network (three.js r147, vendored in tools/viewer/three with its MIT license, is inlined).

    /usr/bin/python3 tools/view.py DIR [--color COLUMN] [--ghosts N]

DIR is an impact's directory (`impactsim impact SCENE --view`: the samples' scatter, and the
bodies moved along the selected sample's post-impact velocity), a run's directory (`impactsim run SCENE --view`, or --plot: trajectory.csv, events.csv,
poses.csv, wireframes.csv or outlines.csv, event_contacts.csv) or a batch's (`impactsim batch SCENE
--trajectories K --view`): then run 0 is drawn with the other runs' bodies as ghosts, coloured by
the runs.csv column COLUMN (default: the scene's last outcome column). `impactsim view DIR` runs this.
"""
import argparse
import csv
import json
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent / "viewer"
MAX_GHOSTS = 24
IMPULSIVE = ("impact", "zeno", "iwc", "step")  # events whose impulses the page draws


def rows(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [r for r in reader if r]


def fail(message):
    sys.exit(f"view: {message}")


def shapes(d):
    """(planar, {body: [stroke, ...]}) with each stroke a flat [x, y, z, ...] list."""
    bodies = {}
    if (d / "wireframes.csv").exists():
        header, data = rows(d / "wireframes.csv")
        for body, shape, stroke, x, y, z in data:
            bodies.setdefault(body, {}).setdefault((shape, stroke), []).extend([float(x), float(y), float(z)])
        return False, {b: list(s.values()) for b, s in bodies.items()}
    if (d / "outlines.csv").exists():
        header, data = rows(d / "outlines.csv")
        for body, shape, x, y in data:
            bodies.setdefault(body, {}).setdefault(shape, []).extend([float(x), float(y), 0.0])
        return True, {b: list(s.values()) for b, s in bodies.items()}
    fail(f"{d} has no wireframes.csv or outlines.csv: write it with `impactsim run SCENE --view` (or --plot)")


def poses(d, planar):
    """(body names, times, poses[time][body] = [x, y, z, qw, qx, qy, qz] or [x, y, theta])."""
    path = d / "poses.csv"
    if not path.exists():
        fail(f"{path} is missing: write it with `impactsim run SCENE --view` (or --plot)")
    header, data = rows(path)
    width = 3 if planar else 7
    names = [header[1 + k * width].rsplit(".", 1)[0] for k in range((len(header) - 1) // width)]
    times = [float(r[0]) for r in data]
    out = [[[float(x) for x in r[1 + k * width:1 + (k + 1) * width]] for k in range(len(names))] for r in data]
    return names, times, out


def events(d):
    """events.csv's rows with each impulsive event's contact points and normals (event_contacts.csv)."""
    header, data = rows(d / "events.csv")
    at = {}
    if (d / "event_contacts.csv").exists():
        for t, contact, *numbers in rows(d / "event_contacts.csv")[1]:
            v = [float(x) for x in numbers]
            at.setdefault(t, {}).setdefault(contact, (v[0:3], v[3:6], v[6:9], v[9:12]))
    out = []
    for t, kind, contacts, law, before, after, impulses, ordering, tangential, *_ in data:
        if kind not in IMPULSIVE:  # a tick on the timeline is all the page shows of it
            out.append({"t": float(t), "kind": kind, "contacts": [], "impulse_n": [], "points": [], "normals": [],
                        "friction": []})
            continue
        names = contacts.split(";") if contacts else []
        impulse = [float(x) for x in impulses.split(";")] if impulses else []
        friction = [float(x) for x in tangential.split(";")] if tangential else []
        td = len(friction) // len(names) if names and friction else 0
        e = {"t": float(t), "kind": kind, "contacts": [], "impulse_n": [], "points": [], "normals": [], "friction": [],
             "law": law, "kinetic_energy_before": float(before), "kinetic_energy_after": float(after)}
        for k, name in enumerate(names):
            pushes = (k < len(impulse) and impulse[k] != 0.0) or any(friction[k * td:(k + 1) * td])
            if name in at.get(t, {}) and pushes:  # a contact the impact did not push needs no arrow
                point, normal, t1, t2 = at[t][name]
                e["contacts"].append(name)
                e["impulse_n"].append(impulse[k] if k < len(impulse) else 0.0)
                e["points"].append(point)
                e["normals"].append(normal)
                # The friction impulse as a world vector [N s]: its components along tangent1, tangent2.
                c = friction[k * td:(k + 1) * td] + [0.0, 0.0]
                e["friction"].append([c[0] * a + c[1] * b for a, b in zip(t1, t2)] if td else [0.0, 0.0, 0.0])
        if not e["contacts"]:
            e["contacts"], e["impulse_n"] = names, impulse[:len(names)]
        out.append(e)
    return out


def energy(d):
    header, data = rows(d / "trajectory.csv")
    k, u = header.index("kinetic_energy"), header.index("potential_energy")
    return {"t": [float(r[0]) for r in data], "kinetic": [float(r[k]) for r in data],
            "potential": [float(r[u]) for r in data]}


def frame_of(runs, strokes, planar):
    """The centre and size [m] of everything the bodies sweep."""
    lo, hi = [math.inf] * 3, [-math.inf] * 3
    radius = max((max(abs(v) for v in s) for body in strokes for s in body if s), default=0.1)
    for run in runs:
        for pose in run["poses"]:
            for p in pose:
                xyz = (p[0], p[1], 0.0) if planar else p[:3]
                for k in range(3):
                    lo[k], hi[k] = min(lo[k], xyz[k]), max(hi[k], xyz[k])
    centre = [(a + b) / 2 for a, b in zip(lo, hi)]
    return centre, max(max(b - a for a, b in zip(lo, hi)) / 2 + radius, 0.05)


def clip_world(strokes, centre, extent):
    """The world's strokes within 3 extents of the centre (a halfspace is drawn as a 100 m square)."""
    box = 3 * extent
    out = []
    for s in strokes:
        out.append([min(max(v, centre[k % 3] - box), centre[k % 3] + box) for k, v in enumerate(s)])
    return out


def ghost_color(value, lo, hi):
    s = 0.5 if hi <= lo else (value - lo) / (hi - lo)
    r, b = int(40 + 200 * s), int(240 - 200 * s)
    return (r << 16) | (60 << 8) | b


def batch_runs(d, column, limit):
    """Run 0 of the batch, the other runs with trajectories as ghosts, each coloured by `column`."""
    header, data = rows(d / "runs.csv")
    if column is None:
        column = header[-2] if header[-2] not in ("t_rest",) and not header[-2].endswith(".closed") else "impacts"
    if column not in header:
        fail(f"{d / 'runs.csv'} has no column {column!r} (columns: {', '.join(header)})")
    index = header.index(column)
    values = {}
    for r in data:
        try:
            values[int(r[0])] = float(r[index])
        except ValueError:
            values[int(r[0])] = math.nan
    dirs = sorted((p for p in (d / "runs").glob("*") if (p / "poses.csv").exists()), key=lambda p: int(p.name))
    if not dirs:
        fail(f"{d / 'runs'} holds no run with poses.csv: run the batch with --trajectories K --view")
    finite = [v for v in values.values() if not math.isnan(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
    return dirs[0], [(p, values.get(int(p.name), math.nan), lo, hi) for p in dirs[1:limit + 1]], column


def impact_data(d):
    """`impact --view`'s page: the bodies at the impact, each sample's pose after tau, the scatter."""
    planar, strokes = shapes(d)
    names, _, impact_pose = poses(d, planar)
    header, data = rows(d / "sample_poses.csv")
    width = 3 if planar else 7
    sample_poses = [[[float(x) for x in r[2 + k * width:2 + (k + 1) * width]] for k in range(len(names))] for r in data]
    tau = float(data[0][1]) if data else 1.0
    header, samples = rows(d / "samples.csv")
    samples = samples[:len(sample_poses)]
    contacts = [c[:-len(".class")] for c in header if c.endswith(".class")]
    column = {c: k for k, c in enumerate(header)}
    x_name = f"{contacts[0]}.vn"
    if len(contacts) > 1:
        y_name, y = f"{contacts[1]}.vn", [float(r[column[f"{contacts[1]}.vn"]]) for r in samples]
    else:
        tangents = [c for c in header if c.startswith(f"{contacts[0]}.vt")]
        y_name = f"|{contacts[0]}.vt|"
        y = [math.hypot(*(float(r[column[c]]) for c in tangents)) for r in samples]
    body_strokes = [strokes.get(n, []) for n in names]
    run = {"times": [0.0, tau], "poses": [impact_pose[0], impact_pose[0]]}
    centre, extent = frame_of([run, {"poses": sample_poses}], body_strokes, planar)
    return {"planar": planar, "bodies": [{"name": n, "strokes": s} for n, s in zip(names, body_strokes)],
            "world": clip_world(strokes.get("world", []), centre, extent), "run": run, "ghosts": [],
            "events": [], "energy": {"t": [], "kinetic": [], "potential": []}, "t_end": tau, "centre": centre,
            "extent": extent, "title": f"{d.name}: post-impact set",
            "samples": {"x": [float(r[column[x_name]]) for r in samples], "y": y, "x_name": x_name, "y_name": y_name,
                        "labels": [",".join(r[column[f"{c}.class"]] for c in contacts) for r in samples],
                        "poses": sample_poses, "contacts": contacts}}


def page_data(d, color, limit):
    if (d / "samples.csv").exists():
        if not (d / "sample_poses.csv").exists():
            fail(f"{d / 'sample_poses.csv'} is missing: write it with `impactsim impact SCENE --view`")
        return impact_data(d)
    ghosts_in, column = [], None
    if (d / "runs.csv").exists():
        d, ghosts_in, column = batch_runs(d, color, limit)
    planar, strokes = shapes(d)
    names, times, run_poses = poses(d, planar)
    run = {"times": times, "poses": run_poses}
    ghosts = []
    for g, value, lo, hi in ghosts_in:
        _, g_times, g_poses = poses(g, planar)
        ghosts.append({"times": g_times, "poses": g_poses, "color": ghost_color(value, lo, hi), "run": int(g.name),
                       "value": None if math.isnan(value) else value})
    body_strokes = [strokes.get(n, []) for n in names]
    centre, extent = frame_of([run] + ghosts, body_strokes, planar)
    summary = json.loads((d / "summary.json").read_text()) if (d / "summary.json").exists() else {}
    return {"planar": planar, "bodies": [{"name": n, "strokes": s} for n, s in zip(names, body_strokes)],
            "world": clip_world(strokes.get("world", []), centre, extent), "run": run, "ghosts": ghosts,
            "ghost_column": column, "events": events(d), "energy": energy(d), "t_end": times[-1] if times else 1.0,
            "centre": centre, "extent": extent, "title": summary.get("scene", d.name)}


def rounded(x):
    """Numbers to 7 significant digits: far finer than a pixel, and the page a third the size."""
    if isinstance(x, float):
        return float(f"{x:.7g}")
    if isinstance(x, list):
        return [rounded(v) for v in x]
    if isinstance(x, dict):
        return {k: rounded(v) for k, v in x.items()}
    return x


def html(data):
    three = (HERE / "three" / "three.min.js").read_text()
    orbit = (HERE / "three" / "OrbitControls.js").read_text()
    app = (HERE / "viewer.js").read_text()
    template = (HERE / "view.html").read_text()
    payload = json.dumps(rounded(data), separators=(",", ":")).replace("</", "<\\/")
    return (template.replace("/*TITLE*/", data["title"]).replace("/*THREE*/", three).replace("/*ORBIT*/", orbit)
            .replace("/*DATA*/", payload).replace("/*VIEWER*/", app))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir")
    p.add_argument("--color", help="runs.csv column that colours a batch's ghosts")
    p.add_argument("--ghosts", type=int, default=MAX_GHOSTS, help="most runs drawn as ghosts")
    args = p.parse_args()
    d = pathlib.Path(args.dir)
    if not d.is_dir():
        fail(f"{d} is not a directory")
    for needed in ("events.csv", "trajectory.csv"):
        probe = d if not (d / "runs.csv").exists() and not (d / "samples.csv").exists() else None
        if probe and not (probe / needed).exists():
            fail(f"{probe / needed} is missing: DIR must be written by `impactsim run` or `batch`")
    out = d / "view.html"
    out.write_text(html(page_data(d, args.color, args.ghosts)))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
