"""The JSON report: one document, schema attn-doctor.report/1."""

from __future__ import annotations

import json

from ..model import Report


def dumps(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, sort_keys=False, default=str) + "\n"
