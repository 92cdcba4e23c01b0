"""``functional_call``: call a module with parameters and buffers given as a dict.

A module keeps its parameters inside itself; the transforms want functions of tensors.
``functional_call(model, params, x)`` runs ``model(x)`` with each named tensor of ``params``
("0.weight", "2.bias"...) put in the module's place for the duration of the call, then puts
the module's own tensors back. So ``grad(lambda p: loss(functional_call(model, p, x)))(params)``
differentiates with respect to a dict of parameters, and ``vmap`` over it gives per-sample
gradients.
"""

from __future__ import annotations

from collections.abc import Sequence

from minigrad._ops.join import stack
from minigrad._tensor import Tensor
from minigrad.nn.modules.module import Module

__all__ = ["functional_call", "stack_module_state", "replace_all_batch_norm_modules_"]


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``module(*args, **kwargs)`` with the named tensors of ``parameter_and_buffer_dicts``
    (a dict, or a tuple/list of dicts with distinct keys) in place of the module's own.

    ``tie_weights``: a tensor the module holds under several names (tied weights) takes the
    value given for any of them. ``strict``: every parameter and buffer must be given, and
    nothing else."""
    if isinstance(parameter_and_buffer_dicts, dict):
        values = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        counts = {}
        for d in parameter_and_buffer_dicts:
            for key in d:
                counts[key] = counts.get(key, 0) + 1
        repeated = [key for key, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             "functional call is ambiguous")
        values = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                         f"dicts, but got {type(parameter_and_buffer_dicts)}")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    given = _untie(module, values) if tie_weights else values
    if strict:
        _check_keys(module, given)
    originals = _swap(module, given)
    try:
        return module(*args, **kwargs)
    finally:
        now = _swap(module, originals)
        values.update({k: now[k] for k in values if k in now})


def _named_tensors(module) -> dict:
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    return named


def _untie(module, values: dict) -> dict:
    """``values`` with each tied name given the value passed for any name of its tensor."""
    names_of = {}
    for name, tensor in _named_tensors(module).items():
        names_of.setdefault(id(tensor), set()).add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    given_tied = [name for name in values if name in tied]
    for name in given_tied:
        names = tied[name]
        if (len(names.intersection(given_tied)) > 1
                and len({id(values[n]) for n in names if n in values}) != 1):
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, "
                             "which are tied. Consider using tie_weights=False")
    untied = dict(values)
    for name in given_tied:
        for other in tied[name]:
            untied[other] = values[name]
    return untied


def _check_keys(module, values: dict) -> None:
    valid = set(_named_tensors(module))
    missing, unexpected = sorted(valid - set(values)), sorted(set(values) - valid)
    errors = []
    if unexpected:
        errors.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        errors.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if errors:
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                           + "\n\t".join(errors))


_ABSENT = object()  # a name the module did not have before the call


def _swap(module, values: dict) -> dict:
    """Put each named tensor in its place; return what was there (``_ABSENT`` if nothing)."""
    for value in values.values():  # (torch's check, before anything is swapped)
        if not (value is _ABSENT or value is None or isinstance(value, Tensor)):
            raise TypeError(f"{value} is not an instance of minigrad.Tensor")
    previous = {}
    for name, value in values.items():
        *path, attr = name.split(".")
        owner = module
        for k, part in enumerate(path):
            try:
                owner = getattr(owner, part)
            except AttributeError:
                raise AttributeError(f"{type(owner).__name__} has no attribute `{part}`") from None
            if not isinstance(owner, Module):
                raise TypeError(f"submodule `{'.'.join(path[:k + 1])}`: {owner} is not an "
                                "instance of minigrad.nn.Module")
        for store in (owner._parameters, owner._buffers):
            if attr in store:
                previous[name] = store[attr]
                if value is _ABSENT:
                    del store[attr]
                else:
                    store[attr] = value
                break
        else:
            previous[name] = owner.__dict__.get(attr, _ABSENT)
            if value is _ABSENT:
                owner.__dict__.pop(attr, None)
            else:
                object.__setattr__(owner, attr, value)
    return previous


def stack_module_state(models) -> tuple[dict, dict]:
    """The parameters and buffers of ``M`` modules of one class, each stacked into one tensor
    with a leading dim of ``M``, by name: ``vmap(lambda p, b, x: functional_call(model, (p, b),
    x))`` then runs the whole ensemble at once. Stacked parameters are new leaves (an optimizer
    can take them), unrelated to the modules' own."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(named):
        tables = [dict(items) for items in named]
        return {k: _stacked_leaf([t[k] for t in tables], k) for k in tables[0]}

    return (stacked(m.named_parameters() for m in models),
            stacked(m.named_buffers() for m in models))


def _stacked_leaf(tensors, name: str):
    requires = [t.requires_grad for t in tensors]
    if any(requires) and not all(requires):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    return result.detach().requires_grad_() if all(requires) else result


def replace_all_batch_norm_modules_(root):
    """torch's fix for vmapping a model with batch norm layers: each stops tracking running
    statistics (which vmap cannot update per sample). minigrad leaves batch norm out
    (``nn.BatchNorm1d`` says so), so a minigrad model has none to patch: ``root`` itself, as
    torch returns it."""
    return root
