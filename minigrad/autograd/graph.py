"""The nodes of the backward graph.

Every operation that records itself creates one ``Node`` (torch calls them ``grad_fn``
objects). A node knows three things:

* ``next_functions``: for each input of the forward op, the pair ``(node, output_nr)`` that
  produced it, ``(AccumulateGrad, 0)`` for a leaf that requires grad, or ``(None, 0)`` for a
  constant. Following these pairs from a loss walks the whole graph.
* what it saved for backward (``SavedTensor``), checked against the tensor's version counter;
* ``backward(*grads)``: its local chain rule (reverse mode), and ``jvp(*tangents)``, the same
  derivative pushed forward (forward mode). Both are written next to the op's forward code in
  ``minigrad/_ops/``; the few nodes that belong to no single op are in ``special_nodes.py``.

``record`` is the one place the graph grows: it creates a node, which wires its
``next_functions`` and takes a ``sequence_nr`` in ``Node.__init__``, saves what the formula
needs and makes the op's results the node's outputs.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import weakref
from typing import NamedTuple

import numpy as np

from minigrad import _dtype, _size
from minigrad._ops import _vmap_hook
from minigrad.autograd import anomaly_mode, grad_mode
from minigrad.autograd.saved_fields import (
    NOT_KEPT,
    NOT_KEPT_TENSOR,
    TENSOR,
    TENSOR_LIST,
    fields_of,
)

_sequence = itertools.count()

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


class RemovableHandle:
    """Returned by ``register_hook``: ``remove()`` takes the hook out again (and its entry in
    each ``extra_dict``). torch's ``torch.utils.hooks.RemovableHandle``, under that name."""

    _ids = itertools.count()

    def __init__(self, hooks: dict, *, extra_dict=None):
        self._hooks = weakref.ref(hooks)  # a plain dict cannot be referenced weakly: torch's
        self.id = next(RemovableHandle._ids)  # TypeError (an OrderedDict can)
        extras = [extra_dict] if isinstance(extra_dict, dict) else list(extra_dict or ())
        self._extras = tuple(weakref.ref(d) for d in extras)

    def remove(self) -> None:
        for ref in (self._hooks, *self._extras):
            hooks = ref()
            if hooks is not None:
                hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


RemovableHandle.__module__ = "minigrad.utils.hooks"  # where torch's lives (and prints from)


class _HookDict(dict):
    """A plain dict that can be weakly referenced by handles."""


def add_hook(hooks: _HookDict, fn) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


class _SavedTensorsHooks:
    """The ``(pack_hook, unpack_hook)`` pairs of the open ``saved_tensors_hooks`` blocks, the
    innermost last (only that one is used), and the message of an open
    ``disable_saved_tensors_hooks`` block."""

    stack: list = []
    disabled_message = None


_hooks_state = _SavedTensorsHooks()

FREED_REGISTER = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
    "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you "
    "need to access saved variables after calling backward."
)


def _tensor_class(cls):
    """``Tensor`` itself for ``Tensor`` or a subclass (``Parameter``): the last class before
    ``object`` in its MRO. This module may not import Tensor (imports go one way)."""
    return cls.__mro__[-2]


class SavedTensor:
    """A tensor saved for backward (torch's ``SavedVariable``), with the version it had.

    Unpacking checks the version, so an in-place change between forward and backward is
    caught instead of silently giving a wrong gradient. A saved *output* of the node is kept
    as its data only (keeping the tensor would make a reference cycle) and rebuilt on unpack
    as that same output of the node: its ``output_nr`` is kept too (as torch's
    ``SavedVariable``), so a gradient through it under ``create_graph`` reaches its own slot.

    With saved-tensor hooks (``saved_tensors_hooks``, or ``register_hooks`` on a node's
    ``_raw_saved_*``), the tensor is handed to ``pack_hook`` when saved and only what that
    returns is kept; ``unpack_hook`` turns it back into a tensor when backward reads it,
    with no version check, as in torch. The rebuilt tensor takes the saved tensor's place in
    the graph (its ``grad_fn``, or its leaf's ``AccumulateGrad``).
    """

    __slots__ = ("tensor", "data", "version", "counter", "is_output", "output_nr", "view_grad_fn",
                 "tensor_type", "packed", "unpack_hook", "grad_edge", "fw_grad", "name", "next")

    def __init__(self, tensor, is_output: bool = False, output_nr: int = 0):
        if tensor._is_inference and not grad_mode.is_inference_mode_enabled():
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors created "
                "in inference mode in computation tracked by autograd. To work around this, you "
                "can make a clone to get a normal tensor and use it in autograd, or use "
                "`minigrad.no_grad()` instead of `minigrad.inference_mode()`."
            )
        if is_output:
            self.counter = tensor._version_counter
            self.version = self.counter[0]
        else:  # read from the tensor at unpack: most tensors never get a version counter
            self.counter = None
            self.version = 0 if tensor._counter is None else tensor._counter[0]
        self.is_output = is_output
        self.output_nr = output_nr  # which output of the node a saved output is
        # For an in-place op on a view: a weak reference to the view's grad_fn, which torch
        # names in the version error while that node is still alive.
        self.view_grad_fn = None
        self.tensor = None if is_output else tensor
        self.data = tensor._data if is_output else None
        self.tensor_type = type(tensor) if is_output else None
        self.unpack_hook = self.packed = self.grad_edge = None
        self.fw_grad = None  # an output's (level, tangent), set by forward_grad.propagate
        self.name = self.next = None  # set by Node._keep: the field's name, the node's next
        if _hooks_state.stack:
            self._pack(tensor, *_hooks_state.stack[-1])

    @classmethod
    def undefined(cls):
        """What torch's ``_raw_saved_*`` gives for a field the node did not need to save."""
        s = cls.__new__(cls)
        s.tensor = s.data = s.counter = s.tensor_type = s.view_grad_fn = None
        s.packed = s.unpack_hook = s.grad_edge = s.fw_grad = s.name = s.next = None
        s.version, s.is_output, s.output_nr = 0, False, 0
        return s

    def __repr__(self) -> str:
        return f"<minigrad._C._autograd.SavedTensor object at {id(self):#x}>"

    def _pack(self, tensor, pack_hook, unpack_hook) -> None:
        """Hand ``tensor`` to ``pack_hook`` and keep only its result (and where the tensor
        stood in the graph, for the rebuilt one)."""
        if not self.is_output:
            fn = tensor.grad_fn
            if fn is not None:
                self.grad_edge = (fn, tensor._output_nr)
            elif tensor._requires_grad:
                self.grad_edge = (tensor._grad_accumulator(), None)
        self.tensor_type = type(tensor)
        with grad_mode.no_grad():  # as torch: what the hook computes is not recorded
            self.packed = pack_hook(tensor)
        self.unpack_hook = unpack_hook
        self.tensor = self.data = None

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        """torch's ``SavedTensor.register_hooks``: pack now, unpack whenever backward reads."""
        if self.version is None:
            raise RuntimeError(FREED_REGISTER)
        if self.unpack_hook is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at a "
                               "time.")
        if self.tensor is None and self.data is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if self.is_output:  # torch packs the output's data, without its grad_fn
            value = self.tensor_type._make(self.data)
            value._version_counter = self.counter
        else:
            value = self.tensor
        self._pack(value, pack_hook, unpack_hook)

    def unpack(self, node):
        if self.version is None:
            raise RuntimeError(SECOND_BACKWARD)
        if self.unpack_hook is not None:
            return self._unpack_hooked(node)
        counter = self.counter if self.is_output else self.tensor._counter
        current = 0 if counter is None else counter[0]
        if current != self.version:
            raise RuntimeError(_version_error(self, node, current))
        if self.is_output:
            out = self.tensor_type._make(self.data)
            out._version_counter = self.counter
            out._attach(node, self.output_nr)
            if self.fw_grad is not None:
                out._fw_grad = self.fw_grad
            return out
        return self.tensor

    def _unpack_hooked(self, node):
        value = self.unpack_hook(self.packed)
        if not isinstance(value, _tensor_class(self.tensor_type)):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(value).__name__}")
        edge = (node, self.output_nr) if self.is_output else self.grad_edge
        if edge is None:
            return value
        out = type(value)._make(value._data)
        if value._counter is not None:
            out._version_counter = value._counter
        if edge[1] is None:  # a leaf: the rebuilt tensor feeds the leaf's AccumulateGrad
            out._requires_grad = True
            out._accumulator = edge[0]
        else:
            out._attach(*edge)
        return out

    def release(self) -> None:
        self.tensor = self.data = self.counter = self.tensor_type = self.version = None
        self.packed = self.unpack_hook = self.grad_edge = self.fw_grad = None


class saved_tensors_hooks:  # noqa: N801 - torch's spelling
    """Inside this block, every tensor saved for backward goes through ``pack_hook`` and
    comes back through ``unpack_hook`` (torch.autograd.graph.saved_tensors_hooks). Blocks
    nest; the innermost pair wins."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hooks_state.disabled_message is not None:
            raise RuntimeError(_hooks_state.disabled_message)
        _hooks_state.stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc):
        _hooks_state.stack.pop()
        return False


def _pack_to_cpu(tensor):
    return (tensor.device, tensor)


def _unpack_from_cpu(packed):
    return packed[1]


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """torch moves saved tensors to the CPU and back; minigrad's tensors are always on the
    CPU, so this keeps them as they are (``pin_memory`` has nothing to pin)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(_pack_to_cpu, _unpack_from_cpu)


class disable_saved_tensors_hooks:  # noqa: N801
    """Inside this block, using saved-tensor hooks raises ``RuntimeError(error_message)``;
    entering it while hooks are active raises too."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if _hooks_state.stack:
            raise RuntimeError(self.error_message)
        self.prev = _hooks_state.disabled_message
        _hooks_state.disabled_message = self.error_message

    def __exit__(self, *exc):
        _hooks_state.disabled_message = self.prev
        return False


def _op_name(node) -> str:
    """``MulBackward0`` -> ``Mul``, ``PowBackward1`` -> ``Pow1`` (torch keeps an overload's
    number), a custom Function's ``FooBackward`` -> ``Foo``."""
    name = node.name().removesuffix("Backward0")
    return re.sub(r"Backward(\d*)$", r"\1", name)


def _version_error(saved: SavedTensor, node, current: int) -> str:
    t = saved.tensor
    data = saved.data if saved.is_output else t._data
    kind = _dtype.from_numpy_dtype(data.dtype).legacy_name
    shape = ", ".join(str(s) for s in data.shape)
    # torch's C++ names a bool tensor by its backend type, the others by their legacy name
    what = f"[CPUBoolType [{shape}]]" if kind == "BoolTensor" else f"[minigrad.{kind} [{shape}]]"
    if saved.is_output:
        view_fn = saved.view_grad_fn() if saved.view_grad_fn is not None else None
        what += f", which is output {saved.output_nr} of {_op_name(view_fn or node)},"
    elif t is not None and t.grad_fn is not None:  # a stale view: AsStrided, as torch
        what += f", which is output {t._output_nr} of {_op_name(t.grad_fn)},"
    if anomaly_mode._state.enabled:  # the forward trace is shown: torch's other hint
        hint = ("the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!")
    else:
        hint = ("enable anomaly detection to find the operation that failed to compute its "
                "gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False).")
    return (
        f"one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: {what} is at version {current}; expected version {saved.version} "
        f"instead. Hint: {hint}"
    )


class _NodeType(type):
    """Node classes print as torch's: its nodes are C++ classes, ``<class 'MulBackward0'>``;
    a custom Function's node lives in ``torch.autograd.function``, and the base class itself
    is ``torch.autograd.graph.Node``."""

    def __init__(cls, name, bases, namespace):
        """Give the class torch's generated ``_saved_<field>`` (and, for a tensor,
        ``_raw_saved_<field>``) properties, from the one table in ``saved_fields.py``. They
        are real properties, not a ``__getattr__``: Python reads every attribute of an
        instance of a class with ``__getattr__`` more slowly, and the engine reads node
        attributes all the time."""
        super().__init__(name, bases, namespace)
        own = {}
        for field, spec in fields_of(cls).items():
            own[f"_saved_{field}"] = property(_field_reader(field, spec, raw=False))
            if spec is TENSOR or spec is NOT_KEPT_TENSOR or spec is TENSOR_LIST:
                own[f"_raw_saved_{field}"] = property(_field_reader(field, spec, raw=True))
        for base in cls.__mro__[1:]:  # a base class's fields this node does not have
            for attr in vars(base):
                if attr.startswith(("_saved_", "_raw_saved_")) and attr not in own:
                    own[attr] = _Absent(attr)
        for attr, descriptor in own.items():
            setattr(cls, attr, descriptor)

    def __repr__(cls) -> str:
        if "_forward_cls" in cls.__dict__:
            return f"<class 'minigrad.autograd.function.{cls.__name__}'>"
        if cls.__name__ == "Node" and cls.__module__ == __name__:
            return "<class 'minigrad.autograd.graph.Node'>"
        return f"<class '{cls.__name__}'>"


def _field_reader(field: str, spec, raw: bool):
    """The getter of ``_saved_<field>`` (``raw``: ``_raw_saved_<field>``) for a table entry."""
    def read(node):
        if spec is NOT_KEPT or spec is NOT_KEPT_TENSOR:
            name = f"_raw_saved_{field}" if raw else f"_saved_{field}"
            raise AttributeError(f"minigrad's {type(node).__name__} does not keep {field!r}, "
                                 f"which torch saves: {name} is not available in minigrad")
        if spec is TENSOR_LIST:  # one per entry of the node's index, None where no tensor
            index = node.index if isinstance(node.index, tuple | list) else (node.index,)
            keys = [None if t is None else f"{field}{i}" for i, t in enumerate(index)]
            if raw:
                return tuple(SavedTensor.undefined() if k is None else node._find_saved(k)
                             for k in keys)
            return tuple(None if k is None else node.saved(k) for k in keys)
        if spec is TENSOR:
            saved = node._find_saved(field)
            if raw:
                return SavedTensor.undefined() if saved is None else saved
            if saved is None:
                return None
            value = node.saved(field)
            number = node.__dict__.get("number_" + field)
            if number is not None:  # ``x * 3``: torch saved 3 as it wrapped it, tensor(3)
                return type(value)._make(np.asarray(number))
            return value
        return spec(node)

    return read


class _Absent:
    """A saved field of a base node class that a subclass does not have (torch's classes
    are unrelated): reading it raises the usual AttributeError."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, node, cls=None):
        owner = cls if node is None else type(node)
        raise AttributeError(f"'{owner.__name__}' object has no attribute '{self.name}'")


class _read_only:  # noqa: N801 - used as a decorator, like property
    """A computed attribute that cannot be set or deleted, with torch's message (its node
    attributes are C++ getters)."""

    def __init__(self, fget):
        self.fget = fget
        self.__doc__ = fget.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, node, cls=None):
        return self if node is None else self.fget(node)

    def __set__(self, node, value):
        raise AttributeError(f"attribute '{self.name}' of '{type(node).__name__}' objects is "
                             "not writable")

    def __delete__(self, node):
        self.__set__(node, None)

    def __repr__(self) -> str:
        return f"<attribute '{self.name}' of 'Node' objects>"


# What dir() lists on every node of a built-in op besides object's methods (torch's C++ nodes).
_NODE_DIR = ("__call__", "_input_metadata", "_register_hook_dict", "_sequence_nr",
             "_set_sequence_nr", "metadata", "name", "next_functions", "register_hook",
             "register_prehook", "requires_grad")


class InputMetadata:
    """What a node knows of one gradient it takes in: torch's ``_InputMetadata`` (its
    ``Node._input_metadata``), the shape (a list, as torch's) and dtype of that output of the
    forward op."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = list(shape)
        self.dtype = dtype if isinstance(dtype, _dtype.dtype) else _dtype.from_numpy_dtype(dtype)

    device = property(lambda self: _size.device("cpu"))
    is_nested_tensor = is_cpp_nested_tensor = property(lambda self: False)

    def __repr__(self) -> str:
        return f"<minigrad._C._autograd._InputMetadata object at {id(self):#x}>"


class Node(metaclass=_NodeType):
    """A backward function: the graph's real vertex. Subclasses define ``backward`` (reverse
    mode) and ``jvp`` (forward mode) side by side."""

    # A graph has one node per op, so making a node must be cheap, and light for Python's
    # garbage collector: a long forward pass keeps every node alive, and each full collection
    # scans every object still tracked (tests/engine/test_gc_load.py counts them). So a node
    # keeps few objects of its own: its fields live in slots (no dict per node); its next
    # nodes are one tuple (``next_functions`` pairs them with ``_next_nrs`` when asked, as
    # torch builds its pairs on each access); its tuples of plain values are shared with the
    # nodes like it (``_shared``); its saved tensors are a chain, ``_first_saved`` -> ``.next``
    # -> ... (``_saved`` shows them as a dict). What an op adds (``alpha``, ``dim``, ...) goes
    # in the ``__dict__``.
    __slots__ = ("_next_nodes", "_next_nrs", "needs_input_grad", "_input_meta",
                 "_first_saved", "_seq_nr", "_output0", "__dict__", "__weakref__")
    # Hooks, made on first use: most nodes never get one, so until then the class's None
    # stands in, and a node need not set these at all.
    _pre_hooks = None  # hook(grad_outputs) -> new grad_outputs or None
    _post_hooks = None  # hook(grad_inputs, grad_outputs) -> new or None
    _tensor_hooks = None  # Tensor.register_hook on an output: (output_nr, hook)
    _retain_grad_hooks = None  # output_nr -> the tensor that retains its grad
    _released = False  # set by release_variables
    _num_outputs = 1  # ops with several outputs (split, a custom Function) set their count

    def __init__(self, inputs=()):
        nodes, nrs, metas = [], [], []
        for t in inputs:  # one plain loop: this runs for every op, so it is kept cheap
            # edge_of(t), written out for the usual inputs: a non-view with a grad_fn, or a
            # constant (a non-view that does not require grad)
            fn = t._grad_fn
            if t._base is not None or (fn is None and t._requires_grad):
                fn, nr = edge_of(t)
            else:
                nr = 0 if fn is None else t._output_nr
            nodes.append(fn)
            nrs.append(nr)
            # shape and dtype (its one-letter code) of an input that gets a gradient: the
            # engine sums broadcast gradients back to that shape and casts them to that
            # dtype, as torch's engine does (None for a constant: no gradient flows there)
            metas.append(None if fn is None else (t._data.shape, t._data.dtype.char))
        self._next_nodes = tuple(nodes)
        key = (tuple(nrs), tuple(metas))
        shared = _SHARED.get(key)  # a node like it was made before: _shared, written out
        if shared is None:
            shared = _shared(*key)
        self._next_nrs, self.needs_input_grad, self._input_meta = shared
        self._first_saved = None  # the first SavedTensor, if the node saves any
        self._seq_nr = next(_sequence)
        if anomaly_mode._state.enabled:  # remember who made this node, for the error message
            self._anomaly_trace = anomaly_mode.forward_trace()

    @_read_only
    def next_functions(self) -> tuple:
        """For each input of the forward op, the pair ``(node, output_nr)`` that produced it
        (see the module's docstring)."""
        return tuple(zip(self._next_nodes, self._next_nrs))

    # --- what torch shows of a node -------------------------------------------------------
    def name(self) -> str:
        return type(self).__name__

    @_read_only
    def requires_grad(self) -> bool:
        """Always True: a node exists only where a gradient is wanted (torch's C++ getter)."""
        return True

    def _sequence_nr(self) -> int:
        """The node's number, counted up as nodes are made: the engine runs the ready node with
        the largest first (the one made last)."""
        return self._seq_nr

    def _set_sequence_nr(self, sequence_nr: int) -> None:
        """Give the node another place in the engine's order (torch's own, for nodes it makes
        later in Python but wants run as if made earlier)."""
        if not isinstance(sequence_nr, int) or isinstance(sequence_nr, bool):
            raise TypeError(f"_set_sequence_nr(): argument 'sequence_nr' (position 1) must be "
                            f"int, not {type(sequence_nr).__name__}")
        self._seq_nr = sequence_nr

    def _register_hook_dict(self, tensor):
        """torch's Tensor.register_hook (Python) hands its dict of hooks to the node here;
        minigrad's register_hook keeps hooks on the node itself, so this is not needed."""
        raise NotImplementedError(
            "minigrad does not implement torch's internal Node._register_hook_dict: register a "
            "hook on the tensor with Tensor.register_hook")

    @_read_only
    def _input_metadata(self) -> tuple:
        """Shape and dtype of each gradient this node takes in, one per output of its forward
        op (torch's InputMetadata: the engine checks incoming gradients against them)."""
        return tuple(InputMetadata(shape, dtype) for shape, dtype in self._outputs_meta())

    def _outputs_meta(self):
        several = self.__dict__.get("_output_meta")  # several outputs (a custom Function's)
        if several is not None:
            return several
        try:
            return (self._output0,)
        except AttributeError:  # (a node nothing was attached to)
            return ()

    def __dir__(self):
        """What dir() shows of a node of a built-in op, as of torch's (C++) nodes: object's
        methods, ``__call__``, what every node has, and the node's own saved fields; not
        minigrad's machinery (``apply``, ``saved``, slots), which a learner reading torch's
        docs would not find there."""
        fields = [name for name in super().__dir__()
                  if name.startswith(("_saved_", "_raw_saved_"))
                  and not isinstance(_class_attribute(type(self), name), _Absent)]
        return sorted(set(dir(object)).union(_NODE_DIR, fields, self._more_dir))

    _more_dir = ()  # a node's own public attributes (AccumulateGrad's ``variable``)

    @property
    def metadata(self) -> dict:
        """A dict of the user's own, kept with the node (torch's ``Node.metadata``)."""
        meta = self.__dict__.get("_metadata")
        if meta is None:
            meta = self.__dict__["_metadata"] = {}
        return meta

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"

    def register_hook(self, fn) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new inputs."""
        if self._post_hooks is None:
            self._post_hooks = _HookDict()
        return add_hook(self._post_hooks, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
        return add_hook(self._pre_hooks, fn)

    def _add_tensor_hook(self, output_nr: int, fn) -> RemovableHandle:
        if self._tensor_hooks is None:
            self._tensor_hooks = _HookDict()
        return add_hook(self._tensor_hooks, (output_nr, fn))

    # --- saved tensors ---------------------------------------------------------------------
    def save(self, tensors: dict) -> None:
        """Keep tensors for backward; ``None`` values (nothing needed) are skipped.

        Under saved-tensor hooks the order is visible (it is the order of the ``pack_hook``
        calls): torch's generated nodes save their fields in the order of its field table
        (``x * y`` packs ``other`` before ``self``), so minigrad follows that table too."""
        if _hooks_state.stack:
            order = list(fields_of(type(self)))
            tensors = dict(sorted(tensors.items(), key=lambda kv: order.index(kv[0])
                                  if kv[0] in order else len(order)))
        for key, value in tensors.items():
            if value is not None:
                self._keep(key, SavedTensor(value))

    def save_output(self, key: str, tensor, output_nr: int = 0) -> None:
        """Keep ``tensor``, output ``output_nr`` of this node, for backward."""
        self._keep(key, SavedTensor(tensor, is_output=True, output_nr=output_nr))

    def _keep(self, key: str, saved: SavedTensor) -> None:
        """Add ``saved`` under ``key`` at the end of the node's chain of saved tensors (a
        node saves each field once, when it is recorded)."""
        saved.name = key
        if self._first_saved is None:
            self._first_saved = saved
            return
        last = self._first_saved
        while last.next is not None:
            last = last.next
        last.next = saved

    @property
    def _saved(self) -> dict:
        """What the node saved, ``{field: SavedTensor}`` in the order saved."""
        out = {}
        s = self._first_saved
        while s is not None:
            out[s.name] = s
            s = s.next
        return out

    def _find_saved(self, key: str):
        """The ``SavedTensor`` saved under ``key``, or None."""
        s = self._first_saved
        while s is not None and s.name != key:
            s = s.next
        return s

    def saved(self, key: str):
        """The tensor saved under ``key``, after checking it was not freed or modified."""
        if self._released:
            raise RuntimeError(SECOND_BACKWARD)
        s = self._find_saved(key)
        if s is None:
            raise KeyError(key)
        return s.unpack(self)

    def release_variables(self) -> None:
        """Free what was saved: called by the engine after backward unless retain_graph."""
        s = self._first_saved
        if s is None:
            return
        while s is not None:
            s.release()
            s = s.next
        self._released = True

    # --- torch's _saved_<field> and _raw_saved_<field>: properties made by _NodeType ------
    # --- running -----------------------------------------------------------------------------
    def backward(self, *grads):
        raise NotImplementedError(f"{self.name()} has no backward formula")

    def jvp(self, *tangents):
        """The op's tangent from its inputs' tangents (forward mode). It is called before any
        node exists (forward mode runs with grad off too), so ``self`` is an ``OpContext``
        that offers what the node would: the op's ``inputs``, its ``result``, its attributes
        and the tensors it would save. A node without a rule raises torch's error."""
        raise NotImplementedError(
            f"Trying to use forward AD with {_aten_name(self.node_cls)} that does not support it "
            "because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")

    def apply(self, *grads):
        try:
            out = self.backward(*grads)
        except BaseException as e:
            if not _vmap_hook.active or not isinstance(e, _vmap_hook.Unbatchable):
                raise
            # batched gradients (vmap of a vjp) this backward cannot take at once: torch's
            # fallback, once per sample, the results stacked
            out = _vmap_hook.per_sample(self.backward, grads)
        return out if isinstance(out, tuple) else (out,)

    def __call__(self, *grads):
        """Calling a node directly, as in torch: the gradient alone for a node with one
        input, a tuple for several (the engine calls ``apply``, which always gives a tuple)."""
        out = self.apply(*grads)
        return out[0] if len(out) == 1 else out


def _class_attribute(cls, name: str):
    """What ``cls`` has under ``name`` itself (no descriptor called), or None."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def _aten_name(node_cls) -> str:
    """``ExpBackward0`` -> ``exp``: the op name torch puts in its forward-AD error."""
    name = node_cls.__name__.split("Backward")[0]
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


class OpContext:
    """What a ``jvp`` rule sees in place of the node: the op's inputs and result, the tensors
    the node would save (``self.condition``...) and its attributes (``self.alpha``...)."""

    def __init__(self, node_cls, inputs, result, saved, attrs):
        self.node_cls = node_cls
        self.__dict__.update(attrs)
        if saved:
            self.__dict__.update(saved)
        self.inputs = tuple(inputs)
        self.result = result


_NO_EDGE = (None, 0)

# Nodes share their tuples of plain values: a chain of 100,000 ops has a handful of different
# ``needs_input_grad``, ``_next_nrs`` and ``_input_meta`` tuples, not 300,000. Every object a
# node keeps ticks Python's garbage collector towards its next collection (a full one scans
# everything alive), so fewer objects kept means fewer, cheaper collections.
_SHARED: dict = {}
_MAX_SHARED = 10_000  # a bound, for a program that meets ever new shapes


def _shared(nrs: tuple, metas: tuple) -> tuple:
    """``(_next_nrs, needs_input_grad, _input_meta)`` for a node with these output numbers and
    input metadata: the shared tuples when a node like it was made before."""
    key = (nrs, metas)
    shared = _SHARED.get(key)
    if shared is None:
        shared = (nrs, tuple(m is not None for m in metas), metas)
        if len(_SHARED) < _MAX_SHARED:
            _SHARED[key] = shared
    return shared


def output_meta(data) -> tuple:
    """``(shape, dtype)`` of an op's output array, the tuple shared with every output like it
    (a node keeps one for ``_input_metadata``; a tuple per node would tick the collector)."""
    key = (data.shape, data.dtype)
    meta = _SHARED.get(key)
    if meta is None:
        meta = key
        if len(_SHARED) < _MAX_SHARED:
            _SHARED[key] = meta
    return meta


def edge_of(t):
    """The ``(node, output_nr)`` pair through which gradient flows back into ``t``: its
    ``grad_fn``, its ``AccumulateGrad`` for a leaf that requires grad, or ``(None, 0)``."""
    fn = t._grad_fn if t._base is None else t.grad_fn  # a view may need a fresh grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    if t._requires_grad:  # a leaf
        return (t._grad_accumulator(), 0)
    return _NO_EDGE


def record(node_cls, inputs, outputs, save=None, output_name=None, **attrs):
    """The one place the graph grows: make a ``node_cls`` node for an op that read ``inputs``
    (its ``__init__`` wires ``next_functions`` and stamps ``sequence_nr``), give it the op's
    attributes (``alpha``, ``dim``...), save the tensors its formula needs (``save``, and the
    first output itself under ``output_name``) and make ``outputs`` its outputs."""
    return record_with(node_cls, inputs, outputs, save, output_name, attrs)


def record_with(node_cls, inputs, outputs, save, output_name, attrs: dict):
    """``record`` with the op's attributes in one dict, as ``_core.record`` already holds
    them (unpacking them into keywords again would cost every op a second dict)."""
    node = node_cls(inputs)
    if attrs:
        node.__dict__.update(attrs)
    if save:
        node.save(save)
    if len(outputs) > 1:
        node._num_outputs = len(outputs)
        node._output_meta = [(o._data.shape, o._data.dtype) for o in outputs]
    for i, out in enumerate(outputs):
        if out._grad_fn is None and not out._retains_grad:  # a new result: nothing to move
            out._grad_fn, out._output_nr = node, i
            node._output0 = output_meta(out._data)  # (for _input_metadata)
        else:  # an existing tensor (a CopySlices base) keeps its retain_grad
            out._attach(node, i)
    if output_name is not None:
        node.save_output(output_name, outputs[0])
    return node


def validate_outputs(node, outputs):
    """torch's ``validate_outputs``: the right number of gradients, each summed back to its
    input's shape (undoing broadcasting) and cast to its dtype; a gradient for a constant
    input (no edge) is left as it is, unchecked, as torch leaves it."""
    if len(outputs) != len(node._next_nodes):
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {len(node._next_nodes)}, got {len(outputs)})"
        )
    fixed = None  # a copy of ``outputs`` only when something changes: this runs per node
    for i, meta in enumerate(node._input_meta):
        g = outputs[i]
        if g is None:
            continue
        if meta is None:  # a constant input: no edge takes it, but a post-hook sees it
            continue
        shape, char = meta
        if g._data.shape == shape and g._data.dtype.char == char:
            continue
        dtype = np.dtype(char)
        if g._data.shape != shape:
            if not _expandable(shape, g._data.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"{list(g._data.shape)} but expected shape compatible with {list(shape)}"
                )
            # torch's sum_to: a plain sum() (SumBackward0) for a 0-d input
            g = g.sum() if shape == () else g.sum_to_size(*shape)
        if g._data.dtype != dtype and dtype.kind == "f":
            g = g.to(_dtype.from_numpy_dtype(dtype))
        fixed = fixed or list(outputs)
        fixed[i] = g
    return outputs if fixed is None else tuple(fixed)


def _expandable(shape, target) -> bool:
    """Can a tensor of ``shape`` be broadcast to ``target``?"""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))


def zeros_for(shape, np_dtype, like):
    """A zero gradient of ``shape`` (for an output that got none), as a tensor like ``like``.
    torch fills new memory with zero_(), so a custom Function's backward sees version 1."""
    zeros = type(like)._make(np.zeros(shape, dtype=np_dtype))
    zeros._bump_version()
    return zeros


# --- torch.autograd.graph's tools over whole graphs and passes ---------------------------------
# The GraphTasks being executed, innermost last (engine.py pushes and pops them): a node's
# backward may run the engine again (checkpoint's, reentrantly), and a multi-grad hook asks
# which pass it is in.
running: list = []


class GradientEdge(NamedTuple):
    """Where a gradient enters the graph: output ``output_nr`` of ``node`` (torch's
    ``GradientEdge``). ``autograd.grad`` takes one wherever it takes a tensor, so a gradient
    can be asked for after the tensor itself is gone."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The edge through which ``tensor``'s gradient flows: ``grad(loss, tensor)`` and
    ``grad(loss, get_gradient_edge(tensor))`` give the same."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    node, nr = edge_of(tensor)
    return GradientEdge(node, nr)


def increment_version(tensor) -> None:
    """Bump the version counter of ``tensor`` (or of each tensor in an iterable), for a change
    made behind autograd's back (writing into ``t.numpy()``, say): backward then refuses the
    stale saved values, as it does after any in-place op."""
    for t in (tensor,) if _is_tensor(tensor) else tensor:
        if not t._is_inference:  # an inference tensor has no version counter to bump
            t._bump_version()


def _is_tensor(obj) -> bool:
    return hasattr(obj, "_bump_version")


class _MultiHandle(RemovableHandle):
    """One handle for the hooks ``register_multi_grad_hook`` put on each tensor."""

    def __init__(self, handles: tuple):
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all") -> RemovableHandle:
    """Call ``fn`` once per backward pass over the gradients of several tensors.

    ``mode="all"``: after the gradients of every tensor this pass will compute have arrived,
    ``fn(grads)`` gets them in order, ``None`` for a tensor the pass leaves out (not in the
    graph, or not needed for the pass's ``inputs``). ``mode="any"``: ``fn(grad)`` with the
    first gradient that arrives. Counts are kept per pass, as torch keys them by graph task."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        fired: dict = {}

        def first_only(grad):
            task = running[-1].id
            if not fired.setdefault(task, False):
                fired[task] = True
                fn(grad)

        return _MultiHandle(tuple(t.register_hook(first_only) for t in tensors
                                  if t.requires_grad))
    nodes = [edge_of(t)[0] for t in tensors]
    if None in nodes:
        raise AssertionError("Expected gradient function to be set")
    calls: dict = {}  # graph task id -> (gradients so far, how many arrived, how many expected)

    def hook_for(i):
        def collect(grad):
            task = running[-1]
            if task.id not in calls:
                calls[task.id] = ([None] * len(nodes), [0],
                                  sum(map(task.will_execute, nodes)))
            grads, arrived, expected = calls[task.id]
            grads[i] = grad
            arrived[0] += 1
            if arrived[0] == expected:
                del calls[task.id]
                fn(grads)

        return collect

    return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))


_OUTSIDE_MUTATION_CONTEXT = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
                             "contextin which the graph was originally recorded.")


class _AllowMutationOnSavedContext:
    """What ``allow_mutation_on_saved_tensors`` keeps: each saved tensor with the version it
    had and a copy of its values then. Unpacked, a tensor that has not changed since comes
    back as itself, one that changed as that copy (torch copies lazily, just before the
    change; minigrad copies when saving, which gives the same values)."""

    def __init__(self):
        self.saved: dict = {}
        self.open = False

    def pack(self, tensor):
        key = len(self.saved)
        self.saved[key] = (tensor, tensor._version, tensor.detach().clone())
        return key

    def unpack(self, key):
        if not self.open or key not in self.saved:
            raise AssertionError(_OUTSIDE_MUTATION_CONTEXT)
        tensor, version, copy = self.saved[key]
        return tensor if tensor._version == version else copy

    def clear(self) -> None:
        self.saved.clear()


_mutation_context: list = []  # the open allow_mutation_on_saved_tensors block, if any


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """A block under which tensors saved for backward may change in place: backward uses the
    values they had when saved, where it would otherwise raise the "modified by an inplace
    operation" error. Run the forward and the backward inside the same block."""
    ctx = _AllowMutationOnSavedContext()
    with saved_tensors_hooks(ctx.pack, ctx.unpack):
        try:
            if _mutation_context:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _mutation_context.append(ctx)
            ctx.open = True
            yield ctx
        finally:
            ctx.clear()
            ctx.open = False
            if _mutation_context and _mutation_context[-1] is ctx:
                _mutation_context.pop()
