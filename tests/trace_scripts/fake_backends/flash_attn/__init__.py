"""FAKE flash_attn (FlashAttention 2) for tests/test_trace.py: the module layout of the real package
(flash_attn/__init__.py re-exports flash_attn_func from flash_attn.flash_attn_interface, as flash-attn
2.8.3 does) with a function of its signature computed by torch's SDPA. The trace names a backend by the
module its function comes from; the SDPA call inside shows up as that call's inner kernel."""

from flash_attn.flash_attn_interface import flash_attn_func

__version__ = "2.8.3"
__all__ = ["flash_attn_func"]
