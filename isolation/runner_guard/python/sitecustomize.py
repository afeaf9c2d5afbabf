# spot's guard for the contract's checks (isolation/runner_guard/runner_guard.ts sets it up).
#
# Every check starts with PYTHONSAFEPATH=1, so Python itself puts no tree directory in front of its own
# modules, and with this directory first on PYTHONPATH, so this file runs before any of the check's code.
# It then:
#   - puts back the entry Python would have added (the working directory for -m and -c, a script's
#     directory), so the project's own modules still import from the tree as they always did;
#   - makes the names the interpreter and the runner own (the standard library, SPOT_PY_PROTECT) resolve
#     only outside the tree (SPOT_CHECK_TREE), so a worker's unittest/, pytest.py or difflib.py is never
#     what runs the tests; the names the base tree itself provides (SPOT_PY_TREE_NAMES) are left to it;
#   - hides package metadata found in the tree, so a planted *.dist-info cannot register a pytest plugin;
#   - hands over to the interpreter's own sitecustomize, if it has one.
# It changes nothing when SPOT_CHECK_TREE is unset.
import os
import sys


def _spot_names(variable):
    return set(name for name in os.environ.get(variable, "").split(",") if name)


def _spot_guard():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    tree = os.environ.get("SPOT_CHECK_TREE")
    if not tree or sys.version_info < (3, 8):
        return
    tree = os.path.realpath(tree)
    seen = {}

    def in_tree(entry):
        path = os.path.abspath(entry or os.curdir)
        if path not in seen:
            real = os.path.realpath(path)
            seen[path] = real == tree or real.startswith(tree.rstrip(os.sep) + os.sep)
        return seen[path]

    # The interpreter's own entries (its stdlib, site-packages, a venv's even inside the tree) are trusted;
    # a PYTHONPATH entry the contract put in the tree is not.
    contract = set(os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
    trusted = set(p for p in sys.path if not (os.path.abspath(p or os.curdir) in contract and in_tree(p)))

    def tree_entry(entry):
        return entry not in trusted and in_tree(entry)

    owned = _spot_names("SPOT_PY_TREE_NAMES")
    exact = (set(getattr(sys, "stdlib_module_names", ())) | _spot_names("SPOT_PY_PROTECT")) - owned
    prefixes = tuple(name[:-1] for name in exact if name.endswith("*"))

    def guarded(name):
        return "." not in name and name not in owned and (name in exact or name.startswith(prefixes))

    from importlib.machinery import PathFinder

    find_spec = PathFinder.find_spec
    find_distributions = PathFinder.find_distributions

    def guarded_find_spec(cls, name, path=None, target=None):
        if path is None and guarded(name):
            return find_spec(name, [p for p in sys.path if not tree_entry(p)], target)
        return find_spec(name, path, target)

    def outside_distributions(*args, **kwargs):
        from importlib.metadata import DistributionFinder

        context = args[0] if args else DistributionFinder.Context(**kwargs)
        paths = [p for p in context.path if not tree_entry(p)]
        return find_distributions(DistributionFinder.Context(name=context.name, path=paths))

    # Patched on the class, not only on sys.meta_path: pytest's assertion rewriter calls PathFinder directly.
    PathFinder.find_spec = classmethod(guarded_find_spec)
    PathFinder.find_distributions = staticmethod(outside_distributions)

    first = _spot_first_entry()
    if first is not None:
        sys.path.insert(0, first)


def _spot_first_entry():
    """What Python would have put first on sys.path without safe-path mode; None when it was asked for."""
    if not getattr(sys.flags, "safe_path", False):
        return None  # Before 3.11 Python adds it itself, after this file.
    args = list(getattr(sys, "orig_argv", []))[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-" or not arg.startswith("-"):
            if arg == "-":
                return ""
            real = os.path.realpath(arg)
            return real if os.path.isdir(real) or real.endswith(".zip") else os.path.dirname(real)
        if arg.startswith("--"):
            i += 2 if arg == "--check-hash-based-pycs" else 1
            continue
        for j, letter in enumerate(arg[1:]):
            if letter in "PI":
                return None  # The check asked for safe-path mode itself.
            if letter == "c":
                return ""
            if letter == "m":
                return os.getcwd()
            if letter in "WX":
                i += 0 if arg[j + 2:] else 1
                break
        i += 1
    return ""


def _spot_chain():
    mine = sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize  # noqa: F401  the interpreter's own, found now that this directory is off sys.path
    except ImportError as error:
        if getattr(error, "name", None) != "sitecustomize":
            raise
        sys.modules["sitecustomize"] = mine


_spot_guard()
_spot_chain()
