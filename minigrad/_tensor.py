"""The Tensor: a NumPy array plus the few fields autograd needs.

Fields worth knowing (all as in torch):

* ``_data``: the NumPy array holding the values. Views share it with their base.
* ``grad_fn``: the node that made this tensor (``None`` for leaves), and ``_output_nr``,
  which of that node's outputs it is.
* ``requires_grad``: for a leaf, a flag you set; for anything else, "has a grad_fn".
* ``_grad``: the gradient accumulated by backward (leaves, and non-leaves with retain_grad).
* ``_version_counter``: bumped by every in-place change, shared with views, checked by saved
  tensors so a stale value is never used in backward.
* ``_base`` and ``_view_fn``: for a view, the tensor it looks into and how to look again.

The operations themselves live in ``minigrad/_ops``, each with its backward node; the table
in ``minigrad/_ops/__init__.py`` makes them methods of ``Tensor`` (``x.exp()``, ``x + y``).
"""

from __future__ import annotations

import copy
import numbers
import warnings
import weakref

import numpy as np

from minigrad import _dtype, _layout, _numeric, cuda, storage
from minigrad._size import Size, device
from minigrad._tensor_str import tensor_str
from minigrad.autograd import grad_mode
from minigrad.autograd.forward_grad import tangent_of
from minigrad.autograd.graph import _HookDict, add_hook, output_meta
from minigrad.autograd.special_nodes import AccumulateGrad
from minigrad.autograd.views import refresh_grad_fn

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)
NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
T_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
    "tensor.")
SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to "
                  "unexpected behavior.\nConsider using tensor.detach() first.")
T_0D_WARNING = ("Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
                "cases.")
_warned = set()  # the messages torch gives once per process (TORCH_WARN_ONCE)


def _warn_once(message: str, stacklevel: int = 3) -> None:
    """``stacklevel`` 3 names the caller's caller (the learner's line, for a C++ warning);
    2 the caller's own line (a warning torch's Python raises, or its C++ called from there)."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)


# How torch's C++ core names element types in the grad-assignment message.
_CPP_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                   "int64": "long int", "int32": "int", "int16": "short int",
                   "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def new_version_counter() -> np.ndarray:
    """A shared, mutable integer, read and bumped as ``counter[0]``: a tensor and all its views
    hold the same one. It is a one-element int64 array rather than an object of a class of
    ours because a saved output keeps its counter for as long as the graph lives, and
    Python's garbage collector scans every object of a Python class (and every ``array``) at
    each full collection; it never scans a NumPy array."""
    return np.zeros(1, np.int64)


def check_device(d) -> None:
    """A tensor may go to (or be made on) the CPU only: elsewhere, a CPU-only torch's error."""
    if d is None:
        return
    d = device(d)
    if d.type == "cuda":
        cuda._lazy_init()
    elif d.type != "cpu":
        raise RuntimeError(f"Could not run on device '{d.type}': minigrad computes on the CPU "
                           "only")


_CPU = device("cpu")


class Tensor:
    # NumPy defers to the tensor's reflected operators: np.float64(2) * x is x.__rmul__
    __array_priority__ = 1000

    # Every op makes a tensor, so making one must be cheap. The fields every tensor sets, or
    # that autograd sets on most of them, live in slots (``_grad`` too: tools may read it
    # through the slot's descriptor, which no subclass can override). The ones only a view, a
    # leaf that requires grad or a tensor with hooks sets are class attributes below, which
    # such a tensor shadows in its ``__dict__`` on first assignment.
    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_output_nr", "_grad", "_counter",
                 "_is_inference", "__weakref__", "__dict__")
    _base = None  # for a view: the tensor it looks into; see autograd/views.py
    _view_fn = None
    _view_version = 0
    _creation_meta = None  # for a view: how it was made
    _retains_grad = False
    _accumulator = None  # a leaf's AccumulateGrad node, see _grad_accumulator
    _post_accumulate_hooks = None
    _grad_dtype = _OWN_DTYPE = object()  # a leaf's grad_dtype: its own dtype until set
    _learner_subclass = False  # a learner's subclass of Tensor (see _ops/subclass.py)

    def __init_subclass__(cls, **kwargs):
        """A learner's subclass keeps its type through operations, as in torch
        (``_ops/subclass.py``)."""
        super().__init_subclass__(**kwargs)
        Tensor._subclassed(cls)

    @staticmethod
    def _subclassed(cls) -> None:
        """Replaced by ``_ops/subclass.register`` once the ops are loaded."""

    def __new__(cls, *args):
        """``Tensor(list)`` makes a float tensor, ``Tensor(2, 3)`` an uninitialised one. As
        torch's, the tensor is made here, with no ``__init__``: a learner's subclass may define
        either (``super().__new__(cls, data)``, or an ``__init__`` of its own arguments)."""
        if len(args) == 1 and not isinstance(args[0], int):
            data = np.asarray(args[0], dtype=_dtype.get_default_dtype().numpy)
        else:  # (no sizes at all: torch's empty tensor, of size [0])
            data = np.empty(args or (0,), dtype=_dtype.get_default_dtype().numpy)
        t = object.__new__(cls)
        Tensor._init(t, data)
        return t

    # --- construction, for minigrad's own use --------------------------------------------
    @staticmethod
    def _init(t, data: np.ndarray) -> None:
        t._data = data
        t._requires_grad = False
        t._grad_fn = None
        t._output_nr = 0  # which output of ``_grad_fn`` this tensor is
        t._grad = None
        t._counter = None  # the version counter, made on first use (see _version_counter)
        t._is_inference = grad_mode._state.inference

    @classmethod
    def _make(cls, data: np.ndarray) -> Tensor:
        t = object.__new__(Tensor)
        if data.__class__ is not np.ndarray:  # a ufunc's NumPy scalar for a 0-d result
            data = np.asarray(data)  # (np.isnan(0-d) is np.bool_: in-place ops need an array)
        t._data = data  # Tensor._init, written out: this runs for every result
        t._requires_grad = False
        t._grad_fn = None
        t._output_nr = 0
        t._grad = None
        t._counter = None
        t._is_inference = grad_mode._state.inference
        return t

    def _attach(self, node, output_nr: int = 0) -> None:
        """Make this tensor output ``output_nr`` of ``node``. A ``retain_grad`` follows the
        tensor to its new node (after an in-place change), as in torch; other hooks stay."""
        old, old_nr = self._grad_fn, self._output_nr
        self._grad_fn = node
        self._output_nr = output_nr
        if output_nr == 0 and old is not node:  # (several outputs: _output_meta lists them)
            node._output0 = output_meta(self._data)
        if self._retains_grad and old is not None and old._retain_grad_hooks:
            ref = old._retain_grad_hooks.pop(old_nr, None)
            if ref is not None:
                if node._retain_grad_hooks is None:
                    node._retain_grad_hooks = {}
                node._retain_grad_hooks[output_nr] = ref

    # --- autograd fields -----------------------------------------------------------------
    @property
    def grad_fn(self):
        """The node that made this tensor. A view whose base changed in place since it was
        made gets a fresh ``AsStridedBackward0`` node pointing at the base, as in torch."""
        if self._base is not None and self._view_version != self._version_counter[0]:
            refresh_grad_fn(self)
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def requires_grad(self) -> bool:
        # ``_grad_fn`` first: the ``grad_fn`` property's extra work is for stale views only
        # a view requires grad when its base does, even one made under no_grad (as in torch)
        return (self._requires_grad or self._grad_fn is not None
                or (self._base is not None and (self._base.requires_grad
                                                or self.grad_fn is not None)))

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):  # torch's setter takes a Python bool only
            raise RuntimeError("requires_grad must be a bool")
        if not self.is_leaf:
            if value:  # torch's shorter message when asking for True
                raise RuntimeError(NON_LEAF_REQUIRES_GRAD.split(" If")[0])
            raise RuntimeError(NON_LEAF_REQUIRES_GRAD)
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if value and self._is_inference and not grad_mode._state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if not isinstance(requires_grad, bool | np.bool_):  # torch's argument parser's bool
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        requires_grad = bool(requires_grad)
        if requires_grad and not self.is_leaf:
            return self  # a non-leaf already requires grad: nothing to change
        if requires_grad and not self.dtype.is_floating_point:  # torch's wording differs here
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        if self._grad_fn is None and self._base is None:  # a plain leaf: nothing to warn about
            return self._grad
        # torch warns while a non-leaf's .grad is undefined (one assigned is just returned)
        if self._grad is None and not self.is_leaf and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            allowed = self.dtype if self._grad_dtype is Tensor._OWN_DTYPE else self._grad_dtype
            if allowed is not None and value.dtype is not allowed:  # checked first, as torch
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype "
                    f"'{_CPP_TYPE_NAMES[value.dtype.name]}' to a tensor with grad_dtype "
                    f"'{allowed.scalar_name}'. The gradient must match "
                    "the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match.")
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def grad_dtype(self):
        """The dtype a leaf's ``.grad`` must have (torch 2.13): the leaf's own dtype unless
        set; ``None`` allows any. The engine casts the gradients it accumulates to it."""
        if not self.is_leaf:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        return self.dtype if self._grad_dtype is Tensor._OWN_DTYPE else self._grad_dtype

    @grad_dtype.setter
    def grad_dtype(self, value) -> None:
        if not self.is_leaf:
            if self._grad is None and not self._retains_grad:  # torch reads .grad first
                warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, _dtype.dtype):
            raise RuntimeError("grad_dtype must be a minigrad.dtype or None, but got "
                               f"{type(value).__name__}")
        if self._grad is not None and value is not None and self._grad.dtype is not value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{value.scalar_name}' because there is already a "
                f"gradient with dtype '{_CPP_TYPE_NAMES[self._grad.dtype.name]}'. Please clear "
                "the gradient (.grad = None) before changing grad_dtype, or ensure the new "
                "grad_dtype matches the existing gradient's dtype.")
        self._grad_dtype = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Ask backward to keep this non-leaf's gradient in ``.grad``.

        It works by registering a hook on the node that made this tensor: when gradient for
        this output passes through, the hook stores it (see ``engine.call_pre_hooks``).
        """
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.is_leaf or self._retains_grad:
            return
        node = self.grad_fn
        if node._retain_grad_hooks is None:
            node._retain_grad_hooks = {}
        node._retain_grad_hooks[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def _grad_accumulator(self) -> AccumulateGrad:
        """The leaf's AccumulateGrad node, made once and shared by every use of the leaf."""
        if self._accumulator is None:
            self._accumulator = AccumulateGrad(self)
        return self._accumulator

    def register_hook(self, hook):
        """``hook(grad)`` runs when this tensor's gradient is computed; returning a tensor
        replaces the gradient. Returns a handle whose ``remove()`` unregisters it."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn._add_tensor_hook(self._output_nr, hook)
        return self._grad_accumulator()._add_tensor_hook(0, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """``hook(tensor)`` runs after AccumulateGrad has updated this leaf's ``.grad``."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not self.is_leaf:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = _HookDict()
        return add_hook(self._post_accumulate_hooks, hook)

    # --- data, versions and views ----------------------------------------------------------
    @property
    def data(self) -> Tensor:
        """The same values, cut off from autograd: changes through it are not tracked."""
        return Tensor._make(self._data)

    @data.setter
    def data(self, value: Tensor) -> None:
        """Swap the values under the same tensor (torch's ``set_data``), with torch's checks:
        a tensor, and a floating one if this tensor requires grad."""
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self.requires_grad and not value.dtype.is_floating_point:
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data

    @property
    def volatile(self) -> bool:
        """Pre-0.4 inference flag (old books set it): gone, as in torch, which warns."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value) -> None:
        warnings.warn("volatile was removed and now has no effect. Use `with minigrad.no_grad():` "
                      "instead.", stacklevel=2)

    @property
    def _version_counter(self) -> np.ndarray:
        """Made on first use: most tensors (intermediate results, gradients) are never
        changed in place, viewed or saved, so they never need one. A counter made late
        starts at 0, as it would have anyway, since only a change in place bumps it."""
        if self._counter is None:
            self._counter = new_version_counter()
        return self._counter

    @_version_counter.setter
    def _version_counter(self, counter: np.ndarray) -> None:
        self._counter = counter

    @property
    def _version(self) -> int:
        if self._is_inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return int(self._version_counter[0])

    def _bump_version(self) -> None:
        counter = self._counter  # the property, written out: every in-place op bumps
        if counter is None:
            counter = self._counter = new_version_counter()
        counter[0] += 1

    def _is_view(self) -> bool:
        """Whether this tensor looks into another one's memory as an autograd view (x[0],
        x.view(...)); a detach() shares memory too but is not a view, as in torch."""
        return self._base is not None

    def detach(self) -> Tensor:
        """A new tensor sharing data and version counter, with no grad_fn."""
        out = Tensor._make(self._data)
        out._version_counter = self._version_counter
        out._is_inference = self._is_inference  # an alias, like a view
        return out

    def detach_(self) -> Tensor:
        if self._base is not None and self._base.requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views of "
                               "DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the Optimizer."
                               "zero_grad() function in torch/optim/optimizer.py as the "
                               "solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    # --- plain facts --------------------------------------------------------------------------
    @property
    def dtype(self):
        # the lookup from_numpy_dtype starts with, done here first: many ops ask this
        return _dtype._BY_NUMPY.get(self._data.dtype) or _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def shape(self) -> Size:
        return tuple.__new__(Size, self._data.shape)  # ints already: no checks

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self._data.shape[_wrap_own_dim(dim, self._data.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    def storage_offset(self) -> int:
        """How many elements into its memory this tensor starts (a view's offset)."""
        start = self._data.__array_interface__["data"][0]
        return (start - self.untyped_storage().data_ptr()) // self._data.itemsize

    def stride(self, dim=None):
        data = self._data
        if data.size == 0 and not any(data.strides):
            # NumPy gives a new empty array zero strides; torch gives it contiguous ones, a
            # size of 0 counted as 1: zeros(2, 0, 3).stride() is (3, 3, 1)
            strides, step = [], 1
            for size in reversed(data.shape):
                strides.append(step)
                step *= max(size, 1)
            strides = tuple(reversed(strides))
        else:
            strides = tuple(s // data.itemsize for s in data.strides)
        return strides if dim is None else strides[_wrap_own_dim(dim, data.ndim)]

    def is_contiguous(self, memory_format=None) -> bool:
        if memory_format is None:
            return bool(self._data.flags.c_contiguous)
        return _layout.is_contiguous_as(self._data, memory_format)

    @property
    def layout(self) -> _layout.layout:
        return _layout.strided

    def data_ptr(self) -> int:
        return self._data.__array_interface__["data"][0]

    def untyped_storage(self) -> storage.UntypedStorage:
        return storage.UntypedStorage(storage.root_array(self._data), _CPU)

    def storage(self) -> storage.TypedStorage:
        """The memory as numbers of this dtype (torch's deprecated TypedStorage: it warns)."""
        return storage.typed_storage(self._data, _CPU)

    @property
    def device(self) -> device:
        return _CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_cpu(self) -> bool:
        return True

    def get_device(self) -> int:
        return -1  # torch's answer for a CPU tensor

    def type(self, dtype=None):  # noqa: A003
        """``x.type()`` names the legacy tensor type (``"minigrad.FloatTensor"``);
        ``x.type(minigrad.float64)`` or ``x.type("minigrad.DoubleTensor")`` converts."""
        if dtype is None:
            return f"minigrad.{self.dtype.legacy_name}"
        if isinstance(dtype, str):
            name = dtype.removeprefix("minigrad.").removeprefix("torch.")
            matches = [d for d in _dtype._ALL if d.legacy_name == name]
            if not matches:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = matches[0]
        elif isinstance(dtype, _TensorType):
            dtype = dtype.dtype
        return self.to(dtype)

    def type_as(self, other) -> Tensor:
        """``self`` converted to ``other``'s dtype (``self`` itself when it has it already)."""
        if not isinstance(other, Tensor):
            raise TypeError("type_as(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        return self.to(other.dtype)

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_inference(self) -> bool:
        return self._is_inference

    @property
    def T(self) -> Tensor:  # noqa: N802
        """torch implements ``x.T`` as a permute that reverses the dims; on other than 2-D
        tensors it warns, once per process as torch's TORCH_WARN_ONCE does."""
        n = self._data.ndim
        if n != 2:
            _warn_once(T_0D_WARNING if n == 0 else T_ND_WARNING)
        return self.permute(*reversed(range(n)))

    # mT, mH and H: _ops/aliases.py

    # --- leaving the tensor world ---------------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               "to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self.requires_grad and grad_mode._state.enabled and not force:  # (not under no_grad)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return self._data.view()  # a new array on the same memory each time, as torch's

    def __array__(self, dtype=None, copy=None):
        """NumPy 2's protocol: ``np.asarray(x)`` shares the tensor's memory, ``np.array(x)``
        (``copy=True``) copies it, ``copy=False`` refuses a copy. Like ``numpy()``, it raises
        for a tensor that requires grad."""
        data = self.numpy()
        if dtype is not None and np.dtype(dtype) != data.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return data.astype(dtype)
        return data.copy() if copy else data

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A NumPy function applied to a tensor (``np.exp(x)``, ``x + np.ones(3)`` through
        NumPy) gives a tensor back, as torch's ``__array_wrap__`` does (bool as uint8)."""
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return Tensor._make(np.asarray(array))

    def cpu(self) -> Tensor:
        return self

    def cuda(self, device=None, non_blocking=False) -> Tensor:
        """Raises, as a CPU-only torch does: minigrad has no GPU."""
        if device is not None:
            raise RuntimeError("Cannot access accelerator device when none is available.")
        cuda._lazy_init()

    def is_pinned(self) -> bool:
        return False

    def pin_memory(self) -> Tensor:
        """Page-locked memory is for copies to a GPU: torch raises when there is none."""
        raise RuntimeError("Cannot access accelerator device when none is available.")

    def __contains__(self, element) -> bool:
        """``2 in x``: does any element equal it (torch's rule, not iteration's)."""
        if isinstance(element, Tensor | numbers.Number):
            return bool((element == self).any().item())
        raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed "
                           f"in a {type(element)}.")

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with "
                               f"{'no values' if self._data.size == 0 else 'more than one value'}"
                               " is ambiguous")
        return bool(self._data.reshape(()))

    def __float__(self) -> float:
        # torch warns here (and for complex()), not in int() or item(), and not under no_grad
        if self.requires_grad and grad_mode._state.enabled:
            _warn_once(SCALAR_WARNING)
        return float(self._python_scalar())

    def __int__(self) -> int:
        return int(self._python_scalar())

    def _python_scalar(self):
        """``item()`` for ``float(x)`` and ``int(x)``, which word a size error their own way."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        out = type(self).__new__(type(self))
        # torch copies the storage and points the new tensor at it with set_, which keeps the
        # layout (a transposed tensor stays transposed) and counts as one change: version 1
        Tensor._init(out, self._data.copy(order="K"))
        out._bump_version()
        out._requires_grad = self._requires_grad
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = out
        # the user's own attributes (``x.note = ...``) are deep-copied, as torch copies a
        # tensor's __dict__; not minigrad's bookkeeping, which shares that dict (a class
        # attribute shadowed there, or a forward-mode tangent)
        own = {k: v for k, v in self.__dict__.items() if k not in _BOOKKEEPING}
        if own:
            out.__dict__.update(copy.deepcopy(own, memo))
        return out

    # --- printing ----------------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None) -> str:
        try:
            fn = self.grad_fn
            fn_name = None if fn is None else type(fn).__name__
        except RuntimeError:  # a no_grad view whose base changed: torch prints it as Invalid
            fn_name = "Invalid"
        d = self.dtype
        # a learner's subclass prints its own name (``MyTensor([1., 2.])``), as in torch
        prefix = f"{type(self).__name__}(" if self._learner_subclass else "tensor("
        return tensor_str(self._data, dtype_name=d.name, prefix=prefix,
                          is_default_dtype=d is _dtype.get_default_dtype(),
                          requires_grad=self.requires_grad,
                          grad_fn_name=fn_name,
                          tangent=tangent_of(self))

    def __str__(self) -> str:
        return self.__repr__()  # (a subclass's own __repr__ too, as in torch)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)


# type(x) prints <class 'minigrad.Tensor'>, as torch's classes print under their public name
Tensor.__module__ = "minigrad"

# What minigrad keeps in a tensor's __dict__ (see Tensor's slots): never copied as the user's.
_BOOKKEEPING = frozenset(vars(Tensor)) | {"_fw_grad"}


class _TensorType(type):
    """torch's legacy tensor types (``LongTensor``...): calling one makes a Tensor of its dtype
    (from data, or uninitialised from sizes), and ``isinstance`` checks the dtype."""

    def __call__(cls, *args):
        if len(args) == 1 and isinstance(args[0], Tensor):
            # torch neither copies nor converts a tensor here: the same dtype gives an alias
            # (AliasBackward0), another one torch's TypeError
            if args[0].dtype is not cls.dtype:
                raise TypeError(f"expected {_tensor_options(cls.dtype)} (got "
                                f"{_tensor_options(args[0].dtype)})")
            return args[0]._alias()
        if len(args) == 1 and not isinstance(args[0], int):
            data = np.array(args[0])
            _dtype.check_fits(data, cls.dtype)  # nan, inf or too large: torch's error
            return Tensor._make(_numeric.cast(data, cls.dtype.numpy))
        return Tensor._make(np.empty(args or (0,), dtype=cls.dtype.numpy))  # () is size [0]

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype


def _tensor_options(d) -> str:
    return (f"TensorOptions(dtype={_CPP_TYPE_NAMES[d.name]}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def legacy_type(d) -> _TensorType:
    return _TensorType(d.legacy_name, (), {"dtype": d, "is_cuda": False, "__module__": "minigrad"})


def _wrap_dim(dim: int, ndim: int) -> int:
    """A possibly negative dim as a positive one, with torch's error when out of range."""
    lo, hi = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], "
                         f"but got {dim})")
    return dim % max(ndim, 1)


def _wrap_own_dim(dim: int, ndim: int) -> int:
    """``_wrap_dim`` for a question about the tensor's own dims (``size(d)``, ``stride(d)``): a
    0-d tensor has none, where ops let it act as a 1-d one (torch's wrap_scalar=false)."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, ndim)
