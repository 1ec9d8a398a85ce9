#!/usr/bin/env bash
# Installs impactsim's build dependencies from Debian's packages, and what the tests of
# tools/cluster run (GNU parallel, and Slurm for a single-node cluster the test starts itself), and
# what the Python package builds and tests with (pybind11, pytest, pandas, nbconvert and its kernel, pip),
# the headless browser the viewer's tests drive (chromium, its driver, selenium), and MuJoCo for
# tools/compare_mujoco.py (a comparison script's oracle, never linked into impactsim).
# Idempotent: when every package is already installed it only checks and exits.
set -euo pipefail

packages=(
  build-essential cmake
  libeigen3-dev libfcl-dev libyaml-cpp-dev libspdlog-dev libcli11-dev libboost-dev nlohmann-json3-dev
  libassimp-dev libqhull-dev liburdfdom-dev libhdf5-dev
  libgtest-dev libbenchmark-dev
  python3-matplotlib python3-numpy python3-h5py python3-yaml
  pybind11-dev python3-dev python3-pytest python3-pandas python3-nbconvert python3-ipykernel
  python3-setuptools python3-pip python3-wheel
  chromium chromium-driver python3-selenium
  parallel slurm-wlm
  libmujoco-dev
)

# `tools/setup.sh fuzz` adds clang, whose libFuzzer tools/fuzz.sh builds with.
[[ "${1:-}" == "fuzz" ]] && packages+=(clang)

# Commit messages follow the project's rule (tools/git-hooks/commit-msg) in a git checkout.
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" == "$root" ]]; then
  git -C "$root" config core.hooksPath tools/git-hooks
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
