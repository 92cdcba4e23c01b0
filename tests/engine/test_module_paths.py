"""Where minigrad's public objects say they live: ``__module__`` and ``__qualname__`` as torch's
same-named object has them (``minigrad`` read as ``torch``), which ``print(type(...))``,
``help()``, pickling by reference and a learner's ``obj.__module__`` show.

Every public class and function of the namespaces below that torch also has is compared; the
differences minigrad keeps are listed, by torch's module or by name, each with its reason, and
each must still differ (an entry that starts agreeing must go). And wherever an object says it
lives, it does: the module it names has it under its name.
"""

from __future__ import annotations

import importlib
import inspect

import pytest
import torch

import minigrad  # noqa: F401 - the namespaces below are imported by name

NAMESPACES = ["", ".nn", ".nn.functional", ".nn.init", ".nn.utils", ".nn.parameter", ".optim",
              ".optim.lr_scheduler", ".optim.swa_utils", ".autograd", ".autograd.graph",
              ".autograd.forward_ad", ".autograd.functional", ".autograd.profiler", ".func",
              ".utils.checkpoint", ".utils.data", ".utils.hooks", ".linalg", ".special",
              ".testing", ".random", ".profiler", ".cuda", ".return_types"]

# torch's homes minigrad does not copy, by the start of torch's __module__
MODULES = {
    "torch._C": "torch's C extension (torch._C, _C._nn, _C._linalg, _C._special, _C._autograd, "
                "_C._profiler): minigrad has none; its objects name the package that exports "
                "them, or the file that defines them",
    "torch.functional": "torch/functional.py's Python functions (einsum, split, norm, "
                        "meshgrid...): minigrad writes each beside its op in minigrad/_ops/, "
                        "and has no torch.functional module",
    "torch.utils.data.": "torch.utils.data is a package of files (dataset, sampler, "
                         "dataloader, _utils.collate); minigrad's is one module",
    "torch.testing._comparison": "minigrad's testing is one module",
    "torch.autograd.profiler_util": "minigrad's autograd profiler is one module",
    "torch.profiler.profiler": "minigrad's profiler package keeps profile in its __init__",
    "torch.cuda.": "torch.cuda is a package (memory, random); a CPU-only minigrad's is one module",
}
# single objects, by torch's name
NAMES = {
    "torch.nn.functional.threshold": "torch's qualname is its private _threshold (F.threshold "
                                     "= _add_docstr(_threshold)): an accident, not copied",
    "torch.nn.init.constant": "torch's deprecated nn.init names (constant, normal...) are "
                              "closures of _make_deprecate: an accident, not copied",
    "torch.nn.utils.clip_grads_with_norm_": "torch's qualname is its private "
                                            "_clip_grads_with_norm_ (a re-export): not copied",
    "torch.nn.utils.get_total_norm": "as clip_grads_with_norm_",
    "torch.random.Generator": "torch.random's Generator is collections.abc's (an import "
                              "accident of its annotations); minigrad.random's is the RNG's",
}
for _name in ("dirac", "eye", "kaiming_normal", "kaiming_uniform", "normal", "orthogonal",
              "sparse", "uniform", "xavier_normal", "xavier_uniform"):
    NAMES[f"torch.nn.init.{_name}"] = NAMES["torch.nn.init.constant"]
for _name in ("unique", "unique_consecutive"):
    NAMES[f"torch.{_name}"] = ("torch's is a boolean_dispatch closure "
                               "(boolean_dispatch.<locals>.fn): an accident, not copied")


def _public(namespace: str):
    """(torch's name, minigrad's object, torch's object) for each public class or function
    both have."""
    ours = importlib.import_module("minigrad" + namespace)
    theirs = importlib.import_module("torch" + namespace)
    for name, obj in sorted(vars(ours).items()):
        if (name.startswith("_") or inspect.ismodule(obj) or not callable(obj)
                or not hasattr(theirs, name)):
            continue
        yield f"torch{namespace}.{name}", obj, getattr(theirs, name)


def _home(obj) -> tuple:
    module = getattr(obj, "__module__", None)
    if module is not None:
        module = module.replace("minigrad", "torch")
    return module, getattr(obj, "__qualname__", None)


def _reason(torch_name: str, theirs) -> str | None:
    module = getattr(theirs, "__module__", None) or ""
    return NAMES.get(torch_name) or next(
        (why for start, why in MODULES.items() if module.startswith(start)), None)


PAIRS = [pytest.param(ours, theirs, id=name) for namespace in NAMESPACES
         for name, ours, theirs in _public(namespace)]


@pytest.mark.parametrize(("ours", "theirs"), PAIRS)
def test_module_and_qualname_are_torchs(request, ours, theirs):
    torch_name = request.node.callspec.id
    reason = _reason(torch_name, theirs)
    if reason is None:
        assert _home(ours) == _home(theirs), torch_name
    else:  # a listed difference must still be one
        assert _home(ours) != _home(theirs), f"{torch_name} agrees now: drop its entry"


def test_every_listed_name_is_compared():
    compared = {p.id for p in PAIRS}
    assert set(NAMES) <= compared, set(NAMES) - compared


@pytest.mark.parametrize(("ours", "theirs"), PAIRS)
def test_the_module_named_has_it(ours, theirs):
    """``importlib.import_module(obj.__module__)`` has the object under its name (a builtin's
    qualname is torch's ``_VariableFunctionsClass.add``: its ``__name__`` is looked up). A
    builtin of torch's C modules keeps their name for it (``linalg_det``), as torch's does,
    and names the package that exports it: that module need only exist."""
    module = importlib.import_module(ours.__module__)
    if (getattr(theirs, "__module__", None) or "").startswith("torch._C"):
        return
    top = ours.__qualname__.partition(".")[0]
    if top == "_VariableFunctionsClass" or "<locals>" in ours.__qualname__:
        top = ours.__name__
    assert hasattr(module, top), (ours.__module__, ours.__qualname__)


def test_torch_is_what_is_compared():
    assert torch.optim.Adafactor.__module__ == "torch.optim"  # the module it is exported from
