"""cfg122 (session 29, issue 24): a recurring first-measurement miss fixed at its mechanism
(benchmarks/results/configs-recurring-s29.md).

A model loaded in 8 or 4 bits through bitsandbytes and handed to peft's prepare_model_for_kbit_training trains float32
weights (every float16 / bfloat16 parameter that is not packed is cast up: huggingface/peft@5d602fd
src/peft/utils/other.py:197-209), whatever dtype the load named, or none. TRL's SFTTrainer of a release that still
takes dataset_text_field / max_seq_length / packing (<= 0.12) or tokenizer (<= 0.15) itself makes that call on a k-bit
model it is given with a peft_config (huggingface/trl v0.7.6 trl/trainer/sft_trainer.py:183-191, v0.12.2 :250-260). Without an
autocast (TrainingArguments' bf16 / fp16 default False, or no args at all) the run is float32; with one, the autocast
decides. Round 107m's sehyeondev fine_tune.py and 111m's TRL #1055 example were missed this way at their first
measurement (read ""), as round 47m's nihardamera model_finetuning.py was labelled. Variants of our own below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from configs_corpus import read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import configs_recurring as recurring  # noqa: E402
from configs_refusals import MEASURE_ONLY  # noqa: E402

HEAD = ("from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments\n"
        "from peft import LoraConfig, prepare_model_for_kbit_training\n"
        "from trl import SFTTrainer\n")
LORA = "lora = LoraConfig(r=8, lora_alpha=16, task_type='CAUSAL_LM')\n"
ARGS = "args = TrainingArguments(output_dir='out', per_device_train_batch_size=2{amp})\n"
RUN = "trainer.train()\n"


def script(load: str, trainer: str, amp: str = "", extra: str = "") -> str:
    return HEAD + LORA + extra + f"model = AutoModelForCausalLM.from_pretrained('org/base-7b'{load})\n" + \
        ARGS.format(amp=amp) + f"trainer = SFTTrainer({trainer})\n" + RUN


Q4 = "q = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4', bnb_4bit_compute_dtype='float16')\n"
OLD = "model=model, train_dataset=ds, peft_config=lora, dataset_text_field='text', args=args"


@pytest.mark.parametrize("text, dtype", [
    # an old TRL's SFTTrainer with a peft_config over an 8-bit / 4-bit load, no dtype named, no autocast: float32
    (script(", load_in_8bit=True", "model, train_dataset=ds, dataset_text_field='text', peft_config=lora"), "float32"),
    (script(", quantization_config=q, device_map='auto'", OLD, extra=Q4), "float32"),
    (script(", quantization_config=BitsAndBytesConfig(load_in_8bit=True)",
            "model=model, peft_config=lora, tokenizer=tok, max_seq_length=512, args=args", amp=", fp16=False"), "float32"),
    # the script's own prepare_model_for_kbit_training over a 4-bit load with no dtype named, no autocast: float32
    (script(", quantization_config=q", "model=model, train_dataset=ds, args=args",
            extra=Q4) .replace("args = TrainingArguments", "model = prepare_model_for_kbit_training(model)\n"
                               "args = TrainingArguments"), "float32"),
    # SFTTrainer skips a 4-bit model its arguments shard (QLoRA under FSDP / ZeRO-3: is_sharded_qlora, parameters on
    # cpu / meta): not claimed; an 8-bit one it prepares all the same
    (script(", quantization_config=q", OLD, amp=", fsdp='full_shard auto_wrap'", extra=Q4), ""),
    (script(", load_in_8bit=True", OLD, amp=", deepspeed='ds_z3.json'"), "float32"),
    # near misses: the autocast decides over the upcast weights
    (script(", quantization_config=q", OLD, amp=", bf16=True", extra=Q4), "bfloat16"),
    (script(", load_in_8bit=True", OLD, amp=", fp16=True"), "float16"),
    # no peft_config (or a literal None): TRL prepares nothing, the load's dtype stays unknown here
    (script(", load_in_8bit=True", "model=model, train_dataset=ds, dataset_text_field='text', args=args"), ""),
    (script(", load_in_8bit=True", "model=model, peft_config=None, dataset_text_field='text', args=args"), ""),
    # SFTTrainer of TRL >= 0.13 (none of its old keywords): its k-bit handling changed (v0.22 onward no cast to
    # float32), the version is not shown: unknown as before
    (script(", quantization_config=q", "model=model, train_dataset=ds, peft_config=lora, args=args", extra=Q4), ""),
    # a quantization peft's cast leaves alone (GPTQ), or no quantization at all: no upcast from this rule
    (script(", quantization_config=GPTQConfig(bits=4)", OLD), ""),
    (script(", device_map='auto'", OLD), ""),
])
def test_a_kbit_model_prepared_for_training_trains_float32_weights(tmp_path, text, dtype):
    assert read(tmp_path, "train.py", text)[2] == dtype


def test_the_recurring_table_reads_only_training_blind_rounds():
    # benchmarks/configs_recurring.py: never a measure-only round nor the held-out set, every round a staged blind one
    for r, first in recurring.FIRST.items():
        assert f"round{r}" not in MEASURE_ONLY and "heldout" not in r and r.endswith("m") and first, r
        assert (Path(__file__).resolve().parents[1] / "fixtures" / "configs" / f"round{r}").is_dir(), r


@pytest.mark.parametrize("row, mechanism", [
    # a launcher refused at first, read right now in the repository layout: the script is in the set
    (dict(round="75m", file="a.sh", klass="refused: launch of a script no reader claims (absent or unread)",
          first_missed="flat", first_repo="-", open="flat", label="transformers - bfloat16 none"),
     "launch: the launched script is in the set, where the flat layout hides it"),
    (dict(round="75m", file="a.sh", klass="refused: launch of a script no reader claims (absent or unread)",
          first_missed="flat,repo", first_repo="refused: x", open="flat,repo", label="transformers - bfloat16 none"),
     "launch: the launched script is not in the set, or is refused / misread there"),
    # a wrong dtype read right in the repository layout now: the settings are in another file the set holds
    (dict(round="64m", file="t.py", klass="wrong dtype", first_missed="flat", first_repo="-", open="flat",
          label="transformers - bfloat16 none"), recurring.SETTINGS_ELSEWHERE),
    (dict(round="111m", file="transformers/huggingface__trl__1055__sft_example.py", klass="wrong dtype",
          first_missed="flat,repo", first_repo="x", open="flat,repo", label="transformers - float32 none"),
     recurring.KBIT),
])
def test_a_first_miss_is_classed_by_where_its_evidence_is(row, mechanism):
    assert recurring.mechanism(row) == mechanism
