"""GPU health (issue 22): what NVML or nvidia-smi says about a GPU -> the gpu.* findings.

The fixtures (fixtures/gpu_health/README.md says what each fakes) are parsed by the real readers:
facts/gpu_health.parse_smi for nvidia-smi's CSV, and facts/nvml_probe.py run for real in a child
process against tests/fake_nvml/pynvml.py. The rest of the facts are tests/fakefacts.py's healthy
H100-sized box.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest

import fakefacts as ff
from attn_doctor.facts import gpu_health
from attn_doctor.render.text import make_console, render

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "fixtures" / "gpu_health"
FAKE_NVML = Path(__file__).parent / "fake_nvml"
UUID = "GPU-5a1c0f3e-7d2b-4c9a-9e61-2f0b8d7c4a11"
EXPECTED = {
    "healthy": [],
    "busy": ["gpu.busy", "gpu.memory-held"],
    "throttled": ["gpu.clocks-slowdown", "gpu.pcie-slot", "gpu.power-capped", "gpu.thermal"],
    "mig": ["gpu.mig"],
    "ecc": ["gpu.compute-exclusive", "gpu.ecc-uncorrected", "gpu.remap-pending"],
}


def box(health: dict) -> dict:
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H100 80GB HBM3", (9, 0))])
    f["gpu_health"] = health
    return f


def smi_health(case: str, fields: str = gpu_health.FIELDS) -> dict:
    gpus = gpu_health.parse_smi((FIX / f"{case}.csv").read_text(), fields)
    procs = gpu_health.parse_apps((FIX / f"{case}.apps.csv").read_text())
    remap = gpu_health.parse_remapped((FIX / f"{case}.remapped.csv").read_text())
    for g in gpus:
        g["processes"], g["remapped"] = procs.get(g["uuid"], []), remap.get(g["uuid"])
    return {"source": "nvidia-smi", "gpus": gpus, "error": None, "nvml": {"error": "nvidia-ml-py is not installed"}}


def gpu_ids(f: dict) -> list[str]:
    return sorted(x.id for x in ff.check(f).findings if x.id.startswith("gpu."))


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_nvidia_smi_fixture(case):
    assert gpu_ids(box(smi_health(case))) == EXPECTED[case]


def nvml_collect(case: str, monkeypatch, tmp_path) -> dict:
    """The real collect(): its NVML child imports the fake pynvml, which serves `case`."""
    monkeypatch.setenv("PYTHONPATH", str(FAKE_NVML))
    monkeypatch.setenv("FAKE_NVML", str(FIX / f"{case}.nvml.json"))
    return gpu_health.collect(timeout=30)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_nvml_probe_through_a_child(case, monkeypatch, tmp_path):
    h = nvml_collect(case, monkeypatch, tmp_path)
    assert h["source"] == "nvml", h
    assert gpu_ids(box(h)) == EXPECTED[case]


def test_both_sources_give_the_same_record_shape(monkeypatch, tmp_path):
    a = nvml_collect("busy", monkeypatch, tmp_path)["gpus"][0]
    b = smi_health("busy")["gpus"][0]
    assert set(a) == set(b)
    for key in ("memory_total_mib", "memory_used_mib", "utilization_gpu", "compute_mode", "clock_events", "uuid"):
        assert a[key] == b[key], key
    assert [dict(p, here=None) for p in a["processes"]] == [dict(p, here=None) for p in b["processes"]] == \
        [{"pid": 4242, "name": "python3", "used_mib": 71680, "here": None}]
    assert a["processes"][0]["here"] == os.path.exists("/proc/4242")  # collect() says whether the pid is ours to see


def test_a_pid_from_another_namespace_says_so():
    h = smi_health("busy")
    h["gpus"][0]["processes"][0]["here"] = False
    held = next(x for x in ff.check(box(h)).findings if x.id == "gpu.memory-held")
    assert "pid 4242 python3 70.0 GiB (the host's pid: not in this container)" in held.title


def test_the_busy_process_is_named_with_its_pid():
    f = box(smi_health("busy"))
    held = next(x for x in ff.check(f).findings if x.id == "gpu.memory-held")
    assert "pid 4242 python3 70.0 GiB" in held.title and "70.5 GiB of its 79.6 GiB" in held.title
    assert held.title.endswith("Action: triage.")


def test_mig_slices_are_named_from_nvml(monkeypatch, tmp_path):
    f = box(nvml_collect("mig", monkeypatch, tmp_path))
    mig = next(x for x in ff.check(f).findings if x.id == "gpu.mig")
    assert "MIG 3g.40gb 39.2 GiB" in mig.title and mig.severity == "info"


def test_throttle_reasons_are_named():
    f = box(smi_health("throttled"))
    slow = next(x for x in ff.check(f).findings if x.id == "gpu.clocks-slowdown")
    assert "a hardware slowdown and a hardware thermal slowdown" in slow.title and "SM 1095 of 1980 MHz" in slow.title


def test_older_driver_field_names_parse_the_same():
    """A driver that calls the event mask clocks_throttle_reasons.active and has no pcie.link.gen.gpumax."""
    row = (FIX / "throttled.csv").read_text().strip().split(", ")
    del row[17]  # pcie.link.gen.gpumax
    g = gpu_health.parse_smi(", ".join(row), gpu_health.FIELDS_OLD)[0]
    assert g["clock_events"] == 0x68 and g["pcie"]["gen_gpu_max"] is None and g["power"]["limit_w"] == 400.0


def test_idle_pcie_link_and_clocks_are_not_findings():
    """Idle: gen 1 of 5 and 345 of 1980 MHz are the driver saving power, not a fault."""
    h = smi_health("healthy")
    assert h["gpus"][0]["pcie"]["gen"] == 1 and gpu_ids(box(h)) == []


def test_absent_health_is_silent():
    for health in (None, {"source": None, "gpus": [], "nvml": {"error": "nvidia-ml-py is not installed"}}):
        f = box(health) if health else ff.gpu_box()
        assert gpu_ids(f) == []


def test_other_gpus_of_the_node_are_not_judged():
    """CUDA_VISIBLE_DEVICES shows this job GPU 0: a busy GPU 1 is someone else's business."""
    h = smi_health("healthy")
    busy = smi_health("busy")["gpus"][0]
    h["gpus"].append(dict(busy, index=1, uuid="GPU-0000aaaa-1111-2222-3333-444455556666"))
    f = box(h)
    f["torch"]["probe"]["cuda_runtime"]["devices"][0]["uuid"] = UUID.removeprefix("GPU-")
    assert gpu_ids(f) == []


def fake_smi(tmp_path, case: str) -> str:
    """A stand-in nvidia-smi that prints the fixture its arguments ask for."""
    exe = tmp_path / "nvidia-smi"
    exe.write_text(f"""#!/bin/sh
case "$1" in
  --query-gpu=*) cat {FIX}/{case}.csv ;;
  --query-compute-apps=*) cat {FIX}/{case}.apps.csv ;;
  --query-remapped-rows=*) cat {FIX}/{case}.remapped.csv ;;
  *) exit 2 ;;
esac
""")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return str(tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for nvidia-smi")
def test_without_nvml_nvidia_smi_answers_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", fake_smi(tmp_path, "busy") + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "nothing-here"))
    h = gpu_health.collect(timeout=30)
    assert h["source"] == "nvidia-smi" and "nvidia-ml-py is not installed" in h["nvml"]["error"]
    assert gpu_ids(box(h)) == EXPECTED["busy"]
    buf = io.StringIO()
    render(ff.check(box(h)), make_console(file=buf, width=200))
    text = buf.getvalue()
    assert "GPU health" in text and "read through nvidia-smi (nvidia-ml-py is not installed)" in text


def test_the_doctors_own_children_are_not_someone_else():
    """The torch probe was already running (and holding a context) when NVML was read: pid 4242 is ours."""
    h = smi_health("busy")
    h["own_pids"] = [4242]
    h["gpus"][0]["utilization_gpu"] = 0
    assert gpu_ids(box(h)) == []


def test_with_device_only_that_gpu_is_judged():
    """--device 0 (or rank 0 under --distributed): GPU 1, busy with rank 1's smoke tests, is not ours."""
    h = smi_health("healthy")
    busy = smi_health("busy")["gpus"][0]
    h["gpus"].append(dict(busy, index=1, uuid="GPU-00000001-1111-2222-3333-444444444444"))
    h["device_ids"] = [0]
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H100 80GB HBM3", (9, 0)), ("NVIDIA H100 80GB HBM3", (9, 0))])
    h["gpus"][0]["uuid"] = "GPU-00000000-1111-2222-3333-444444444444"
    f["gpu_health"] = h
    assert gpu_ids(f) == []
    h["device_ids"] = [1]
    assert gpu_ids(f) == EXPECTED["busy"]
