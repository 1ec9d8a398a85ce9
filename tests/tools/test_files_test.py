#!/usr/bin/env python3
"""Every source file of the libraries has a test file beside it: app/x.cpp -> tests/app/x_test.cpp."""
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
missing = [str(source.relative_to(root))
           for folder in ("app", "collision", "core", "impact", "numerics", "scenes")
           for source in sorted((root / folder).glob("*.cpp"))
           if not (root / "tests" / folder / (source.stem + "_test.cpp")).exists()]
for name in missing:
    print(f"{name} has no test file tests/{name[:-4]}_test.cpp")
sys.exit(1 if missing else 0)
