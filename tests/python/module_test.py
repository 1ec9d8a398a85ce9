"""The package's surface: every public name documented, the stubs naming what the module holds,
the package importable from the build tree and installable with pip."""
import ast
import inspect
import os
import pathlib
import subprocess
import sys

import pytest

import impactsim
from impactsim import _impactsim, laws, lcp

PACKAGE = pathlib.Path(impactsim.__file__).parent


def test_every_public_name_is_documented():
    for module in (impactsim, laws, lcp):
        assert module.__doc__
        for name in getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]:
            value = getattr(module, name)
            if inspect.isfunction(value) or inspect.isclass(value):
                assert inspect.getdoc(value), f"{module.__name__}.{name} has no docstring"
    assert "N s" in impactsim.__doc__ and "m/s" in impactsim.__doc__
    assert "overrides" in inspect.getdoc(impactsim.load_scene) and "N s" in inspect.getdoc(impactsim.load_scene)
    assert "J_n" in inspect.getdoc(impactsim.ContactSpace) or "J_n" in laws.__doc__


def test_the_stubs_name_what_the_compiled_module_holds():
    stub = ast.parse((PACKAGE / "_impactsim.pyi").read_text())
    stubbed = {node.name for node in stub.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    compiled = {n for n in dir(_impactsim) if not n.startswith("_")}
    assert stubbed == compiled
    assert (PACKAGE / "py.typed").exists()


def test_pip_installs_the_package(tmp_path):
    """`pip install --no-build-isolation` with the build tree's module (IMPACTSIM_BUILD_DIR), into a
    target directory, then imported from there in a fresh interpreter."""
    source = pathlib.Path(os.environ.get("IMPACTSIM_SOURCE_DIR", PACKAGE.parents[2]))
    build = os.environ.get("IMPACTSIM_BUILD_DIR")
    if not build:
        pytest.skip("IMPACTSIM_BUILD_DIR names the build tree whose module pip installs")
    env = dict(os.environ, IMPACTSIM_BUILD_DIR=build, PYTHONPATH="")
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                           "--target", str(target), str(source / "python")], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    check = subprocess.run([sys.executable, "-c", "import impactsim, sys; print(impactsim.__file__); "
                            "print(len(impactsim.laws.routh().prepare(impactsim.ContactSpace([[1.0]], [[1.0]], [[1.0]], "
                            "[0.5], [0.0]), [-1.0]).sample(5)))"],
                           capture_output=True, text=True, env=dict(env, PYTHONPATH=str(target)), cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert check.stdout.splitlines() == [str(target / "impactsim" / "__init__.py"), "5"]
