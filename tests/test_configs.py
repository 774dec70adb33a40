"""Trainer configs (--config): each trainer's fixtures give the right `required`, smoke parameters and
findings; unreadable configs are one line and exit 2. Facts are the saved CPU report's unless a test says
what it fakes."""

import json
import os

import pytest

from attn_doctor import configs
from attn_doctor.knowledge import entries
from attn_doctor.model import UsageError
from ci_support import CONFIGS, CPU_REPORT, cli, evaluate, saved_facts, with_gpu


def run(path, facts=None, **ctx):
    cfg = configs.load(str(path))
    report = evaluate(facts, config=cfg, required=list(cfg["required"]), compile_mode=cfg["compile_mode"], **ctx)
    return cfg, report


def config_ids(report):
    return sorted(f.id for f in report.findings if f.section == "config")


# (fixture, trainer, format, required, dtype, head_dims, compile_mode, batch, config findings)
CASES = [
    ("simpletuner-flex/config.json", "simpletuner", "json", ["flex"], "bfloat16", [128], "none", 1,
     ["config.flex-uncompiled"]),
    ("simpletuner-wan-fa3/config.toml", "simpletuner", "toml", ["fa3"], "bfloat16", [128], "max-autotune", 2,
     ["config.mask-refused"]),
    ("simpletuner-sage/config.env", "simpletuner", "env", ["sage"], "bfloat16", [128], "none", 4,
     ["config.mask-dropped", "config.simpletuner-sage-training"]),
    ("simpletuner-sdxl/config.json", "simpletuner", "json", ["sdpa"], "float16", [64], "none", 4,
     ["config.backend-no-effect"]),
    ("blissful-cute/qwen_image.toml", "musubi", "toml", ["cute"], "bfloat16", [128], "max-autotune-no-cudagraphs", 2,
     []),
    ("musubi-wan-cmd.txt", "musubi", "cmdline", ["sdpa"], "bfloat16", [128], "max-autotune", None, []),
    ("musubi-hv-typos-cmd.txt", "musubi", "cmdline", ["xformers"], "bfloat16", [128], "none", None,
     ["config.musubi-unknown-flag", "config.xformers-no-split"]),
    ("musubi-sage.toml", "musubi", "toml", ["sage"], "float16", [128], "none", None, ["config.musubi-sage-training"]),
    ("diffusers-flash4.env", "diffusers", "env", [], None, None, None, None, ["config.hub-kernels-missing"]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_fixture(case):
    name, trainer, fmt, required, dtype, head_dims, mode, batch, found = case
    cfg, report = run(CONFIGS / name)
    assert (cfg["trainer"], cfg["format"]) == (trainer, fmt)
    assert cfg["required"] == required and report.required == required
    assert (cfg["dtype"], cfg["head_dims"], cfg["compile_mode"], cfg["batch_size"]) == (dtype, head_dims, mode, batch)
    assert config_ids(report) == found
    json.dumps(cfg)  # a saved report must be able to carry it


def test_required_backend_missing_fails_the_run():
    _, report = run(CONFIGS / "blissful-cute/qwen_image.toml")
    assert report.exit_code == 1
    assert [f.backend for f in report.findings if f.id == "require.not-ok"] == ["cute"]


def test_blissful_cute_toml_reads_its_dataset_batch_size():
    cfg = configs.load(str(CONFIGS / "blissful-cute/qwen_image.toml"))
    assert cfg["trainer_title"] == "blissful-tuner" and cfg["family"] == "qwen_image"
    assert cfg["compile"] == {"enabled": True, "mode": "max-autotune-no-cudagraphs", "setting": "compile"}


def test_compile_mode_reaches_the_allocator_check():
    facts = saved_facts()
    facts["env"] = {"PYTORCH_ALLOC_CONF": "backend:cudaMallocAsync"}
    _, graphs = run(CONFIGS / "musubi-wan-cmd.txt", facts)  # --compile --compile_mode max-autotune
    hit = [f for f in graphs.findings if f.id == "alloc.async-cudagraphs"]
    assert hit and hit[0].severity == "error"
    _, safe = run(CONFIGS / "blissful-cute/qwen_image.toml", facts)  # max-autotune-no-cudagraphs
    assert "alloc.async-cudagraphs" not in [f.id for f in safe.findings]


def test_simpletuner_xformers_refused_on_hopper():
    cfg = {"model_family": "flux", "attention_mechanism": "xformers"}
    from attn_doctor.configs.simpletuner import summarize

    c = configs.finish(summarize(cfg, "json"))
    report = evaluate(with_gpu(saved_facts()), config=c, required=c["required"])  # FAKE: an H100 added
    assert "config.simpletuner-xformers-sm90" in config_ids(report)
    report = evaluate(with_gpu(saved_facts(), "NVIDIA A100-SXM4-80GB", (8, 0)), config=c, required=c["required"])
    assert "config.simpletuner-xformers-sm90" not in config_ids(report)


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_simpletuner_unknown_name_and_suggestion(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"model_family": "flux", "attention_mechanism": "flash_attn_2"}))
    cfg, report = run(p)
    assert cfg["required"] == []
    f = [f for f in report.findings if f.id == "config.simpletuner-unknown-backend"][0]
    assert f.severity == "error" and "`flash_attn_2`" in f.title
    assert f.fix.startswith('"attention_mechanism": "flash-attn-2"')


def test_simpletuner_sage_for_validation_only(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"attention_mechanism": "sageattention", "model_family": "flux"}))
    cfg, report = run(p)
    assert cfg["required"] == ["sage"] and not cfg["sage_training"]  # SDPA for training is the default nobody chose
    assert config_ids(report) == ["config.simpletuner-sage-inference"]


def test_simpletuner_hub_kernel_with_kernels_installed(tmp_path):
    p = write(tmp_path, "config.toml", 'model_family = "flux"\nattention_mechanism = "flash-attn-4-hub"\n'
                                       'train_batch_size = 1\n')
    facts = saved_facts()
    facts["packages"]["versions"]["kernels"] = "0.12.3"  # FAKE: the kernels package installed
    cfg, report = run(p, facts)
    assert cfg["required"] == [] and config_ids(report) == ["config.hub-kernel"]
    f = report.findings[[x.id for x in report.findings].index("config.hub-kernel")]
    assert "kernels-community/flash-attn4" in f.title


def test_not_checked_backends(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"attention_mechanism": "sla"}))
    cfg, report = run(p)
    assert cfg["required"] == [] and config_ids(report) == ["config.backend-not-checked"]


def test_diffusers_env_names(tmp_path):
    p = write(tmp_path, "serve.env", "# comment\nexport DIFFUSERS_ATTN_BACKEND='flash_attn'  # typo\n")
    cfg, report = run(p)
    f = [f for f in report.findings if f.id == "config.diffusers-unknown-backend"][0]
    assert "'flash_attn' is not a valid AttentionBackendName" in f.title
    p = write(tmp_path, "flex.env", "DIFFUSERS_ATTN_BACKEND=flex\n")
    cfg, report = run(p)
    assert cfg["required"] == ["flex"]
    f = [f for f in report.findings if f.id == "config.flex-uncompiled"][0]
    assert f.severity == "info"  # an env file does not say whether the model is compiled
    p = write(tmp_path, "cudnn.env", "DIFFUSERS_ATTN_BACKEND=_native_cudnn\n")
    cfg = configs.load(str(p))
    assert cfg["required"] == ["sdpa"] and cfg["attention"][0]["sdpa_kernel"] == "cudnn"


def test_diffusers_backend_in_the_environment_without_config():
    facts = saved_facts()
    facts["env"]["DIFFUSERS_ATTN_BACKEND"] = "flash3"
    report = evaluate(facts)
    assert config_ids(report) == ["config.diffusers-unknown-backend"] and report.required == []


def test_musubi_toml_near_miss_key_and_no_backend(tmp_path):
    p = write(tmp_path, "train.toml", '[model]\ndit = "/m/dit.safetensors"\n[attn]\nflash-attn = true\n')
    cfg, report = run(p)
    assert cfg["required"] == []
    assert config_ids(report) == ["config.musubi-no-backend", "config.musubi-unknown-key"]
    no = [f for f in report.findings if f.id == "config.musubi-no-backend"][0]
    assert no.severity == "warning"  # a TOML: the command line may add the flag


def test_musubi_command_line_without_backend_is_an_error(tmp_path):
    p = write(tmp_path, "cmd.sh", "python wan_train_network.py --task t2v-1.3B --dit x.safetensors --mixed_precision fp16\n")
    cfg, report = run(p)
    no = [f for f in report.findings if f.id == "config.musubi-no-backend"][0]
    assert no.severity == "error" and cfg["dtype"] == "float16"


def test_musubi_several_backends_and_cli_over_toml(tmp_path):
    write(tmp_path, "base.toml", "[training]\nflash_attn = true\nsplit_attn = true\nmixed_precision = 'fp16'\n")
    p = write(tmp_path, "run.sh", "accelerate launch --mixed_precision bf16 hv_train_network.py "
                                  "--config_file base --xformers --mixed_precision bf16\n")
    cfg, report = run(p)
    assert cfg["required"] == ["fa2", "xformers"] and cfg["dtype"] == "bfloat16" and cfg["split_attn"] is True
    assert config_ids(report) == ["config.musubi-several-backends"]


def test_unknown_keys_are_ignored(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"attention_mechanism": "flex", "dynamo_backend": "inductor",
                                                   "some_future_key": {"nested": [1, 2]}, "model_family": "wan"}))
    cfg, report = run(p)
    assert cfg["required"] == ["flex"] and cfg["compile_mode"] == "default" and config_ids(report) == []


BAD = {
    "missing": (lambda d: d / "nope.json", "cannot read"),
    "directory": (lambda d: d, "is a directory"),
    "binary": (lambda d: _bytes(d / "x.json", b"\x7fELF\x02\x01\x01\x00\x00\x00"), "is binary"),
    "latin1": (lambda d: _bytes(d / "x.env", "MODEL_FAMILY=caf\xe9\n".encode("latin-1")), "not UTF-8"),
    "bad json": (lambda d: _bytes(d / "config.json", b'{"attention_mechanism": "flex",}'), "not valid JSON"),
    "json list": (lambda d: _bytes(d / "config.json", b'["flex"]'), "not an object"),
    "bad toml": (lambda d: _bytes(d / "c.toml", b"sdpa = = true\n"), "not valid TOML"),
    "foreign toml": (lambda d: _bytes(d / "c.toml", b'[tool.black]\nline-length = 100\n'), "not a trainer config"),
    "unknown text": (lambda d: _bytes(d / "notes.txt", b"hello\n"), "not a trainer config"),
    "package.json": (lambda d: _bytes(d / "package.json", b'{"name": "web", "version": "1.0.0", "scripts": {"build": '
                                                            b'"tsc"}, "dependencies": {"react": "^18"}}'), "not a trainer config"),
    "bad yaml": (lambda d: _bytes(d / "c.yaml", b"base_model: [x\n"), "not valid YAML"),
    "yaml list": (lambda d: _bytes(d / "c.yml", b"- flash_attention\n"), "not an object"),
    "too large": (lambda d: _big(d / "huge.json"), "too large"),
    "symlink loop": (lambda d: _loop(d), "cannot read"),
    "device": (lambda d: "/dev/null", "not a regular file"),
}


def _bytes(p, data):
    p.write_bytes(data)
    return p


def _big(p):
    with open(p, "wb") as fh:
        fh.truncate(configs.MAX_CONFIG + 1)  # sparse: no real disk use
    return p


def _loop(d):
    a, b = d / "a.json", d / "b.json"
    os.symlink(b, a)
    os.symlink(a, b)
    return a


@pytest.mark.parametrize("kind", sorted(BAD))
def test_unreadable_config_is_one_usage_error(tmp_path, kind):
    make, text = BAD[kind]
    path = str(make(tmp_path))
    with pytest.raises(UsageError, match=text) as err:
        configs.load(path)
    assert "\n" not in str(err.value)


def test_cli_bad_config_exits_2_with_one_line(tmp_path):
    p = _bytes(tmp_path / "config.json", b"{not json")
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("attn-doctor: error: --config:") and "Traceback" not in r.stderr


def test_cli_config_sets_required_like_require():
    r = cli("check", "--from", str(CPU_REPORT), "--config", "fixtures/configs/simpletuner-sage/config.env",
            "--json", "-")
    doc = json.loads(r.stdout)
    assert doc["required"] == ["sage"] and doc["config"]["trainer"] == "simpletuner"
    assert r.returncode == 1 and "require.not-ok" in [f["id"] for f in doc["findings"]]
    r = cli("check", "--from", str(CPU_REPORT), "--config", "fixtures/configs/simpletuner-sdxl/config.json", "--require", "flex",
            "--json", "-")
    assert json.loads(r.stdout)["required"] == ["flex", "sdpa"]  # --require and the config's, together


def test_every_config_entry_fires_in_these_tests():
    """Each config.* knowledge entry is made to fire by a test in this file."""
    text = open(__file__).read()
    for eid in entries():
        if eid.startswith("config."):
            assert f'"{eid}"' in text, eid


def test_trainer_entries_examples_match_their_patterns():
    for e in entries().values():
        if e.id.startswith("config."):
            for ex in e.examples:
                assert any(p.search(ex) for p in e.compiled), (e.id, ex)
