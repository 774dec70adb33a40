"""Redaction for text a user pastes into a public bug report: home directories become ~, and anything
that looks like a token or key becomes [REDACTED]. Over-redacting is fine; leaking is not."""

from __future__ import annotations

import os
import re

MASK = "[REDACTED]"
# Well-known token shapes: Hugging Face, GitHub, OpenAI/Anthropic-style, AWS access keys, Slack, JWTs.
TOKENS = re.compile(
    r"\b(?:hf_[A-Za-z0-9]{16,}"
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|sk-[A-Za-z0-9_-]{16,}"
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})"
)
LONG_HEX = re.compile(r"\b[0-9a-fA-F]{32,}\b")
LONG_B64 = re.compile(r"[A-Za-z0-9+=]{40,}")
# NAME=value, NAME: value, "NAME": "value" where a part of NAME (between _ . -) says it holds a secret:
# HF_TOKEN, api_key, DB_PASSWORD, aws.secret; not "monkey" or "passes".
SECRET_NAME = (r"(?:[A-Za-z0-9]+[_.-])*(?:TOKEN|KEY|APIKEY|SECRET|PASS(?:WORD|WD)?|CREDENTIALS?|AUTH)"
               r"(?:[_.-][A-Za-z0-9]+)*")
SECRET_ASSIGN = re.compile(r"(?i)(\"?\b" + SECRET_NAME + r"\b\"?\s*[:=]\s*)(\"[^\"\n]*\"|'[^'\n]*'|[^\s,;|`]+)")


def homes(facts: dict | None = None) -> list[str]:
    """Home directories to hide: the report's machine's and this one's (longest first)."""
    found = []
    env = (facts or {}).get("env") or {}
    user = ((facts or {}).get("system") or {}).get("user")
    for h in (env.get("HOME"), os.path.expanduser("~"),
              f"/home/{user}" if user else None, f"/Users/{user}" if user else None):
        if h and h not in ("/", "~") and len(h.rstrip("/")) > 1:
            h = h.rstrip("/")
            if h not in found:
                found.append(h)
    return sorted(found, key=len, reverse=True)


def _b64_like(m: re.Match) -> str:
    s = m.group(0)
    mixed = any(c.islower() for c in s) and any(c.isupper() for c in s) and any(c.isdigit() for c in s)
    return MASK if mixed else s


def redact(text: str, home_dirs: list[str] | None = None) -> str:
    for h in home_dirs or []:
        text = re.sub(re.escape(h) + r"(?=/|\b|$)", "~", text)
    text = SECRET_ASSIGN.sub(lambda m: m.group(1) + MASK, text)
    text = TOKENS.sub(MASK, text)
    text = LONG_HEX.sub(MASK, text)
    return LONG_B64.sub(_b64_like, text)
