"""vmap and in-place writes into a tensor that is not batched (a captured accumulator, a
fresh ``zeros``), and ``out=``: torch refuses them, each op with its own error (its batching
rule's, its fallback's with a performance warning, or a broadcasting error); minigrad must
give the same error and leave the tensor unchanged, never write every sample into it.
Compared with torch at test time."""

from __future__ import annotations

import re
import warnings

import pytest
import torch

import minigrad

# (name, how the op is called on the unbatched x with the batched y)
INPLACE = [
    ("add_", lambda x, y: x.add_(y)), ("sub_", lambda x, y: x.sub_(y)),
    ("mul_", lambda x, y: x.mul_(y)), ("div_", lambda x, y: x.div_(y)),
    ("pow_", lambda x, y: x.pow_(y)), ("copy_", lambda x, y: x.copy_(y)),
    ("clamp_min_", lambda x, y: x.clamp_min_(y)), ("clamp_max_", lambda x, y: x.clamp_max_(y)),
    ("clamp_", lambda x, y: x.clamp_(min=y)), ("lerp_", lambda x, y: x.lerp_(y, 0.5)),
    ("lerp_ tensor", lambda x, y: x.lerp_(y, y)),
    ("addcmul_", lambda x, y: x.addcmul_(y, y)), ("addcdiv_", lambda x, y: x.addcdiv_(y, y)),
    ("atan2_", lambda x, y: x.atan2_(y)), ("hypot_", lambda x, y: x.hypot_(y)),
    ("fmod_", lambda x, y: x.fmod_(y)), ("remainder_", lambda x, y: x.remainder_(y)),
    ("floor_divide_", lambda x, y: x.floor_divide_(y)), ("eq_", lambda x, y: x.eq_(y)),
    ("lt_", lambda x, y: x.lt_(y)), ("logical_and_", lambda x, y: x.logical_and_(y)),
    ("fill_", lambda x, y: x.fill_(y.sum())), ("masked_fill_ mask", lambda x, y: x.masked_fill_(
        y > 0, 1.0)), ("masked_fill_ value", lambda x, y: x.masked_fill_(
            minigrad.tensor([True, False]) if isinstance(x, minigrad.Tensor)
            else torch.tensor([True, False]), y.sum())),
    ("index_add_", lambda x, y: x.index_add_(0, type(x)([0, 1]).long(), y)),
    ("index_copy_", lambda x, y: x.index_copy_(0, type(x)([0, 1]).long(), y)),
    ("scatter_add_", lambda x, y: x.scatter_add_(0, type(x)([0, 1]).long(), y)),
    ("scatter_", lambda x, y: x.scatter_(0, type(x)([0, 1]).long(), y)),
    ("xlogy_", lambda x, y: x.xlogy_(y)),
    ("+=", lambda x, y: x.__iadd__(y)), ("-=", lambda x, y: x.__isub__(y)),
    ("*=", lambda x, y: x.__imul__(y)), ("/=", lambda x, y: x.__itruediv__(y)),
    ("**=", lambda x, y: x.__ipow__(y)), ("//=", lambda x, y: x.__ifloordiv__(y)),
    ("%=", lambda x, y: x.__imod__(y)),
    ("x[0] = y[0]", lambda x, y: x.__setitem__(0, y[0])),
    ("x[:] = y", lambda x, y: x.__setitem__(slice(None), y)),
    ("x[1:] = y[1:]", lambda x, y: x.__setitem__(slice(1, None), y[1:])),
    ("x[...] = y", lambda x, y: x.__setitem__(Ellipsis, y)),
    ("x[idx] = y", lambda x, y: x.__setitem__(type(x)([0, 1]).long(), y)),
    ("x[mask] = y", lambda x, y: x.__setitem__(type(x)([1, 0]).bool(), y[0])),
    ("out=", lambda x, y: (torch if isinstance(x, torch.Tensor) else minigrad).sin(y, out=x)),
    ("mul out=", lambda x, y: (torch if isinstance(x, torch.Tensor) else minigrad).mul(
        y, 2, out=x)),
    ("sum out=", lambda x, y: (torch if isinstance(x, torch.Tensor) else minigrad).sum(
        y, 0, out=x[0])),
]


def _run(lib, op, shape):
    x = lib.ones(*shape)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            lib.func.vmap(lambda x, y: op(x, y), in_dims=(None, 0))(x, lib.ones(3, 2) * 0.5)
            error = None
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            error = (type(e).__name__, str(e).replace("minigrad", "torch"))
    # (torch's own note of where in its C++ a warning was raised is left out)
    notes = [(w.category.__name__, re.sub(r" \(Triggered internally at [^)]*\)\.?", "",
                                          str(w.message))) for w in caught]
    return error, notes, x.tolist()


@pytest.mark.parametrize("shape", [(2,), (3, 2)])
@pytest.mark.parametrize(("name", "op"), INPLACE, ids=[n for n, _ in INPLACE])
def test_inplace_into_unbatched(name, op, shape):
    expected = _run(torch, op, shape)
    assert expected[0] is not None  # torch refuses every one of them
    assert _run(minigrad, op, shape) == expected


def test_inplace_into_batched_still_writes():
    """The samples' own tensors are written per sample, as in torch."""
    def f(lib):
        def g(x, y):
            x.mul_(y)
            x[0] = y.sum()
            return x
        return lib.func.vmap(g)(lib.arange(6.).view(3, 2), lib.arange(6.).view(3, 2)).tolist()
    assert f(minigrad) == f(torch)
