"""``linalg.vector_norm``, ``linalg.matrix_norm`` and ``linalg.norm``, which picks one of them,
and ``torch.norm`` / ``Tensor.norm``, which hand their arguments to the first two as
``torch.functional.norm`` does (so a wrong argument gets their parser's error).

All three end in the vector norm minigrad already has (``reduction.norm``: torch's kernel's
digits, ``LinalgVectorNormBackward0``), composed as torch composes them: the Frobenius norm is
the vector 2-norm over the two dims; the 1-norm of a matrix is the largest column sum of
absolute values, ``amax(vector_norm(A, 1, dim0), dim1)`` (``amin`` for ord -1), and the
infinity norm the same over the other dim. The spectral (2, -2) and nuclear ('nuc') norms
need singular values (``linalg.svdvals``), which minigrad leaves out: a clear error.
"""

from __future__ import annotations

from minigrad import _dtype
from minigrad._ops._args import parses
from minigrad._ops.reduction import amax, amin
from minigrad._ops.reduction import norm as _vector_norm
from minigrad._tensor import Tensor, _wrap_dim

INF = float("inf")


def needs_svd(ord_text: str) -> NotImplementedError:
    return NotImplementedError(
        f"minigrad does not implement torch.linalg.matrix_norm with ord={ord_text}: it needs "
        "singular values (torch.linalg.svdvals), which minigrad leaves out; use ord='fro', 1, "
        "-1, inf or -inf, or run this code with torch")


def _scalar_text(x) -> str:
    """A number as torch's C++ messages print a Scalar (``inf``, ``-1``, ``1.5``)."""
    return f"{x:g}" if isinstance(x, float) else str(x)


def _floating_check(input, name: str, low_precision: bool = True) -> None:
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{input.dtype.scalar_name}")
    if not low_precision and input.dtype is _dtype.float16:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def _dtype_check(dtype, input, name: str) -> None:
    """torch's check_linalg_norm_dtype: a floating dtype the input widens to."""
    if dtype is None:
        return
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name}: dtype should be floating point or complex, but got "
                           f"{dtype.scalar_name}")
    if _dtype.promote_types(input.dtype, dtype) is not dtype:
        raise RuntimeError(f"{name}: the dtype of the input ({input.dtype.scalar_name}) should be "
                           f"convertible without narrowing to the specified dtype "
                           f"({dtype.scalar_name})")


def _as_list(dim) -> list | None:
    if dim is None:
        return None
    return [dim] if isinstance(dim, int) else list(dim)


@parses('linalg_vector_norm(Tensor input, Number ord = 2, tuple of ints[1]? dim = None, '
        'bool keepdim = False, *, torch.dtype? dtype = None, Tensor out = None)')
def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """``sum(|x|^ord) ^ (1/ord)`` over ``dim`` (every element by default)."""
    _floating_check(input, "linalg.vector_norm")
    dims = _as_list(dim)
    if input.numel() == 0 and (ord < 0 or ord == INF):
        if not dims:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_scalar_text(ord)} norm "
                               "on an empty tensor because the operation does not have an "
                               "identity")
        for d in dims:
            if input.shape[d] == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {_scalar_text(ord)} "
                                   f"norm on the dimension {d}because this dimension is empty "
                                   "and the operation does not have an identity")
    _dtype_check(dtype, input, "linalg.vector_norm")
    return _vector_norm(input, ord, dim, keepdim, dtype)


def _matrix_checks(input, dim, dtype, low_precision: bool) -> list:
    """torch's _linalg_matrix_norm_checks; the two dims wrapped."""
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    _floating_check(input, "linalg.matrix_norm", low_precision)
    dims = _as_list(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in dims)}")
    dims = [_wrap_dim(d, input.dim()) for d in dims]
    if dims[0] == dims[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, "
                           f"{dims[1]})")
    _dtype_check(dtype, input, "linalg.matrix_norm")
    return dims


@parses('linalg_matrix_norm(Tensor input, Number ord, tuple of ints[1] dim = {-2,-1}, '
        'bool keepdim = False, *, torch.dtype? dtype = None, Tensor out = None)',
        'linalg_matrix_norm(Tensor input, str ord = "fro", tuple of ints[1] dim = {-2,-1}, '
        'bool keepdim = False, *, torch.dtype? dtype = None, Tensor out = None)')
def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    """The Frobenius norm (the default), or the largest (ord 1, inf) or smallest (-1, -inf)
    sum of absolute values down a column (1) or along a row (inf)."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        dims = _matrix_checks(input, dim, dtype, ord != "nuc")
        if ord == "nuc":
            raise needs_svd("'nuc'")
        return _vector_norm(input, 2, tuple(dims), keepdim, dtype)
    if abs(ord) not in (1, 2, INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {_scalar_text(ord)} not supported.")
    dims = _matrix_checks(input, dim, dtype, abs(ord) != 2)
    if abs(ord) == 2:
        raise needs_svd(_scalar_text(ord))
    if abs(ord) == INF:  # the 1-norm of the transposed matrix
        dims.reverse()
    if not keepdim and dims[0] < dims[1]:  # the first reduction removes a dim before it
        dims[1] -= 1
    columns = _vector_norm(input, 1.0, (dims[0],), keepdim, dtype)
    return amax(columns, dims[1], keepdim) if ord > 0 else amin(columns, dims[1], keepdim)


@parses('linalg_norm(Tensor input, Number? ord = None, tuple of ints[1]? dim = None, '
        'bool keepdim = False, *, torch.dtype? dtype = None, Tensor out = None)',
        'linalg_norm(Tensor input, str ord, tuple of ints[1]? dim = None, bool keepdim = False, '
        '*, torch.dtype? dtype = None, Tensor out = None)')
def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """A matrix norm for a matrix (2-D input or two dims given) when ``ord`` is given, else a
    vector norm (torch's dispatch; ord None is the 2-norm of everything)."""
    dims = _as_list(dim)
    if dims is not None:
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {dims}")
    elif ord is not None and input.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {input.dim()}D.")
    if isinstance(ord, str):
        return matrix_norm(input, ord, (0, 1) if dims is None else tuple(dims), keepdim,
                           dtype=dtype)
    if ord is not None and ((dims is not None and len(dims) == 2)
                            or (dims is None and input.dim() == 2)):
        return matrix_norm(input, ord, (0, 1) if dims is None else tuple(dims), keepdim,
                           dtype=dtype)
    return vector_norm(input, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


def torch_norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):  # noqa: A002
    """``torch.norm``: a number ``p`` (None is 2.0) and ``'fro'`` (the 2-norm over at most two
    dims) go to ``linalg.vector_norm``, any other string to ``linalg.matrix_norm``; an int
    ``dim`` becomes ``[dim]``. Written as torch.functional.norm, so each error is theirs."""
    if not isinstance(input, Tensor):  # where torch.functional.norm first reads it
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'layout'")
    _dim = [dim] if isinstance(dim, int) else dim
    kwargs = {"dtype": dtype} if out is None else {"dtype": dtype, "out": out}
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return vector_norm.as_function(input, 2, _dim, keepdim, **kwargs)
        if _dim is None:
            _dim = list(range(input.ndim))
        return matrix_norm.as_function(input, p, _dim, keepdim, **kwargs)
    return vector_norm.as_function(input, 2.0 if p is None else p, _dim, keepdim, **kwargs)


def norm_method(self, p="fro", dim=None, keepdim=False, dtype=None):
    """``Tensor.norm``: ``torch.norm(self, ...)``, without ``out``."""
    return torch_norm(self, p, dim, keepdim, dtype=dtype)


torch_norm.__name__ = torch_norm.__qualname__ = "norm"
norm_method.__name__, norm_method.__qualname__ = "norm", "Tensor.norm"
