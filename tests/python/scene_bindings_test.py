"""Scenes from Python: loading with overrides, from text, what `check` prints, located errors."""
import pytest

import impactsim
from conftest import ROOT, command, scene_path


def test_a_scene_loads_with_overrides_as_a_dict_or_as_set_texts():
    plain = impactsim.load_scene(scene_path("rocking_block"))
    assert plain.name == "rocking_block" and plain.q_names == ["block.x", "block.y", "block.theta"]
    assert plain.contact_names == ["A", "B"] and plain.law == "routh"
    as_dict = impactsim.load_scene(scene_path("rocking_block"), overrides={"materials.mu": 0.3})
    as_list = impactsim.load_scene(scene_path("rocking_block"), overrides=["materials.mu=0.3"])
    assert [c["mu"] for c in as_dict.check()["contacts"]] == [0.3, 0.3]
    assert as_dict.check() == as_list.check()
    assert as_dict.text_sha256 == as_list.text_sha256 != plain.text_sha256


def test_check_is_what_the_command_prints_as_data():
    for name in ("rocking_block", "cube_toss", "compass_gait"):
        info = impactsim.load_scene(scene_path(name)).check()
        assert info["text"] == command("check", scene_path(name))
        assert info["nq"] == len(info["q_names"]) and info["nv"] == len(info["v_names"])
        assert info["total_mass"] == pytest.approx(sum(b["mass"] for b in info["bodies"]))
        energy = info["initial_energy"]
        assert energy["total"] == pytest.approx(energy["kinetic"] + energy["potential"])
    tossed = impactsim.load_scene(scene_path("cube_toss")).check()
    assert tossed["planar"] is False and tossed["gravity"] == [0.0, 0.0, -9.81]


def test_a_scene_from_text_is_the_file_read_from_text():
    text = (ROOT / "scenes" / "rocking_block.yaml").read_text()
    from_text = impactsim.scene_from_yaml(text, name="block.yaml")
    from_file = impactsim.load_scene(scene_path("rocking_block"))
    assert from_text.source == "block.yaml"
    assert (from_text.initial_q == from_file.initial_q).all() and from_text.check()["bodies"] == from_file.check()["bodies"]


def test_bad_scenes_raise_scene_error_with_file_line_and_key():
    text = (ROOT / "scenes" / "rocking_block.yaml").read_text().replace("mu: 1", "mu: -1", 1)
    assert text != (ROOT / "scenes" / "rocking_block.yaml").read_text()
    with pytest.raises(impactsim.SceneError) as bad:
        impactsim.scene_from_yaml(text, name="bad.yaml")
    assert bad.value.file == "bad.yaml" and bad.value.line > 0 and bad.value.key.endswith("mu")
    assert str(bad.value).startswith(f"bad.yaml:{bad.value.line}:") and "negative" in bad.value.detail
    with pytest.raises(impactsim.SceneError) as missing:
        impactsim.load_scene(str(ROOT / "scenes" / "no_such_scene.yaml"))
    assert "no_such_scene.yaml" in str(missing.value)
    with pytest.raises(impactsim.SceneError) as key:
        impactsim.load_scene(scene_path("rocking_block"), overrides={"materials.mu": "high"})
    assert key.value.key == "materials.mu"
    with pytest.raises(impactsim.SceneError):
        impactsim.scene_from_yaml("bodies: [unclosed\n")
    with pytest.raises(TypeError):
        impactsim.load_scene(scene_path("rocking_block"), overrides="materials.mu=1")
    assert issubclass(impactsim.SceneError, ValueError)
