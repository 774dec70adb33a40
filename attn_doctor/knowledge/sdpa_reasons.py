"""Whose reasons torch's SDPA warnings are: the "No available kernel" error's, or a note that SDPA ran on another kernel.

torch prints why each SDPA kernel refused the inputs ("Flash attention requires q,k,v to have the same last dimension ...",
"Expected query, key and value to all be of dtype ...") in two cases:
- select_sdp_backend (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp, hip/sdp_utils.cpp) finds no allowed kernel: it
  prints "Memory efficient kernel not used because:", "Flash attention kernel not used because:", "cuDNN attention kernel not
  used because:", each kernel's reasons, and raises "No available kernel. Aborting execution." (sdpa.no-kernel);
- torch.nn.attention.WARN_FOR_UNFUSED_KERNELS = True (torch/nn/attention/__init__.py _raise_kernel_warnings, called by
  bias.py's causal_lower_right): "Flash attention can't be used because:", "Efficient attention can't be used because:", the
  reasons, and SDPA goes on with the math kernel; so does an app that catches the error and calls SDPA again with every
  kernel allowed (SAM 2: "Flash Attention kernel failed due to: No available kernel. Aborting execution. / Falling back to
  all available kernels ...") (sdpa.math-fallback: slower, not a failure).
So the reasons are the error's where the input shows it raised (the error, or select_sdp_backend's headers with no app
catching it), and the note's where it shows only SDPA going on.
"""

from __future__ import annotations

# Run by the matcher's prefilter beside tailor.PROBES: (name, pattern), each on its own line.
PROBES: tuple[tuple[str, str], ...] = (
    ("sdpa-raised", r"(?<!due to: )No available kernel\.[ \t]+Aborting execution|"
                    r"No viable backend for scaled_dot_product_attention was found"),
    ("sdpa-refused", r"\b(?:Flash attention|Memory efficient|cuDNN attention|Flex flash attention) kernel not used because"),
    ("sdpa-unfused", r"\b(?:Flash|Efficient) attention can'?t be used because:"),
    ("sdpa-caught", r"\bkernel failed due to: No available kernel\b|"
                    r"\bFalling back to all available kernels for scaled_dot_product_attention\b"),
)
ERROR, NOTE = "sdpa.no-kernel", "sdpa.math-fallback"


def settle(found: list, probed: dict[str, list[tuple[int, dict]]]) -> list:
    """The matches less the one the input's SDPA warnings do not belong to: the note where SDPA raised (the lines it
    matched are the error's reasons), the error where SDPA went on and nothing shows it raised."""
    caught = bool(probed.get("sdpa-caught"))
    raised = bool(probed.get("sdpa-raised")) or (bool(probed.get("sdpa-refused")) and not caught)
    went_on = {n for key in ("sdpa-unfused", "sdpa-caught") for n, _ in probed.get(key, [])}
    if raised:
        return [m for m in found if not (m.entry.id == NOTE and set(m.lines or [m.line]) <= went_on)]
    if went_on:
        return [m for m in found if m.entry.id != ERROR]
    return found
