"""``embedding`` (rows of a weight matrix picked by integer indices) and ``one_hot``.

``embedding(weight, indices)`` is ``weight[indices]``, but torch records it as one node,
``EmbeddingBackward0``, with an edge to the weight only (indices are not differentiable).
Its backward, ``embedding_dense_backward``, adds each upstream row into the row it came
from, skipping ``padding_idx`` and, with ``scale_grad_by_freq``, dividing by how often the
index occurs; that backward is linear in the upstream gradient, so under ``create_graph`` it
is one ``EmbeddingDenseBackwardBackward0`` node whose own backward picks the rows again.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops._args import parses
from minigrad._ops._core import fused, record
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


def _check_indices(indices):
    if indices.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {indices.type()} "
                           f"instead (while checking arguments for embedding)")


@parses('embedding(Tensor weight, Tensor indices, int padding_idx = -1, '
        'bool scale_grad_by_freq = False, bool sparse = False)')
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """``weight[indices]``: one row of ``weight`` per index (``padding_idx`` -1 for none)."""
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(indices)
    flat = indices._data.reshape(-1).astype(np.int64)
    rows = weight.shape[0]
    if flat.size and (flat.min() < 0 or flat.max() >= rows):
        raise IndexError("index out of range in self")
    data = weight._data[flat].reshape(*indices.shape, weight.shape[1])
    return record(data, EmbeddingBackward0, (weight,), save={"indices": indices},
                  padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq,
                  sparse=sparse, num_weights=rows)


class EmbeddingBackward0(Node):
    """d/dweight: each upstream row added into the weight row its index picked."""

    def backward(self, grad):
        return embedding_dense_backward(grad, self.saved("indices"), self.num_weights,
                                        self.padding_idx, self.scale_grad_by_freq)

    def jvp(self, t):
        return embedding(t, self.indices, self.padding_idx, self.scale_grad_by_freq,
                         self.sparse)


def embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
                             scale_grad_by_freq):
    """A ``num_weights`` x dim gradient: row ``k`` sums the upstream rows of index ``k``,
    in order (as torch's CPU kernel adds them), except the padding row."""
    g = grad_output._data
    dim = g.shape[-1]
    flat = indices._data.reshape(-1).astype(np.int64)
    rows = g.reshape(flat.size, dim)
    keep = flat != padding_idx
    if scale_grad_by_freq:
        counts = np.bincount(flat, minlength=num_weights)
        rows = rows * (1.0 / counts[flat])[:, None].astype(g.dtype)
    data = np.zeros((num_weights, dim), dtype=g.dtype)
    np.add.at(data, flat[keep], rows[keep])
    if fused():
        return Tensor._make(data)
    return record(data, EmbeddingDenseBackwardBackward0, (grad_output,),
                  save={"indices": indices}, padding_idx=padding_idx,
                  scale_grad_by_freq=scale_grad_by_freq, num_weights=num_weights)


class EmbeddingDenseBackwardBackward0(Node):
    """out = the rows of g added by index: its gradient picks the rows back (torch's
    embedding_dense_double_backward: index_select, the padding rows zeroed, a view)."""

    def backward(self, w):
        indices = self.saved("indices")
        picked = w.index_select(0, indices.reshape(-1))
        if self.padding_idx >= 0:
            padding = indices._data.reshape(-1, 1) == self.padding_idx
            picked.masked_fill_(Tensor._make(np.asarray(padding)), 0)
        return picked.view(*indices.shape, -1)  # torch's: ambiguous (an error) when empty

    def jvp(self, t):
        return embedding_dense_backward(t, self.indices, self.num_weights, self.padding_idx,
                                        self.scale_grad_by_freq)


def embedding_renorm_(weight, indices, max_norm, norm_type=2.0):
    """torch's ``embedding_renorm_`` (no gradient recorded): each row that the indices use and
    whose ``norm_type``-norm exceeds ``max_norm`` is scaled by ``max_norm / (norm + 1e-7)``."""
    _check_indices(indices)
    w = weight._data
    for row in np.unique(indices._data.reshape(-1)):
        norm = float(np.linalg.norm(w[row], ord=norm_type))
        if norm > max_norm:
            w[row] *= w.dtype.type(max_norm / (norm + 1e-7))
    weight._bump_version()
    return weight


@parses('one_hot(Tensor input, int num_classes = -1)')
def one_hot(tensor, num_classes=-1):
    """An int64 tensor with one more dim, of size ``num_classes`` (the largest class + 1 for
    -1): 1 at each value's class, 0 elsewhere."""
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = tensor._data
    if values.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return Tensor._make(np.zeros((*values.shape, num_classes), dtype=np.int64))
    if values.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(values.max()) + 1
    elif values.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((values[..., None] == np.arange(num_classes)).astype(np.int64))
