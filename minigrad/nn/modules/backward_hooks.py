"""Module backward hooks: ``register_full_backward_hook`` and friends, as torch builds them.

A module is many autograd nodes, so "the gradient of the module" has no node of its own. torch
makes one on each side: the tensor arguments go through an identity ``Function``
(``BackwardHookFunction``) before ``forward``, and the tensor results through another one after.
The node on the output side sees ``grad_output`` (and runs the backward pre-hooks, which may
replace it); the node on the input side sees ``grad_input`` and then calls the user's hooks with
both. That is why, with such a hook, a module's output has ``grad_fn``
``BackwardHookFunctionBackward`` and why its hooks do not fire when no output needs a gradient.

The deprecated ``register_backward_hook`` is older and simpler: a hook on the last node of the
output (``grad_fn.register_hook``), so it sees that node's gradients, not the module's; torch
warns (FutureWarning) whenever those differ, and so does this module.
"""

from __future__ import annotations

import sys
import warnings

from minigrad._tensor import Tensor
from minigrad.autograd.api import tensor_backward
from minigrad.autograd.function import Function
from minigrad.autograd.grad_mode import is_grad_enabled


class BackwardHookFunction(Function):
    """An identity whose backward node is where a module's backward hooks are attached."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


def _learner_stacklevel() -> int:
    """The ``stacklevel`` (for a warning raised by this function's caller) that points where
    torch's points. torch's engine is C++, so the hook's fixed ``stacklevel=5`` counts only
    torch's Python frames: ``Tensor.backward``'s three land on the learner's line, the two of
    ``autograd.backward``/``autograd.grad`` one line further out (the caller of the function
    that called them). minigrad's engine adds frames of its own, as many as the path takes,
    so they are counted here instead."""
    frame, level, entry = sys._getframe(2), 2, None
    while frame is not None and frame.f_globals.get("__name__", "").startswith("minigrad."):
        entry = frame
        frame, level = frame.f_back, level + 1
    from_tensor = entry is not None and entry.f_code is tensor_backward.__code__
    return level if from_tensor else level + 1


def _pack_with_none(indices, values, size):
    res = [None] * size
    for idx, val in zip(indices, values, strict=True):
        res[idx] = val
    return tuple(res)


class BackwardHook:
    """One call of a module with full backward (pre-)hooks: catches ``grad_output`` at the
    output side, then calls the hooks with ``grad_input`` at the input side (torch's
    ``torch.utils.hooks.BackwardHook``)."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    def _set_user_hook(self, grad_fn):
        def hook(grad_input, _):
            if self.grad_outputs is None:  # reached without passing the output (double backward)
                return None
            res = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return tuple(res[i] for i in self.input_tensors_index)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        """The tensors of ``args`` through ``BackwardHookFunction`` (when any needs a gradient
        and grad mode is on), ``fn`` given its node; the new args and the tensors' places."""
        tensors_idx = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        grad_fns = [t.grad_fn for t in new_tensors if t.grad_fn is not None
                    and t.grad_fn.name() == "BackwardHookFunctionBackward"]
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors, strict=True):
            arg_list[idx] = val
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), tensors_idx

    def setup_input_hook(self, args):
        res, self.input_tensors_index = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, args):
        def fn(grad_fn):
            def hook(_, grad_output):
                self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output,
                                                    self.n_outputs)
                expected_len = len(self.grad_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    hook_grad_outputs = user_pre_hook(self.module, self.grad_outputs)
                    if hook_grad_outputs is None:
                        continue
                    if len(hook_grad_outputs) != expected_len:
                        raise RuntimeError("Backward pre hook returned an invalid number of "
                                           f"grad_output, got {len(hook_grad_outputs)}, but "
                                           f"expected {expected_len}")
                    self.grad_outputs = hook_grad_outputs
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:  # no input needs a gradient: fire now
                    warnings.warn(
                        "Full backward hook is firing when gradients are computed with respect "
                        "to module outputs since no inputs require gradients. See "
                        "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                        "#torch.nn.Module.register_full_backward_hook for more details.",
                        stacklevel=_learner_stacklevel())
                    grad_inputs = (None,) * self.n_inputs
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple)
                                                    and all(el is None for el in res)):
                            raise RuntimeError("Backward hook for Modules where no input "
                                               "requires gradient should always return None "
                                               "or None for all gradients.")
                    self.grad_outputs = None
                if local_grad_outputs is None:
                    return None
                return tuple(local_grad_outputs[i] for i in self.output_tensors_index)

            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, self.output_tensors_index = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        return res if is_tuple else res[0]


class WrappedHook:
    """A deprecated ``register_backward_hook`` hook on a node: called with its module first."""

    def __init__(self, hook, module):
        self.hook, self.module = hook, module

    def __call__(self, *args):
        return self.hook(self.module, *args)


def _future(message):
    warnings.warn(message, FutureWarning, stacklevel=3)


def warn_non_full_backward_hook(inputs, result, grad_fn):
    """torch's FutureWarnings for a deprecated backward hook that will miss some gradients:
    when the last node of the output is not the whole module."""
    if not isinstance(result, Tensor):
        if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
            return _future(
                "Using non-full backward hooks on a Module that does not return a single Tensor "
                "or a tuple of Tensors is deprecated and will be removed in future versions. "
                "This hook will be missing some of the grad_output. Please use "
                "register_full_backward_hook to get the documented behavior.")
    else:
        result = (result,)
    if not isinstance(inputs, Tensor):
        if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
            return _future(
                "Using non-full backward hooks on a Module that does not take as input a single "
                "Tensor or a tuple of Tensors is deprecated and will be removed in future "
                "versions. This hook will be missing some of the grad_input. Please use "
                "register_full_backward_hook to get the documented behavior.")
    else:
        inputs = (inputs,)
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        return _future(
            "Using a non-full backward hook when outputs are nested in python data structure is "
            "deprecated and will be removed in future versions. This hook will be missing some "
            "grad_output.")
    if len(out_grad_fn) > 1:
        return _future(
            "Using a non-full backward hook when outputs are generated by different autograd "
            "Nodes is deprecated and will be removed in future versions. This hook will be "
            "missing some grad_output. Please use register_full_backward_hook to get the "
            "documented behavior.")
    inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
    if inputs_grad_fn != {n[0] for n in grad_fn.next_functions}:
        _future(
            "Using a non-full backward hook when the forward contains multiple autograd Nodes "
            "is deprecated and will be removed in future versions. This hook will be missing "
            "some grad_input. Please use register_full_backward_hook to get the documented "
            "behavior.")
    return None
