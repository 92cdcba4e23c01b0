"""What a node shows of what it saved: torch's ``grad_fn._saved_<name>`` attributes.

torch generates, for each node class, one ``_saved_<name>`` property per value its formula
keeps (``MulBackward0._saved_self``, ``SumBackward1._saved_dim``...) and, for a tensor, a
``_raw_saved_<name>`` giving the ``SavedTensor`` itself (on which ``register_hooks`` can be
called). minigrad's nodes keep the same things under their own names (tensors in
``node._saved``, numbers as attributes); this one table says, per node class, torch's field
names and where each value lives, and ``_NodeType`` (in ``graph.py``) makes the properties
from it.

An entry is ``field: TENSOR`` (a tensor saved under the same key; ``None`` if the op did
not need it), ``field: TENSOR_LIST`` (advanced indexing's index tensors), ``field:
getter(node)`` for a number or shape, or ``field: NOT_KEPT`` (or ``NOT_KEPT_TENSOR``) for
what torch keeps and minigrad's formula does without (the name exists, reading it says so).

torch keeps an int argument as the caller gave it (``dim=-1`` reads back as 2**64 - 1, an
omitted ``dim`` as None), where minigrad's formulas use the wrapped dim: such ops record the
argument as given too (``dim_arg``, ``dims_arg``, ``dim1_arg``...), and the table reads that.
"""

from __future__ import annotations

import math

TENSOR = "tensor"
NOT_KEPT = "not kept"  # torch keeps it, minigrad's formula does not: reading it raises
NOT_KEPT_TENSOR = "tensor not kept"  # the same, for a tensor (torch also has _raw_saved_)
TENSOR_LIST = "tensor list"  # tensors saved as <field>0, <field>1...: one per entry of the
# node's ``index`` (advanced indexing's index tensors), None where the entry is no tensor


def _attr(name):
    return lambda n: getattr(n, name)


def _c_int(value):
    """torch shows a negative optional int64 as its unsigned 64-bit pattern (a quirk of its
    generated code: ``ignore_index=-100`` reads back as 18446744073709551516)."""
    return value % 2**64 if value is not None and value < 0 else value


def _input_shape(i):
    def get(n):
        meta = n._input_meta[i]
        return None if meta is None else tuple(meta[0])

    return get


def _operand_sizes(k):
    """mm's and addmm's ``k``-th matrix's sizes: torch keeps them even for a constant one."""
    return lambda n: tuple(n.operand_shapes[k])


def _strides(i, k, column_major_attr):
    """A matrix input's strides, as torch saved them: minigrad knows only whether the
    operand was column-major (a transposed matrix), which fixes them for a 2-D operand.
    torch keeps them only for an input that needs a gradient (else an empty list)."""
    def get(n):
        if n._input_meta[i] is None:
            return ()
        rows, cols = n.operand_shapes[k]
        return (1, rows) if getattr(n, column_major_attr) else (cols, 1)

    return get


def _signed(name):
    """An int, a tuple of ints or None, as torch shows it (see ``_c_int``)."""
    def get(n):
        value = getattr(n, name)
        if isinstance(value, tuple | list):
            return tuple(_c_int(v) for v in value)
        return _c_int(value)

    return get


def _const(value):
    return lambda n: value


_REDUCTION = {"none": 0, "mean": 1, "sum": 2}
_self_sizes = _attr("self_shape")
_dim = _attr("dim")
_dim_arg = _signed("dim_arg")  # the dim as given (negative, None...), as torch keeps it


def _dims_arg(n):
    """A reduction's ``dim`` as given, as the list of ints torch keeps (one int is a list of
    one; None stays None)."""
    dims = n.dim_arg
    return _signed("dim_arg")(n) if dims is None or isinstance(dims, tuple | list) else \
        (_c_int(dims),)
_keepdim = _attr("keepdim")
# nll_loss's optional class weights: the tensor saved, or None (torch's "no tensor")
_NO_WEIGHT = TENSOR

SAVED_FIELDS = {
    "AbsBackward0": {"self": TENSOR},
    "AccumulateGrad": {},
    "AddBackward0": {"alpha": _attr("alpha")},
    "AddBackward1": {},
    "AddmmBackward0": {"alpha": _attr("alpha"), "beta": _attr("beta"), "mat1": TENSOR,
                       "mat1_sym_sizes": _operand_sizes(0),
                       "mat1_sym_strides": _strides(1, 0, "mat1_column_major"),
                       "mat2": TENSOR, "mat2_sym_sizes": _operand_sizes(1),
                       "mat2_sym_strides": _strides(2, 1, "mat2_column_major")},
    "AliasBackward0": {},
    "AmaxBackward0": {"dim": _dims_arg, "keepdim": _keepdim, "result": TENSOR, "self": TENSOR},
    "AminBackward0": {"dim": _dims_arg, "keepdim": _keepdim, "result": TENSOR, "self": TENSOR},
    "AsStridedBackward0": {"size": lambda n: n.geometry[0][0],
                           # as given to torch.as_strided (None: the input's own); a
                           # stale view's node has the offset itself
                           "storage_offset": lambda n: n.__dict__.get("offset_arg",
                                                                      n.geometry[0][2]),
                           "stride": lambda n: n.geometry[0][1]},
    "BmmBackward0": {"mat2": TENSOR, "self": TENSOR},
    "CatBackward0": {"dim": _signed("dim_arg")},
    "CeilBackward0": {},
    "ClampBackward0": {"max": TENSOR, "min": TENSOR, "self": TENSOR},
    "ClampBackward1": {"max": _attr("max"), "min": _attr("min"), "self": TENSOR},
    "ClampMaxBackward0": {"max": _attr("max"), "self": TENSOR},
    "ClampMaxBackward1": {"max": TENSOR, "self": TENSOR},
    "ClampMinBackward0": {"min": _attr("min"), "self": TENSOR},
    "ClampMinBackward1": {"min": TENSOR, "self": TENSOR},
    "CloneBackward0": {},
    "CopyBackwards": {},
    "CopySlices": {},
    "CosBackward0": {"self": TENSOR},
    "CumprodBackward0": {"dim": _dim_arg, "result": TENSOR, "self": TENSOR},
    "CumsumBackward0": {"dim": _dim_arg},
    "DiagEmbedBackward0": {"dim1": _signed("dim1_arg"), "dim2": _signed("dim2_arg"),
                           "offset": _signed("offset")},
    "DiagonalBackward0": {"dim1": _signed("dim1_arg"), "dim2": _signed("dim2_arg"),
                          "offset": _signed("offset"), "self_sym_sizes": _self_sizes},
    "DiagonalBackward0_copy": {"dim1": _const(0), "dim2": _const(1), "offset": _signed("offset"),
                               "self_sym_sizes": _self_sizes},
    "DiagonalBackwardBackward0": {"dim1": _signed("dim1_arg"), "dim2": _signed("dim2_arg"),
                                  "offset": _signed("offset")},
    "DivBackward0": {"other": TENSOR, "self": TENSOR},
    "DivBackward1": {"other": _attr("other")},
    "DivBackward2": {"other": TENSOR, "rounding_mode": _attr("rounding_mode"),
                     "self": TENSOR},
    "DotBackward0": {"self": TENSOR, "tensor": TENSOR},
    "Error": {},
    "ExpBackward0": {"result": TENSOR},
    # _ops/elementary.py
    "AcosBackward0": {"self": TENSOR},
    "AsinBackward0": {"self": TENSOR},
    "Atan2Backward0": {"other": TENSOR, "self": TENSOR},
    "AtanBackward0": {"self": TENSOR},
    "Exp2Backward0": {"result": TENSOR},
    "Expm1Backward0": {"result": TENSOR},
    "HypotBackward0": {"other": TENSOR, "result": TENSOR, "self": TENSOR},
    "Log1PBackward0": {"self": TENSOR},
    "TanBackward0": {"result": TENSOR},
    "SinhBackward0": {"self": TENSOR},
    "CoshBackward0": {"self": TENSOR},
    "AsinhBackward0": {"self": TENSOR},
    "AcoshBackward0": {"self": TENSOR},
    "AtanhBackward0": {"self": TENSOR},
    "AsinhBackward1": {},
    "AcoshBackward1": {},
    "AtanhBackward1": {},
    "ExpandBackward0": {"self_sym_sizes": _self_sizes},
    "FillBackward2": {},
    "FillBackward3": {},
    "FlipBackward0": {"dims": _signed("dims_arg")},
    "FloorBackward0": {},
    "FmaxBackward0": {"other": TENSOR, "self": TENSOR},
    "FminBackward0": {"other": TENSOR, "self": TENSOR},
    "FmodBackward0": {},
    "FmodBackward1": {"other": TENSOR, "self": TENSOR},
    "FracBackward0": {},
    "GatherBackward0": {"dim": _dim_arg, "index": TENSOR, "self": TENSOR,
                        "sparse_grad": _const(False)},
    "IndexBackward0": {"indices": TENSOR_LIST, "self_sym_sizes": _self_sizes},
    "HuberLossBackward0": {"delta": _attr("delta"),
                           "reduction": lambda n: _REDUCTION[n.reduction],
                           "self": TENSOR, "target": TENSOR},
    "HuberLossBackwardBackward0": {"delta": _attr("delta"), "grad_output": TENSOR,
                                   "reduction": lambda n: _REDUCTION[n.reduction],
                                   "self": TENSOR, "target": TENSOR},
    "IndexAddBackward0": {"alpha": _attr("alpha"), "dim": _dim_arg, "index": TENSOR,
                          "source": TENSOR, "source_dim": _attr("source_dim")},
    "IndexCopyBackward0": {"dim": _dim_arg, "index": TENSOR, "source": TENSOR,
                           "source_dim": _attr("source_dim")},
    "IndexReduceBackward0": {"dim": _dim_arg, "include_self": _attr("include_self"),
                             "index": TENSOR, "reduce": _attr("reduce"), "result": TENSOR,
                             "self": TENSOR, "source": TENSOR},
    "IndexPutBackward0": {"accumulate": _attr("accumulate"), "indices": TENSOR_LIST},
    "IndexPutImplBackward0": {"accumulate": _attr("accumulate"), "indices": TENSOR_LIST},
    "IndexSelectBackward0": {"dim": _dim_arg, "index": TENSOR, "self_sym_sizes": _self_sizes},
    "LerpBackward0": {"weight": _attr("weight")},
    "LerpBackward1": {"end": TENSOR, "self": TENSOR, "weight": TENSOR},
    "LinalgVectorNormBackward0": {"dim": _dims_arg, "keepdim": _keepdim, "ord": _attr("ord_arg"),
                                  "result": TENSOR, "self": TENSOR},
    "LogBackward0": {"self": TENSOR},
    "Log10Backward0": {"self": TENSOR},
    "NanToNumBackward0": {"self": TENSOR},
    "Log2Backward0": {"self": TENSOR},
    "RsqrtBackward0": {"result": TENSOR},
    # (binary_cross_entropy's private logit has no eps; torch.logit's node keeps its own)
    "LogitBackward0": {"eps": lambda n: getattr(n, "eps", None), "self": TENSOR},
    "LogSoftmaxBackward0": {"dim": _dim_arg, "result": TENSOR},
    "LogSoftmaxBackwardDataBackward0": {"dim": _signed("dim"), "grad_output": TENSOR,
                                        "output": TENSOR},
    "LogsumexpBackward0": {"dim": _dims_arg, "keepdim": _keepdim, "result": TENSOR, "self": TENSOR},
    "MaskedFillBackward0": {"mask": TENSOR},
    "MaskedFillBackward1": {"mask": TENSOR},
    "MaskedScatterBackward0": {"mask": TENSOR, "source_sym_sizes": _attr("source_shape")},
    "MaskedScatterBackwardBackward0": {"mask": TENSOR},
    "MaskedSelectBackward0": {"mask": TENSOR, "self": TENSOR},
    "MaxBackward0": {"dim": _dim_arg, "indices": TENSOR, "keepdim": _keepdim,
                     "self_sym_sizes": _self_sizes},
    "MaxBackward1": {"result": TENSOR, "self": TENSOR},
    "MaximumBackward0": {"other": TENSOR, "self": TENSOR},
    "MeanBackward0": {"self_sym_numel": _attr("numel"), "self_sym_sizes": _self_sizes},
    "MeanBackward1": {"dim": _dims_arg, "keepdim": _keepdim,
                      "self_sym_numel": lambda n: math.prod(n.self_shape),
                      "self_sym_sizes": _self_sizes},
    "MinBackward0": {"dim": _dim_arg, "indices": TENSOR, "keepdim": _keepdim,
                     "self_sym_sizes": _self_sizes},
    "MinBackward1": {"result": TENSOR, "self": TENSOR},
    "MinimumBackward0": {"other": TENSOR, "self": TENSOR},
    "MmBackward0": {"mat2": TENSOR, "mat2_sym_sizes": _operand_sizes(1),
                    "mat2_sym_strides": _strides(1, 1, "mat2_column_major"), "self": TENSOR,
                    "self_sym_sizes": _operand_sizes(0),
                    "self_sym_strides": _strides(0, 0, "self_column_major")},
    "BinaryCrossEntropyBackward0": {"reduction": lambda n: _REDUCTION[n.reduction],
                                    "self": TENSOR, "target": TENSOR, "weight": TENSOR},
    "BinaryCrossEntropyBackwardBackward0": {"grad_output": TENSOR,
                                            "reduction": lambda n: _REDUCTION[n.reduction],
                                            "self": TENSOR, "target": TENSOR, "weight": TENSOR},
    "BinaryCrossEntropyWithLogitsBackward0": {
        "pos_weight": TENSOR, "reduction": lambda n: _REDUCTION[n.reduction], "self": TENSOR,
        "target": TENSOR, "weight": TENSOR},
    "MseLossBackward0": {"reduction": lambda n: _REDUCTION[n.reduction], "self": TENSOR,
                         "target": TENSOR},
    "MseLossBackwardBackward0": {"grad_output": TENSOR,
                                 "reduction": lambda n: _REDUCTION[n.reduction],
                                 "self": TENSOR, "target": TENSOR},
    "MulBackward0": {"other": TENSOR, "self": TENSOR},
    "MulBackward1": {"other": _attr("other")},
    "MvBackward0": {"self": TENSOR, "vec": TENSOR},
    "NativeLayerNormBackward0": {"bias": TENSOR, "input": TENSOR,
                                 "normalized_shape": _attr("normalized_shape"),
                                 "result1": TENSOR, "result2": TENSOR, "weight": TENSOR},
    "NativeLayerNormBackwardBackward0": {"grad_out": TENSOR, "input": TENSOR, "mean": TENSOR,
                                         "normalized_shape": _attr("normalized_shape"),
                                         "rstd": TENSOR, "weight": TENSOR},
    "NegBackward0": {},
    **dict.fromkeys(("NllLossBackward0", "NllLoss2DBackward0"),  # _ops/nll.py
                    {"ignore_index": lambda n: _c_int(n.ignore_index),
                     "reduction": lambda n: _REDUCTION[n.reduction], "self": TENSOR,
                     "target": TENSOR, "weight": _NO_WEIGHT,
                     "total_weight": TENSOR}),  # packed after the weight, as torch packs it
    **dict.fromkeys(("NllLossBackwardBackward0", "NllLoss2DBackwardBackward0"),
                    {"ignore_index": lambda n: _c_int(n.ignore_index),
                     "reduction": lambda n: _REDUCTION[n.reduction],
                     "target": NOT_KEPT_TENSOR, "weight": _NO_WEIGHT}),
    "NotImplemented": {},
    "PermuteBackward0": {"dims": lambda n: tuple(_c_int(d) for d in n.dims_arg)},
    "PowBackward0": {"exponent": _attr("exponent"), "self": TENSOR},
    "PowBackward1": {"exponent": TENSOR, "result": TENSOR, "self": TENSOR},
    "PowBackward2": {"exponent": TENSOR, "result": TENSOR, "self": _attr("base")},
    "ProdBackward0": {"result": TENSOR, "self": TENSOR},
    "ProdBackward1": {"dim": _dim_arg, "keepdim": _keepdim, "result": TENSOR, "self": TENSOR},
    "ReciprocalBackward0": {"result": TENSOR},
    "ReluBackward0": {"result": TENSOR},
    "RemainderBackward0": {},
    "RemainderBackward1": {"other": TENSOR, "self": TENSOR},
    "RepeatBackward0": {"repeats": _attr("repeats"), "self_sym_sizes": _self_sizes},
    "ReshapeAliasBackward0": {"self_sym_sizes": _self_sizes},
    "RollBackward0": {"dims": _signed("dims_arg"), "shifts": _signed("shifts")},
    "RoundBackward0": {},
    "RoundBackward1": {},
    "RsubBackward0": {"alpha": _attr("alpha")},
    "RsubBackward1": {"alpha": _attr("alpha")},
    "ScatterReduceBackward0": {"dim": _dim_arg, "include_self": _attr("include_self"),
                               "index": TENSOR, "reduce": _attr("reduce"), "result": TENSOR,
                               "self": TENSOR, "src": TENSOR},
    "ScatterAddBackward0": {"dim": _dim_arg, "index": TENSOR},
    "ScatterBackward0": {"dim": _dim_arg, "index": TENSOR},
    "ScatterBackward1": {"dim": _dim_arg, "index": TENSOR},
    "SelectBackward0": {"dim": _dim_arg, "index": lambda n: _c_int(n.index),
                        "self_sym_sizes": _self_sizes},
    "SelectBackwardBackward0": {"dim": _dim_arg, "index": lambda n: _c_int(n.index)},
    "SgnBackward0": {"result": TENSOR, "self": TENSOR},
    "SigmoidBackward0": {"result": TENSOR},
    "SigmoidBackwardBackward0": {"grad_output": TENSOR, "output": TENSOR},
    "SignBackward0": {},
    "SinBackward0": {"self": TENSOR},
    "SliceBackward0": {"dim": _dim_arg, "end": lambda n: _c_int(n.end),
                       "self_sym_sizes": _self_sizes,
                       "start": lambda n: _c_int(n.start), "step": _attr("step")},
    # torch's slice_backward takes the end as an int: an open end (None) is INT64_MAX there
    "SliceBackwardBackward0": {"dim": _dim_arg,
                               "end": lambda n: _c_int(2**63 - 1 if n.end is None else n.end),
                               "start": lambda n: _c_int(n.start), "step": _attr("step")},
    "SmoothL1LossBackward0": {"beta": _attr("beta"),
                              "reduction": lambda n: _REDUCTION[n.reduction],
                              "self": TENSOR, "target": TENSOR},
    "SmoothL1LossBackwardBackward0": {"beta": _attr("beta"), "grad_output": TENSOR,
                                      "reduction": lambda n: _REDUCTION[n.reduction],
                                      "self": TENSOR, "target": TENSOR},
    "SoftmaxBackward0": {"dim": _dim_arg, "result": TENSOR},
    "SoftmaxBackwardDataBackward0": {"dim": _signed("dim"), "grad_output": TENSOR,
                                     "output": TENSOR},
    "SortBackward0": {"dim": _dim_arg, "indices": TENSOR, "self_sym_sizes": _self_sizes},
    "SortBackward1": {"dim": _dim_arg, "indices": TENSOR, "self_sym_sizes": _self_sizes},
    "SplitBackward0": {"dim": _dim_arg, "self_sym_sizes": _input_shape(0),
                       "split_size": _attr("split_size")},
    "SplitWithSizesBackward0": {"dim": _dim_arg, "self_sym_sizes": _input_shape(0),
                                "split_sizes": lambda n: tuple(n.split_sizes)},
    "SqrtBackward0": {"result": TENSOR},
    "SqueezeBackward0": {"self_sym_sizes": _self_sizes},
    "SqueezeBackward1": {"dim": _dim_arg, "self_sym_sizes": _self_sizes},
    "SqueezeBackward2": {"dim": _signed("dims_arg"), "self_sym_sizes": _self_sizes},
    "SqueezeBackward3": {"self_sym_sizes": _self_sizes},
    # squeeze_(dim) keeps the dim as given; matmul's internal squeeze_(0) gives none
    "SqueezeBackward4": {"dim": lambda n: _c_int(n.__dict__.get("dim_arg", n.dims[0])),
                         "self_sym_sizes": _self_sizes},
    "SqueezeBackward5": {"dim": _signed("dims_arg"), "self_sym_sizes": _self_sizes},
    "StackBackward0": {"dim": _dim_arg},
    "StdBackward0": {"correction": _attr("correction"), "dim": _dims_arg, "keepdim": _keepdim,
                     "result": TENSOR, "self": TENSOR},
    "SubBackward0": {"alpha": _attr("alpha")},
    "SubBackward1": {},
    "SumBackward0": {"self_sym_sizes": _self_sizes},
    "SumBackward1": {"dim": _dims_arg, "keepdim": _keepdim, "self_sym_sizes": _self_sizes},
    "TBackward0": {},
    "TBackward1": {},
    "TanhBackward0": {"result": TENSOR},
    "TanhBackwardBackward0": {"grad_output": TENSOR, "output": TENSOR},
    "ThresholdBackwardBackward0": {"self": TENSOR, "threshold": _attr("threshold")},
    "ToCopyBackward0": {},
    "TopkBackward0": {"dim": _dim_arg, "indices": TENSOR, "self_sym_sizes": _self_sizes},
    "TransposeBackward0": {"dim0": _signed("dim0_arg"), "dim1": _signed("dim1_arg")},
    "TransposeBackward1": {"dim0": _signed("dim0_arg"), "dim1": _signed("dim1_arg")},
    "TrilBackward0": {"diagonal": _signed("diagonal")},
    "TriuBackward0": {"diagonal": _signed("diagonal")},
    "TruncBackward0": {},
    "UnbindBackward0": {"dim": _dim_arg},
    "UnfoldBackward0": {"dimension": _dim_arg, "self_sym_sizes": _self_sizes,
                        "size": _attr("size"), "step": _attr("step")},
    "UnfoldBackwardBackward0": {"dim": _dim_arg, "size": _attr("size"), "step": _attr("step")},
    "UnsafeViewBackward0": {"self_sym_sizes": _self_sizes},
    "UnsqueezeBackward0": {"dim": _dim_arg},
    "UnsqueezeBackward1": {"dim": _dim_arg},
    "VarBackward0": {"correction": _attr("correction"), "dim": _dims_arg, "keepdim": _keepdim,
                     "self": TENSOR},
    "ViewBackward0": {"self_sym_sizes": _self_sizes},
    "WhereBackward0": {"condition": TENSOR},
    "ZeroBackward0": {},
    # activations (minigrad/_ops/activation.py); numbers as the caller gave them, as torch's
    "EluBackward0": {"alpha": _attr("alpha"), "input_scale": _attr("input_scale"),
                     "scale": _attr("scale"), "self": TENSOR},
    "EluBackward1": {"alpha": _attr("alpha"), "input_scale": _attr("input_scale"),
                     "result": TENSOR, "scale": _attr("scale")},
    "EluBackwardBackward0": {"alpha": _attr("alpha"), "grad_output": TENSOR,
                             "input_scale": _attr("input_scale"),
                             "is_result": _attr("is_result"), "scale": _attr("scale"),
                             "self_or_result": TENSOR},
    "GeluBackward0": {"approximate": _attr("approximate"), "self": TENSOR},
    "GeluBackwardBackward0": {"approximate": _attr("approximate"), "grad_output": TENSOR,
                              "self": TENSOR},
    "LeakyReluBackward0": {"negative_slope": _attr("negative_slope"), "self": TENSOR},
    "LeakyReluBackward1": {"negative_slope": _attr("negative_slope"), "result": TENSOR},
    "LeakyReluBackwardBackward0": {"negative_slope": _attr("negative_slope"), "self": TENSOR},
    "SiluBackward0": {"self": TENSOR},
    # embedding (minigrad/_ops/embedding.py): padding_idx -1 (none) reads back as 2**64 - 1
    "EmbeddingBackward0": {"indices": TENSOR, "padding_idx": _signed("padding_idx"),
                           "scale_grad_by_freq": _attr("scale_grad_by_freq"),
                           "sparse": _attr("sparse"),
                           "weight_sym_argsize_0": _attr("num_weights")},
    "EmbeddingDenseBackwardBackward0": {"indices": TENSOR,
                                        "padding_idx": _signed("padding_idx")},
    "SoftplusBackward0": {"beta": _attr("beta"), "self": TENSOR,
                          "threshold": _attr("threshold")},
    "SoftplusBackwardBackward0": {"beta": _attr("beta"), "grad_output": TENSOR,
                                  "self": TENSOR, "threshold": _attr("threshold")},
    # manipulation (minigrad/_ops/differences.py)
    "TraceBackward0": {"self_sym_sizes": _self_sizes},
    "IndexFillBackward0": {"dim": _dim_arg, "index": TENSOR},
    "IndexFillBackward1": {"dim": _dim_arg, "index": TENSOR},
    "AddcmulBackward0": {"tensor1": TENSOR, "tensor2": TENSOR, "value": _attr("value")},
    "AddcdivBackward0": {"tensor1": TENSOR, "tensor2": TENSOR, "value": _attr("value")},
    "TakeBackward0": {"index": TENSOR, "self": TENSOR},
    "PutBackward0": {"accumulate": _attr("accumulate"), "index": TENSOR, "source": TENSOR},
    "CummaxBackward0": {"dim": _dim_arg, "indices": TENSOR, "self": TENSOR},
    "CumminBackward0": {"dim": _dim_arg, "indices": TENSOR, "self": TENSOR},
    "LogcumsumexpBackward0": {"dim": _dim_arg, "result": TENSOR, "self": TENSOR},
    "LinalgCrossBackward0": {"dim": _dim_arg, "other": TENSOR, "self": TENSOR},
    "VdotBackward0": {"other": TENSOR, "self": TENSOR},
    "AddmvBackward0": {"alpha": _attr("alpha"), "beta": _attr("beta"), "mat": TENSOR,
                       "vec": TENSOR},
    "AddrBackward0": {"alpha": _attr("alpha"), "beta": _attr("beta"), "vec1": TENSOR,
                      "vec2": TENSOR},
    "RenormBackward0": {"dim": _dim_arg, "maxnorm": _attr("maxnorm"), "p": _attr("p"),
                        "self": TENSOR},
    "BaddbmmBackward0": {"alpha": _attr("alpha"), "batch1": TENSOR, "batch2": TENSOR,
                         "beta": _attr("beta")},
    "AddbmmBackward0": {"alpha": _attr("alpha"), "batch1": TENSOR,
                        "batch1_sym_argsize_0": lambda n: n.sizes[0],
                        "batch1_sym_argsize_1": lambda n: n.sizes[1], "batch2": TENSOR,
                        "batch2_sym_argsize_2": lambda n: n.sizes[2], "beta": _attr("beta")},
    "BlockDiagBackward0": {},
    "Rot90Backward0": {"dims": lambda n: tuple(_c_int(d) for d in n.dims),
                       "k": lambda n: _c_int(n.k)},
    # statistics_losses (minigrad/_ops/distance.py)
    "NormBackward1": {"dim": _dims_arg, "keepdim": _keepdim, "p": _attr("ord_arg"),
                      "result": TENSOR, "self": TENSOR},
    "DistBackward0": {"other": TENSOR, "p": _attr("p"), "result": TENSOR, "self": TENSOR},
    "CdistBackward0": {"p": _attr("p"), "result": TENSOR, "x1": TENSOR, "x2": TENSOR},
    "CdistBackwardBackward0": {},
    "EuclideanDistBackward0": {"result": TENSOR, "x1": TENSOR, "x2": TENSOR},
    "XlogyBackward0": {"other": TENSOR, "self": TENSOR},
    "MedianBackward0": {"result": TENSOR, "self": TENSOR},
    "ConstantPadNdBackward0": {"pad": _signed("pad")},
    "LogSigmoidBackward0": {"buffer": TENSOR, "self": TENSOR},
    "LinalgInvExBackward0": {"inverse": TENSOR},
    # linalg: determinants and solve keep A's LU factors (minigrad/_ops/determinant.py, solve.py)
    "LinalgDetBackward0": {"A": TENSOR, "LU": TENSOR, "pivots": TENSOR, "result": TENSOR},
    "LinalgSlogdetBackward0": {"A": TENSOR, "LU": TENSOR, "pivots": TENSOR, "sign": TENSOR},
    "LinalgSolveExBackward0": {"A": TENSOR, "LU": TENSOR, "left": _attr("left"),
                               "pivots": TENSOR, "result": TENSOR},
    "MultiMarginLossBackward0": {"margin": _attr("margin"), "p": _attr("p"),
                                 "reduction": lambda n: _REDUCTION[n.reduction],
                                 "self": TENSOR, "target": TENSOR, "weight": TENSOR},
    "LogSigmoidBackwardBackward0": {"buffer": TENSOR, "grad_output": TENSOR, "self": TENSOR},
    "Unique2Backward0": {}, "UniqueDimBackward0": {}, "UniqueConsecutiveBackward0": {},
    "NansumBackward0": {"dim": _dims_arg, "keepdim": _keepdim, "self": TENSOR},
    "VarMeanBackward0": {"correction": _attr("correction"), "dim": _dims_arg,
                         "keepdim": _keepdim, "self": TENSOR},
    "StdMeanBackward0": {"correction": _attr("correction"), "dim": _dims_arg,
                         "keepdim": _keepdim, "result0": TENSOR, "self": TENSOR},
    "AminmaxBackward0": {"dim": _signed("dim_arg"), "keepdim": _keepdim, "max": TENSOR,
                         "min": TENSOR, "self": TENSOR},
    "NanmedianBackward0": {"result": TENSOR, "self": TENSOR},
    **dict.fromkeys(["MedianBackward1", "NanmedianBackward1", "KthvalueBackward0",
                     "ModeBackward0"], {"dim": _dim_arg, "indices": TENSOR, "keepdim": _keepdim,
                                        "self_sym_sizes": _self_sizes}),
    "SoftMarginLossBackward0": {"reduction": lambda n: _REDUCTION[n.reduction], "self": TENSOR,
                                "target": TENSOR},
    "SoftMarginLossBackwardBackward0": {"grad_output": TENSOR,
                                        "reduction": lambda n: _REDUCTION[n.reduction],
                                        "self": TENSOR, "target": TENSOR},
    # the activations group's block (minigrad/_ops/elementary.py, minigrad/_ops/activation.py)
    "ErfBackward0": {"self": TENSOR},
    "ErfcBackward0": {"self": TENSOR},
    "ErfinvBackward0": {"self": TENSOR},
    "HardtanhBackward0": {"max_val": _attr("max_val"), "min_val": _attr("min_val"),
                          "self": TENSOR},
    "HardtanhBackwardBackward0": {"max_val": _attr("max_val"), "min_val": _attr("min_val"),
                                  "self": TENSOR},
    "CeluBackward0": {"alpha": _attr("alpha"), "self": TENSOR},
    "CeluBackward1": {"alpha": _attr("alpha"), "result": TENSOR},
    "MishBackward0": {"self": TENSOR},
    "HardsigmoidBackward0": {"self": TENSOR},
    "HardswishBackward0": {"self": TENSOR},
    "HardswishBackwardBackward0": {"grad_output": TENSOR, "self": TENSOR},
    "ThresholdBackward0": {"self": TENSOR, "threshold": _attr("threshold")},
    "ThresholdBackward1": {"self": TENSOR, "threshold": _attr("threshold")},
    "SoftshrinkBackward0": {"lambd": _attr("lambd"), "self": TENSOR},
    "HardshrinkBackward0": {"lambd": _attr("lambd"), "self": TENSOR},
    "SoftshrinkBackwardBackward0": {"lambd": _attr("lambd"), "self": TENSOR},
    "HardshrinkBackwardBackward0": {"lambd": _attr("lambd"), "self": TENSOR},
    "GluBackward0": {"dim": _dim_arg, "self": TENSOR},
    "GluBackwardBackward0": {"dim": _dim_arg, "grad_output": TENSOR, "self": TENSOR},
    "PreluKernelBackward0": {"self": TENSOR, "weight": TENSOR},
    "PreluKernelBackwardBackward0": {"grad_output": TENSOR, "self": TENSOR, "weight": TENSOR},
    "LogaddexpBackward0": {"other": TENSOR, "self": TENSOR},
    "Deg2RadBackward0": {},
    "Rad2DegBackward0": {},
    "SincBackward0": {"self": TENSOR},
    "XlogyBackward1": {"other": TENSOR, "self": _attr("self")},
    "XlogyBackward2": {"other": _attr("other"), "self": TENSOR},
    # the special functions' block (_ops/gamma.py, _ops/special_functions.py)
    "LgammaBackward0": {"self": TENSOR},
    "DigammaBackward0": {"self": TENSOR},
    "PolygammaBackward0": {"n": _attr("n"), "self": TENSOR},
    "PolygammaBackward1": {"n": _attr("n"), "self": TENSOR},
    "MvlgammaBackward0": {"p": _attr("p"), "self": TENSOR},
    "SpecialZetaBackward0": {"other": TENSOR, "self": TENSOR},
    "SpecialZetaBackward1": {"other": TENSOR, "self": _attr("self")},
    "SpecialZetaBackward2": {},
    "I0Backward0": {"self": TENSOR},
    "SpecialI0EBackward0": {"result": TENSOR, "self": TENSOR},
    "SpecialI1Backward0": {"result": TENSOR, "self": TENSOR},
    "SpecialI1EBackward0": {"result": TENSOR, "self": TENSOR},
    "SpecialNdtriBackward0": {"result": TENSOR},
    "SpecialLogNdtrBackward0": {"result": TENSOR, "self": TENSOR},
    "SpecialEntrBackward0": {"self": TENSOR},
    "SpecialXlog1PyBackward0": {"other": TENSOR, "self": TENSOR},
    "SpecialXlog1PyBackward1": {"other": TENSOR, "self": _attr("self")},
    "SpecialXlog1PyBackward2": {"other": _attr("other"), "self": TENSOR},
    # the missing torch functions' block (_ops/float_bits.py, _ops/composites.py)
    "CopysignBackward0": {"result": TENSOR, "self": TENSOR},
    "CopysignBackward1": {"result": TENSOR, "self": TENSOR},
    "NextafterBackward0": {"other": TENSOR, "self": TENSOR},
    "LdexpBackward0": {"other": TENSOR, "result": TENSOR},
    "FrexpBackward0": {"exponent": TENSOR},
    "Logaddexp2Backward0": {"other": TENSOR, "self": TENSOR},
    "NarrowCopyBackward0": {"dim": _dim_arg, "length": _attr("length"),
                            "self_sym_sizes": _self_sizes, "start": _signed("start")},
    "SelectScatterBackward0": {"dim": _dim_arg, "index": _signed("index")},
    "SliceScatterBackward0": {"dim": _dim_arg, "end": _signed("end"), "start": _signed("start"),
                              "step": _attr("step")},
    "DiagonalScatterBackward0": {"dim1": _signed("dim1_arg"), "dim2": _signed("dim2_arg"),
                                 "offset": _signed("offset")},
}


def fields_of(node_cls) -> dict:
    """The fields of ``node_cls`` (by its name, as torch's classes are; a custom Function's
    node, or a class with no entry, has none)."""
    return SAVED_FIELDS.get(node_cls.__name__, {})
