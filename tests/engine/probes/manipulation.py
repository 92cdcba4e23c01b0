# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Moving dims, tiling, broadcasting, repeat_interleave, diff, trace, addcmul and addcdiv
(minigrad/_ops/rearrange.py and differences.py): values, printing, errors, int dtypes, empty
and 0-d tensors."""

PROBES = [
    # movedim / moveaxis: a view (PermuteBackward0), a 0-d tensor's alias
    """x = torch.arange(24.).view(2, 3, 4).requires_grad_()
y = x.movedim(0, -1); z = torch.moveaxis(x, (0, 1), (2, 0))
print(y.shape, z.shape, y.grad_fn, y._is_view(), y._base is x, z.grad_fn._saved_dims, y.is_contiguous())""",
    "x = torch.tensor(3., requires_grad=True); y = x.movedim(0, -1); print(y, y.grad_fn, torch.movedim(x, (), ()).shape)",
    "torch.zeros(2, 3).movedim(0, 2)",
    "torch.zeros(2, 3).movedim((0, 1), (1,))",
    "torch.zeros(2, 3).movedim((0, 0), (1, 0))",
    "torch.zeros(2, 3).movedim((0, 1), (1, -1))",
    "torch.zeros(2, 3).movedim(0.5, 1)",
    "torch.zeros(2, 3).moveaxis(source=0, destination=1).shape",
    """x = torch.zeros(2, 3); y = x.movedim(1, 0); y[0, 1] = 5.; print(x, x._version)""",
    "print(torch.arange(6).view(2, 3).movedim(1, 0), torch.zeros(0, 3).movedim(0, 1).shape)",
    # tile, broadcast_to, broadcast_tensors
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.tile((2,)); z = torch.tile(x, (2, 1, 1)); print(y, z.shape, y.grad_fn, x.tile(()).grad_fn, x.tile(1, 2).shape)""",
    "torch.tile(torch.ones(2), 2)",
    "torch.tile(torch.ones(2), (-1,))",
    "torch.ones(2).tile(1.5)",
    "print(torch.tile(torch.tensor(5), (2, 3)), torch.tile(torch.tensor([True, False]), (2,)), torch.tile(torch.ones(0, 2), (3, 1)).shape)",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.broadcast_to(x, (2, 3)); print(y, y.grad_fn, y._is_view(), x.broadcast_to(2, -1).shape)
y.sum().backward(); print(x.grad)""",
    "torch.broadcast_to(torch.ones(2, 3), (3,))",
    "torch.broadcast_to(torch.ones(2, 3), (4, 3))",
    "torch.broadcast_to(torch.ones(2), 2)",
    """a = torch.ones(2, 1, requires_grad=True); b = torch.arange(3.)
x, y = torch.broadcast_tensors(a, b); print(x, y, x.grad_fn, y._is_view(), y._base is b)
p, q = torch.broadcast_tensors(a, torch.ones(2, 1)); print(p is a, torch.broadcast_tensors(), torch.broadcast_tensors(b)[0] is b)""",
    "torch.broadcast_tensors(torch.ones(2, 3), torch.ones(4))",
    "torch.broadcast_tensors([torch.ones(2), 1])",
    "print(torch.broadcast_tensors(torch.tensor([1, 2]), torch.ones(2, 1)), torch.broadcast_tensors(torch.tensor(1.), torch.ones(0, 2))[0].shape)",
    # meshgrid: the warning without indexing (once per process, as torch's)
    """x = torch.tensor([1., 2., 3.]); y = torch.tensor([4., 5.])
a, b = torch.meshgrid(x, y); print(a, b)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True); y = torch.tensor([4., 5.])
a, b = torch.meshgrid(x, y, indexing='xy'); print(a, b, a.grad_fn, a._is_view(), a.grad_fn.next_functions)
c, d = torch.meshgrid([x, y], indexing='ij'); print(c.shape, d.shape); (a * b).sum().backward(); print(x.grad)""",
    "print(torch.meshgrid(torch.tensor(2.), torch.arange(3.), indexing='xy'), torch.meshgrid(torch.arange(2), indexing='ij'), torch.meshgrid(torch.arange(2), torch.arange(3), torch.arange(4), indexing='xy')[2].shape)",
    "torch.meshgrid(torch.ones(2), torch.ones(3), indexing='foo')",
    "torch.meshgrid(torch.ones(2), torch.ones(3, dtype=torch.float64), indexing='ij')",
    "torch.meshgrid(indexing='ij')",
    "print(torch.meshgrid(torch.ones(0), torch.ones(2), indexing='ij')[0].shape)",
    # repeat_interleave: int counts (a view of a clone) and tensors of counts (index_select)
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.repeat_interleave(2); z = x.repeat_interleave(3, dim=1); w = torch.repeat_interleave(x, torch.tensor([1, 2]), dim=0)
print(y, z, w, y.grad_fn, z.grad_fn.next_functions, w.grad_fn)
(y.sum() + z.sum() + w.sum()).backward(); print(x.grad)""",
    "print(torch.repeat_interleave(torch.tensor([1, 3, 2])), torch.repeat_interleave(torch.tensor([2, 0], dtype=torch.int32)), torch.tensor(5).repeat_interleave(3), torch.tensor([1, 2]).repeat_interleave(torch.tensor(2)))",
    "torch.ones(2, 3).repeat_interleave(-1)",
    "torch.ones(2, 3).repeat_interleave(torch.tensor([1, -2]), dim=0)",
    "torch.ones(2, 3).repeat_interleave(torch.tensor([1., 2.]), dim=0)",
    "torch.ones(2, 3).repeat_interleave(torch.tensor([[1, 2]]), dim=0)",
    "torch.ones(2, 3).repeat_interleave(torch.tensor([2, 1]))",
    "torch.ones(2, 3).repeat_interleave(2, dim=0, output_size=5)",
    "torch.repeat_interleave(torch.tensor([1, 3, 2]), output_size=3)",
    "torch.ones(2, 3).repeat_interleave(2, dim=2)",
    "torch.tensor([1, 2]).repeat_interleave()",
    "torch.ones(2).repeat_interleave(1.5)",
    "torch.repeat_interleave(torch.ones(2), 1.5)",
    "print(torch.ones(2, 3).repeat_interleave(2, dim=0, output_size=4).shape, torch.ones(2, 3).repeat_interleave(torch.tensor([2]), dim=1, output_size=6).shape, torch.ones(0, 3).repeat_interleave(2).shape)",
    # diff
    """x = torch.tensor([[1., 4., 9., 16.], [2., 3., 5., 8.]], requires_grad=True)
print(x.diff(), torch.diff(x, n=2), torch.diff(x, dim=0), x.diff(prepend=torch.zeros(2, 1), append=torch.ones(2, 2)), x.diff(n=0).grad_fn, x.diff().grad_fn, x.diff(n=9).shape)""",
    "print(torch.diff(torch.tensor([True, False, False])), torch.diff(torch.tensor([1, 4, 2])), torch.diff(torch.tensor([1, 4, 2]), prepend=torch.tensor([1.])), torch.diff(torch.tensor([1, 4, 2], dtype=torch.uint8)))",
    "torch.diff(torch.tensor(1.))",
    "torch.diff(torch.ones(3), n=-1)",
    "torch.diff(torch.ones(2, 3), prepend=torch.ones(3))",
    "torch.diff(torch.ones(2, 3), append=torch.ones(3, 1))",
    "torch.ones(3).diff(1.5)",
    "print(torch.diff(torch.tensor([1., float('inf'), float('nan')])), torch.diff(torch.ones(0)))",
    # trace
    """x = torch.arange(12.).view(3, 4).requires_grad_()
t = x.trace(); t.backward(); print(t, t.grad_fn, t.grad_fn._saved_self_sym_sizes, x.grad)""",
    "print(torch.tensor([[1, 2], [3, 4]]).trace(), torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).trace().dtype, torch.ones(0, 0).trace(), torch.trace(torch.ones(4, 2)))",
    "torch.ones(2, 3, 4).trace()",
    "torch.ones(3).trace()",
    "torch.tensor([[True, False], [True, True]]).trace()",
    """x = torch.randn(3, 3, requires_grad=True)
g, = torch.autograd.grad(x.trace(), x, torch.tensor(2., requires_grad=True), create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions[0][0], g.grad_fn.next_functions[0][0]._saved_index)""",
    # addcmul / addcdiv (+ in place)
    """a = torch.ones(3, requires_grad=True); b = torch.tensor([1., 2., 3.]); c = torch.tensor([2., 2., 2.], requires_grad=True)
y = torch.addcmul(a, b, c, value=0.5); z = a.addcdiv(b, c, value=-1)
print(y, z, y.grad_fn, y.grad_fn._saved_value, y.grad_fn._saved_tensor2, z.grad_fn._saved_tensor1)""",
    "print(torch.addcmul(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), value=2), torch.addcmul(torch.ones(3), torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), value=2.5), torch.addcdiv(torch.ones(2), torch.ones(2), torch.zeros(2), value=-1))",
    "torch.addcdiv(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64))",
    "torch.addcmul(torch.ones(3), torch.ones(2), torch.ones(3))",
    "torch.addcmul(torch.ones(3), torch.ones(3), torch.ones(3), 2)",
    "torch.ones(3).addcmul_(torch.ones(2, 3), torch.ones(3))",
    "torch.ones(3, dtype=torch.int64).addcmul_(torch.ones(3), torch.ones(3))",
    """p = torch.zeros(3); g = torch.tensor([1., -2., 3.])
p.addcmul_(g, g, value=0.1); print(p, p._version); p.addcdiv_(g, p.sqrt() + 1e-8, value=-0.01); print(p)""",
    """w = torch.ones(3, requires_grad=True); v = w * 1
v.addcmul_(w, w, value=2); print(v, v.grad_fn); v.sum().backward(); print(w.grad)""",
    "torch.ones(3, requires_grad=True).addcmul_(torch.ones(3), torch.ones(3))",
    # index_add / index_add_
    """x = torch.zeros(3, 4, requires_grad=True); s = torch.arange(8.).view(2, 4).requires_grad_()
y = torch.index_add(x, 0, torch.tensor([0, 0]), s, alpha=2); print(y, y.grad_fn, y.grad_fn._saved_alpha, y.grad_fn._saved_dim, y.grad_fn._saved_index, y.grad_fn._saved_source_dim)
y.sum().backward(); print(x.grad, s.grad)""",
    "x = torch.zeros(3, 4); print(x.index_add(-1, torch.tensor([3, 0, 3]), torch.ones(3, 3)), x.index_add_(1, torch.tensor(0), torch.ones(3, 1)), x._version, torch.zeros(3, 2).index_add(0, torch.tensor([], dtype=torch.int64), torch.ones(0, 2)))",
    "print(torch.index_add(torch.zeros(3, 4, dtype=torch.int64), 0, torch.tensor([0, 1]), torch.ones(2, 4, dtype=torch.int64), alpha=2.5), torch.index_add(torch.zeros(2, dtype=torch.bool), 0, torch.tensor([1]), torch.ones(1, dtype=torch.bool)), torch.index_add(torch.tensor(1.), 0, torch.tensor([0]), torch.tensor(2.)))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([0, 2]), torch.ones(2, 3))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([0, 5]), torch.ones(2, 4))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([0, -1]), torch.ones(2, 4))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([0, 1.]), torch.ones(2, 4))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([[0, 1]]), torch.ones(2, 4))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([0, 1, 2]), torch.ones(2, 4))",
    "torch.index_add(torch.zeros(3, 4), 2, torch.tensor([0, 1]), torch.ones(2, 4))",
    "torch.index_add(torch.zeros(3, 4), 0, torch.tensor([0, 1]), torch.ones(2, 4, dtype=torch.float64))",
    "torch.index_add(torch.zeros(3, 4), 1, torch.tensor([0, 1]), torch.ones(5))",
    "torch.index_add(torch.zeros(3), 0, torch.tensor([0]), torch.tensor(2.))",
    "torch.index_add(torch.tensor(1.), 0, torch.tensor([1]), torch.tensor(2.))",
    "torch.zeros(3, 4).index_add(1, torch.tensor([0, 0, 3]), torch.ones(3, 3), 2)",
    "torch.zeros(3, 4).expand(2, 3, 4).index_add_(1, torch.tensor([0]), torch.ones(2, 1, 4))",
    "torch.zeros(3, requires_grad=True).index_add_(0, torch.tensor([0]), torch.ones(1))",
    # hstack, vstack, dstack, column_stack, atleast_nd
    """a = torch.tensor([1., 2., 3.], requires_grad=True); b = torch.tensor([4., 5., 6.])
print(torch.hstack([a, b]), torch.vstack((a, b)), torch.dstack([a, b]), torch.column_stack([a, b]))
print(torch.vstack([a, b]).grad_fn.next_functions, torch.column_stack([a, b]).grad_fn.next_functions)""",
    "print(torch.hstack([torch.tensor(1), torch.tensor(2.)]), torch.vstack([torch.tensor(1.), torch.tensor(2.)]), torch.column_stack([torch.ones(2, 2), torch.arange(2)]), torch.dstack([torch.ones(2, 2)]).shape)",
    "torch.hstack([])",
    "torch.vstack([])",
    "torch.dstack([])",
    "torch.column_stack([])",
    "torch.hstack(torch.ones(2, 2))",
    "torch.hstack([torch.ones(2), torch.ones(2, 1)])",
    "torch.vstack([torch.ones(2), torch.ones(3)])",
    "torch.column_stack([torch.ones(2), torch.ones(3)])",
    "torch.hstack(1.5)",
    """a = torch.arange(3.); z = torch.tensor(5.)
print(torch.atleast_1d(z), torch.atleast_1d(a) is a, torch.atleast_2d(a), torch.atleast_3d(a).shape, torch.atleast_3d(z).shape, torch.atleast_1d(a, z), torch.atleast_2d([a, z]), torch.atleast_3d(), torch.atleast_1d(z)._is_view())""",
    "torch.atleast_1d(1.5)",
    "torch.atleast_2d(torch.ones(2), 1)",
    # tensor_split, hsplit, vsplit, dsplit
    """x = torch.arange(10.).requires_grad_()
print(x.tensor_split(3), torch.tensor_split(x, [2, 5]), x.tensor_split(torch.tensor([1, 8])), x.tensor_split(torch.tensor(4)), x.tensor_split(3)[0].grad_fn, x.tensor_split(3)[1]._is_view())""",
    "x = torch.arange(12.).view(3, 4); print(x.hsplit(2), torch.vsplit(x, [1]), torch.hsplit(x, (1, 9)), torch.dsplit(torch.ones(2, 2, 4), 2)[0].shape, torch.tensor_split(x, 5, dim=0))",
    "torch.tensor_split(torch.ones(2, 3), 0, dim=1)",
    "torch.tensor_split(torch.tensor(1.), 2)",
    "torch.tensor_split(torch.ones(2, 3), torch.tensor([1.]), 1)",
    "torch.tensor_split(torch.ones(2, 3), torch.tensor([[1]]), 1)",
    "torch.tensor_split(torch.ones(2, 3), 2, dim=2)",
    "torch.tensor_split(torch.ones(2, 3), 1.5)",
    "torch.hsplit(torch.ones(2, 3), 2)",
    "torch.hsplit(torch.ones(2, 3), 0)",
    "torch.hsplit(torch.tensor(1.), 1)",
    "torch.vsplit(torch.ones(3), 1)",
    "torch.dsplit(torch.ones(2, 3), 1)",
    "torch.ones(2, 3).hsplit(1.5)",
    # unflatten, fliplr, flipud, rot90
    """x = torch.arange(6.).requires_grad_(); y = x.unflatten(0, (2, -1)); z = torch.unflatten(x.view(1, 6), 1, [3, 2])
print(y, y.grad_fn, y._is_view(), z.shape)""",
    "torch.ones(2, 3).unflatten(1, ())",
    "torch.ones(2, 3).unflatten(1, (2, 2))",
    "torch.ones(2, 3).unflatten(2, (3, 1))",
    "torch.ones(2, 3).unflatten(0, 1.5)",
    """x = torch.arange(6.).view(2, 3).requires_grad_()
print(x.fliplr(), torch.flipud(x), x.fliplr().grad_fn, x.rot90(), torch.rot90(x, 2), torch.rot90(x, -1), torch.rot90(x, 3, [1, 0]), torch.rot90(x, 4).grad_fn)
r = torch.rot90(x, 5, (-1, -2)); print(r.grad_fn._saved_k, r.grad_fn._saved_dims); r.backward(torch.arange(6.).view(3, 2)); print(x.grad)""",
    "print(torch.rot90(torch.arange(4).view(2, 2)), torch.rot90(torch.ones(0, 2)).shape, torch.flipud(torch.tensor([True, False])))",
    "torch.fliplr(torch.ones(3))",
    "torch.flipud(torch.tensor(1.))",
    "torch.rot90(torch.ones(2, 3), 1, [0])",
    "torch.rot90(torch.ones(2, 3), 1, [0, 0])",
    "torch.rot90(torch.ones(2, 3), 1, [0, 2])",
    "torch.rot90(torch.ones(3))",
    "torch.rot90(torch.ones(2, 3), 1.5)",
    # nonzero, argwhere, count_nonzero
    """x = torch.tensor([[1., 0., -0.], [float('nan'), 2., 0.]])
print(x.nonzero(), torch.nonzero(x, as_tuple=True), x.argwhere(), torch.count_nonzero(x), x.count_nonzero(0), torch.count_nonzero(x, dim=(0, 1)), x.count_nonzero(()), x[x.nonzero(as_tuple=True)])""",
    "print(torch.nonzero(torch.tensor(1.)), torch.nonzero(torch.tensor(0.), as_tuple=True), torch.nonzero(torch.tensor(2.), as_tuple=True), torch.nonzero(torch.zeros(0, 3)), torch.count_nonzero(torch.tensor([True, False])), torch.tensor([[1, 0], [0, 3]]).nonzero())",
    "torch.count_nonzero(torch.ones(2, 2), dim=(0, 0))",
    "torch.count_nonzero(torch.ones(2, 2), dim=2)",
    "torch.ones(2).nonzero(True)",
    "torch.count_nonzero(torch.ones(2), 1.5)",
    # take, take_along_dim
    """x = torch.arange(12.).view(3, 4).requires_grad_()
y = x.take(torch.tensor([[0, 5], [5, -1]])); print(y, y.grad_fn, y.grad_fn._saved_index, y.grad_fn._saved_self is x)
y.backward(torch.ones(2, 2)); print(x.grad)""",
    """x = torch.arange(12.).view(3, 4).requires_grad_()
g, = torch.autograd.grad(x.take(torch.tensor([1, 1])), x, torch.tensor([1., 2.], requires_grad=True), create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions, g.grad_fn._saved_accumulate, g.grad_fn._saved_index)""",
    "print(torch.take(torch.tensor(5.), torch.tensor([0, 0])), torch.take(torch.arange(4), torch.tensor(2)), torch.take(torch.ones(0), torch.tensor([], dtype=torch.int64)))",
    "torch.arange(12.).take(torch.tensor([12]))",
    "torch.arange(12.).take(torch.tensor([-13]))",
    "torch.arange(12.).take(torch.tensor([1.]))",
    "torch.arange(12.).take(torch.tensor([1], dtype=torch.int32))",
    "torch.take(torch.ones(0), torch.tensor([0]))",
    """x = torch.tensor([[10., 30., 20.], [60., 40., 50.]], requires_grad=True)
i = x.argsort(dim=1); y = torch.take_along_dim(x, i, dim=1); print(y, y.grad_fn, y.grad_fn.next_functions)
print(x.take_along_dim(torch.tensor([[0], [2]]), 1), torch.take_along_dim(x, torch.tensor([5, 0])), torch.take_along_dim(x, x.argmax(dim=1, keepdim=True), dim=1), x.take_along_dim(torch.tensor([[1, 0, 1]]), 0))""",
    "torch.take_along_dim(torch.ones(3, 4), torch.tensor([[0], [1]]), 1)",
    "torch.take_along_dim(torch.ones(3, 4), torch.tensor([0]), 1)",
    "torch.take_along_dim(torch.ones(3, 4), torch.tensor([[0.]]), 1)",
    "torch.take_along_dim(torch.ones(3, 4), torch.tensor([[1]]), 2)",
    # cummax, cummin, logcumsumexp
    """x = torch.tensor([[1., 3., 2., 3.], [0., -1., 5., 5.]], requires_grad=True)
r = x.cummax(1); print(r); print(type(r), r.values.grad_fn, r.values.grad_fn._saved_dim, r.values.grad_fn._saved_indices)
v, i = torch.cummin(x, dim=-1); print(v, i, v.grad_fn._saved_dim); v.sum().backward(); print(x.grad)""",
    "print(torch.tensor([1, 3, 2]).cummax(0), torch.tensor([True, False]).cummin(0), torch.tensor(2.).cummax(0), torch.ones(0).cummax(0))",
    "print(torch.tensor([1., float('nan'), 2.]).cummax(0), torch.tensor([1., float('nan'), 2., float('nan')]).cummin(0), torch.tensor([2., 2., 1., 1.]).cummin(0).indices)",
    "torch.ones(2).cummax(2)",
    "torch.ones(2).cummax()",
    "torch.cummax(torch.ones(2), 1.5)",
    """x = torch.tensor([[1., 3., 2., 3.], [0., -1., 5., 5.]], requires_grad=True)
y = x.logcumsumexp(1); print(y, y.grad_fn, y.grad_fn._saved_dim, torch.logcumsumexp(x, dim=0)); y.sum().backward(); print(x.grad)""",
    "print(torch.tensor([-float('inf'), -float('inf'), 1.]).logcumsumexp(0), torch.tensor([float('inf'), 1.]).logcumsumexp(0), torch.tensor([1., float('nan'), 2.]).logcumsumexp(0), torch.tensor([1000., 1000.]).logcumsumexp(0), torch.ones(0).logcumsumexp(0), torch.tensor(3.).logcumsumexp(0))",
    "torch.tensor([1, 2]).logcumsumexp(0)",
    "torch.logcumsumexp(torch.ones(2), 1.5)",
    # tensordot, inner, kron, cross, vdot
    """a = torch.arange(6.).view(2, 3).requires_grad_(); b = torch.arange(12.).view(3, 4)
y = torch.tensordot(a, b, dims=1); print(y, y.grad_fn, torch.tensordot(a, a, 2), torch.tensordot(a, b, ([1], [0])).shape, torch.tensordot(a, b, 0).shape, torch.tensordot(a, b, dims=torch.tensor(1)).shape)
z = torch.tensordot(a, a.t(), ([-1], [-2])); print(z.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]._saved_dims)""",
    "torch.tensordot(torch.ones(2, 3), torch.ones(3, 3), dims=-1)",
    "torch.tensordot(torch.ones(2, 3), torch.ones(3, 3), dims=([1], [0, 1]))",
    "torch.tensordot(torch.ones(2, 3), torch.ones(3, 3), dims=([0], [0]))",
    "torch.tensordot(torch.ones(2, 3), torch.ones(3, 3).double(), 1)",
    "torch.tensordot(torch.ones(2, 3), torch.ones(3, 3), dims=3)",
    "torch.tensordot(torch.ones(2, 3), torch.ones(3, 3), (1, 0))",
    """a = torch.tensor([1., 2., 3.], requires_grad=True); m = torch.arange(6.).view(2, 3)
print(torch.inner(a, a), a.inner(a).grad_fn, torch.inner(m, a), torch.inner(torch.tensor(2.), m), torch.inner(torch.arange(3), torch.arange(3)))""",
    "torch.inner(torch.ones(2, 3), torch.ones(2, 2))",
    """a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.kron(a, torch.eye(2)); print(y, y.grad_fn, torch.kron(torch.arange(2), torch.arange(3)), torch.kron(torch.tensor(2.), a).shape, torch.kron(a, torch.ones(2, dtype=torch.float64)).dtype)""",
    """a = torch.tensor([1., 0., 0.], requires_grad=True); b = torch.tensor([0., 1., 0.])
y = torch.cross(a, b, dim=0); print(y, y.grad_fn, y.grad_fn._saved_dim, torch.linalg_cross if False else '', a.cross(b, dim=-1))
y.sum().backward(); print(a.grad, torch.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6]), dim=0), torch.cross(torch.ones(3, 4), torch.ones(3, 1), dim=0).shape)""",
    "print(torch.cross(torch.eye(3), torch.ones(3, 3)))",
    "torch.cross(torch.ones(3), torch.ones(2), dim=0)",
    "torch.cross(torch.ones(2, 3), torch.ones(2, 2), dim=-1)",
    "torch.cross(torch.ones(3), torch.ones(2, 3), dim=1)",
    "torch.cross(torch.ones(3), torch.ones(3).double(), dim=0)",
    "torch.cross(torch.ones(2), torch.ones(2))",
    "torch.cross(torch.ones(3), torch.ones(3), dim=2)",
    """a = torch.tensor([1., 2., 3.], requires_grad=True); b = torch.tensor([4., 5., 6.])
y = torch.vdot(a, b); print(y, y.grad_fn, y.grad_fn._saved_self, y.grad_fn._saved_other, a.vdot(b), torch.vdot(torch.arange(3), torch.arange(3)))""",
    "torch.vdot(torch.ones(2, 3), torch.ones(3))",
    "torch.vdot(torch.ones(3), torch.ones(2))",
    "torch.vdot(torch.ones(3), torch.ones(3).double())",
    # addmv, baddbmm, addbmm
    """v = torch.ones(2, requires_grad=True); m = torch.arange(6.).view(2, 3).requires_grad_(); a = torch.tensor([1., 0., 2.])
y = torch.addmv(v, m, a, beta=0.5, alpha=2); print(y, y.grad_fn, y.grad_fn._saved_alpha, y.grad_fn._saved_beta, y.grad_fn._saved_vec, y.grad_fn._saved_mat)
y.sum().backward(); print(v.grad, m.grad, torch.addmv(torch.tensor(1.), m, a), v.addmv(m, a))""",
    "print(torch.addmv(torch.full((2,), float('nan')), torch.ones(2, 3), torch.ones(3), beta=0), torch.addmv(torch.ones(2, dtype=torch.int64), torch.ones(2, 3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), beta=2, alpha=3))",
    "torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(2))",
    "torch.addmv(torch.ones(3), torch.ones(2, 3), torch.ones(3))",
    "torch.addmv(torch.ones(2), torch.ones(3), torch.ones(3))",
    "torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3).double())",
    "torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3), 2)",
    """s = torch.zeros(2, 2, 2, requires_grad=True); b1 = torch.ones(2, 2, 3, requires_grad=True); b2 = torch.arange(12.).view(2, 3, 2)
y = torch.baddbmm(s, b1, b2, alpha=0.5); z = torch.addbmm(torch.ones(2), b1, b2, beta=2)
print(y, z, y.grad_fn, z.grad_fn, z.grad_fn._saved_batch1_sym_argsize_0, z.grad_fn._saved_batch2_sym_argsize_2, y.grad_fn._saved_batch2 is None)
(y.sum() + z.sum()).backward(); print(s.grad, b1.grad)""",
    "print(torch.baddbmm(torch.full((1, 2, 2), float('nan')), torch.ones(1, 2, 3), torch.ones(1, 3, 2), beta=0), torch.addbmm(torch.full((2, 2), float('nan')), torch.ones(1, 2, 3), torch.ones(1, 3, 2), beta=0))",
    "torch.baddbmm(torch.ones(4, 2, 5), torch.ones(4, 2, 3), torch.ones(4, 4, 5))",
    "torch.baddbmm(torch.ones(4, 2, 4), torch.ones(4, 2, 3), torch.ones(4, 3, 5))",
    "torch.baddbmm(torch.ones(4, 2, 5).double(), torch.ones(4, 2, 3), torch.ones(4, 3, 5))",
    "torch.baddbmm(torch.ones(4, 2, 5), torch.ones(4, 2, 3), torch.ones(4, 3, 5).double())",
    "torch.addbmm(torch.ones(2, 5), torch.ones(4, 2, 3), torch.ones(4, 4, 5))",
    "torch.addbmm(torch.ones(2, 5), torch.ones(4, 2, 3), torch.ones(3, 3, 5))",
    "torch.addbmm(torch.ones(3, 5), torch.ones(4, 2, 3), torch.ones(4, 3, 5))",
    "torch.addbmm(torch.ones(2, 5), torch.ones(4, 2, 3), torch.ones(4, 3, 5).double())",
    # matrix_power, cartesian_prod
    """a = torch.tensor([[1., 1.], [0., 1.]], requires_grad=True)
print(torch.matrix_power(a, 5), a.matrix_power(0), a.matrix_power(1).grad_fn, a.matrix_power(0).grad_fn, a.matrix_power(4).grad_fn.next_functions, torch.matrix_power(torch.arange(4).view(2, 2), 3))""",
    "torch.matrix_power(torch.ones(2, 3), 2)",
    "torch.matrix_power(torch.ones(3), 2)",
    "torch.matrix_power(torch.ones(2, 2), 1.5)",
    # a negative power: the inverse's
    """a = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
b = torch.matrix_power(a, -3); print(b, b.grad_fn, b.grad_fn.next_functions, torch.matrix_power(a, -1).grad_fn)
b.sum().backward(); print(a.grad)""",
    "torch.matrix_power(torch.arange(4).view(2, 2), -1)",
    "torch.matrix_power(torch.zeros(2, 2), -2)",
    """a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([3., 4., 5.])
y = torch.cartesian_prod(a, b); print(y, y.grad_fn, y.grad_fn.next_functions, torch.cartesian_prod(a) is a, torch.cartesian_prod(torch.arange(2), torch.arange(2), torch.arange(2)).shape)""",
    "torch.cartesian_prod()",
    "torch.cartesian_prod(torch.ones(2, 2), torch.ones(2))",
    "torch.cartesian_prod(torch.tensor(1.), torch.ones(2))",
    "torch.cartesian_prod(torch.ones(2), torch.ones(2).double())",
    "torch.cartesian_prod([torch.ones(2), torch.ones(2)])",
    # block_diag
    """a = torch.ones(2, 2, requires_grad=True); b = torch.tensor([3., 4.], requires_grad=True); c = torch.tensor(5., requires_grad=True)
y = torch.block_diag(a, b, c); print(y, y.grad_fn, y.grad_fn.next_functions)
y.backward(torch.arange(20.).view(4, 5)); print(a.grad, b.grad, c.grad)""",
    "print(torch.block_diag(), torch.block_diag(torch.ones(0)).shape, torch.block_diag(torch.ones(0), torch.ones(2)), torch.block_diag(torch.ones(2, 0), torch.ones(1)).shape, torch.block_diag(torch.tensor(True), torch.tensor(2)), torch.block_diag(torch.arange(2), torch.ones(1)))",
    """a = torch.ones(0, requires_grad=True); b = torch.ones(2, requires_grad=True)
torch.block_diag(a, b).backward(torch.arange(4.).view(2, 2)); print(a.grad, b.grad)""",
    "torch.block_diag(torch.ones(2, 2, 2))",
    "torch.block_diag([torch.ones(2)])",
    # addmv_, baddbmm_, addbmm_, row_stack
    """x = torch.ones(2, requires_grad=True) * 1; m = torch.arange(6.).view(2, 3).requires_grad_()
x.addmv_(m, torch.ones(3), beta=0.5, alpha=2); print(x, x.grad_fn, x.grad_fn.next_functions, x._version)
s = torch.zeros(2, 2, 2); s.baddbmm_(torch.ones(2, 2, 3), torch.ones(2, 3, 2)); t = torch.zeros(2, 2); t.addbmm_(torch.ones(2, 2, 3), torch.ones(2, 3, 2), beta=0)
print(s, t, torch.addmv_(torch.ones(2), torch.ones(2, 3), torch.ones(3)), torch.row_stack([torch.ones(2), torch.zeros(2)]))""",
    "torch.ones(2, 5).baddbmm_(torch.ones(4, 2, 3), torch.ones(4, 3, 5))",
    "torch.ones(1).addmv_(torch.ones(2, 3), torch.ones(3))",
    "torch.ones(2, dtype=torch.int64).addmv_(torch.ones(2, 3), torch.ones(3))",
    "torch.ones(2, requires_grad=True).addmv_(torch.ones(2, 3), torch.ones(3))",
    # index_fill, index_fill_
    """x = torch.arange(12.).view(3, 4).requires_grad_(); v = torch.tensor(-1., requires_grad=True)
y = x.index_fill(1, torch.tensor([0, 2, 0]), v); print(y, y.grad_fn, y.grad_fn._saved_dim, y.grad_fn._saved_index)
y.backward(torch.ones(3, 4)); print(x.grad, v.grad)
z = torch.index_fill(x, -1, torch.tensor(3), 5.); print(z, z.grad_fn, z.grad_fn._saved_dim)""",
    "print(torch.arange(4).index_fill(0, torch.tensor([1]), 2.5), torch.arange(4.).index_fill(0, torch.tensor([1]), torch.tensor(2)), torch.tensor(1.).index_fill(0, torch.tensor([0]), 5.), torch.ones(3, 4).index_fill(1, torch.tensor([-1]), 0.))",
    "x = torch.zeros(2, 3); x.index_fill_(1, torch.tensor([0, 2]), 7.); print(x, x._version)",
    "torch.ones(3, 4).index_fill(1, torch.tensor([5]), 0.)",
    "torch.ones(3, 4).index_fill(1, torch.tensor([1.]), 0.)",
    "torch.ones(3, 4).index_fill(1, torch.tensor([[1]]), 0.)",
    "torch.ones(3, 4).index_fill(1, torch.tensor([1]), torch.tensor([1.]))",
    "torch.ones(3, 4).index_fill(2, torch.tensor([1]), 0.)",
    "torch.ones(3, 4).index_fill(1, torch.tensor([1], dtype=torch.int32), 0.)",
    "torch.ones(3, 4).index_fill(1, torch.tensor([1]))",
]

KNOWN = {
    "torch.meshgrid(torch.ones(2), torch.ones(3, 2), indexing='ij')":
        "torch's message prints the offending tensor in its C++ format (the values and "
        "[ torch.FloatTensor{3,2} ]); minigrad names its dimension count instead",
}
