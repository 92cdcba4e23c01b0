"""Grad modes: whether new operations are recorded in the graph.

One global switch, ``_state.enabled``, read by every operation before it records a node.
``no_grad``, ``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` only flip it and put
it back on exit, so they nest and work as decorators, as torch's do.
"""

from __future__ import annotations

import functools
import inspect


class _State:
    enabled = True
    inference = False


_state = _State()


def is_grad_enabled() -> bool:
    return _state.enabled


def is_inference_mode_enabled() -> bool:
    return _state.inference


def is_recording() -> bool:
    """Do new operations record a graph? Not in inference mode, even under ``enable_grad``."""
    return _state.enabled and not _state.inference


class _GradMode:
    """Base: a context manager that sets the switch, and a decorator that wraps a call in it."""

    def _enter_value(self) -> bool:
        raise NotImplementedError

    def __enter__(self):
        self._saved = (_state.enabled, _state.inference)
        _state.enabled = self._enter_value()
        return None

    def __exit__(self, *exc):
        _state.enabled, _state.inference = self._saved
        return False

    def clone(self):
        return type(self)()

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper


def _wrap_generator(ctx_factory, func):
    """A decorated generator runs each of its steps inside the mode, and the caller's code
    between steps outside it (torch's ``_wrap_generator``): entering the mode once around
    the whole generator would leak it into the caller at every ``yield``."""

    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException as exc:  # noqa: BLE001 - handed on to the generator
                    with ctx_factory():
                        response = gen.throw(exc)
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value

    return generator_context


class _NoParamGradMode(_GradMode):
    """A mode that also works as a bare decorator (``@no_grad`` without parentheses)."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamGradMode):  # noqa: N801 - torch's spelling
    """Operations inside do not record a graph: results have ``requires_grad=False``."""

    def _enter_value(self) -> bool:
        return False


class enable_grad(_NoParamGradMode):  # noqa: N801
    """Turns recording back on, for instance inside a ``no_grad`` block."""

    def _enter_value(self) -> bool:
        return True


class set_grad_enabled(_GradMode):  # noqa: N801
    """Sets the switch to ``mode``. Like torch, it takes effect at once, even without ``with``."""

    def __init__(self, mode: bool):
        self.mode = bool(mode)
        self._prev = _state.enabled
        _state.enabled = self.mode

    def _enter_value(self) -> bool:
        return self.mode

    def __exit__(self, *exc):
        _state.enabled = self._prev
        return False

    def clone(self):
        return set_grad_enabled(self.mode)

    def __call__(self, func):
        _state.enabled = self._prev  # used as a decorator: undo the immediate effect
        return super().__call__(func)


class inference_mode(_GradMode):  # noqa: N801
    """Like ``no_grad``, and tensors made inside are marked as inference tensors.
    ``inference_mode(False)`` turns grad mode on, as torch's does."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # used as a bare decorator

    def __init__(self, mode: bool = True):
        self.mode = mode

    def _enter_value(self) -> bool:
        return not self.mode

    def __enter__(self):
        super().__enter__()
        _state.inference = self.mode
        return None

    def clone(self):
        return inference_mode(self.mode)


class _MultithreadingState:
    enabled = True


_multithreading = _MultithreadingState()


def is_multithreading_enabled() -> bool:
    return _multithreading.enabled


class set_multithreading_enabled(_GradMode):  # noqa: N801
    """Whether backward may run on device worker threads (torch). minigrad's backward always
    runs on the calling thread, as torch's does on the CPU; the switch is kept and answered,
    takes effect at once like ``set_grad_enabled``, and is put back on exit."""

    def __init__(self, mode: bool):
        self.mode = mode
        self._prev = _multithreading.enabled
        _multithreading.enabled = mode

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _multithreading.enabled = self._prev
        return False

    def clone(self):
        return set_multithreading_enabled(self.mode)


class _GradLayoutState:
    enforced = True


_grad_layout = _GradLayoutState()


class enforce_grad_layout_policy(_GradMode):  # noqa: N801
    """Whether AccumulateGrad holds a gradient it takes over to the gradient layout contract
    (torch's): with ``False``, a first gradient nobody else holds becomes ``.grad`` laid out
    as it came (a permuted gradient stays permuted) instead of being copied into the
    parameter's layout. Like ``set_grad_enabled`` it takes effect at once, even without
    ``with``, and is put back on exit."""

    def __init__(self, enable: bool = True):
        self.mode = enable
        self._prev = _grad_layout.enforced
        _grad_layout.enforced = enable

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _grad_layout.enforced = self._prev
        return False

    def clone(self):
        return enforce_grad_layout_policy(self.mode)

    def __call__(self, func):
        _grad_layout.enforced = self._prev  # used as a decorator: undo the immediate effect
        return super().__call__(func)
