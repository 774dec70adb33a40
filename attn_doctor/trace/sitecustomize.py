# attn-doctor trace: copied into a temporary directory that `attn-doctor trace` puts first on PYTHONPATH,
# so every Python process of the traced command imports it at startup (coverage.py's subprocess habit).
# It loads the trace hook by file path (the traced interpreter need not have attn-doctor installed),
# then runs the sitecustomize it hides, if there is one, as Python would have.
import os
import sys


def _attn_doctor_trace():
    hook = os.environ.get("ATTN_DOCTOR_TRACE_HOOK")
    if not hook or not os.environ.get("ATTN_DOCTOR_TRACE_DIR") or "_attn_doctor_trace_hook" in sys.modules:
        return
    try:
        import importlib.util

        spec = importlib.util.spec_from_file_location("_attn_doctor_trace_hook", hook)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["_attn_doctor_trace_hook"] = mod
        spec.loader.exec_module(mod)
        mod.start_from_env()
    except Exception as e:  # never stop the user's program: leave a note for the report instead
        try:
            import json

            path = os.path.join(os.environ["ATTN_DOCTOR_TRACE_DIR"], "proc-%d.json" % os.getpid())
            with open(path, "w") as fh:
                json.dump({"pid": os.getpid(), "rows": [], "patched": [], "argv": sys.argv[:8],
                           "errors": [{"where": "load hook", "error": "%s: %s" % (type(e).__name__, e)}]}, fh)
        except Exception:
            pass


def _chain():
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    if here in sys.path:  # out of the user's sys.path again (PYTHONPATH still carries it to child processes)
        sys.path.remove(here)
    try:
        import importlib.machinery
        import importlib.util

        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
        if spec is None or spec.loader is None:
            return
        mod = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = mod
        spec.loader.exec_module(mod)
    except Exception as err:  # as site.py reports an error in sitecustomize
        if sys.flags.verbose:
            sys.excepthook(*sys.exc_info())
        else:
            sys.stderr.write("Error in sitecustomize; set PYTHONVERBOSE for traceback:\n%s: %s\n"
                             % (err.__class__.__name__, err))


_attn_doctor_trace()
_chain()
