"""Helpers for differential tests: run the same thing in minigrad and torch, compare results.

Torch is the oracle. These helpers convert data between the two engines, compare values,
dtypes and gradients, walk both ``grad_fn`` graphs side by side, and compare exception type
and text. minigrad's deliberate differences from torch (``minigrad.`` prefixes,
``minigrad::`` node names) are normalised by ``normalize_text`` and nothing else is.
"""

from __future__ import annotations

import numpy as np
import torch

import minigrad

# dtype pairs, matched by name (minigrad.float32 <-> torch.float32 ...).
DTYPE_NAMES = ["float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64",
               "bool"]
M_DTYPES = {name: getattr(minigrad, name) for name in DTYPE_NAMES}
T_DTYPES = {name: getattr(torch, name) for name in DTYPE_NAMES}

# Relative/absolute tolerances by dtype name: float64 is tight, float32 is float32's eps.
TOLERANCES = {"float64": (1e-10, 1e-12), "float32": (1e-5, 1e-6), "float16": (1e-2, 1e-3)}


def normalize_text(text: str) -> str:
    """minigrad's text with its two deliberate spelling differences mapped to torch's."""
    return text.replace("minigrad::", "torch::").replace("minigrad.", "torch.")


def torch_dtype(d) -> torch.dtype:
    return T_DTYPES[d.name]


def minigrad_dtype(d: torch.dtype):
    return M_DTYPES[str(d).removeprefix("torch.")]


def pair(array, requires_grad: bool = False):
    """The same values as a minigrad leaf and a torch leaf (each owning its own copy)."""
    array = np.array(array)
    m = minigrad.tensor(array.copy(), requires_grad=requires_grad)
    t = torch.tensor(array.copy(), requires_grad=requires_grad)
    return m, t


def to_numpy(x) -> np.ndarray:
    """Values of a minigrad or torch tensor as a NumPy array (without touching autograd)."""
    if isinstance(x, torch.Tensor):
        return x.detach().numpy()
    return np.asarray(x.detach()._data)


def assert_same_dtype_shape(m, t, what: str = "") -> None:
    assert m.dtype.name == str(t.dtype).removeprefix("torch."), \
        f"{what}dtype: minigrad {m.dtype} vs torch {t.dtype}"
    assert tuple(m.shape) == tuple(t.shape), \
        f"{what}shape: minigrad {tuple(m.shape)} vs torch {tuple(t.shape)}"


def assert_close(m, t, what: str = "", rtol=None, atol=None) -> None:
    """Same dtype, shape and values (NaN equal to NaN, infinities equal by sign).

    The tolerance comes from the dtype unless given: exact for integers and bools.
    """
    assert_same_dtype_shape(m, t, what)
    a, b = to_numpy(m), to_numpy(t)
    default = TOLERANCES.get(m.dtype.name, (0.0, 0.0))
    rtol = default[0] if rtol is None else rtol
    atol = default[1] if atol is None else atol
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=f"{what}values differ")


def assert_grad_close(m, t, what: str = "", rtol=None, atol=None) -> None:
    """``m.grad`` and ``t.grad`` both missing, or both present and close."""
    mg, tg = m._grad, t.grad if (t.is_leaf or t.retains_grad) else None
    if tg is None or mg is None:
        assert mg is None and tg is None, \
            f"{what}grad: minigrad {'None' if mg is None else 'set'} vs torch " \
            f"{'None' if tg is None else 'set'}"
        return
    assert_close(mg, tg, what + "grad: ", rtol=rtol, atol=atol)


def node_name(node) -> str | None:
    """A node's ``name()`` in torch's spelling (``None`` for a missing node)."""
    return None if node is None else normalize_text(node.name())


def graph_signature(fn) -> list:
    """The whole graph under ``fn`` as a comparable list.

    Nodes are numbered in the order a depth-first walk through ``next_functions`` meets them,
    so shared nodes (fan-out, diamonds) show up as the same number in both engines. Each entry
    is ``(name, [(child number or None, output_nr), ...])``.
    """
    ids: dict[int, int] = {}
    out: list = []
    stack = [fn]
    order = []
    while stack:
        node = stack.pop()
        if node is None or id(node) in ids:
            continue
        ids[id(node)] = len(ids)
        order.append(node)
        for child, _ in reversed(node.next_functions):
            stack.append(child)
    for node in order:
        edges = [(None if c is None else ids[id(c)], nr) for c, nr in node.next_functions]
        out.append((node_name(node), edges))
    return out


def walk_graph(node, seen=None):
    """Every node reachable from ``node``, once each, in a fixed order."""
    seen = [] if seen is None else seen
    if node is not None and node not in seen:
        seen.append(node)
        for nxt, _ in node.next_functions:
            walk_graph(nxt, seen)
    return seen


def saved_numbers(node) -> dict:
    """The node's saved non-tensor fields (numbers, sizes, flags) as their reprs: ``3.0`` and
    ``3`` print differently, so a learner reading ``_saved_other`` sees torch's type too."""
    found = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            try:
                value = getattr(node, name)
            except RuntimeError:  # a freed saved tensor
                continue
            except AttributeError:  # minigrad's NOT_KEPT: missing here, so a number differs
                continue
            if isinstance(value, tuple) and not all(v is None or isinstance(v, int | float)
                                                    for v in value):
                continue  # a list of tensors (``_saved_indices``), not numbers
            if value is None or isinstance(value, bool | int | float | tuple | str):
                found[name] = repr(value)
    return found


def saved_signature(node) -> dict:
    """Every saved field of ``node``: numbers and sizes as their reprs (``saved_numbers``),
    a tensor as its shape and dtype, and whether a tensor was saved at all (torch saves one
    only when a formula that reads it is wanted: what in-place changes can invalidate)."""
    found = saved_numbers(node)
    for name in dir(node):
        if name.startswith("_saved_") and name not in found:
            try:
                value = getattr(node, name)
            except (RuntimeError, AttributeError) as error:
                found[name] = type(error).__name__
                continue
            items = value if isinstance(value, tuple | list) else (value,)
            found[name] = repr([None if v is None else (tuple(v.shape), str(v.dtype).split(".")[-1])
                                for v in items if v is None or hasattr(v, "shape")])
    return found


def assert_same_graph(m, t) -> None:
    """``m.grad_fn`` and ``t.grad_fn`` have the same node names, edges and sharing."""
    assert (m.grad_fn is None) == (t.grad_fn is None), \
        f"grad_fn: minigrad {m.grad_fn} vs torch {t.grad_fn}"
    if t.grad_fn is None:
        return
    assert graph_signature(m.grad_fn) == graph_signature(t.grad_fn)


def assert_same_autograd_facts(m, t, what: str = "") -> None:
    """requires_grad, is_leaf and the grad_fn name agree."""
    assert m.requires_grad == t.requires_grad, f"{what}requires_grad"
    assert m.is_leaf == t.is_leaf, f"{what}is_leaf"
    assert node_name(m.grad_fn) == node_name(t.grad_fn), f"{what}grad_fn name"


def capture(fn):
    """Run ``fn()``; return ``("ok", result)`` or ``("error", exception)``."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the exception is the thing compared
        return "error", e


def error_text(e: BaseException) -> str:
    """An exception's message as ``str`` shows it (KeyError quotes, IndexError does not)."""
    return str(e)


def assert_same_error(m_fn, t_fn) -> BaseException:
    """Both calls raise; same exception type and same message (after normalising).

    Returns torch's exception. torch sometimes appends a C++ traceback hint after a newline
    ("Exception raised from ..."), which never appears for Python-level errors; only the first
    line of such messages is compared, and only when torch's text contains that marker.
    """
    m_kind, m_exc = capture(m_fn)
    t_kind, t_exc = capture(t_fn)
    assert t_kind == "error", f"torch did not raise (got {t_exc!r})"
    assert m_kind == "error", f"minigrad did not raise; torch raised {t_exc!r}"
    assert type(m_exc).__name__ == type(t_exc).__name__, \
        f"exception type: minigrad {type(m_exc).__name__}: {m_exc} vs " \
        f"torch {type(t_exc).__name__}: {t_exc}"
    m_text, t_text = normalize_text(error_text(m_exc)), error_text(t_exc)
    if "\nException raised from" in t_text:
        t_text = t_text.split("\nException raised from")[0]
    assert m_text == t_text, f"message:\n minigrad: {m_text}\n torch:    {t_text}"
    return t_exc


def assert_same_outcome(m_fn, t_fn, compare=assert_close):
    """Both raise the same error, or both succeed and ``compare`` the results."""
    t_kind, t_res = capture(t_fn)
    if t_kind == "error":
        assert_same_error(m_fn, t_fn)
        return None
    m_kind, m_res = capture(m_fn)
    assert m_kind == "ok", f"minigrad raised {m_res!r}; torch returned {t_res!r}"
    compare(m_res, t_res)
    return m_res, t_res


def same_outcome(fn, m_args, t_args, compare=assert_close):
    """``assert_same_outcome`` for ``fn(*m_args)`` vs ``fn(*t_args)`` (handy in loops)."""
    return assert_same_outcome(lambda: fn(*m_args), lambda: fn(*t_args), compare)


def same_error(fn, m_args, t_args) -> BaseException:
    """``assert_same_error`` for ``fn(*m_args)`` vs ``fn(*t_args)`` (handy in loops)."""
    return assert_same_error(lambda: fn(*m_args), lambda: fn(*t_args))


def norm(text: str) -> str:
    """Short name for ``normalize_text``, for tests that compare many strings."""
    return normalize_text(text)


def outcome(fn, lib):
    """``("ok", fn(lib))``, or ``(error type name, normalised message)`` if it raised."""
    try:
        return ("ok", fn(lib))
    except Exception as e:  # noqa: BLE001 - the error itself is what we compare
        return (type(e).__name__, normalize_text(str(e)))


def both_engines(fn):
    """Run ``fn(torch)`` and ``fn(minigrad)``; they must return equal values or raise alike."""
    expected, got = outcome(fn, torch), outcome(fn, minigrad)
    assert got == expected
    return got
