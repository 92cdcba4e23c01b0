# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""NumPy scalars and arrays meeting tensors, and tensors going back to NumPy."""

PROBES = [
    "x = torch.tensor([1., 2.]); print(np.sqrt(2.) * x)",
    "x = torch.tensor([1., 2.]); print(x * np.sqrt(2.))",
    "x = torch.tensor([1., 2.]); print(np.float32(3) + x)",
    "x = torch.tensor([1., 2.]); print(x + np.float32(3))",
    "x = torch.tensor([1., 2.]); print(x * np.float64(2))",
    "x = torch.tensor([1., 2.]); r = np.float64(2) * x; print(type(r).__name__, r)",
    "x = torch.tensor([1, 2]); print(x * np.float64(2))",
    "x = torch.tensor([1, 2]); print(x + np.int64(2))",
    "x = torch.tensor([1, 2]); print(np.int64(2) + x)",
    "x = torch.tensor([1, 2]); print(np.int32(2) * x)",
    "x = torch.tensor([1., 2.]); print(np.bool_(True) + x)",
    "x = torch.tensor([1., 2.]); print(x - np.float32(1), np.float32(1) - x)",
    "x = torch.tensor([1., 2.]); print(x / np.float64(2), np.float64(2) / x)",
    "x = torch.tensor([1., 2.]); print(x ** np.float64(2), np.float64(2) ** x)",
    "x = torch.tensor([1., 2.]); print(x > np.float64(1), np.float64(1) < x)",
    "x = torch.tensor([1., 2.], requires_grad=True); y = np.float64(3) * x; print(y)",
    "x = torch.tensor([1., 2., 3.]); r = x + np.ones(3); print(type(r).__name__, r)",
    "x = torch.tensor([1., 2., 3.]); r = np.ones(3) + x; print(type(r).__name__, r)",
    "x = torch.tensor([1., 2., 3.]); r = x * np.ones(3, dtype=np.float32); print(type(r).__name__, r)",
    "x = torch.tensor([1., 2., 3.]); r = np.ones(3, dtype=np.float32) * x; print(type(r).__name__, r)",
    "x = torch.tensor([1., 2., 3.], requires_grad=True); r = np.ones(3) + x; print(type(r).__name__)",
    "x = torch.tensor([1., 2., 3.], requires_grad=True); r = x + np.ones(3); print(r)",
    "x = torch.tensor([1., 2.]); a = np.array(x); print(a, a.dtype)",
    "x = torch.tensor([1., 2.]); a = np.array(x, dtype=np.float64); print(a, a.dtype)",
    "x = torch.tensor([1., 2.]); a = np.asarray(x); a[0] = 5; print(x)",
    "x = torch.tensor([1., 2.]); a = np.array(x); a[0] = 5; print(x)",
    "x = torch.tensor([1., 2.]); a = np.array(x.detach()); a[0] = 5; print(x)",
    "x = torch.tensor([1., 2.], requires_grad=True); np.array(x)",
    "x = torch.tensor([1., 2.], requires_grad=True); np.asarray(x)",
    "x = torch.tensor([1., 2.], requires_grad=True); x.numpy()",
    "x = torch.tensor([1., 2.], requires_grad=True); print(x.detach().numpy())",
    "x = torch.tensor([1., 2.], requires_grad=True); print(np.array(x.detach()))",
    "x = torch.tensor([1., 2.]); print(np.exp(x))",
    "x = torch.tensor([1., 2.]); print(np.sum(x), type(np.sum(x)).__name__)",
    "x = torch.from_numpy(np.array([1, 2])); print(x, x.dtype)",
    "a = np.array([1., 2.]); x = torch.from_numpy(a); a[0] = 9; print(x)",
    "a = np.array([1., 2.], dtype=np.float32); x = torch.tensor(a); a[0] = 9; print(x)",
    "print(torch.tensor(np.float64(2.5)), torch.tensor(np.int32(3)))",
    "print(torch.tensor([np.float32(1), np.float32(2)]))",
    "print(torch.as_tensor(np.array([1, 2], dtype=np.int32)))",
    "x = torch.tensor([1., 2.]); print(x.numpy().dtype, x.double().numpy().dtype)",
    "x = torch.tensor(3.5); print(float(x), int(x), x.item(), type(x.item()).__name__)",
    "x = torch.tensor([3]); print(np.float64(2) * x)",
    'x = torch.tensor([1., 2.]); a = np.array(x, copy=True); a[0] = 5; print(x)',
    'x = torch.tensor([1., 2.]); a = np.asarray(x, dtype=np.float64); a[0] = 5; print(x, a.dtype)',
    'x = torch.tensor([1., 2.]); r = np.greater(x, 1); print(type(r).__name__, r)',
    'x = torch.tensor([1., 2.]); r = np.add(x, 1); print(type(r).__name__, r)',
    'x = torch.tensor([1., 2.]); print(np.mean(x), np.max(x))',
    'x = torch.tensor([1., 2.]); r = np.float32(2) ** x; print(r)',
    'x = torch.tensor([1., 2.]); print(np.float64(2.5) - x, x - np.float64(2.5))',
    'x = torch.tensor([1, 2]); print(x / np.int64(2), np.int64(3) // 1)',
    'x = torch.ones(2, requires_grad=True); y = x * np.float32(3); y.sum().backward(); print(x.grad, y.grad_fn)',
    'x = torch.ones(2, requires_grad=True); y = np.float64(3) * x; y.sum().backward(); print(x.grad)',
    'x = torch.tensor([1., 2.]); print(x.numpy() is x.numpy(), np.shares_memory(x.numpy(), x.numpy()))',
    'x = torch.tensor([[1., 2.], [3., 4.]]); print(np.array(x.T), np.array(x[0]))',
    'x = torch.arange(3); print(np.array(x), np.array(x).dtype)',
    'x = torch.tensor([True, False]); print(np.array(x), np.asarray(x).dtype)',
    'x = torch.tensor(2.5); print(np.array(x), np.array(x).shape, float(np.array(x)))',
    'print(torch.tensor(np.array(3.0)), torch.tensor(np.array([1, 2], dtype=np.int16)).dtype)',
    'print(torch.tensor([1, 2]) == np.int64(2), np.float32(1.5) == torch.tensor(1.5))',
    'print(type(torch.tensor([1., 2.]).numpy()).__name__, torch.tensor([1., 2.]).numpy().flags.writeable)',
    'a = np.arange(3.); t = torch.as_tensor(a); t[0] = 9; print(a)',
    'a = np.arange(3.); t = torch.tensor(a); t[0] = 9; print(a)',
    'a = np.arange(3, dtype=np.float32); t = torch.from_numpy(a); t.add_(1); print(a)',
    "torch.from_numpy(np.array(['a']))",
    'torch.from_numpy([1, 2])',
    'print(torch.tensor(np.arange(4).reshape(2, 2)).T)',
    'x = torch.ones(2); print(x.numpy() + 1, type(x.numpy() + 1).__name__)',
    'x = torch.tensor([1., 2.]); print(x.tolist(), type(x.tolist()[0]).__name__)',
    'x = torch.tensor([[1, 2]]); print(x.tolist(), torch.tensor(x.tolist()).dtype)',
    'x = torch.tensor([1., 2.]); print(np.dot(x, x), np.linalg.norm(x))',
    'x = torch.ones(2, requires_grad=True); y = np.float32(3) + x; print(y, y.grad_fn)',
    'x = torch.ones(2); r = x * np.array(2.0); print(type(r).__name__, r)',
    'x = torch.ones(2); r = np.array(2.0) * x; print(type(r).__name__, r)',
    'x = torch.ones(2, requires_grad=True); np.ones(2) * x',
    'x = torch.ones(2, requires_grad=True); x * np.ones(2)',
    'x = torch.ones(2); r = x + np.ones(2, dtype=np.int64); print(r)',
    'x = torch.ones(2); r = x + np.ones((2, 2)); print(r.shape, type(r).__name__)',
    'x = torch.ones(2); x += np.ones(2)',
    'x = torch.tensor([1, 2]); r = x + np.float64(0.5); print(r)',
    'x = torch.tensor([1., 2.], dtype=torch.float64); print(x * np.float32(2), (x * np.float32(2)).dtype)',
    'x = torch.tensor([1., 2.], dtype=torch.float16); print((x * np.float64(2)).dtype, (x + np.int64(1)).dtype)',
    'x = torch.tensor([1., 2.]); print(np.float64(2) @ x if False else x @ x, np.sqrt(x), np.abs(-x))',
    'x = torch.tensor([-1., 2.]); print(np.maximum(x, 0), np.where(x > 0, x, 0))',
    'x = torch.tensor(3.0); print(np.float64(2) * x, x * np.float64(2), (x * np.float64(2)).dtype)',
    'x = torch.tensor([1., 2.]); print(x[np.int64(0)], x[np.array(1)])',
    'x = torch.zeros(3); x[np.int64(1)] = np.float64(5.5); print(x)',
    'print(torch.tensor(np.float32(1.5)).dtype, torch.tensor(np.bool_(True)).dtype, torch.tensor(np.int8(3)).dtype)',
    'print(torch.tensor([np.int64(1), np.int64(2)]).dtype, torch.tensor([np.float64(1.5)]).dtype)',
    'print(torch.zeros(2).fill_(np.float64(2.5)), torch.full((2,), np.float32(1.5)))',
    'print(torch.ones(3).sum() * np.float64(2), float(torch.ones(3).sum()) * 2)',
    "x = torch.ones(2); r = x != np.ones(2); print(type(r).__name__, r)",
    "x = torch.ones(2); x < np.ones(2)",
    "x = torch.ones(2); x += np.ones(2); print(x)",
    "x = torch.ones(2); x *= np.float64(2); print(x)",
    # held-out style probes (issue 13 audit)
    """x = torch.tensor([1., 2.], requires_grad=True)
for r in (np.sqrt(2.) * x, x * np.float32(3), np.float32(3) + x, x - np.int64(1), np.float64(2) ** x, x / np.float16(2), np.int32(2) * x):
    print(type(r).__name__, r)""",
    """x = torch.tensor([1., 2.])
r = np.ones(2) + x
print(type(r).__name__, r)""",
    """x = torch.tensor([1., 2.])
r = x + np.ones(2)
print(type(r).__name__, r)""",
    """x = torch.tensor([1., 2.])
r = np.ones(2) * x; s = x * np.ones(2, dtype=np.float32); print(type(r).__name__, r, type(s).__name__, s)""",
    """x = torch.tensor([1., 2.])
print(np.array(x), np.asarray(x).dtype, np.array(x, dtype=np.float64), x.numpy(), np.sum(x), np.mean(x))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
np.array(x)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.numpy()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(np.array(x.detach()), x.detach().numpy(), x.numpy(force=True) if False else "")""",
    """x = torch.tensor([1., 2.])
print(np.exp(x), type(np.exp(x)).__name__)""",
    """x = torch.tensor([1., 2.])
print(np.maximum(x, 1.5), np.dot(x, x), np.stack([x, x]).shape)""",
    "print(torch.from_numpy(np.array([1, 2])).dtype, torch.from_numpy(np.array([1., 2.], dtype=np.float32)), torch.tensor(np.array([True])), torch.tensor(np.float64(2.5)), torch.tensor(np.int32(3)))",
    "print(torch.tensor([np.float32(1.5), 2]), torch.tensor(np.array([[1, 2]], dtype=np.int16)).dtype, torch.as_tensor(np.zeros(2, dtype=np.float16)).dtype)",
    "a = np.arange(3.); x = torch.from_numpy(a); x += 1; print(a)",
    "a = np.arange(6.).reshape(2, 3)[:, ::2]; x = torch.from_numpy(a); print(x, x.stride(), x.is_contiguous())",
    "a = np.arange(4.)[::-1]; torch.from_numpy(a)",
    "x = torch.ones(2, 3); a = x.numpy(); a[0, 0] = 7; print(x)",
    "x = torch.ones(2, 3); a = x.t().numpy(); print(a.flags['C_CONTIGUOUS'], a.strides)",
    "print(torch.tensor([1, 2])[np.int64(1)], torch.arange(6.).view(2, 3)[np.array([0, 1])], torch.arange(4.)[np.array([True, False, True, False])])",
    "x = torch.arange(4.); x[np.array([0, 2])] = 9; print(x)",
    "print(torch.ones(2, 3).view(np.int64(3), 2).shape, torch.zeros(np.int64(2)).shape, torch.ones(2).sum(np.int64(0)))",
    "x = torch.tensor([1., 2.]); print(x.tolist() == [1.0, 2.0], list(x), [float(v) for v in x])",
    "print(np.float64(2.0) * torch.tensor(3.), type(np.float64(2.0) * torch.tensor(3.)).__name__)",
    "x = torch.tensor([1., 2.]); print(x == np.float32(1.), np.float64(1.5) < x, x.dtype, (x * np.float64(2)).dtype, (torch.tensor([1, 2]) * np.float64(2)).dtype)",
    "print((torch.tensor([1, 2]) * np.int8(2)).dtype, (torch.tensor([1, 2], dtype=torch.int8) * np.int64(200)).dtype, (torch.tensor([True]) + np.bool_(True)).dtype)",
    "print(torch.tensor(np.float32(2.5)).dtype, torch.tensor(np.float16(2.5)).dtype, torch.tensor([np.float64(1)]).dtype, torch.tensor(np.bool_(True)))",
    "x = torch.ones(2); print(np.allclose(x, np.ones(2)), np.array_equal(x.numpy(), np.ones(2)))",
    "import pickle; x = torch.tensor([1., 2.]); print(pickle.loads(pickle.dumps(x)))",
    "import copy; x = torch.tensor([1., 2.], requires_grad=True); y = copy.deepcopy(x); print(y, y.requires_grad, y is x)",
    "import copy; x = torch.tensor([1., 2.], requires_grad=True); y = copy.deepcopy(x * 2)",
    # deepcopy takes the user's attributes along (not a Parameter's), keeps the layout, and
    # the copy's version is 1 (torch points it at the copied storage with set_)
    """import copy
x = torch.ones(2, requires_grad=True); x.note = "hello"; x.meta = {"a": [1]}
x.retain_grad(); x.register_hook(lambda g: g * 2)
y = copy.deepcopy(x); print(y.note, y.meta, y.meta is x.meta, y.requires_grad, y.is_leaf, y.grad, y._version)
(y * 3).sum().backward(); print(y.grad, x.grad)
with torch.no_grad():
    v = x[:1]
v.tag = 1; w = copy.deepcopy(v); print(w.tag, w._base is None, w.is_leaf, w._version)
b = torch.ones(2, 3).t(); c = copy.deepcopy(b); print(c._version, c.stride(), c.is_contiguous())
p = torch.nn.Parameter(torch.ones(3, 2).t()); p.extra = 5; q = copy.deepcopy(p)
print(hasattr(q, 'extra'), q.stride(), q._version)
m = torch.nn.Linear(2, 1); m.weight.extra = 5; print(hasattr(copy.deepcopy(m).weight, 'extra'))""",
    "x = torch.tensor([1., 2.]); print(hash(x) == hash(x), x in [x], {x: 1}[x])",
    "a = np.arange(4.)[::-1]; torch.tensor(a)",
    "a = np.arange(4.)[::-1]; torch.as_tensor(a, dtype=torch.float32)",
    "a = np.arange(6.).reshape(2, 3)[:, ::-1]; torch.from_numpy(a)",
    "a = np.arange(4.)[::-1]; print(torch.tensor(a.copy()), torch.tensor(a[::-1]))",
    "print(torch.ones(2, 3).mean(np.int64(1)), torch.ones(2, 3).sum((np.int64(0), 1)), torch.ones(2, 3).std(np.int32(0)), torch.ones(2, 3).amax(np.int64(-1)), torch.ones(2, 3).logsumexp(np.int64(0)).shape)",
    "print(torch.tensor(np.array([np.arange(2.), np.arange(2.)])))",
    # held-out style probes (issue 13 audit)
    "x = torch.tensor([1., 2.]); print(np.asarray(x) is np.asarray(x), np.shares_memory(np.asarray(x), x.numpy()), x.numpy().dtype, x.long().numpy().dtype, x.bool().numpy().dtype)",
    "x = torch.tensor([1., 2.]); a = x.numpy(); x.add_(1); print(a); x.data = torch.zeros(2); print(a, x)",
    "x = torch.tensor([1., 2.]); print(np.array(x, dtype=np.int32), np.array(x[0]), np.array(torch.tensor(3.)).shape, float(np.array(torch.tensor(3.))))",
    "x = torch.arange(4.); print(np.where(x.numpy() > 1)[0], np.argmax(x), np.linalg.norm(x), np.concatenate([x, x]).dtype)",
    "x = torch.tensor([1., 2.]); m = np.float64(2.0); r = x * m; print(type(r).__name__, r.dtype, (m * x).dtype, (x + np.int32(1)).dtype, (np.bool_(True) * x).dtype)",
    "x = torch.tensor([1, 2]); print((x * np.float64(2.5)).dtype, (x + np.float32(0.5)).dtype, (x / np.int64(2)).dtype, (x // np.int64(2)).dtype)",
    "x = torch.tensor([1., 2.]); print(x ** np.float64(2), np.float64(2) ** x, x - np.array(1.), (np.array(1.) - x) if False else '')",
    "x = torch.tensor([1., 2.], requires_grad=True); y = x * np.float64(3); y.sum().backward(); print(x.grad, y.grad_fn)",
    "print(torch.tensor(np.array(5)), torch.tensor(np.array(5)).dim(), torch.as_tensor(np.float64(2.5)), torch.from_numpy(np.array(3.)).shape)",
    # tensor == ndarray reads the array as a tensor (a bool tensor, either side); != does not
    "x = torch.ones(2); r = np.ones(2) == x; print(type(r).__name__, r)",
    "x = torch.ones(2); r = x == np.ones(2); print(type(r).__name__, r)",
    "x = torch.tensor([0.1, 2.0]); print(x == np.array([0.1, 2.0]), x == np.array([0.1, 2.0], dtype=np.float32), x != np.array([0.1, 2.0]), np.array([0.1, 2.0]) != x)",
    "x = torch.tensor([1, 2]); print(x == np.array([1.0, 2.5]), x == np.array([[2], [1]]), x == np.array(['a', 'b']), x == np.array([True, False]))",
    "x = torch.tensor([1., 2.]); x == np.ones(3)",
    "print(torch.tensor([[np.float32(1), np.float32(2)]]).dtype, torch.tensor([np.int8(1), 2]).dtype, torch.tensor([np.float16(1), 2.]).dtype, torch.tensor([True, np.bool_(False)]).dtype)",
    "print(torch.tensor(np.array([[1, 2], [3, 4]])[:, 0]), torch.from_numpy(np.array([[1, 2], [3, 4]])[:, 0]).stride(), torch.from_numpy(np.zeros((2, 3), order='F')).stride())",
]

KNOWN = {
    "x = torch.tensor([1., 2.]); a = np.array(x, copy=False); a[0] = 5; print(x)":
        "torch 2.13's __array__ has no copy keyword, so NumPy 2 cannot honour copy=False and raises; minigrad implements NumPy 2's protocol and shares the memory",
    'torch.from_numpy(np.array([1, 2], dtype=np.uint16))':
        'minigrad has no uint16/uint32/uint64 dtypes (torch 2.13 has them with limited support)',
    'torch.tensor(np.array([1, 2], dtype=np.uint32))':
        'minigrad has no uint16/uint32/uint64 dtypes: it raises one TypeError naming the dtypes it has',
}
