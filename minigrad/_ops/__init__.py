"""minigrad's operations, and the table that makes them Tensor methods and operators.

Each op is a plain function whose first argument is the tensor (``exp(x)``); ``METHODS``
binds it as ``x.exp()`` too. Operators (``x + y``, ``x[i] = v``...) are bound the same way.
"""

from __future__ import annotations

import sys

import numpy as np

from minigrad import _creation, _dtype, _left_out
from minigrad._ops import (
    _vmap_hook,
    activation,
    aliases,
    assorted,
    binning,
    composites,
    determinant,
    differences,
    distance,
    elementary,
    float_bits,
    gamma,
    index_add,
    index_reduce,
    indexing,
    inplace,
    inplace_compare,
    inverse,
    join,
    linalg,
    locate,
    matrix_norms,
    nn_ops,
    order_statistics,
    pointwise,
    products,
    quantile,
    queries,
    rearrange,
    reduction,
    resize,
    sampling,
    scan,
    shape,
    sorting,
    special_functions,
    stacking,
    statistics,
    subclass,
    unique,
    view_scatter,
)
from minigrad._ops._core import NUMBER
from minigrad._tensor import Tensor
from minigrad.autograd import _functions, api

P, R, L, S, I, X = pointwise, reduction, linalg, shape, indexing, inplace  # noqa: E741
E = elementary

METHODS = {
    # arithmetic and math
    "add": P.add, "sub": P.sub, "mul": P.mul, "div": P.div, "pow": P.pow, "neg": P.neg,
    "reciprocal": P.reciprocal, "abs": P.abs, "exp": P.exp, "log": P.log, "sqrt": P.sqrt,
    "sin": P.sin, "cos": P.cos, "tanh": P.tanh, "sigmoid": P.sigmoid, "relu": P.relu,
    "square": E.square, "log1p": E.log1p, "expm1": E.expm1, "exp2": E.exp2, "atan": E.atan,
    "arctan": E.atan, "asin": E.asin, "arcsin": E.asin, "acos": E.acos, "arccos": E.acos,
    "atan2": E.atan2, "arctan2": E.atan2, "hypot": E.hypot,
    "sign": P.sign, "clamp": P.clamp, "clip": P.clip_op, "eq": P.eq, "ne": P.ne, "lt": P.lt,
    "le": P.le, "gt": P.gt, "ge": P.ge, "logical_not": P.logical_not,
    "logical_and": P.logical_and, "logical_or": P.logical_or,
    "logical_xor": P.logical_xor, "where": P.where_method,
    "isnan": P.isnan,
    "allclose": P.allclose, "equal": P.equal, "multiply": P.mul, "subtract": P.sub,
    "divide": P.div, "negative": P.neg,
    # reductions
    "sum": R.sum, "mean": R.mean, "max": R.max, "min": R.min, "argmax": R.argmax,
    "prod": R.prod,
    # linear algebra
    "dot": L.dot, "mm": L.mm, "mv": L.mv, "matmul": L.matmul, "bmm": L.bmm,
    # shapes and views
    "view": S.view, "reshape": S.reshape, "_unsafe_view": S._unsafe_view, "flatten": S.flatten,
    "contiguous": S.contiguous, "clone": S.clone, "to": S.to, "t": S.t,
    "transpose": S.transpose, "permute": S.permute, "unsqueeze": S.unsqueeze,
    "squeeze": S.squeeze, "_squeeze_dims": S._squeeze_dims, "expand": S.expand,
    "expand_as": S.expand_as, "sum_to_size": S.sum_to_size, "narrow": S.narrow,
    "unbind": S.unbind, "select": I.select, "_slice": I.slice_dim, "view_as": S.view_as,
    "reshape_as": S.reshape_as, "as_strided": S.as_strided,
    # in place
    "add_": X.add_, "sub_": X.sub_, "mul_": X.mul_, "div_": X.div_, "log_": X.log_,
    "exp_": X.exp_, "neg_": X.neg_, "sigmoid_": X.sigmoid_, "tanh_": X.tanh_, "relu_": X.relu_,
    "clamp_": X.clamp_, "zero_": X.zero_, "fill_": X.fill_, "copy_": X.copy_,
    "uniform_": X.uniform_, "normal_": X.normal_, "bernoulli": X.bernoulli,
    "bernoulli_": X.bernoulli_, "random_": X.random_, "exponential_": X.exponential_,
    "geometric_": X.geometric_, "multinomial": sampling.multinomial,
    "index_put_": X.index_put_, "index_put": X.index_put, "scatter": I.scatter,
    "_index_put_padded": lambda self, indices, values: X.index_put_(self, indices, values),
    # math, reductions, rounding and scans (fidelity round 2)
    "floor": P.floor, "ceil": P.ceil, "round": P.round, "trunc": P.trunc, "frac": P.frac,
    "fix": P.trunc, "maximum": P.maximum, "minimum": P.minimum,
    "fmax": P.fmax, "fmin": P.fmin, "clamp_min": P.clamp_min,
    "clamp_max": P.clamp_max, "lerp": P.lerp, "floor_divide": P.floor_divide,
    "remainder": P.remainder, "fmod": P.fmod, "softmax": nn_ops.softmax,
    "log_softmax": nn_ops.log_softmax, "norm": matrix_norms.norm_method, "var": R.var, "std": R.std,
    "logsumexp": R.logsumexp, "amax": R.amax, "amin": R.amin, "argmin": R.argmin,
    "all": R.all, "any": R.any, "cumsum": scan.cumsum, "cumprod": scan.cumprod,
    "floor_": X.floor_, "ceil_": X.ceil_, "round_": X.round_, "trunc_": X.trunc_,
    "frac_": X.frac_, "clamp_min_": X.clamp_min_, "clamp_max_": X.clamp_max_,
    "cumsum_": X.cumsum_, "cumprod_": X.cumprod_, "floor_divide_": X.floor_divide_,
    "remainder_": X.remainder_, "fmod_": X.fmod_, "lerp_": X.lerp_,
    "sqrt_": X.sqrt_, "sin_": X.sin_, "cos_": X.cos_, "abs_": X.abs_, "pow_": X.pow_,
    "__ipow__": X.pow_,
    "t_": X.t_, "transpose_": X.transpose_, "swapdims_": X.transpose_,
    "swapaxes_": X.transpose_, "unsqueeze_": X.unsqueeze_, "squeeze_": X.squeeze_,
    "swapdims": S.swapdims, "swapaxes": S.swapaxes,
    "__ifloordiv__": X.floor_divide_, "__imod__": X.remainder_,
    "__floordiv__": P.floor_divide, "__rfloordiv__": P.rfloordiv, "__mod__": P.remainder,
    "__rmod__": P.rmod,
    "log10": P.log10, "log2": P.log2, "rsqrt": P.rsqrt, "log10_": X.log10_, "log2_": X.log2_,
    "rsqrt_": X.rsqrt_,
    "nan_to_num": P.nan_to_num, "nan_to_num_": X.nan_to_num_, "isfinite": P.isfinite,
    "isinf": P.isinf,
    # autograd
    "backward": api.tensor_backward,
    # new tensors like this one
    "new_zeros": _creation.new_zeros, "new_ones": _creation.new_ones,
    "new_empty": _creation.new_empty, "new_full": _creation.new_full,
    "new_tensor": _creation.new_tensor,
    # dtype conversions
    "float": lambda self: S.to(self, _dtype.float32),
    "double": lambda self: S.to(self, _dtype.float64),
    "half": lambda self: S.to(self, _dtype.float16),
    "long": lambda self: S.to(self, _dtype.int64),
    "int": lambda self: S.to(self, _dtype.int32),
    "bool": lambda self: S.to(self, _dtype.bool),
    "byte": lambda self: S.to(self, _dtype.uint8),
    "char": lambda self: S.to(self, _dtype.int8),
    "short": lambda self: S.to(self, _dtype.int16),
    # operators
    "__add__": P.add, "__radd__": P.add, "__sub__": P.sub, "__rsub__": P.rsub,
    "__mul__": P.mul, "__rmul__": P.mul, "__truediv__": P.div,
    "__rtruediv__": lambda self, other: P.div(other, self), "__pow__": P.pow,
    "__rpow__": lambda self, other: P.pow(other, self), "__neg__": P.neg, "__abs__": P.abs,
    "__matmul__": L.matmul, "__rmatmul__": lambda self, other: L.matmul(other, self),
    "__eq__": P.eq, "__ne__": P.ne, "__lt__": P.lt, "__le__": P.le, "__gt__": P.gt,
    "__ge__": P.ge, "__and__": P.bitwise_and, "__or__": P.bitwise_or,
    "__invert__": P.invert, "__xor__": P.bitwise_xor,
    "__rand__": P.bitwise_and, "__ror__": P.bitwise_or, "__rxor__": P.bitwise_xor,
    "__lshift__": P.bitwise_left_shift, "__rshift__": P.bitwise_right_shift,
    "__rlshift__": lambda self, other: P.bitwise_left_shift(other, self),
    "__rrshift__": lambda self, other: P.bitwise_right_shift(other, self),
    "bitwise_and": P.bitwise_and, "bitwise_or": P.bitwise_or, "bitwise_xor": P.bitwise_xor,
    "bitwise_not": P.bitwise_not, "bitwise_left_shift": P.bitwise_left_shift,
    "bitwise_right_shift": P.bitwise_right_shift,
    "__iadd__": X.add_, "__isub__": X.sub_, "__imul__": X.mul_, "__itruediv__": X.div_,
    "__getitem__": I.getitem, "__setitem__": I.setitem,
    # indexing, shapes, sorting and linear algebra (fidelity round 2)
    "masked_fill": I.masked_fill, "masked_fill_": X.masked_fill_,
    "masked_scatter": I.masked_scatter, "masked_scatter_": X.masked_scatter_, "gather": I.gather,
    "scatter_": X.scatter_, "scatter_add": I.scatter_add, "scatter_add_": X.scatter_add_,
    "index_select": I.index_select, "masked_select": I.masked_select, "split": S.split_method,
    "split_with_sizes": S.split_with_sizes, "chunk": S.chunk, "repeat": S.repeat,
    "flip": S.flip, "roll": S.roll, "diagonal": S.diagonal, "unfold": S.unfold,
    "topk": sorting.topk,
    "sort": sorting.sort, "argsort": sorting.argsort, "addmm": nn_ops.addmm, "outer": L.outer,
    "diag": L.diag,
    "diag_embed": L.diag_embed, "tril": L.tril, "triu": L.triu,
    # torch's abs backward uses sgn (the autograd API helper's block)
    "sgn": P.sgn,
    # torch.FloatTensor(t) of a float32 t: an alias (AliasBackward0)
    "_alias": I.alias, "as_subclass": subclass.as_subclass,
    # questions about a tensor (queries.py)
    "is_complex": queries.is_complex, "is_nonzero": queries.is_nonzero,
    # manipulation: moving dims, tiling, broadcasting, differences (rearrange, differences)
    "movedim": rearrange.movedim, "moveaxis": rearrange.moveaxis, "tile": rearrange.tile,
    "broadcast_to": rearrange.broadcast_to, "repeat_interleave": rearrange.repeat_interleave,
    "diff": differences.diff, "trace": differences.trace, "addcmul": differences.addcmul,
    "addcdiv": differences.addcdiv, "addcmul_": differences.addcmul_,
    "addcdiv_": differences.addcdiv_, "index_add": index_add.index_add,
    "index_add_": index_add.index_add_, "fliplr": rearrange.fliplr,
    "flipud": rearrange.flipud, "rot90": rearrange.rot90, "unflatten": rearrange.unflatten,
    "tensor_split": stacking.tensor_split, "hsplit": stacking.hsplit,
    "vsplit": stacking.vsplit, "dsplit": stacking.dsplit, "nonzero": locate.nonzero,
    "argwhere": locate.argwhere, "count_nonzero": locate.count_nonzero, "take": locate.take,
    "put": locate.put, "put_": locate.put_,
    "take_along_dim": locate.take_along_dim, "cummax": scan.cummax, "cummin": scan.cummin,
    "logcumsumexp": scan.logcumsumexp, "inner": products.inner, "kron": products.kron,
    "cross": products.cross, "vdot": products.vdot, "addmv": products.addmv,
    "baddbmm": products.baddbmm, "addbmm": products.addbmm,
    "matrix_power": products.matrix_power,
    # statistics_losses
    "dist": distance.dist, "median": order_statistics.median,
    "nanmedian": order_statistics.nanmedian, "kthvalue": order_statistics.kthvalue,
    "mode": order_statistics.mode, "nansum": statistics.nansum, "nanmean": statistics.nanmean,
    "aminmax": statistics.aminmax, "isclose": binning.isclose, "heaviside": binning.heaviside,
    "bincount": binning.bincount, "histc": binning.histc, "histogram": binning.histogram,
    "addmv_": products.addmv_,
    "baddbmm_": products.baddbmm_, "addbmm_": products.addbmm_,
    "index_fill": index_add.index_fill, "index_fill_": index_add.index_fill_,
    "index_copy": index_add.index_copy, "index_copy_": index_add.index_copy_,
    "scatter_reduce": index_reduce.scatter_reduce,
    "scatter_reduce_": index_reduce.scatter_reduce_,
    "index_reduce": index_reduce.index_reduce, "index_reduce_": index_reduce.index_reduce_,
    "unique": unique.unique,
    "unique_consecutive": unique.unique_consecutive, "inverse": inverse.inverse,
    "det": determinant.torch_det, "logdet": determinant.logdet,
    "slogdet": determinant.torch_slogdet,
    "quantile": quantile.quantile, "nanquantile": quantile.nanquantile,
    # the activations group's block: erf and friends, activations torch has as methods
    "erf": E.erf, "erf_": E.erf_, "erfc": E.erfc, "erfc_": E.erfc_, "erfinv": E.erfinv,
    "erfinv_": E.erfinv_, "hardshrink": activation.hardshrink,
    "prelu": activation.prelu, "logaddexp": E.logaddexp, "deg2rad": E.deg2rad,
    "rad2deg": E.rad2deg, "deg2rad_": E.deg2rad_, "rad2deg_": E.rad2deg_, "logit": E.logit,
    "logit_": E.logit_, "sinc": E.sinc, "sinc_": E.sinc_,
    "xlogy": E.xlogy, "xlogy_": E.xlogy_,
    # the special functions' block (gamma.py, special_functions.py)
    "lgamma": gamma.lgamma, "lgamma_": gamma.lgamma_, "digamma": gamma.digamma,
    "digamma_": gamma.digamma_, "polygamma": gamma.polygamma_method,
    "polygamma_": gamma.polygamma_, "mvlgamma": gamma.mvlgamma, "mvlgamma_": gamma.mvlgamma_,
    "i0": special_functions.i0, "i0_": special_functions.i0_,
    # the missing torch functions' block (float_bits.py, composites.py)
    "copysign": float_bits.copysign, "copysign_": float_bits.copysign_,
    "signbit": float_bits.signbit, "nextafter": float_bits.nextafter,
    "nextafter_": float_bits.nextafter_, "ldexp": float_bits.ldexp, "ldexp_": float_bits.ldexp_,
    "frexp": float_bits.frexp, "logaddexp2": float_bits.logaddexp2,
    "true_divide": composites.true_divide, "true_divide_": composites.true_divide_,
    "float_power": composites.float_power, "float_power_": composites.float_power_,
    "msort": composites.msort, "narrow_copy": composites.narrow_copy,
    "select_scatter": view_scatter.select_scatter, "slice_scatter": view_scatter.slice_scatter,
    "diagonal_scatter": view_scatter.diagonal_scatter,
    # the assorted composites' block (assorted.py; addr in products.py)
    "addr": products.addr, "addr_": products.addr_, "renorm": assorted.renorm,
    "renorm_": assorted.renorm_, "diagflat": assorted.diagflat, "cov": assorted.cov,
    "corrcoef": assorted.corrcoef,
    # a new shape over the same memory (resize.py)
    "resize_": resize.resize_, "resize_as_": resize.resize_as_,
    "resize": _functions.resize, "resize_as": _functions.resize_as,  # (deprecated)
    # torch's Tensor.real and Tensor.imag are properties
    "real": property(assorted.real), "imag": property(assorted.imag),
    # tan and the hyperbolic functions, more in-place forms (elementary.py)
    "tan": E.tan, "sinh": E.sinh, "cosh": E.cosh, "asinh": E.asinh, "arcsinh": E.asinh,
    "acosh": E.acosh, "arccosh": E.acosh, "atanh": E.atanh, "arctanh": E.atanh,
    "tan_": E.tan_, "sinh_": E.sinh_, "cosh_": E.cosh_, "asinh_": E.asinh_,
    "arcsinh_": E.asinh_, "acosh_": E.acosh_, "arccosh_": E.acosh_, "atanh_": E.atanh_,
    "arctanh_": E.atanh_, "atan_": E.atan_, "arctan_": E.atan_, "asin_": E.asin_,
    "arcsin_": E.asin_, "acos_": E.acos_, "arccos_": E.acos_, "log1p_": E.log1p_,
    "expm1_": E.expm1_, "exp2_": E.exp2_,
    # torch's other names, and what a real tensor answers at once (aliases.py)
    "greater": aliases.greater, "greater_equal": aliases.greater_equal,
    "less": aliases.less, "less_equal": aliases.less_equal, "not_equal": aliases.not_equal,
    "absolute": aliases.absolute, "absolute_": X.abs_, "negative_": X.neg_,
    "ravel": aliases.ravel, "ndimension": aliases.ndimension,
    "mT": property(aliases.mT), "mH": property(aliases.mH), "H": property(aliases.H),
    "positive": aliases.positive, "__pos__": aliases.positive, "conj": aliases.conj,
    "resolve_conj": aliases.resolve_conj,
    "resolve_neg": aliases.resolve_neg, "is_conj": aliases.is_conj,
    "is_neg": aliases.is_neg, "is_signed": aliases.is_signed,
    "is_same_size": aliases.is_same_size, "isposinf": aliases.isposinf,
    "isneginf": aliases.isneginf, "isreal": aliases.isreal,
    "reciprocal_": aliases.reciprocal_, "sign_": aliases.sign_, "square_": aliases.square_,
    "divide_": aliases.divide_, "multiply_": aliases.multiply_,
    "subtract_": aliases.subtract_, "clip_": aliases.clip_, "fix_": aliases.fix_,
    "tril_": aliases.tril_, "triu_": aliases.triu_,
    # comparisons, logical ops, hypot and atan2 in place (inplace_compare.py)
    **{name: getattr(inplace_compare, name) for name in (
        "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "not_equal_", "less_", "less_equal_",
        "greater_", "greater_equal_", "logical_and_", "logical_or_", "logical_xor_",
        "logical_not_", "hypot_", "atan2_", "arctan2_")},
    "output_nr": property(aliases.output_nr), "is_shared": aliases._false,
    "share_memory_": aliases.share_memory_, "name": property(aliases.name),
    **{flag: property(aliases._false) for flag in aliases.FALSE_FLAGS},
    # the methods of torch's Tensor that minigrad leaves out say so (_left_out.py)
    "__getattr__": _left_out.missing_tensor_attribute,
}
_ARITHMETIC_OPERATORS = {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                         "__truediv__", "__rtruediv__", "__pow__", "__rpow__", "__matmul__",
                         "__rmatmul__", "__floordiv__", "__rfloordiv__", "__mod__",
                         "__rmod__", "__iadd__", "__isub__", "__imul__", "__itruediv__",
                         "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__or__", "__xor__",
                         "__rand__", "__ror__", "__rxor__", "__lshift__", "__rshift__",
                         "__rlshift__", "__rrshift__"}

_PLAIN = (Tensor, float, int)  # checked first: isinstance against numbers.Number is slow


def _operator(fn, name):
    """``x + "a"``: return NotImplemented so Python raises its own TypeError, as torch does.
    A learner's Tensor subclass on the right dispatches (``_ops/subclass.py``)."""
    def method(self, other):
        if type(other) not in _PLAIN:
            if not isinstance(other, Tensor | NUMBER):
                return NotImplemented
            if subclass.active and not subclass.inside:
                return subclass.operator(name, fn, self, other)
        return fn(self, other)

    return method


def _compare_with_none(fn, answer: bool):
    """``x == None`` is False and ``x != None`` True, as in torch (not an error); other
    objects (an ndarray...) get NotImplemented, so Python asks them."""
    def method(self, other):
        if other is None:
            return answer
        if type(other) not in _PLAIN and not isinstance(other, Tensor | NUMBER):
            return NotImplemented
        return fn(self, other)

    return method


def _eq_reading_arrays(method):
    """torch's ``==`` reads a NumPy array of a tensor dtype as a tensor (``x == np.ones(2)`` is
    a bool tensor, and so is ``np.ones(2) == x``, which NumPy hands back to the tensor), while
    its ``!=`` does not (an array is then unequal to any tensor: Python's identity fallback)."""
    def __eq__(self, other):
        if type(other) is np.ndarray:
            if other.dtype not in _dtype._BY_NUMPY:  # strings, objects: Python's fallback
                return NotImplemented
            other = Tensor._make(other)
        return method(self, other)

    return __eq__


def _vmap_checked(name, fn):
    """``x += y``, ``x[i] = y`` on a plain tensor (these methods skip the argument parsers) given
    a batched operand inside vmap: its batching rule's answer, torch's error (func/_batched.py),
    rather than minigrad reading the batch's values and vmap writing every sample into ``x``."""
    def method(self, *args):
        if _vmap_hook.active:
            out = _vmap_hook.call(name, fn, (self, *args), {})
            if out is not _vmap_hook.PASS:
                return out
        return fn(self, *args)

    method.__name__ = method.__qualname__ = name
    return method


REQUIRES_GRAD_UNDER_TRANSFORMS = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using "
    "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
    "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
    "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
    "transformed instead.")


def _requires_grad_checked(plain):
    """``x.requires_grad_()`` inside torch.func's transforms (vmap, grad, jvp...) is torch's
    error; minigrad's own calls (a transform making its leaves, ``nn.Parameter``) go on."""
    def requires_grad_(self, requires_grad=True):
        if ((_vmap_hook.active or _vmap_hook.transforms)
                and not sys._getframe(1).f_globals.get("__name__", "").startswith("minigrad.")):
            raise RuntimeError(REQUIRES_GRAD_UNDER_TRANSFORMS)
        return plain(self, requires_grad)

    requires_grad_.__doc__ = plain.__doc__
    return requires_grad_


Tensor.requires_grad_ = _requires_grad_checked(Tensor.requires_grad_)

_VMAP_CHECKED = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__", "__ifloordiv__",
                 "__imod__", "__setitem__"}

METHODS["__eq__"] = _eq_reading_arrays(_compare_with_none(P.eq, False))
METHODS["__ne__"] = _compare_with_none(P.ne, True)

for _name, _fn in METHODS.items():
    if _name in _ARITHMETIC_OPERATORS:  # operators check their operand themselves
        _fn = _operator(_fn, _name)
    elif not _name.startswith("__"):  # an op with torch's signatures (_args.py): as a method
        _fn = getattr(_fn, "as_method", _fn)
    if _name in _VMAP_CHECKED:
        _fn = _vmap_checked(_name, _fn)
    setattr(Tensor, _name, _fn)
