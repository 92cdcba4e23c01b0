"""minigrad: a small NumPy autograd engine that behaves like ``torch.autograd``.

Read it in this order: ``_tensor.py`` (what a tensor carries), ``_ops/`` (each op with its
backward node: the forward value, the backward formula and the forward-mode rule side by
side), ``autograd/graph.py`` (nodes, saved tensors and how the graph is recorded) and
``autograd/engine.py`` (the backward pass). ``ARCHITECTURE.md`` at the repository's root is
the map.
Lesson code runs unchanged with ``minigrad`` in place of ``torch``.
"""

from __future__ import annotations

import math

# Import order matters once, here: ``minigrad.autograd`` must start loading before
# ``minigrad._tensor`` does. Tensor imports the graph machinery from autograd's submodules,
# and autograd's API (``backward``, ``Function``...) imports Tensor; entered from the autograd
# package, each module finds what it imports. A plain ``import`` line stays first when imports
# are sorted. ``_ops`` binds the ops to Tensor as methods (``x.exp()``, ``x + y``).
import minigrad.autograd
from minigrad import _left_out, _ops  # noqa: F401
from minigrad._creation import (
    Generator,
    arange,
    as_tensor,
    asarray,
    default_generator,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    get_default_device,
    get_rng_state,
    initial_seed,
    linspace,
    manual_seed,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    range_,
    seed,
    set_default_device,
    set_default_tensor_type,
    set_rng_state,
    tensor,
    zeros,
    zeros_like,
)
from minigrad._dtype import (
    bool,
    double,
    dtype,
    finfo,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    set_default_dtype,
    short,
    uint8,
)
from minigrad._layout import (  # layouts and memory formats
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    strided,
)
from minigrad._ops import _args
from minigrad._ops.aliases import (  # torch's other names, real tensors' trivial answers
    absolute,
    conj,
    detach,
    detach_,
    greater,
    greater_equal,
    is_conj,
    is_inference,
    is_neg,
    is_same_size,
    is_signed,
    isneginf,
    isposinf,
    isreal,
    less,
    less_equal,
    not_equal,
    positive,
    ravel,
    resolve_conj,
    resolve_neg,
)
from minigrad._ops.binning import (
    bincount,
    bucketize,
    heaviside,
    histc,
    histogram,
    isclose,
    isin,
    searchsorted,
)
from minigrad._ops.composite_loss import (
    cosine_embedding_loss,
    hinge_embedding_loss,
    kl_div,
    margin_ranking_loss,
    poisson_nll_loss,
    triplet_margin_loss,
)
from minigrad._ops.determinant import logdet
from minigrad._ops.determinant import torch_det as det
from minigrad._ops.determinant import torch_slogdet as slogdet
from minigrad._ops.differences import addcdiv, addcmul, diff, gradient, trace  # manipulation
from minigrad._ops.distance import cdist, cosine_similarity, dist, pairwise_distance
from minigrad._ops.elementary import (  # the elementary functions beyond the lessons'
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    cosh,
    exp2,
    expm1,
    hypot,
    log1p,
    sinh,
    square,
    tan,
)
from minigrad._ops.index_add import index_add, index_copy, index_fill  # manipulation
from minigrad._ops.index_reduce import index_reduce, scatter_reduce
from minigrad._ops.indexing import (
    gather,
    index_select,
    masked_fill,
    masked_scatter,
    masked_select,
    scatter,
    scatter_add,
    select,
)
from minigrad._ops.inplace import (
    add_,
    bernoulli,
    clamp_max_,
    clamp_min_,
    copy_,
    div_,
    fill_,
    index_put_,
    mul_,
    sub_,
    zero_,
)
from minigrad._ops.integration import cumulative_trapezoid, trapezoid, trapz
from minigrad._ops.inverse import inverse
from minigrad._ops.join import cat, stack
from minigrad._ops.linalg import (
    bmm,
    diag,
    diag_embed,
    dot,
    einsum,
    matmul,
    mm,
    mv,
    outer,
    tril,
    triu,
)
from minigrad._ops.locate import (  # manipulation
    argwhere,
    count_nonzero,
    nonzero,
    put,
    take,
    take_along_dim,
)
from minigrad._ops.matrix_norms import torch_norm as norm
from minigrad._ops.nn_ops import addmm, log_softmax, softmax
from minigrad._ops.order_statistics import kthvalue, median, mode, nanmedian
from minigrad._ops.padding import constant_pad_nd
from minigrad._ops.pointwise import (  # fidelity round 2: rounding, extremes, remainders
    abs,
    add,
    allclose,
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    ceil,
    clamp,
    clamp_max,
    clamp_min,
    cos,
    div,
    eq,
    equal,
    exp,
    floor,
    floor_divide,
    fmax,
    fmin,
    fmod,
    frac,
    ge,
    gt,
    isfinite,
    isinf,
    isnan,
    le,
    lerp,
    log,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    maximum,
    minimum,
    mul,
    nan_to_num,
    ne,
    neg,
    pow,
    reciprocal,
    relu,
    remainder,
    round,
    rsqrt,
    rsub,
    sgn,
    sigmoid,
    sign,
    sin,
    sqrt,
    sub,
    tanh,
    trunc,
    where,
)
from minigrad._ops.pointwise import clip_op as _clip_op
from minigrad._ops.products import (  # manipulation
    addbmm,
    addmv,
    addmv_,
    baddbmm,
    cartesian_prod,
    cross,
    inner,
    kron,
    matrix_power,
    tensordot,
    vdot,
)
from minigrad._ops.quantile import nanquantile, quantile
from minigrad._ops.queries import (  # questions about tensors and dtypes
    can_cast,
    is_complex,
    is_floating_point,
    is_nonzero,
    numel,
    promote_types,
    result_type,
)
from minigrad._ops.rearrange import (  # manipulation
    broadcast_tensors,
    broadcast_to,
    fliplr,
    flipud,
    meshgrid,
    moveaxis,
    movedim,
    repeat_interleave,
    rot90,
    tile,
    unflatten,
)
from minigrad._ops.reduction import (  # fidelity round 2
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    logsumexp,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)
from minigrad._ops.sampling import multinomial
from minigrad._ops.scan import cummax, cummin, cumprod, cumsum, logcumsumexp
from minigrad._ops.shape import (
    chunk,
    clone,
    diagonal,
    expand,
    flatten,
    flip,
    narrow,
    permute,
    reshape,
    roll,
    split,
    split_with_sizes,
    squeeze,
    t,
    transpose,
    unbind,
    unsqueeze,
)
from minigrad._ops.sorting import argsort, sort, topk
from minigrad._ops.stacking import (  # manipulation
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    column_stack,
    dsplit,
    dstack,
    hsplit,
    hstack,
    tensor_split,
    vsplit,
    vstack,
)
from minigrad._ops.statistics import aminmax, nanmean, nansum, std_mean, var_mean
from minigrad._ops.unique import unique, unique_consecutive
from minigrad._runtime import (  # threads, determinism, matmul precision: torch's switches
    are_deterministic_algorithms_enabled,
    get_float32_matmul_precision,
    get_num_interop_threads,
    get_num_threads,
    is_deterministic_algorithms_warn_only_enabled,
    set_float32_matmul_precision,
    set_num_threads,
    use_deterministic_algorithms,
)
from minigrad._tensor import Size, Tensor, device
from minigrad._tensor import legacy_type as _legacy_type
from minigrad._tensor_str import set_printoptions
from minigrad.autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from minigrad.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

# isort: split
# the activations group's block
from minigrad._ops.activation import (
    celu,
    celu_,
    hardshrink,
    prelu,
    selu,
    selu_,
    threshold,
    threshold_,
)
from minigrad._ops.elementary import (
    deg2rad,
    deg2rad_,
    erf,
    erf_,
    erfc,
    erfc_,
    erfinv,
    logaddexp,
    logit,
    logit_,
    rad2deg,
    rad2deg_,
    sinc,
    sinc_,
    xlogy,
    xlogy_,
)

# isort: split
from minigrad._ops.assorted import (
    chain_matmul,
    combinations,
    corrcoef,
    cov,
    diagflat,
    imag,
    real,
    renorm,
)
from minigrad._ops.products import addr
from minigrad._ops.resize import resize_as_  # (torch has no torch.resize_)

# isort: split
# the special functions' block (torch.special's own are in minigrad.special)
from minigrad._ops.composites import (
    broadcast_shapes,
    float_power,
    msort,
    narrow_copy,
    tril_indices,
    triu_indices,
    true_divide,
    vander,
)
from minigrad._ops.float_bits import copysign, frexp, ldexp, ldexp_, logaddexp2, nextafter, signbit
from minigrad._ops.gamma import digamma, lgamma, mvlgamma, polygamma
from minigrad._ops.shape import as_strided, swapaxes, swapdims
from minigrad._ops.special_functions import i0, i0_
from minigrad._ops.view_scatter import diagonal_scatter, select_scatter, slice_scatter

# torch.name checks its arguments as torch's parser does (minigrad/_ops/_args.py)
globals().update({_k: _v.as_function for _k, _v in list(globals().items())
                  if hasattr(_v, "as_function")})
clip = _clip_op  # its torch.clip (swapped in above)
range = range_  # noqa: A001 - torch.range (deprecated), a name Python's builtin has too
del range_
fix = trunc
concat = concatenate = cat
multiply, subtract, divide, negative = mul, sub, div, neg
arctan, arcsin, arccos, arctan2 = atan, asin, acos, atan2
arcsinh, arccosh, arctanh = asinh, acosh, atanh
pi, e, inf, nan, newaxis = math.pi, math.e, math.inf, math.nan, None  # torch's constants
# torch.sin_(x) and the other in-place ops torch also offers as functions: x.sin_()
globals().update({_k: getattr(_ops.METHODS[_k], "as_function", _ops.METHODS[_k]) for _k in (
    "abs_", "acos_", "arccos_", "acosh_", "arccosh_", "asin_", "arcsin_", "asinh_",
    "arcsinh_", "atan_", "arctan_", "atanh_", "arctanh_", "ceil_", "clamp_", "cos_", "cosh_",
    "exp_", "exp2_", "expm1_", "floor_", "frac_", "log_", "log10_", "log1p_", "log2_",
    "nan_to_num_", "neg_", "negative_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_",
    "sinh_", "sqrt_", "tan_", "tanh_", "trunc_", "reciprocal_", "square_", "clip_", "fix_")})
row_stack = vstack  # manipulation: torch's alias
# torch's legacy tensor types: torch.LongTensor([1, 2]) is an int64 tensor
FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, \
    ByteTensor, BoolTensor = (_legacy_type(d) for d in (
        float32, float64, float16, int64, int32, int16, int8, uint8, bool))
# these use the names above (torch.vmap is torch.func.vmap; serialization uses nn)
from minigrad import (  # noqa: E402
    accelerator,
    backends,
    cuda,
    func,
    linalg,
    nn,
    optim,
    profiler,
    random,
    return_types,
    special,
    testing,
    utils,
    version,
)
from minigrad.func import vmap  # noqa: E402
from minigrad.nn.modules.module import typename  # noqa: E402
from minigrad.serialization import load, save  # noqa: E402
from minigrad.storage import TypedStorage, UntypedStorage  # noqa: E402

__version__ = version.__version__
# torch's own (torch/__init__.py and torch.random's) say so, as their module
for _f in (finfo, iinfo, set_default_dtype, set_default_device, get_default_device,
           set_default_tensor_type, typename, are_deterministic_algorithms_enabled,
           is_deterministic_algorithms_warn_only_enabled, use_deterministic_algorithms,
           get_float32_matmul_precision, set_float32_matmul_precision, get_default_dtype,
           get_num_interop_threads, get_num_threads, set_num_threads, is_grad_enabled,
           is_anomaly_check_nan_enabled, is_anomaly_enabled, is_inference_mode_enabled):
    _f.__module__ = "minigrad"
for _f in (manual_seed, seed, initial_seed, get_rng_state, set_rng_state):
    _f.__module__ = "minigrad.random"
# what torch has as C builtins and minigrad writes in Python prints as torch's: <built-in
# method as_tensor of type object at 0x...>, <built-in function is_grad_enabled> (torch._C's)
globals().update({_k: _args.builtin_function_or_method(globals()[_k]) for _k in (
    "as_tensor", "asarray", "bernoulli", "from_numpy", "normal")})
globals().update({_k: _args.builtin_function_or_method(globals()[_k], of_type=False) for _k in (
    "get_default_dtype", "get_num_interop_threads", "get_num_threads", "set_num_threads",
    "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "is_grad_enabled",
    "is_inference_mode_enabled")})
# torch's aliases (arccos, concat, fix...) are builtins of their own, printed by their names
globals().update({_k: _v.renamed(_k) for _k, _v in list(globals().items())
                  if isinstance(_v, _args.builtin_function_or_method) and _v.__name__ != _k
                  and not _k.startswith("_")})


def is_tensor(obj) -> bool:  # noqa: A001
    return isinstance(obj, Tensor)


del annotations


def __getattr__(name):
    """Only reached for names minigrad does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
