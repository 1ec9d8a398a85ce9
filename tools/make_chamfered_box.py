#!/usr/bin/env python3
"""Writes scenes/meshes/chamfered_box.obj: a 0.2 x 0.15 x 0.1 m box whose twelve edges are bevelled
by 1 cm (24 vertices, 44 triangles), the object of scenes/mesh_toss.yaml. Plain Python: the faces are
the planes through three vertices that hold every vertex on one side, each polygon fanned into
triangles counter-clockwise seen from outside.

    tools/make_chamfered_box.py [OUT]
"""
import itertools
import math
import sys

HALF = (0.1, 0.075, 0.05)
CUT = 0.01


def vertices():
    out = []
    for sx, sy, sz in itertools.product((-1, 1), repeat=3):
        a, b, c = HALF
        out.append((sx * a, sy * (b - CUT), sz * (c - CUT)))
        out.append((sx * (a - CUT), sy * b, sz * (c - CUT)))
        out.append((sx * (a - CUT), sy * (b - CUT), sz * c))
    return out


def sub(p, q):
    return tuple(x - y for x, y in zip(p, q))


def cross(p, q):
    return (p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0])


def dot(p, q):
    return sum(x * y for x, y in zip(p, q))


def faces(v):
    seen = set()
    out = []
    for i, j, k in itertools.combinations(range(len(v)), 3):
        n = cross(sub(v[j], v[i]), sub(v[k], v[i]))
        length = math.sqrt(dot(n, n))
        if length < 1e-12:
            continue
        n = tuple(x / length for x in n)
        d = [dot(n, sub(p, v[i])) for p in v]
        if max(d) > 1e-12:
            n, d = tuple(-x for x in n), [-x for x in d]
        if max(d) > 1e-12:
            continue  # points on both sides: not a face
        on = tuple(m for m in range(len(v)) if abs(d[m]) <= 1e-12)
        if on in seen:
            continue
        seen.add(on)
        # Order the face's vertices counter-clockwise about the outward normal.
        centre = tuple(sum(v[m][a] for m in on) / len(on) for a in range(3))
        e1 = sub(v[on[0]], centre)
        e2 = cross(n, e1)
        ring = sorted(on, key=lambda m: math.atan2(dot(sub(v[m], centre), e2), dot(sub(v[m], centre), e1)))
        out.extend((ring[0], ring[t], ring[t + 1]) for t in range(1, len(ring) - 1))
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "scenes/meshes/chamfered_box.obj"
    v = vertices()
    f = faces(v)
    with open(path, "w") as out:
        out.write("# A 0.2 x 0.15 x 0.1 m box with its edges bevelled by 1 cm, written by tools/make_chamfered_box.py\n")
        for p in v:
            out.write("v %.6f %.6f %.6f\n" % p)
        for t in f:
            out.write("f %d %d %d\n" % tuple(m + 1 for m in t))
    print("%s: %d vertices, %d triangles" % (path, len(v), len(f)))


if __name__ == "__main__":
    main()
