"""pip install ./python (offline, with Debian's setuptools: --no-build-isolation).

The compiled module comes from the project's CMake build: the target impactsim_python, built in
IMPACTSIM_BUILD_DIR when that names a configured build tree (build/ after tools/build.sh), else in a
build tree of its own (build-python/ beside python/, Release, without the tests)."""
import os
import pathlib
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("IMPACTSIM_BUILD_DIR")
        if build:
            build = pathlib.Path(build).resolve()
        else:
            build = ROOT / "build-python"
            subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                                   "-DIMPACTSIM_BUILD_TESTS=OFF", "-DPython_EXECUTABLE=/usr/bin/python3"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "impactsim_python", "-j",
                               str(os.cpu_count() or 1)])
        built = sorted((build / "python" / "impactsim").glob("_impactsim*.so"))
        if not built:
            raise RuntimeError(f"no _impactsim module in {build / 'python' / 'impactsim'}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


setup(
    name="impactsim",
    version="0.1.0",
    description="Event-driven rigid-body simulation of simultaneous, frictional impacts",
    packages=["impactsim"],
    package_data={"impactsim": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("impactsim._impactsim", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
)
