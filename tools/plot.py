#!/usr/bin/python3
"""impactsim's plots: turns a run, impact or batch output directory into PNG files (and a GIF).

  plot.py run DIR [--nq N]
                       trajectory.png (one panel per unit: positions m, angles rad, quaternions,
                       linear and angular velocities), energy.png (kinetic, total's change), events
                       as a rug of ticks coloured by kind on both; animation.gif when DIR
                       holds poses.csv and outlines.csv (planar scenes) or wireframes.csv (3-D),
                       touching contacts (contact_points.csv) marked in red, a time stamp
  plot.py impact DIR   post_impact.png: post-impact contact velocities like Halm and Posa's
                       Figs. 9-14 (J_n v+ of two contacts against each other, J_n v+ against J_t v+
                       of each contact), samples coloured by outcome class, Anitescu-Potra solutions
                       (anitescu_potra.csv) and sequential outcomes (sequential.csv) overlaid
  plot.py batch DIR    histograms.png: one histogram per varying numeric column of runs.csv, with
                       its unit where known
  plot.py converge DIR convergence.png: each error of convergence.csv against the step size h,
                       log-log, with slope-1 and slope-2 guides through the finest point
  plot.py sweep DIR    sweep.png: the statistics of sweep.csv against the first parameter, one
                       line per value of the others (batch means with +-1 sd bars; impact class
                       fractions per contact; closed contacts counted)

Runs under Debian's python3-matplotlib (/usr/bin/python3); reads only the CSV files impactsim
writes. IMPACTSIM_PLOT_FRAMES=N draws animations of at most N frames (a quicker preview; by default
at most 120, 60 in 3-D). Exits non-zero with a message naming the file when an input is missing or
malformed.
"""
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import animation  # noqa: E402

DPI = 110
MAX_FRAMES = 120
MAX_FRAMES_3D = 60  # a 3-D frame takes several times as long to draw


class PlotError(Exception):
    pass


def frame_limit(default):
    """The most frames an animation draws: IMPACTSIM_PLOT_FRAMES where it is set, else default."""
    text = os.environ.get("IMPACTSIM_PLOT_FRAMES", "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) < 2:  # isdigit alone takes "²"
        raise PlotError(f"IMPACTSIM_PLOT_FRAMES={text!r}: expected a whole number of frames, at least 2")
    return int(text)


def source_label(directory):
    """What a plot shows, for its title: "scene NAME, law LAW" (and the --set overrides) from the
    metadata.json impactsim writes into DIR (a batch run's runs/<i>/ takes its batch's); the
    directory's name when there is none."""
    for candidate in (directory, os.path.join(directory, os.pardir, os.pardir)):
        path = os.path.join(candidate, "metadata.json")
        if not os.path.isfile(path):
            continue
        try:
            with open(path) as f:
                meta = json.load(f)
            label = f"{meta['scene']['name']}, law {meta['settings']['law']}"
            if meta["settings"].get("integrator", "event-driven") != "event-driven":
                label = f"{meta['scene']['name']}, {meta['settings']['integrator']}"
            overrides = meta["scene"].get("overrides") or []
            if overrides:
                label += " (" + ", ".join(overrides) + ")"
            if candidate != directory:
                label += f", run {os.path.basename(os.path.normpath(directory))}"
            return label
        except (OSError, ValueError, KeyError, TypeError):
            break
    return os.path.basename(os.path.normpath(directory))


def read_table(path):
    """Header and rows of a CSV file; numeric cells become floats, others stay text."""
    if not os.path.isfile(path):
        raise PlotError(f"{path}: no such file")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise PlotError(f"{path}: empty file")
    header, body = rows[0], rows[1:]

    def cell(x):
        try:
            return float(x)
        except ValueError:
            return x

    return header, [[cell(x) for x in r] for r in body if len(r) == len(header)]


def column(header, rows, name):
    return [r[header.index(name)] for r in rows]


def save(fig, path):
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    print(f"plot: wrote {path}")


def event_times(directory):
    path = os.path.join(directory, "events.csv")
    if not os.path.isfile(path):
        return []
    header, rows = read_table(path)
    return [(r[0], r[1]) for r in rows]


EVENT_COLOURS = {"impact": "tab:red", "zeno": "tab:purple", "iwc": "tab:orange", "liftoff": "tab:green",
                 "stick": "tab:blue", "slip": "tab:cyan", "rest": "black", "step": "tab:brown",
                 "sleep": "tab:olive", "wake": "yellowgreen"}


def mark_events(ax, events):
    """Events as a rug of short ticks along the bottom of the axes, coloured by kind (one legend
    entry per kind): many impacts stay readable instead of merging into a band of lines."""
    by_kind = {}
    for t, kind in events:
        by_kind.setdefault(kind, []).append(t)
    transform = ax.get_xaxis_transform()  # x in data, y in axes fraction
    for kind, times in by_kind.items():
        ax.vlines(times, 0.0, 0.06, transform=transform, color=EVENT_COLOURS.get(kind, "grey"), lw=1.0,
                  label=f"{kind} ({len(times)})")


# Units of trajectory.csv's coordinates by their last word (scenes/README.md, joint coordinates).
UNIT_GROUPS = (
    ("position [m]", ("x", "y", "z", "s")),
    ("angle [rad]", ("theta",)),
    ("orientation quaternion [1]", ("qw", "qx", "qy", "qz")),
    ("linear velocity [m/s]", ("vx", "vy", "vz", "sdot")),
    ("angular velocity [rad/s]", ("omega", "wx", "wy", "wz", "thetadot")),
)


def unit_panels(names, nq):
    """(axis label, [names]) per unit that occurs, in UNIT_GROUPS order; coordinates of no known
    unit go to "other q" / "other v"."""
    panels = []
    placed = set()
    for label, words in UNIT_GROUPS:
        members = [n for n in names if n.rsplit(".", 1)[-1] in words]
        if members:
            panels.append((label, members))
            placed.update(members)
    for label, block in (("other q", names[:nq]), ("other v", names[nq:])):
        rest = [n for n in block if n not in placed]
        if rest:
            panels.append((label, rest))
    return panels


def plot_run(directory, nq=None):
    header, rows = read_table(os.path.join(directory, "trajectory.csv"))
    if not rows:
        raise PlotError(f"{directory}/trajectory.csv: no rows")
    t = column(header, rows, "t")
    names = header[1:-2]
    # trajectory.csv lists q's names, then v's; impactsim passes nq, else it is guessed.
    events = event_times(directory)
    if nq is None:
        nq = len(names) - count_velocities(names)
    panels = unit_panels(names, nq)
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 2.3 * len(panels) + 1.2), sharex=True, squeeze=False)
    for ax, (label, members) in zip(axes[:, 0], panels):
        for name in members[:12]:
            ax.plot(t, column(header, rows, name), lw=1.2, label=name)
        ax.set_ylabel(label, fontsize=8)
        ax.grid(alpha=0.3)
        mark_events(ax, events)
        ax.legend(fontsize=7, ncol=4, loc="best")
    axes[-1, 0].set_xlabel("t [s]")
    fig.suptitle(f"{source_label(directory)}: trajectory ({len(events)} events, ticks at the bottom)")
    fig.tight_layout()
    save(fig, os.path.join(directory, "trajectory.png"))

    # Kinetic energy on its own axis (potential energy dwarfs it), and the total's change from t = 0:
    # flat in smooth phases, steps down at inelastic impacts.
    kinetic = column(header, rows, "kinetic_energy")
    potential = column(header, rows, "potential_energy")
    total0 = kinetic[0] + potential[0]
    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    axes[0].plot(t, kinetic, color="tab:blue")
    axes[0].set_ylabel("kinetic [J]")
    axes[1].plot(t, [a + b - total0 for a, b in zip(kinetic, potential)], color="black")
    axes[1].set_ylabel("total - total(0) [J]")
    for ax in axes:
        mark_events(ax, events)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="best")
    axes[1].set_xlabel("t [s]")
    axes[0].set_title(f"{source_label(directory)}: energy; events as ticks at the bottom")
    fig.tight_layout()
    save(fig, os.path.join(directory, "energy.png"))

    if os.path.isfile(os.path.join(directory, "poses.csv")):
        if os.path.isfile(os.path.join(directory, "outlines.csv")):
            animate(directory)
        elif os.path.isfile(os.path.join(directory, "wireframes.csv")):
            animate_3d(directory)


def count_velocities(names):
    """trajectory.csv lists q's names, then v's. Velocity names are those of the second block: the
    list is split where a body's first coordinate name reappears after a different body's names."""
    bodies = [n.rsplit(".", 1)[0] for n in names]
    first_body = bodies[0]
    for k in range(1, len(bodies)):
        if bodies[k] == first_body and bodies[k - 1] != first_body:
            return len(names) - k
    # One body: q and v blocks are both that body's; v starts at the first velocity-like name.
    velocity_words = ("vx", "vy", "vz", "omega", "wx", "wy", "wz", "sdot", "thetadot")
    for k, n in enumerate(names):
        if n.rsplit(".", 1)[1] in velocity_words:
            return len(names) - k
    return len(names) // 2


def frames_of(rows, most):
    """At most `most` rows evenly spaced, the last one always included."""
    step = max(1, math.ceil(len(rows) / most))
    frames = rows[::step]
    if rows and frames[-1] is not rows[-1]:
        frames.append(rows[-1])
    return frames


def contact_points(directory):
    """{t: [(x, y, z), ...]} of the touching contacts at each output time (none without the file)."""
    path = os.path.join(directory, "contact_points.csv")
    points = {}
    if os.path.isfile(path):
        header, rows = read_table(path)
        t, x, y, z = (header.index(c) for c in ("t", "x", "y", "z"))
        for r in rows:
            points.setdefault(r[t], []).append((r[x], r[y], r[z]))
    return points


def save_animation(fig, draw, frames, pose_rows, directory):
    anim = animation.FuncAnimation(fig, draw, frames=len(frames), blit=False)
    duration = pose_rows[-1][0] - pose_rows[0][0] if len(pose_rows) > 1 else 1.0
    fps = max(5, min(30, round(len(frames) / max(duration, 1e-9))))
    path = os.path.join(directory, "animation.gif")
    anim.save(path, writer=animation.PillowWriter(fps=fps), dpi=70)
    plt.close(fig)
    print(f"plot: wrote {path}")


def animate(directory):
    oh, outline_rows = read_table(os.path.join(directory, "outlines.csv"))
    ph, pose_rows = read_table(os.path.join(directory, "poses.csv"))
    shapes = {}
    for r in outline_rows:
        body, shape, x, y = r[oh.index("body")], r[oh.index("shape")], r[oh.index("x")], r[oh.index("y")]
        shapes.setdefault((body, shape), []).append((x, y))
    frames = frames_of(pose_rows, frame_limit(MAX_FRAMES))
    touching = contact_points(directory)

    def world(body, pts, row):
        if body == "world":
            return pts
        x, y, th = (row[ph.index(f"{body}.{c}")] for c in ("x", "y", "theta"))
        c, s = math.cos(th), math.sin(th)
        return [(x + c * px - s * py, y + s * px + c * py) for px, py in pts]

    xs, ys = [], []
    for row in frames:
        for (body, _), pts in shapes.items():
            if body != "world":
                for px, py in world(body, pts, row):
                    xs.append(px)
                    ys.append(py)
    if not xs:
        return
    pad = 0.15 * max(max(xs) - min(xs), max(ys) - min(ys), 0.2)
    xlim, ylim = (min(xs) - pad, max(xs) + pad), (min(ys) - pad, max(ys) + pad)
    fig, ax = plt.subplots(figsize=(6, 6 * min(1.6, max(0.5, (ylim[1] - ylim[0]) / (xlim[1] - xlim[0])))))
    ax.set_aspect("equal")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    lines = {}
    for key in shapes:
        colour = "dimgrey" if key[0] == "world" else None
        (lines[key],) = ax.plot([], [], lw=2, color=colour)
    (marks,) = ax.plot([], [], "o", color="red", ms=5, label="touching contacts")
    if touching:
        ax.legend(loc="upper right", fontsize=8)
    title = ax.set_title("")
    fig.tight_layout()

    def draw(k):
        row = frames[k]
        for (body, shape), pts in shapes.items():
            w = world(body, pts, row)
            lines[(body, shape)].set_data([p[0] for p in w], [p[1] for p in w])
        here = touching.get(row[0], [])
        marks.set_data([p[0] for p in here], [p[1] for p in here])
        title.set_text(f"{source_label(directory)}: t = {row[0]:.3f} s")
        return list(lines.values()) + [marks, title]

    save_animation(fig, draw, frames, pose_rows, directory)


def rotate(q, p):
    """p rotated by the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    px, py, pz = p
    # p + 2 w (u x p) + 2 u x (u x p), u = (x, y, z)
    cx, cy, cz = y * pz - z * py, z * px - x * pz, x * py - y * px
    dx, dy, dz = y * cz - z * cy, z * cx - x * cz, x * cy - y * cx
    return (px + 2 * (w * cx + dx), py + 2 * (w * cy + dy), pz + 2 * (w * cz + dz))


def animate_3d(directory):
    """animation.gif of a 3-D run: each body's wireframe at its pose, the world's shapes clipped to
    the box the bodies move in, touching contacts in red, the time in the title. A body without
    shapes (a point mass, a pendulum's bob) is drawn as its frame: three short axes at its pose."""
    wh, wire_rows = read_table(os.path.join(directory, "wireframes.csv"))
    ph, pose_rows = read_table(os.path.join(directory, "poses.csv"))
    strokes = {}
    b, sh, st, x, y, z = (wh.index(c) for c in ("body", "shape", "stroke", "x", "y", "z"))
    for r in wire_rows:
        strokes.setdefault((r[b], r[sh], r[st]), []).append((r[x], r[y], r[z]))
    frames = frames_of(pose_rows, frame_limit(MAX_FRAMES_3D))
    touching = contact_points(directory)

    def world(body, pts, row):
        if body == "world":
            return pts
        p = [row[ph.index(f"{body}.{c}")] for c in ("x", "y", "z")]
        q = [row[ph.index(f"{body}.{c}")] for c in ("qw", "qx", "qy", "qz")]
        return [tuple(a + d for a, d in zip(p, rotate(q, pt))) for pt in pts]

    shaped = {body for body, _, _ in strokes}
    shapeless = [c[:-3] for c in ph if c.endswith(".qw") and c[:-3] not in shaped]
    seen = [pt for row in frames for (body, _, _), pts in strokes.items() if body != "world"
            for pt in world(body, pts, row)]
    seen += [pt for row in frames for body in shapeless for pt in world(body, [(0.0, 0.0, 0.0)], row)]
    if not seen:
        return
    low = [min(pt[k] for pt in seen) for k in range(3)]
    high = [max(pt[k] for pt in seen) for k in range(3)]
    span = max(max(h - lo for h, lo in zip(high, low)), 0.2)
    for body in shapeless:  # its frame's axes, a tenth of the view long
        for k, axis in enumerate("xyz"):
            tip = tuple(0.1 * span if j == k else 0.0 for j in range(3))
            strokes[(body, "frame", axis)] = [(0.0, 0.0, 0.0), tip]
    centre = [(h + lo) / 2 for h, lo in zip(high, low)]
    # A cube around the bodies' motion, so that the picture keeps its proportions.
    limits = [(c - 0.6 * span, c + 0.6 * span) for c in centre]

    def clip(pts):
        return [tuple(min(max(v, lo), hi) for v, (lo, hi) in zip(pt, limits)) for pt in pts]

    fig = plt.figure(figsize=(6, 6))
    ax = fig.add_subplot(projection="3d")
    ax.set_box_aspect((1, 1, 1))
    for k, axis in enumerate("xyz"):
        getattr(ax, f"set_{axis}lim")(*limits[k])
        getattr(ax, f"set_{axis}label")(f"{axis} [m]")
    for (body, _, _), pts in strokes.items():
        if body == "world":
            w = clip(pts)
            ax.plot(*zip(*w), color="dimgrey", lw=1)
    bodies = sorted({body for body, _, _ in strokes if body != "world"})
    colour = {body: f"C{k % 10}" for k, body in enumerate(bodies)}
    lines = {key: ax.plot([], [], [], lw=1.5, color=colour[key[0]])[0] for key in strokes if key[0] != "world"}
    (marks,) = ax.plot([], [], [], "o", color="red", ms=4, label="touching contacts")
    if touching:
        ax.legend(loc="upper right", fontsize=8)
    title = ax.set_title("")

    def draw(k):
        row = frames[k]
        for key, line in lines.items():
            w = world(key[0], strokes[key], row)
            line.set_data_3d(*zip(*w))
        here = touching.get(row[0], [])
        marks.set_data_3d([p[0] for p in here], [p[1] for p in here], [p[2] for p in here])
        title.set_text(f"{source_label(directory)}: t = {row[0]:.3f} s")
        return list(lines.values()) + [marks, title]

    save_animation(fig, draw, frames, pose_rows, directory)


CLASS_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink",
                 "tab:olive", "tab:cyan", "tab:grey"]


def plot_impact(directory):
    header, rows = read_table(os.path.join(directory, "samples.csv"))
    contacts = [h[:-3] for h in header if h.endswith(".vn")]
    if not contacts:
        raise PlotError(f"{directory}/samples.csv: no contact velocity columns")
    tangent = ".vt" if f"{contacts[0]}.vt" in header else ".vt1"
    labels = [" ".join(f"{c}:{r[header.index(c + '.class')]}" for c in contacts) for r in rows]
    classes = sorted(set(labels), key=lambda s: -labels.count(s))
    overlays = []
    for name, marker, colour, label in (("anitescu_potra.csv", "X", "black", "Anitescu-Potra solutions"),
                                        ("sequential.csv", "^", "red", "sequential orderings")):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            overlays.append((read_table(path), marker, colour, label))

    panels = []
    if len(contacts) >= 2:
        panels.append((contacts[0] + ".vn", contacts[1] + ".vn"))
    for c in contacts[:3]:
        panels.append((c + tangent, c + ".vn"))
    # Velocities that are zero up to rounding (1e-17) must not be blown up to fill an axis: every
    # axis spans at least a fifth of the largest contact speed.
    scale = max([abs(r[header.index(c)]) for r in rows for pair in panels for c in pair] + [1e-12])
    fig, axes = plt.subplots(1, len(panels), figsize=(4.4 * len(panels), 4.4), squeeze=False)
    for ax, (xname, yname) in zip(axes[0], panels):
        for k, cls in enumerate(classes[:len(CLASS_COLOURS)]):
            pts = [r for r, lab in zip(rows, labels) if lab == cls]
            xs, ys = [r[header.index(xname)] for r in pts], [r[header.index(yname)] for r in pts]
            if all(part.endswith(":rest") for part in cls.split()):
                # Every rest sample is the same point (v+ = 0), where the Anitescu-Potra solution often
                # lies too: a ring drawn above the overlays keeps it visible.
                ax.scatter(xs, ys, s=240, facecolors="none", edgecolors=CLASS_COLOURS[k], linewidths=2.0,
                           label=f"{cls} ({len(pts)})", zorder=6)
            else:
                ax.scatter(xs, ys, s=6, alpha=0.5, color=CLASS_COLOURS[k], label=f"{cls} ({len(pts)})")
        for (oh, orows), marker, colour, label in overlays:
            if xname in oh and yname in oh:
                ax.scatter(column(oh, orows, xname), column(oh, orows, yname), marker=marker, s=70,
                           color=colour, edgecolors="white", linewidths=0.8, label=f"{label} ({len(orows)})",
                           zorder=5)
        ax.axhline(0, color="grey", lw=0.6)
        ax.axvline(0, color="grey", lw=0.6)
        for get, put in ((ax.get_xlim, ax.set_xlim), (ax.get_ylim, ax.set_ylim)):
            lo, hi = get()
            if hi - lo < 0.2 * scale:
                mid = 0.5 * (lo + hi)
                put(mid - 0.1 * scale, mid + 0.1 * scale)
        ax.set_xlabel(axis_label(xname))
        ax.set_ylabel(axis_label(yname))
        ax.xaxis.set_major_locator(plt.MaxNLocator(5))
        ax.tick_params(labelsize=8)
        ax.grid(alpha=0.3)
    handles, names = axes[0][0].get_legend_handles_labels()
    legend = fig.legend(handles, names, loc="lower center", ncol=min(4, len(names)), fontsize=7)
    # One marker size in the legend: the sample dots are too small to see there and the rest ring
    # (drawn large to show above the overlays) too large.
    for handle in getattr(legend, "legend_handles", None) or legend.legendHandles:
        handle.set_sizes([36])
    fig.suptitle(f"{source_label(directory)}: post-impact velocities, {len(rows)} samples")
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    save(fig, os.path.join(directory, "post_impact.png"))


def axis_label(name):
    contact, what = name.rsplit(".", 1)
    return {"vn": f"J_n v+ of {contact} [m/s]", "vt": f"J_t v+ of {contact} [m/s]",
            "vt1": f"J_t1 v+ of {contact} [m/s]"}.get(what, name)


def column_unit(name):
    """The unit of a runs.csv column ("" when it has none or it is not known): times, energies, and
    coordinates by their last word (init.*, final.*, and outcomes named like them)."""
    if name in ("t_final", "t_rest", "stepped_time"):
        return "s"
    if name == "deepest_penetration":
        return "m"
    if name.endswith("kinetic_energy"):
        return "J"
    if name.endswith("_deg"):
        return "deg"
    if name.startswith(("init.", "final.")):
        word = name.rsplit(".", 1)[-1]
        for label, words in UNIT_GROUPS:
            if word in words:
                return label[label.index("[") + 1:-1]
    return ""


def plot_batch(directory):
    header, rows = read_table(os.path.join(directory, "runs.csv"))
    if not rows:
        raise PlotError(f"{directory}/runs.csv: no runs")
    skip = {"run", "seed", "status"}
    columns = []
    for k, name in enumerate(header):
        values = [r[k] for r in rows if isinstance(r[k], float)]
        if name in skip or not values:
            continue
        span = max(values) - min(values)
        if span <= 1e-9 * max(1.0, abs(max(values))):
            continue  # constant (to rounding): nothing to show
        columns.append((name, values))
    failed = sum(1 for r in rows if r[header.index("status")] != "ok")
    if not columns:
        columns = [("impacts", column(header, rows, "impacts"))]
    n = len(columns)
    cols = min(3, n)
    nrows = math.ceil(n / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.2 * nrows), squeeze=False)
    for ax, (name, values) in zip(axes.flat, columns):
        integer = all(v == int(v) for v in values) and len(set(values)) <= 40
        if integer:
            lo, hi = int(min(values)), int(max(values))
            ax.hist(values, bins=[x - 0.5 for x in range(lo, hi + 2)], color="tab:blue", rwidth=0.85)
            ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
            ax.set_xlim(lo - 1, hi + 1)
        else:
            ax.hist(values, bins=min(50, max(10, int(math.sqrt(len(values))))), color="tab:blue")
            ax.xaxis.set_major_locator(plt.MaxNLocator(5))
        ax.tick_params(labelsize=8)
        unit = column_unit(name)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(f"[{unit}]" if unit else "", fontsize=8)
        ax.set_ylabel("runs")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle(f"{source_label(directory)}: {len(rows)} runs ({failed} failed)")
    fig.tight_layout()
    save(fig, os.path.join(directory, "histograms.png"))


def plot_converge(directory):
    header, rows = read_table(os.path.join(directory, "convergence.csv"))
    if len(rows) < 2:
        raise PlotError(f"{directory}/convergence.csv: needs at least two step sizes")
    h = column(header, rows, "h")
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for name, label in (("q_error_max", "max |q - q_ref| over the rows"), ("q_error_final", "|q - q_ref| at t_end"),
                        ("v_error_final", "|v - v_ref| at t_end")):
        values = column(header, rows, name)
        points = [(x, y) for x, y in zip(h, values) if y > 0]
        if points:
            ax.loglog(*zip(*points), "o-", label=label)
    finest = min(h)
    reference = column(header, rows, "q_error_max")[h.index(finest)]
    if reference > 0:
        for order, style in ((1, ":"), (2, "--")):
            ax.loglog([finest, max(h)], [reference, reference * (max(h) / finest) ** order], "k" + style, lw=0.8,
                      label=f"slope {order}")
    ax.set_xlabel("step size h [s]")
    ax.set_ylabel("error against the event-driven solution")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    ax.set_title(source_label(directory), fontsize=9)
    fig.tight_layout()
    save(fig, os.path.join(directory, "convergence.png"))


CLASSES = ("rest", "stick", "slide", "lift")
SWEEP_UNITS = {"t_final": "s", "t_rest": "s", "stepped_time": "s", "final_kinetic_energy": "J", "deepest_penetration": "m"}


def sweep_panels(stats, rows, header):
    """(title, [(label, ys, errs)]) per panel of sweep.png: per-contact class fractions together
    (summed over the contacts when there are more than six), means with their sd, the closed
    contacts counted, every other column alone; columns that never vary are left out."""
    def values(name):
        return [r[header.index(name)] if isinstance(r[header.index(name)], float) else math.nan for r in rows]

    def varies(ys):
        finite = [y for y in ys if not math.isnan(y)]
        return len(finite) > 0 and max(finite) - min(finite) > 1e-12 * max(1.0, abs(max(finite)))

    classes = {}
    closed = []
    means = {}
    single = []
    for name in stats:
        head, _, tail = name.rpartition(".")
        if head and tail in CLASSES:
            classes.setdefault(head, {})[tail] = values(name)
        elif head and tail == "closed":
            closed.append(values(name))
        elif head and tail == "mean":
            sd = head + ".sd"
            means[head] = (values(name), values(sd) if sd in stats else None)
        elif head and tail == "sd" and head + ".mean" in stats:
            continue
        else:
            unit = SWEEP_UNITS.get(name)
            single.append((f"{name} [{unit}]" if unit else name, values(name)))
    panels = []
    if classes and len(classes) <= 6:
        for contact, by_class in classes.items():
            lines = [(c, ys, None) for c, ys in by_class.items() if varies(ys) or any(y > 0 for y in ys if not math.isnan(y))]
            if lines:
                panels.append((f"fraction of samples: {contact}", lines))
    elif classes:
        totals = {c: [sum(y for y in ys if not math.isnan(y)) for ys in zip(*[d[c] for d in classes.values() if c in d])]
                  for c in CLASSES}
        lines = [(c, ys, None) for c, ys in totals.items() if any(y > 0 for y in ys)]
        if lines:
            panels.append((f"mean number of the {len(classes)} contacts in each class", lines))
    for name, (ys, sd) in means.items():
        if varies(ys):
            unit = SWEEP_UNITS.get(name)
            panels.append((f"{name}{f' [{unit}]' if unit else ''} (mean, +-1 sd)", [(name, ys, sd)]))
    if closed:
        count = [sum(c[i] for c in closed if not math.isnan(c[i])) for i in range(len(rows))]
        if varies(count):
            panels.append((f"closed contacts (of {len(closed)})", [("closed", count, None)]))
    for name, ys in single:
        if varies(ys):
            panels.append((name, [(name, ys, None)]))
    return panels[:12]


def plot_sweep(directory):
    header, rows = read_table(os.path.join(directory, "sweep.csv"))
    if not rows:
        raise PlotError(f"{directory}/sweep.csv: no points")
    if "exit" not in header or header.index("exit") < 2:
        raise PlotError(f"{directory}/sweep.csv: no parameter columns before 'exit'")
    params = header[1:header.index("exit")]
    stats = header[header.index("exit") + 1:]
    command = ""
    try:
        with open(os.path.join(directory, "sweep.json")) as f:
            command = json.load(f).get("command", "")
    except (OSError, ValueError):
        pass
    first = params[0]
    xs_raw = column(header, rows, first)
    numeric = all(isinstance(x, float) for x in xs_raw)
    categories = []
    for x in xs_raw:
        if x not in categories:
            categories.append(x)
    xs = xs_raw if numeric else [categories.index(x) for x in xs_raw]
    groups = {}
    for i, r in enumerate(rows):
        key = ", ".join(f"{p}={r[header.index(p)]:g}" if isinstance(r[header.index(p)], float) else f"{p}={r[header.index(p)]}"
                        for p in params[1:])
        groups.setdefault(key, []).append(i)
    panels = sweep_panels(stats, rows, header)
    if not panels:
        panels = [("exit code", [("exit", column(header, rows, "exit"), None)])]
    n = len(panels)
    cols = min(3, n)
    nrows = math.ceil(n / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.4 * cols, 3.3 * nrows), squeeze=False)
    for ax, (title, lines) in zip(axes.flat, panels):
        for label, ys, errs in lines:
            for group, indices in groups.items():
                gx = [xs[i] for i in indices]
                gy = [ys[i] for i in indices]
                name = ", ".join(x for x in (label if len(lines) > 1 else "", group) if x) or None
                if errs is not None:
                    ax.errorbar(gx, gy, yerr=[errs[i] for i in indices], fmt="o-", ms=3, capsize=2, label=name)
                else:
                    ax.plot(gx, gy, "o-", ms=3, label=name)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(first)
        if not numeric:
            ax.set_xticks(range(len(categories)))
            ax.set_xticklabels([str(c) for c in categories], fontsize=7, rotation=30)
        ax.tick_params(labelsize=8)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0] and (len(lines) > 1 or len(groups) > 1):
            ax.legend(fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    failed = sum(1 for e in column(header, rows, "exit") if e != 0)
    fig.suptitle(f"{source_label(directory)}: sweep of {command or 'points'}, {len(rows)} points"
                 + (f" ({failed} did not finish)" if failed else ""), fontsize=10)
    fig.tight_layout()
    save(fig, os.path.join(directory, "sweep.png"))


def main(argv):
    nq = None
    if len(argv) == 5 and argv[1] == "run" and argv[3] == "--nq" and argv[4].isdigit():
        nq = int(argv[4])
        argv = argv[:3]
    if len(argv) != 3 or argv[1] not in ("run", "impact", "batch", "converge", "sweep"):
        print(__doc__, file=sys.stderr)
        return 1
    try:
        if argv[1] == "run":
            plot_run(argv[2], nq)
        else:
            {"impact": plot_impact, "batch": plot_batch, "converge": plot_converge, "sweep": plot_sweep}[argv[1]](argv[2])
    except PlotError as e:
        print(f"plot: {e}", file=sys.stderr)
        return 2
    except (ValueError, IndexError, KeyError) as e:
        print(f"plot: {argv[2]}: malformed input ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
