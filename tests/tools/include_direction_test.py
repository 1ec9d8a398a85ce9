#!/usr/bin/env python3
"""Libraries depend downward only: each folder's sources include only its own headers and those of
the folders below it (numerics at the bottom; collision and impact beside each other, neither
including the other; core; scenes; app; the Python package's bindings on top). Prints every include that points elsewhere."""
import pathlib
import re
import sys

BELOW = {
    "numerics": set(),
    "collision": {"numerics"},
    "impact": {"numerics"},
    "core": {"numerics", "collision", "impact"},
    "scenes": {"numerics", "collision", "impact", "core"},
    "app": {"numerics", "collision", "impact", "core", "scenes"},
    "python": {"numerics", "collision", "impact", "core", "scenes", "app"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"', re.M)

root = pathlib.Path(sys.argv[1])
wrong = []
for folder, allowed in BELOW.items():
    for source in sorted((root / folder).glob("*.[ch]pp")):
        for target in INCLUDE.findall(source.read_text()):
            if target != folder and target not in allowed:
                wrong.append(f"{source.relative_to(root)} includes {target}/: {folder}/ may include only "
                             f"{', '.join(sorted(allowed | {folder}))}")
print("\n".join(wrong))
# Every library folder is named here, so a new one cannot escape the rule.
libraries = {p.parent.name for p in root.glob("*/CMakeLists.txt")} - {"tests"}
unknown = sorted(libraries - set(BELOW))
for name in unknown:
    print(f"{name}/ is a library this test does not place: add it to BELOW")
sys.exit(1 if wrong or unknown else 0)
