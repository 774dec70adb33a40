"""Attribution variants for helper ex184 (session 32, issue 23: explain names the wrong backend). Every case below was
written by hand (2026-12-02), with other functions, arguments, paths and wordings than the training texts.

Mechanisms (where: what; the training text it came from):
  module   decide._module_called (attribute()): where the line that named the backend names a FlashAttention version only in
           words ("latest flash attention 2") and the code near it calls or imports exactly one FlashAttention module of
           another version (FA3's top-level flash_attn_interface, hopper.flash_attn_interface, flash_attn_3; FA2's flash_attn;
           FA4's flash_attn.cute; or a traceback frame in one of their folders), the module decides (round 184m:
           deepbeepmeep/Wan2GP#167). Near misses: FA2's own module (flash_attn.flash_attn_interface, `from flash_attn import`),
           both modules shown (a fallback import, `from flash_attn import flash_attn_interface` beside FA2's frame), a module
           only named in prose.
  bundled  (no change; a guard) a build failing inside xformers' tree (third_party/flash-attention, xformers/csrc/.../flash_attn)
           is xformers', and flash-attn's own build that mentions xformers in passing stays FA2's. The training texts told fa2
           (facebookresearch/xformers#1283, #1363, #1395) show no xformers tree: their only xformers is the tracker, or a
           user's folder name; left as they are.
"""

from __future__ import annotations

from explain_top import first

CODE_FA3 = "\n\nout = flash_attn_interface.flash_attn_func(q, k, v, softmax_scale=scale, causal=True)\n"

# (text, the backend explain must report first)
THESE = [
    # module: FA3's module called, FA2 said in words
    ("Rename softmax_scale to scale to make it work with the newest flash attention 2, in model.py:" + CODE_FA3, "fa3"),
    ("Latest FlashAttention-2 breaks our sampler: TypeError: flash_attn_varlen_func() got an unexpected keyword argument "
     "'return_attn_probs'\n\n    from flash_attn_3 import flash_attn_varlen_func\n"
     "    o = flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, return_attn_probs=True)\n", "fa3"),
    ("You have to replace seqlens_kv with seqlens_k for it to work with the latest FlashAttention-2, see attention.py:\n\n"
     "x = hopper.flash_attn_interface.flash_attn_varlen_func(q=q, k=k, v=v, cu_seqlens_q=cq, cu_seqlens_k=ck)\n", "fa3"),
    # module: FA2's module called, FA3 said in words
    ("Latest FlashAttention 3 breaks our sampler: TypeError: flash_attn_varlen_func() got an unexpected keyword argument "
     "'return_attn_probs'\n\n    from flash_attn import flash_attn_varlen_func\n"
     "    o = flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, return_attn_probs=True)\n", "fa2"),
    # near misses: FA2's own module, both modules, a module in prose
    ("You need to change cu_seqlens_kv to cu_seqlens_k for it to work with latest flash attention 2 as below\n\n"
     "x = flash_attn.flash_attn_interface.flash_attn_varlen_func(q=q, k=k, v=v, cu_seqlens_q=cq, cu_seqlens_k=ck)\n", "fa2"),
    ("You need to change cu_seqlens_kv to cu_seqlens_k for it to work with latest flash attention 2\n\n"
     "try:\n    import flash_attn_interface\nexcept ImportError:\n    from flash_attn import flash_attn_varlen_func\n", "fa2"),
    ("You need to change cu_seqlens_kv to cu_seqlens_k for it to work with latest flash attention 2\n\n"
     "from flash_attn import flash_attn_interface\n"
     "x = flash_attn_interface.flash_attn_varlen_func(q=q, k=k, v=v, cu_seqlens_q=cq, cu_seqlens_k=ck)\n", "fa2"),
    ("Latest FlashAttention-2 breaks our sampler: TypeError: flash_attn_varlen_func() got an unexpected keyword argument "
     "'return_attn_probs'\n\nI could not try flash_attn_3 yet.\n", "fa2"),
    ("FlashAttention-2 breaks our model: TypeError: flash_attn_varlen_func() got an unexpected keyword argument 'softcap'\n"
     '  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 1124, in flash_attn_varlen_func\n'
     "    out = flash_attn_interface.flash_attn_varlen_func(q, k, v, softcap=s)\n", "fa2"),
    ("FA3 fails to build for my RTX 5090 (sm_120) with CUDA 12.8:\nbuilding 'flash_attn_2_cuda' extension\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n", "fa3"),  # a build log's extension name is no code called
    # bundled: xformers' tree decides; flash-attn's own build mentioning xformers stays FA2's
    ("Building xformers from source fails on Windows:\nC:\\src\\xformers\\third_party\\flash-attention\\csrc\\flash_attn\\src\\"
     "flash_fwd_hdim128_fp16_sm80.cu(12): error: identifier \"cute\" is undefined\n"
     "error: command 'nvcc.exe' failed with exit code 1\n", "xformers"),
    ("/tmp/pip-install-x1/xformers_5a/third_party/flash-attention/csrc/flash_attn/src/flash_bwd_hdim64_bf16_sm80.cu:5:10: fatal "
     "error: cutlass/numeric_types.h: No such file or directory\nninja: build stopped: subcommand failed.\n", "xformers"),
    ("FAILED: /build/xformers/build/temp.linux-x86_64-cpython-311/xformers/csrc/attention/cuda/fmha/flash_attn/"
     "flash_fwd_split_hdim256.o\nnvcc fatal   : Unsupported gpu architecture 'compute_120'\n", "xformers"),
    ("pip install flash-attn --no-build-isolation fails (xformers 0.0.28 is installed and works):\n"
     "/tmp/pip-install-ab/flash-attn_1/csrc/flash_attn/src/flash_fwd_hdim128_fp16_sm80.cu(12): error: identifier \"cute\" is "
     "undefined\nerror: command 'nvcc' failed with exit code 1\nFailed building wheel for flash-attn\n", "fa2"),
]


def test_ex184_attribution_variants():
    bad = []
    for text, want in THESE:
        got = first(text)
        if got[1] != want:
            bad.append((text, got, "want", want))
    assert not bad, "\n".join(map(repr, bad))
