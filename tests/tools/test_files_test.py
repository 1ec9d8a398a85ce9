#!/usr/bin/env python3
"""Every source file of the libraries has a test file beside it: app/x.cpp -> tests/app/x_test.cpp,
and python/x.cpp (the Python package's bindings) -> tests/python/x_test.py (pytest)."""
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
missing = [str(source.relative_to(root))
           for folder in ("app", "collision", "core", "impact", "numerics", "scenes")
           for source in sorted((root / folder).glob("*.cpp"))
           if not (root / "tests" / folder / (source.stem + "_test.cpp")).exists()]
missing += [str(source.relative_to(root)) for source in sorted((root / "python").glob("*.cpp"))
            if not (root / "tests" / "python" / (source.stem + "_test.py")).exists()]
for name in missing:
    suffix = ".py" if name.startswith("python/") else ".cpp"
    print(f"{name} has no test file tests/{name[:-4]}_test{suffix}")
sys.exit(1 if missing else 0)
