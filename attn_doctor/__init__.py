"""attn-doctor: a preflight doctor for GPU attention backends."""

__version__ = "0.1.0"
