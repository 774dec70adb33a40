"""Helper cfg42n (session 42, issue 24): files no claimed trainer reads, read as one on evidence other trainers share.

A bare YAML / JSON of TrainingArguments / TRL field names is read as transformers / TRL on its keys alone (a recipe
TrlParser takes): over the training labels 34 such files are labelled transformers and 5 refused (benchmarks/results/
cfg42n-read-as-trainer.md), so the keys stay transformers' evidence. One sign tells the 5's kind apart where the keys
cannot: ModelConfig's LoRA fields (lora_r, lora_alpha, lora_target_modules, ...) are applied only through use_peft (TRL's
get_peft_config: `if model_args.use_peft is False: return None`, use_peft defaulting False; the alignment-handbook's and
open-r1's copies alike), so a recipe for TrlParser that trains a LoRA names use_peft beside them, and a file that sets
them without it is another loader's schema that borrowed the names (round 147m's tanghui315 grpo_open_r1_config.yaml:
`lora_r: 16`, read by the project's own Unsloth loader). None of the 34 transformers files has one without use_peft.
Such a file is refused, saying so (hf_transformers.lora_without_peft); a file naming use_peft (true or false), one
with no LoRA field, a repository's TrlParser script that parses it, or a command line stays transformers'."""

from __future__ import annotations

import json

from configs_corpus import read, refusal
from each_case import each

_TRL_KEYS = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
torch_dtype: bfloat16
attn_implementation: flash_attention_2
dataset_name: trl-lib/tldr
bf16: true
gradient_accumulation_steps: 8
gradient_checkpointing: true
learning_rate: 2.0e-05
logging_steps: 10
lr_scheduler_type: cosine
num_train_epochs: 1
output_dir: out/run
per_device_train_batch_size: 4
save_strategy: steps
warmup_ratio: 0.05
"""

# other projects' files of the same shape: TRL-like keys with LoRA settings and no use_peft (a GRPO YAML an Unsloth
# project maps onto GRPOConfig itself, an SFT YAML a repository's own train.py reads, a JSON of the same, a DPO one
# with alpha / dropout / targets but no rank, a DoRA switch alone)
REFUSED = {
    "grpo unsloth-style": _TRL_KEYS + "lora_r: 32\nlora_alpha: 64\nnum_generations: 8\nuse_vllm: true\n"
                                      "max_completion_length: 1024\n",
    "sft own loader": _TRL_KEYS.replace("Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B") +
                      "lora_r: 8\nlora_target_modules: [q_proj, v_proj]\nmax_length: 4096\npacking: true\n",
    "dpo alpha only": _TRL_KEYS + "beta: 0.1\nlora_alpha: 16\nlora_dropout: 0.05\nlora_target_modules: all-linear\n",
    "dora switch": _TRL_KEYS + "use_dora: true\n",
}
REFUSED_JSON = {"sft json": dict(
    {k: v for k, v in (line.split(": ", 1) for line in _TRL_KEYS.splitlines())}, lora_r=16, lora_alpha=32)}

# the trainers' own files, which must stay read: a TrlParser recipe with use_peft and its LoRA fields (the
# alignment-handbook's qlora recipes), use_peft given false beside leftover LoRA values, a full fine-tune recipe with
# no LoRA field, and a TRL command line that sets --lora_r (TRL's own CLI: what it applies is TRL's business)
READ = {
    "handbook qlora": (_TRL_KEYS + "use_peft: true\nlora_r: 16\nlora_alpha: 16\nlora_dropout: 0.05\n"
                       "lora_target_modules: all-linear\nload_in_4bit: true\n", ("transformers", ["fa2"], "bfloat16")),
    "use_peft false": (_TRL_KEYS + "use_peft: false\nlora_r: 16\n", ("transformers", ["fa2"], "bfloat16")),
    "full fine-tune": (_TRL_KEYS + "max_length: 8192\npacking: false\n", ("transformers", ["fa2"], "bfloat16")),
}
CMDLINE = ("trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name trl-lib/Capybara --attn_implementation "
           "flash_attention_2 --bf16 --lora_r 16 --lora_alpha 32 --output_dir out\n")


def test_lora_fields_without_use_peft_are_refused(tmp_path):
    def check(name, text, fmt):
        msg = refusal(tmp_path, f"{name.replace(' ', '_')}.{fmt}", text)
        assert "not a trainer config" in msg and "without use_peft" in msg, msg
        assert "lora_" in msg or "use_dora" in msg, msg

    each([(n, (n, t, "yaml")) for n, t in REFUSED.items()] +
         [(n, (n, json.dumps(d, indent=1), "json")) for n, d in REFUSED_JSON.items()], check)


def test_trl_recipes_and_command_lines_stay_read(tmp_path):
    def check(name, text, want):
        got = read(tmp_path, f"{name.replace(' ', '_')}.yaml", text)
        assert got[:3] == (want[0], want[1], want[2]), got

    each([(n, (n, t, w)) for n, (t, w) in READ.items()], check)
    assert read(tmp_path, "sft.sh", CMDLINE)[:2] == ("transformers", ["fa2"])


def test_a_repositorys_trlparser_script_keeps_its_yaml_read(tmp_path):
    """The rule is for a file read alone: where the repository's own script parses the YAML with TrlParser, the keys are
    that parser's dataclasses' fields (parsed_by.py), LoRA fields without use_peft included (the script may set it)."""
    repo = tmp_path / "proj"
    (repo / "configs").mkdir(parents=True)
    (repo / "README.md").write_text("python train.py --config configs/grpo.yaml\n")
    (repo / "train.py").write_text(
        "from trl import GRPOConfig, ModelConfig, ScriptArguments, TrlParser\n\n"
        "def main():\n"
        "    parser = TrlParser((ScriptArguments, GRPOConfig, ModelConfig))\n"
        "    script_args, training_args, model_args = parser.parse_args_and_config()\n"
        "    model_args.use_peft = True\n\n"
        "if __name__ == '__main__':\n    main()\n")
    from attn_doctor import configs

    p = repo / "configs" / "grpo.yaml"
    p.write_text(REFUSED["grpo unsloth-style"])
    from attn_doctor.configs import hf_transformers

    doc = configs.make_doc(str(p), p.read_text())
    assert hf_transformers._parsed_by(doc, hf_transformers._settings(doc))["how"] == "TrlParser"  # the test's premise
    cfg = configs.load(str(p))
    assert cfg["detected"]["trainer"] == "transformers" and cfg["required"] == ["fa2"], cfg["detected"]
