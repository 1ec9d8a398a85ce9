"""Type stubs of the compiled module; import impactsim, whose wrappers document each call."""
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

class SceneHandle:
    name: str
    description: str
    source: str
    law: str
    seed: int
    t_end: float
    planar: bool
    q_names: List[str]
    v_names: List[str]
    contact_names: List[str]
    precision: int
    initial_q: np.ndarray
    initial_v: np.ndarray
    text_sha256: str
    def check(self) -> dict: ...
    def describe(self) -> str: ...

class ContactSpaceHandle:
    M: np.ndarray
    J_n: np.ndarray
    J_t: np.ndarray
    mu: np.ndarray
    e: np.ndarray
    tangent_dim: int
    friction_directions: int
    circular_cone: bool
    contacts: int
    def __init__(self, M: np.ndarray, J_n: np.ndarray, J_t: np.ndarray, mu: np.ndarray, e: np.ndarray,
                 friction_directions: int, circular_cone: bool) -> None: ...

class LawHandle:
    name: str
    def resolve(self, space: ContactSpaceHandle, v_minus: np.ndarray, seed: int) -> dict: ...

class PreparedHandle:
    law: str
    v_minus: np.ndarray
    space: ContactSpaceHandle
    def sample(self, n: int, seed: int, threads: int, first: int) -> dict: ...

def load_scene(path: str, overrides: List[str]) -> SceneHandle: ...
def scene_from_yaml(text: str, name: str, overrides: List[str]) -> SceneHandle: ...
def run(scene: SceneHandle, law: str, seed: int, run: int, integrator: str, step: float, t_end: float,
        on_event: Optional[Callable[[dict], object]]) -> dict: ...
def impact(scene: SceneHandle, samples: int, law: str, seed: int, threads: int) -> dict: ...
def batch(scene: SceneHandle, runs: int, law: str, seed: int, threads: int, first: int) -> dict: ...
def make_law(name: str, settings: Dict[str, str]) -> LawHandle: ...
def prepare(law: LawHandle, space: ContactSpaceHandle, v_minus: np.ndarray) -> PreparedHandle: ...
def first_impact(scene: SceneHandle) -> dict: ...
def law_names() -> List[str]: ...
def lcp_solve(W: np.ndarray, q: np.ndarray, pivot_tolerance: float, accept_tolerance: float,
              max_pivots: int) -> dict: ...
def lcp_all_solutions(W: np.ndarray, q: np.ndarray, tolerance: float) -> List[np.ndarray]: ...
