# FAKE: a sitecustomize the user already has on PYTHONPATH (tests/test_trace.py): the trace's own must run it too.
import os

os.environ["USER_SITECUSTOMIZE_RAN"] = "yes"
