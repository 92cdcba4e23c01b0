"""Smaller pieces of torch's API that PyTorch's docs and tutorials use, against torch:
``torch.func.linearize`` and ``stack_module_state`` (model ensembling), ``nn.Module.to`` in
its three forms (it once cast float parameters to an integer dtype without a word), and
``Module.cuda``, ``torch.random.fork_rng``, ``torch.utils.hooks.RemovableHandle``,
``torch.autograd.function.InplaceFunction``, ``Tensor.numpy()`` of a tensor that requires
grad under ``no_grad`` (torch refuses it only while grad mode is on)."""

from __future__ import annotations

import collections
import copy
import warnings

import pytest
import torch

import minigrad


def outcome(lib, case, warnings_too=True):
    """The case's result (or exception) on ``lib``, and the warnings it gave; torch's
    linearize warns from its own tracing machinery (torch.jit.script is deprecated...), which
    is no part of the answer: ``warnings_too=False`` leaves them out."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = case(lib)
        said = [str(w.message).replace("minigrad", "torch") for w in caught] \
            if warnings_too else []
        return "OK", repr(result).replace("minigrad", "torch"), said
    except Exception as error:  # noqa: BLE001 - the exception is what we compare
        return type(error).__name__, str(error).replace("minigrad", "torch")


def linearize_one(L):
    x = L.tensor([0.5, 1.0, 2.0])
    out, jvp_fn = L.func.linearize(lambda a: a.sin() * a, x)
    return out, jvp_fn(L.ones(3)), jvp_fn(L.tensor([1., 0., -1.]))


def linearize_tree(L):
    x, y = L.tensor([0.5, 1.0]), L.tensor([2.0, 3.0])
    out, jvp_fn = L.func.linearize(lambda a, b: {"s": a * b, "t": (a.exp(), b)}, x, y)
    return out, jvp_fn(L.ones(2), L.zeros(2))


def linearize_bad_shape(L):
    return L.func.linearize(lambda a: a * 2, L.ones(3))[1](L.ones(2))


def linearize_bad_dtype(L):
    return L.func.linearize(lambda a: a * 2, L.ones(3))[1](L.ones(3, dtype=L.float64))


def linearize_bad_structure(L):
    return L.func.linearize(lambda a, b: a * b, L.ones(3), L.ones(3))[1](L.ones(3))


def ensemble(L):
    L.manual_seed(0)
    models = [L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2))
              for _ in range(3)]
    params, buffers = L.func.stack_module_state(models)
    x = L.randn(5, 3)
    base = copy.deepcopy(models[0])

    def f(p, b, x):
        return L.func.functional_call(base, (p, b), (x,))

    out = L.vmap(f, in_dims=(0, 0, None))(params, buffers, x)
    # the output's node is torch's: linear's batching rule ends in an add (AddBackward0)
    return ({k: (v.shape, v.requires_grad, v.is_leaf, v.grad_fn) for k, v in params.items()},
            buffers, out.detach(), type(out.grad_fn).__name__)


def ensemble_errors(L):
    errors = []
    for models in ([], [L.nn.Linear(2, 2), L.nn.Linear(2, 2).eval()],
                   [L.nn.Linear(2, 2), L.nn.Tanh()]):
        try:
            L.func.stack_module_state(models)
        except RuntimeError as e:
            errors.append(str(e))
    a, b = L.nn.Linear(2, 2), L.nn.Linear(2, 2)
    b.weight.requires_grad_(False)
    try:
        L.func.stack_module_state([a, b])
    except RuntimeError as e:
        errors.append(str(e))
    return errors


def fork_rng(L):
    L.manual_seed(0)
    with L.random.fork_rng():
        inside = L.rand(2)
    after = L.rand(2)
    with L.random.fork_rng(enabled=False):
        L.rand(1)
    return inside, after, L.rand(2)


def removable_handle(L):
    try:
        L.utils.hooks.RemovableHandle({})
    except TypeError as e:
        refused = str(e)
    hooks, extra = collections.OrderedDict(), collections.OrderedDict()
    handle = L.utils.hooks.RemovableHandle(hooks, extra_dict=extra)
    hooks[handle.id] = extra[handle.id] = "hook"
    with handle:
        pass
    x = L.ones(2, requires_grad=True)
    return (refused, hooks, extra, type(x.register_hook(print)).__qualname__,
            type(handle).__module__)


def numpy_under_no_grad(L):
    import numpy as np

    x = L.ones(3, requires_grad=True)
    with L.no_grad():
        a, b = x.numpy(), np.asarray(x)
    with L.inference_mode():
        c = x.numpy()
    try:
        x.numpy()
    except RuntimeError as e:
        refused = str(e)
    return a, b, c, refused


def own_dims_of_a_0d_tensor(L):
    """size(d) and stride(d) ask about the tensor's own dims: a 0-d tensor has none (where
    ops let a 0-d tensor act as a 1-d one)."""
    said = []
    for call in (lambda: L.tensor(3.).size(-1), lambda: L.tensor(3.).size(1),
                 lambda: L.tensor(3.).stride(0), lambda: L.ones(2).size(2),
                 lambda: L.trapezoid(L.tensor(3.))):
        try:
            call()
        except IndexError as e:
            said.append(str(e))
    return said


def integration_errors(L):
    y, said = L.ones(3, 4), []
    for call in (lambda: L.trapezoid(y, L.arange(3.)), lambda: L.trapezoid(L.tensor([True])),
                 lambda: L.trapezoid(y, dx=True), lambda: L.cumulative_trapezoid(y, dx=True),
                 lambda: L.cumulative_trapezoid(y, L.arange(5.))):
        try:
            call()
        except RuntimeError as e:
            said.append(str(e))
    return (said, L.trapezoid(L.zeros(3, 0), dim=1), L.trapezoid(L.arange(5)),
            L.cumulative_trapezoid(L.arange(5)), L.cumulative_trapezoid(y[:, :0]))


def inplace_function(L):
    return L.autograd.function.InplaceFunction(True).inplace


CASES = [own_dims_of_a_0d_tensor, integration_errors, numpy_under_no_grad, inplace_function,
         linearize_one, linearize_tree, linearize_bad_shape, linearize_bad_dtype,
         linearize_bad_structure, ensemble, ensemble_errors, fork_rng, removable_handle]

MODULE_TO = {
    "int64": lambda L, m: m.to(L.int64),
    "cuda": lambda L, m: m.to("cuda"),
    "float64": lambda L, m: m.to(L.float64).weight.dtype,
    "like_tensor": lambda L, m: m.to(L.ones(2, dtype=L.float16)).weight.dtype,
    "device_dtype": lambda L, m: m.to("cpu", L.float64).bias.dtype,
    "device_kw": lambda L, m: m.to(device="cpu").weight.dtype,
    "dtype_kw": lambda L, m: m.to(dtype=L.float64).weight.dtype,
    "int_device": lambda L, m: m.to(5),
    "non_blocking": lambda L, m: m.to("cpu", non_blocking=True).weight.dtype,
    "module_cuda": lambda L, m: m.cuda(),
    "channels_last": lambda L, m: m.to(memory_format=L.channels_last).weight.stride(),
    "device_object": lambda L, m: m.to(L.device("cpu"), L.float16).bias.dtype,
    "double_half_float": lambda L, m: (m.double().weight.dtype, m.half().weight.dtype,
                                       m.float().weight.dtype),
    "dtype_flag": lambda L, m: m.to(L.float64, True).weight.dtype,
    "two_dtypes": lambda L, m: m.to(L.float64, L.float32),
    "bad_keyword": lambda L, m: m.to(x=1),
}


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_as_torch(case):
    warnings_too = not case.__name__.startswith("linearize")
    assert outcome(minigrad, case, warnings_too) == outcome(torch, case, warnings_too)


@pytest.mark.parametrize("name", MODULE_TO)
def test_module_to_as_torch(name):
    def case(L):
        return MODULE_TO[name](L, L.nn.Linear(2, 2))

    assert outcome(minigrad, case) == outcome(torch, case)
