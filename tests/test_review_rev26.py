"""Review rev26 (session 26): session 26's changes read as the maintainers of FlashAttention, SageAttention, PyTorch and the
trainers would; each case here is a reading that misled once the change landed (the mend's commit says which), with near
misses that keep the author's intent. Every text is written for this test (none is a file of a round)."""

from __future__ import annotations

import pytest


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


# 1. ex152's policy A (attribution.toml GPUSENTENCE): a sentence naming a GPU below every kernel of FA2 / SageAttention turns the
# line's prose reading into "this GPU is refused". Where the failure is said on a GPU the kernels run on (an RTX 4090, an H100)
# and the old card is another machine named in the next sentence of the same line, the failing GPU is not the old one: the
# reading stays the prose one, with its backend.
@pytest.mark.parametrize("text, backend", [
    ("flash-attn fails on my RTX 4090 with this error. On the T4 box I use sdpa.", "fa2"),
    ("flash-attn 2 fails to import on the new H100 node. The old V100 nodes run the same image.", "fa2"),
    ("FlashAttention 2 crashes on my 3090. Our T4 server runs xformers instead.", "fa2"),
    ("sageattention fails on the RTX 4090. Our T4s work fine with it.", "sage"),
])
def test_old_gpu_in_another_sentence_beside_a_failure_on_a_new_one(text, backend):
    got = _read(text)
    assert got and got[0][1] == backend and got[0][0] != "backend.unsupported-gpu", got


# 2. ex152's policy A: ATTNSAID counts the backend's name, "work", "run", "use" and "support" as the failure or the question, so a
# sentence saying it WORKS on the old card (a community fork for Turing, a report of success beside another error) was read as
# that GPU refused: the one reading the writer contradicts (forks that run FlashAttention on these cards exist:
# ai-bond/flash-attention-v100, which FearL0rd/ComfyUI-Flash-Attention_v100's README installs for V100 / T4).
@pytest.mark.parametrize("text", [
    "Turing (T4) support for FlashAttention 2 was added in the community fork; it works for us.",
    "I run flash-attn 2 on the T4 via the Turing fork, it works well; the error is in the tokenizer.",
    # (nor one that says it is off there: the failure it names is another library's kernel)
    "Unsloth's Triton kernels fail on the T4 (flash attention is disabled there).",
])
def test_sentence_saying_it_works_on_the_old_gpu_is_no_refusal(text):
    assert "backend.unsupported-gpu" not in [i for i, _ in _read(text)], _read(text)


# 3. ex152's policy B (sage.arch-kernel beside an old GPU): SageAttention's dispatch names the device's own architecture
# (thu-ml/SageAttention@0116592f sageattention/core.py, sageattn: `arch = get_cuda_arch_versions()[q.device.index]` ... `raise
# ValueError(f"Unsupported CUDA architecture: {arch}")`). Where that architecture is sm80 or newer (a DGX Spark's sm121, a new
# family the release predates), the GPU that failed is that one, whatever older card the report names elsewhere: a newer release
# or a rebuild fixes it (sage.arch-kernel), not "this GPU is below every kernel".
def test_sage_dispatch_naming_a_new_arch_beside_an_old_card_stays_the_build():
    text = ("On the DGX Spark sageattention stops:\nRuntimeError: Unsupported CUDA architecture: sm121\n"
            "The same workflow ran on my old T4 box with sdpa.")
    assert _read(text)[:1] == [("sage.arch-kernel", "sage")], _read(text)


# 4. ex153's llama.cpp-family words (attribution.toml [[not_a_report.shadow]] `program`): GGUF files and ggml's quant types are
# loaded by PyTorch programs too, which run the PyTorch backends on them: ComfyUI's GGUF loader (city96/ComfyUI-GGUF's
# UnetLoaderGGUF dequantizes into torch tensors; ComfyUI's --use-flash-attention calls flash_attn's flash_attn_func) and
# diffusers' GGUF quantizer. A report from such a program is still the backend's.
@pytest.mark.parametrize("text", [
    "flash attention doesn't work in ComfyUI with flux1-dev-Q8_0.gguf loaded by UnetLoaderGGUF; started with "
    "--use-flash-attention on my RTX 3090.",
    "Flash attention fails on my RTX 4090 when running Wan2.1 Q4_K_M GGUF in ComfyUI.",
    "diffusers with the GGUF checkpoint (Q4_K_S) and flash attention fails on my RTX 3090.",
])
def test_gguf_in_a_pytorch_program_keeps_the_backend(text):
    got = _read(text)
    assert got and got[0][1] == "fa2", got


# 5. ex150's "a build said to take hours" (builds.toml, build.no-ninja's words): the library named up to eight lines above, then
# "building / compiling / installing ... more than N hours": the building of a cache, a dataset or a model (torch.compile) is no
# source build of the library, and the fix (install ninja) would act on nothing that was slow.
@pytest.mark.parametrize("text", [
    "I use xformers for training.\n\nGenerating the dataset takes over 3 hours, building the cache takes more than 2 hours.",
    "flash-attn 2.7.4 is installed.\nCompiling the model with torch.compile takes over 2 hours on the first run.",
    "sageattention is on.\nbuilding the TensorRT engine took 3 hours",
])
def test_hours_spent_building_something_else_is_no_slow_build(text):
    assert not {"build.no-ninja", "build.slow"} & {i for i, _ in _read(text)}, _read(text)


# 6. ex150's "an import on its own line, then a crash said below it" (backends.toml, import.crashed): a prompt after the import
# (`>>> `, IPython's `In [2]:`) shows the import returned; a crash said after it is the script's, not the import's.
@pytest.mark.parametrize("text", [
    ">>> import xformers\n>>> print(xformers.__version__)\n0.0.28\nThen my script segfaults in the dataloader.",
    ">>> import flash_attn\n>>> model = build_model().cuda()\nSegmentation fault (core dumped)",
])
def test_import_that_returned_is_not_the_crash(text):
    assert "import.crashed" not in [i for i, _ in _read(text)], _read(text)


# 7. ex152's OLDGPU reads sm_70 as a GPU below every kernel; nvcc's `-gencode arch=compute_70,code=sm_70` in a build log is an
# architecture list the build compiled for (ex152's own rule: "never ... an arch list"), not the GPU that the check refused.
def test_nvcc_gencode_list_names_no_gpu():
    text = ("nvcc -gencode arch=compute_70,code=sm_70 -gencode arch=compute_80,code=sm_80 -O3 flash_api.cpp\n"
            "RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false.")
    assert _read(text)[:1] == [("fa2.arch-check", "fa2")], _read(text)
