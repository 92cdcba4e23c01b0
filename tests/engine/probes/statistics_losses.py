# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Distances, similarities, statistics and the less common losses (the statistics_losses
group): values, grad_fn names, module reprs, errors, empty and 0-d inputs, int dtypes."""

PROBES = [
    # F.normalize: torch's composition (norm, clamp_min, expand_as, div)
    """x = torch.tensor([[3., 4.], [0., 0.], [1., -1.]], requires_grad=True)
y = torch.nn.functional.normalize(x); y.sum().backward(); print(y, y.grad_fn, y.grad_fn.next_functions, x.grad)""",
    """x = torch.tensor([[3., 4.], [1., -2.]])
F = torch.nn.functional
print(F.normalize(x, p=1), F.normalize(x, dim=0), F.normalize(x, p=float('inf'), dim=-1), F.normalize(x, 2, (0, 1)), F.normalize(x, eps=10.), F.normalize(torch.tensor([3., 4.]), dim=0))""",
    "torch.nn.functional.normalize(torch.tensor([[1, 2]]))",
    "torch.nn.functional.normalize(torch.randn(3))",
    "print(torch.nn.functional.normalize(torch.zeros(2, 0)), torch.nn.functional.normalize(torch.tensor(5.), dim=0), torch.nn.functional.normalize(torch.tensor([[1., 0., 2.]]), p=0))",
    """x = torch.tensor([[3., 4.]]); out = torch.empty(1, 2)
r = torch.nn.functional.normalize(x, out=out); print(r, out, r is out)""",
    # cosine_similarity
    """a = torch.tensor([[1., 2., 3.], [0., 1., 0.]], requires_grad=True); b = torch.tensor([[1., 2., 4.], [1., 0., 0.]], requires_grad=True)
c = torch.nn.functional.cosine_similarity(a, b); c.sum().backward(); print(c, c.grad_fn, a.grad, b.grad)""",
    """a = torch.tensor([[1., 2., 3.], [0., 1., 0.]]); b = torch.tensor([1., 2., 4.])
print(torch.cosine_similarity(a, b), torch.cosine_similarity(a, b, dim=-1), torch.cosine_similarity(a, a, 0), torch.nn.functional.cosine_similarity(a, b, eps=100.))""",
    "print(torch.cosine_similarity(torch.zeros(2, 3), torch.zeros(2, 3)), torch.cosine_similarity(torch.tensor([1, 2, 3]), torch.tensor([1., 2., 4.]), dim=0), torch.cosine_similarity(torch.tensor(2.), torch.tensor(-3.), 0))",
    "torch.cosine_similarity(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]), dim=0)",
    "torch.cosine_similarity(torch.randn(3, 4), torch.randn(3, 5))",
    "torch.cosine_similarity(torch.randn(3), torch.randn(3))",
    "torch.cosine_similarity(torch.randn(3, 2), torch.randn(3, 2), dim=2)",
    "torch.cosine_similarity(torch.randn(3), torch.randn(3), 0, 'a')",
    "print(torch.cosine_similarity(torch.randn(2, 0), torch.randn(2, 0)), torch.cosine_similarity(torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 3)).dtype)",
    """m = torch.nn.CosineSimilarity(dim=0, eps=1e-6)
print(m, m.dim, m.eps, m(torch.tensor([1., 0.]), torch.tensor([1., 1.])), torch.nn.CosineSimilarity())""",
    # pairwise_distance
    """a = torch.tensor([[1., 2., 3.], [0., 1., 0.]], requires_grad=True); b = torch.tensor([[1., 2., 4.], [1., 0., 0.]])
d = torch.nn.functional.pairwise_distance(a, b); d.sum().backward(); print(d, d.grad_fn, d.grad_fn.next_functions, d.grad_fn._saved_p, d.grad_fn._saved_dim, d.grad_fn._saved_keepdim, a.grad)""",
    """a = torch.tensor([[1., 2., 3.], [0., 1., 0.]]); b = torch.tensor([1., 2., 4.])
print(torch.pairwise_distance(a, b), torch.pairwise_distance(a, b, 1), torch.pairwise_distance(b, a, p=float('inf'), keepdim=True), torch.pairwise_distance(a, a), torch.pairwise_distance(a, a, eps=0.), torch.pairwise_distance(a, b, 0))""",
    "print(torch.pairwise_distance(torch.tensor([[1, 2]]), torch.tensor([[1, 3]])), torch.pairwise_distance(torch.tensor(1.), torch.tensor(3.)), torch.pairwise_distance(torch.randn(2, 0), torch.randn(2, 0)))",
    "torch.pairwise_distance(torch.randn(3, 4), torch.randn(2, 4))",
    "torch.nn.functional.pairwise_distance(torch.randn(3, 4), torch.randn(3, 4), dim=0)",
    "d = torch.pairwise_distance(torch.tensor(1., requires_grad=True), torch.tensor(3.)); print(d.grad_fn._saved_dim)",
    """m = torch.nn.PairwiseDistance(p=1, keepdim=True)
print(m, m.norm, m.eps, m.keepdim, m(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]])), torch.nn.PairwiseDistance())""",
    # dist
    """a = torch.tensor([[1., 2., 3.], [0., 1., 0.]], requires_grad=True); b = torch.tensor([1., 2., 4.], requires_grad=True)
d = torch.dist(a, b); d.backward(); print(d, d.grad_fn, d.grad_fn._saved_p, a.grad, b.grad)""",
    """a = torch.tensor([[1., 2., 3.], [0., 1., 0.]]); b = torch.tensor([1., 2., 4.])
print(a.dist(b, 1), a.dist(b, p=3), torch.dist(a, b, float('inf')), torch.dist(a, b, float('-inf')), torch.dist(a, b, 0), torch.dist(a, b, 0.5), torch.dist(a, a))""",
    "print(torch.dist(torch.tensor([[1., 2]]), torch.tensor([[1, 3]])), torch.dist(torch.randn(0), torch.randn(0)), torch.dist(torch.tensor(2.), torch.tensor(5.)), torch.dist(torch.ones(2), torch.ones(2, dtype=torch.float64)))",
    "torch.dist(torch.tensor([[1, 2]]), torch.tensor([[1, 3]]))",
    "torch.dist(torch.randn(2, 3), torch.randn(4))",
    "torch.dist(torch.randn(2), torch.randn(2), 'fro')",
    """a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([2., 0.], requires_grad=True)
d = torch.dist(a, b, 0); print(d, d.grad_fn._saved_p)
d.backward()""",
    """a = torch.tensor([1., 2.], requires_grad=True)
d = torch.dist(a, torch.tensor([2., 0.]), 0); d.backward(); print(a.grad)""",
    """a = torch.tensor([1., 2.], requires_grad=True)
d = torch.dist(a, torch.tensor([1., 2.])); d.backward(); print(d, a.grad)""",    # cdist
    """a = torch.tensor([[0., 0.], [3., 4.]], requires_grad=True); b = torch.tensor([[0., 0.], [1., 1.], [3., 4.]], requires_grad=True)
d = torch.cdist(a, b); d.sum().backward(); print(d, d.grad_fn, d.grad_fn._saved_p, a.grad, b.grad)""",
    """a = torch.tensor([[0., 0.], [3., 4.]]); b = torch.tensor([[0., 0.], [1., 1.], [3., 4.]])
print(torch.cdist(a, b, 1), torch.cdist(a, b, 0), torch.cdist(a, b, float('inf')), torch.cdist(a, b, 0.5), torch.cdist(a[None], b[None].expand(2, 3, 2)).shape, torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist'))""",
    """a = torch.arange(60.).view(30, 2).requires_grad_(); b = torch.tensor([[0., 0.], [1., 1.]], requires_grad=True)
d = torch.cdist(a, b); d.sum().backward(); print(d[:3], d.grad_fn, d.grad_fn.next_functions, a.grad[:3], b.grad)""",
    "torch.cdist(torch.randn(3), torch.randn(2, 3))",
    "torch.cdist(torch.randn(2, 3), torch.randn(2, 4))",
    "torch.cdist(torch.ones(2, 3, dtype=torch.long), torch.randn(2, 3))",
    "torch.cdist(torch.randn(2, 3), torch.randn(2, 3), -1.)",
    "torch.cdist(torch.randn(2, 3), torch.randn(2, 3), compute_mode='fast')",
    "torch.cdist(torch.randn(2, 2, 3), torch.randn(3, 2, 3))",
    "torch.cdist(torch.randn(2, 3), torch.randn(2, 3, dtype=torch.float64))",
    "print(torch.cdist(torch.randn(0, 3), torch.randn(2, 3)), torch.cdist(torch.randn(2, 0), torch.randn(3, 0)))",
    """a = torch.tensor([[0., 1.], [3., 4.]], requires_grad=True)
g, = torch.autograd.grad(torch.cdist(a, torch.ones(3, 2)).sum(), a, create_graph=True); print(g, g.grad_fn)
g.sum().backward()""",    # kl_div and KLDivLoss
    """x = torch.tensor([[0.1, -0.5, 0.3], [1.0, 0.2, -2.0]], requires_grad=True); t = torch.tensor([[0.2, 0.5, 0.3], [0.0, 0.4, 0.6]], requires_grad=True)
F = torch.nn.functional
y = F.kl_div(x.log_softmax(1), t, reduction='batchmean'); y.backward(); print(y, y.grad_fn, x.grad, t.grad)""",
    """x = torch.tensor([[0.1, -0.5, 0.3], [1.0, 0.2, -2.0]]); t = torch.tensor([[0.2, 0.5, 0.3], [0.0, 0.4, 0.6]])
F = torch.nn.functional
print(F.kl_div(x, t), F.kl_div(x, t, reduction='sum'), F.kl_div(x, t, reduction='none'), F.kl_div(x, t.log(), log_target=True, reduction='batchmean'), F.kl_div(x[0, 0], t[0, 0], reduction='batchmean'))""",
    "torch.nn.functional.kl_div(torch.randn(2), torch.rand(2), reduction='bad')",
    "torch.nn.functional.kl_div(torch.tensor([1, 2]), torch.tensor([0.5, 0.5]), reduction='sum')",
    "print(torch.nn.functional.kl_div(torch.randn(2, 3), torch.rand(2, 3), size_average=False).shape, torch.nn.functional.kl_div(torch.zeros(0, 3), torch.zeros(0, 3), reduction='batchmean'), torch.nn.functional.kl_div(torch.zeros(0), torch.zeros(0), reduction='sum'))",
    "print(torch.nn.functional.kl_div(torch.zeros(2), torch.tensor([0., float('nan')]), reduction='none'), torch.nn.functional.kl_div(torch.zeros(2), torch.tensor([-1., 2.]), reduction='none'))",
    """m = torch.nn.KLDivLoss(reduction='batchmean', log_target=True)
print(m, m.reduction, m.log_target, m(torch.tensor([[0.1, -0.5]]), torch.tensor([[-0.2, -1.5]])), torch.nn.KLDivLoss(size_average=False).reduction, torch.kl_div(torch.zeros(2), torch.ones(2)))""",
    # margin, hinge, cosine-embedding, triplet
    """a = torch.tensor([0.1, -0.5, 0.3, 2.0], requires_grad=True); b = torch.tensor([0.2, 0.5, 0.3, 1.0], requires_grad=True); y = torch.tensor([1., -1., 1., -1.])
l = torch.nn.functional.margin_ranking_loss(a, b, y, margin=0.1); l.backward(); print(l, l.grad_fn, a.grad, b.grad)
print(torch.nn.MarginRankingLoss(0.5, reduction='none')(a, b, y), torch.margin_ranking_loss(a, b, y), torch.nn.MarginRankingLoss())""",
    "torch.nn.functional.margin_ranking_loss(torch.randn(3), torch.randn(3), torch.ones(1, 3))",
    """a = torch.tensor([0.1, -0.5, 0.3, 2.0], requires_grad=True); y = torch.tensor([1., -1., 1., -1.])
l = torch.nn.functional.hinge_embedding_loss(a, y); l.backward(); print(l, l.grad_fn, a.grad)
print(torch.nn.HingeEmbeddingLoss(margin=0.2, reduction='sum')(a, y), torch.hinge_embedding_loss(a, torch.tensor([1., 0., 2., -1.])), torch.nn.HingeEmbeddingLoss())""",
    """a = torch.tensor([[0.1, -0.5, 0.3], [2.0, 1., 0.]], requires_grad=True); b = torch.tensor([[0.2, 0.5, 0.3], [1.0, -1., 2.]], requires_grad=True); y = torch.tensor([1., -1.])
l = torch.nn.functional.cosine_embedding_loss(a, b, y, margin=-0.5); l.backward(); print(l, l.grad_fn, a.grad, b.grad)
print(torch.nn.CosineEmbeddingLoss(reduction='none')(a, b, y), torch.cosine_embedding_loss(a[0], b[0], torch.tensor(-1.)), torch.nn.CosineEmbeddingLoss(0.3))""",
    "torch.nn.functional.cosine_embedding_loss(torch.randn(2, 3), torch.randn(2, 3), torch.ones(2, 1))",
    "torch.nn.functional.cosine_embedding_loss(torch.randn(3), torch.randn(3), torch.ones(2))",
    "torch.nn.functional.cosine_embedding_loss(torch.randn(2, 3), torch.randn(2, 3), torch.tensor(1.))",
    """a = torch.tensor([[0.1, -0.5, 0.3], [2.0, 1., 0.]], requires_grad=True); p = torch.tensor([[0.2, 0.5, 0.3], [1.0, -1., 2.]]); n = torch.tensor([[1.2, 0.5, -0.3], [1.0, 1., 2.]])
l = torch.nn.functional.triplet_margin_loss(a, p, n, margin=2.); l.backward(); print(l, l.grad_fn, a.grad)
print(torch.nn.TripletMarginLoss(p=1, swap=True, reduction='none')(a, p, n), torch.triplet_margin_loss(a, p, n), torch.nn.TripletMarginLoss(margin=0.5))""",
    "torch.nn.functional.triplet_margin_loss(torch.randn(2, 3), torch.randn(2, 3), torch.randn(3))",
    "torch.nn.functional.triplet_margin_loss(torch.randn(2, 3), torch.randn(2, 3), torch.randn(2, 3), margin=0)",
    "torch.nn.TripletMarginLoss(margin=-1.)",
    # poisson and gaussian nll
    """x = torch.tensor([[0.1, -0.5, 0.3], [1.0, 0.2, -2.0]], requires_grad=True); t = torch.tensor([[0., 2., 3.], [1., 5., 0.5]])
l = torch.nn.functional.poisson_nll_loss(x, t, full=True); l.backward(); print(l, l.grad_fn, x.grad)
print(torch.nn.PoissonNLLLoss(log_input=False, reduction='none')(x.abs(), t), torch.poisson_nll_loss(x, t, True, False, 1e-8, 0), torch.nn.PoissonNLLLoss())""",
    "torch.nn.functional.poisson_nll_loss(torch.randn(2), torch.rand(2), reduction='avg')",
    """x = torch.tensor([[0.1, -0.5, 0.3], [1.0, 0.2, -2.0]], requires_grad=True); t = torch.tensor([[0., 2., 3.], [1., 5., 0.5]]); v = torch.tensor([[0.5], [0.]], requires_grad=True)
l = torch.nn.functional.gaussian_nll_loss(x, t, v, full=True); l.backward(); print(l, l.grad_fn, x.grad, v.grad)
print(torch.nn.GaussianNLLLoss(reduction='none')(x, t, torch.ones(2)), torch.nn.functional.gaussian_nll_loss(x, t, 2.0), torch.nn.GaussianNLLLoss(eps=0.1))""",
    "torch.nn.functional.gaussian_nll_loss(torch.randn(2, 3), torch.randn(2, 3), torch.ones(3, 2))",
    "torch.nn.functional.gaussian_nll_loss(torch.randn(2, 3), torch.randn(2, 3), torch.tensor([1., -1.]))",
    "torch.nn.functional.gaussian_nll_loss(torch.randn(2, 3), torch.randn(2, 3), -1.)",
    "torch.nn.functional.gaussian_nll_loss(torch.randn(2, 3), torch.randn(2, 3), torch.ones(2, 3), reduction='avg')",
    "torch.nn.GaussianNLLLoss(True)",
    # soft_margin_loss
    """x = torch.tensor([[0.1, -0.5, 0.3], [1.0, 0.2, -2.0]], requires_grad=True); y = torch.tensor([[1., -1., 1.], [-1., -1., 1.]])
l = torch.nn.functional.soft_margin_loss(x, y); g, = torch.autograd.grad(l, x, create_graph=True); print(l, l.grad_fn, l.grad_fn._saved_reduction, g, g.grad_fn, g.grad_fn.next_functions)
g.sum().backward(); print(x.grad)
print(torch.nn.SoftMarginLoss(reduction='none')(x, y), torch.nn.SoftMarginLoss(reduction='sum')(x, y[0]), torch.nn.SoftMarginLoss())""",
    "torch.nn.functional.soft_margin_loss(torch.randn(3), torch.ones(3, requires_grad=True))",
    "torch.nn.functional.soft_margin_loss(torch.randn(3), torch.ones(2, 3))",
    "torch.nn.functional.soft_margin_loss(torch.tensor([1, 2]), torch.tensor([1, -1]))",
    "torch.nn.functional.soft_margin_loss(torch.randn(3), torch.ones(3), reduction='avg')",
    # median, nanmedian, kthvalue, mode
    """x = torch.tensor([[3., 1., 2., 2.], [0., 5., 5., 4.]], requires_grad=True)
m = x.median(); m.backward(); print(m, m.grad_fn, x.grad)
x.grad = None; r = x.median(1); r.values.sum().backward(); print(r, type(r), r.values.grad_fn._saved_dim, x.grad)
print(torch.median(x, 0, True), x.median(dim=-1).indices, torch.median(x.detach(), 1, keepdim=True).values)""",
    """nan = float('nan')
x = torch.tensor([[1., nan, 2., nan, 0.], [2., 2., 2., 2., 2.], [5., 1., 5., 1., 3.], [nan, nan, nan, nan, nan]])
print(x.median(1), x.nanmedian(1), x.median(), x.nanmedian(), torch.nanmedian(x, 0))""",
    "print(torch.tensor([]).median(), torch.tensor([]).nanmedian(), torch.zeros(0, 2).median(1), torch.tensor(5.).median(0), torch.tensor([3, 1, 2, 4]).median(), torch.tensor([3, 1, 2]).median(0))",
    "torch.zeros(2, 0).median(1)",
    "torch.tensor([True, False]).median()",
    "torch.zeros(2, 3).median(2)",
    "torch.tensor([[1., 2.], [3., 1.]]).median(dim=(0,))",
    """x = torch.tensor([[3., 1., 2., 2., 1.], [0., 5., 5., 4., 5.]], requires_grad=True)
r = x.kthvalue(2); r.values.sum().backward(); print(r, r.values.grad_fn, x.grad)
print(torch.kthvalue(x, 5, 1, True), x.kthvalue(1, 0), x.kthvalue(k=3, dim=-1), torch.tensor([1., float('nan'), 2.]).kthvalue(3), torch.tensor(4.).kthvalue(1))""",
    "torch.tensor([1., 2.]).kthvalue(3)",
    "torch.tensor([1., 2.]).kthvalue(0)",
    """x = torch.tensor([[1., 2., 2., 1., 3.], [3., 3., 1., 1., 5.]], requires_grad=True)
r = x.mode(); r.values.sum().backward(); print(r, r.values.grad_fn, x.grad)
print(torch.mode(x, 0), x.mode(keepdim=True), torch.tensor([1., float('nan'), float('nan'), 2.]).mode(), torch.tensor(2.).mode(), torch.tensor([4, 4, 1, 1]).mode())""",
    "torch.tensor([]).mode()",
    "print(torch.tensor([2., 1., 2., 3., 1., 1., 2., 3., 3., 0., 0., 2., 1., 3., 0., 1., 2., 2., 3., 1.]).mode(), torch.arange(40.).remainder(7).mode())",
    # nansum, nanmean, var_mean, std_mean, aminmax
    """nan = float('nan'); x = torch.tensor([[1., nan, 2.], [3., 4., nan]], requires_grad=True)
s = x.nansum(); m = x.nanmean(1); (s + m.sum()).backward(); print(s, m, s.grad_fn, m.grad_fn, x.grad)
print(torch.nansum(x, 1, keepdim=True), torch.nanmean(x, (0, 1)), x.nansum(dtype=torch.float64), torch.tensor([nan, nan]).nanmean(), torch.tensor([1, 2, 3]).nansum(), torch.tensor([]).nansum(), torch.tensor([]).nanmean())""",
    "torch.tensor([1, 2]).nanmean()",
    """y = torch.tensor([[1., 5., 2.], [3., 4., 0.]], requires_grad=True)
v, m = torch.var_mean(y, 1); (v + m).sum().backward(); print(v, m, v.grad_fn, v.grad_fn is m.grad_fn, y.grad)
print(torch.var_mean(y), torch.var_mean(y, 0, unbiased=False), torch.var_mean(y, correction=0, keepdim=True), torch.var_mean(y, False), type(torch.var_mean(y)))""",
    """y = torch.tensor([[1., 5., 2.], [3., 4., 0.]], requires_grad=True)
s, m = torch.std_mean(y, -1, keepdim=True); s.sum().backward(); print(s, m, s.grad_fn, s.grad_fn._saved_dim, s.grad_fn._saved_correction, y.grad)
print(torch.std_mean(y), torch.std_mean(y, (0, 1), correction=2), torch.std_mean(torch.tensor([1.])))""",
    "torch.var_mean(torch.tensor([1, 2]))",
    "torch.std_mean(torch.randn(2, 3), 1, unbiased=True, correction=1)",
    """y = torch.tensor([[1., 5., 5.], [3., 4., 0.]], requires_grad=True)
r = torch.aminmax(y); (r.min + 2 * r.max).backward(); print(r, type(r), r.min.grad_fn, y.grad)
y.grad = None; r = y.aminmax(dim=1); r.max.sum().backward(); print(r, y.grad, r.max.grad_fn._saved_dim)
print(y.aminmax(dim=-1, keepdim=True), torch.aminmax(y, keepdim=True), torch.aminmax(torch.tensor(3.), dim=0), torch.tensor([3, 1, 2]).aminmax(), torch.tensor([True, False]).aminmax())""",
    "torch.aminmax(torch.tensor([]))",
    "torch.aminmax(torch.zeros(2, 0), dim=1)",
    "torch.aminmax(torch.randn(2, 3), 1)",
    # isclose, heaviside, searchsorted, bucketize, histc, bincount
    """nan = float('nan'); inf = float('inf')
a = torch.tensor([1., 2., nan, inf, -inf, 1e-9]); b = torch.tensor([1.00001, 2.1, nan, inf, inf, 0.])
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), a.isclose(b, rtol=0.1, atol=0), torch.isclose(a, b, 0, 0), torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])), torch.isclose(torch.tensor([True]), torch.tensor([True])), torch.isclose(torch.ones(2, 3), torch.ones(3)))""",
    "torch.isclose(torch.tensor([1, 2]), torch.tensor([1., 3]))",
    "torch.isclose(torch.tensor([1., 2]), torch.tensor([1., 3]), rtol=-1)",
    "torch.isclose(torch.tensor([1., 2]), torch.tensor([1., 3]), atol=-0.5)",
    "torch.isclose(torch.tensor([1., 2]), 1.)",
    "torch.isclose(torch.ones(2, 3), torch.ones(4))",
    """x = torch.tensor([-1., 0., 2., 0., float('nan'), -0.], requires_grad=True)
y = torch.heaviside(x, torch.tensor([0.5])); print(y, y.grad_fn, x.heaviside(torch.tensor(2.)), torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([7])))
y.sum().backward()""",
    "torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([7.]))",
    "torch.heaviside(torch.tensor([-1., 0.]), 0.5)",
    """s = torch.tensor([1., 3., 5., 7., 9.]); v = torch.tensor([[3., 6., 9.], [0., 5., 10.]])
print(torch.searchsorted(s, v), torch.searchsorted(s, v, right=True), torch.searchsorted(s, v, side='right'), torch.searchsorted(s, 5.), torch.searchsorted(s, torch.tensor(5.), out_int32=True), torch.searchsorted(s, v, sorter=torch.tensor([0, 1, 2, 3, 4])), torch.searchsorted(s, torch.tensor([1, 5])), torch.searchsorted(s, torch.tensor([3.], dtype=torch.float64)))""",
    "print(torch.searchsorted(torch.tensor([[1., 3.], [2., 4.]]), torch.tensor([[2.], [3.]])), torch.searchsorted(torch.tensor([1., float('nan')]), torch.tensor([float('nan'), 2.])), torch.searchsorted(torch.tensor([3., 1., 2.]), torch.tensor([2.5]), sorter=torch.tensor([1, 2, 0])), torch.searchsorted(torch.tensor([]), torch.tensor([1.])), torch.searchsorted(torch.tensor([1., 2., 2., 2., 3.]), torch.tensor([2.]), side='left'))",
    "torch.searchsorted(torch.tensor([[1., 3.], [2., 4.]]), torch.tensor([2.]))",
    "torch.searchsorted(torch.tensor([1., 3.]), torch.tensor([2.]), side='middle')",
    "torch.searchsorted(torch.tensor([1., 3.]), torch.tensor([2.]), right=True, side='left')",
    "torch.searchsorted(torch.tensor([1., 3.]), torch.tensor([2.]), sorter=torch.tensor([0]))",
    "torch.searchsorted(torch.tensor(1.), torch.tensor([2.]))",
    """s = torch.tensor([1., 3., 5., 7., 9.]); v = torch.tensor([[3., 6., 9.], [0., 5., 10.]])
print(torch.bucketize(v, s), torch.bucketize(v, s, right=True), torch.bucketize(5., s), torch.bucketize(v, s, out_int32=True), torch.bucketize(torch.tensor(3), s))""",
    "torch.bucketize(torch.tensor([1.]), torch.tensor([[1., 2.]]))",
    """print(torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=0, max=3), torch.histc(torch.tensor([1., 2., 1., 5.]), 5), torch.histc(torch.tensor([2., 2.]), bins=3), torch.histc(torch.tensor([]), bins=3), torch.tensor([0., 0.1, 0.2, 0.3, 0.7, 1.0, 1.5, -1.]).histc(3, 0, 1), torch.histc(torch.tensor([1., 2.], requires_grad=True), bins=2), torch.histc(torch.arange(10., dtype=torch.float64), 4))""",
    "torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=3, max=0)",
    "torch.histc(torch.tensor([1, 2, 1]), bins=4)",
    "torch.histc(torch.tensor([1., float('nan')]), bins=3)",
    "torch.histc(torch.tensor([1., 2.]), bins=0)",
    """print(torch.bincount(torch.tensor([0, 1, 1, 3])), torch.bincount(torch.tensor([0, 1, 1, 3]), minlength=6), torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1., 1., 2.])), torch.bincount(torch.tensor([0, 1, 1, 3]), torch.tensor([0.5, 1., 1., 2.], dtype=torch.float64)), torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([1, 2, 3, 4])), torch.bincount(torch.tensor([], dtype=torch.long)), torch.tensor([0, 1, 1]).bincount(), torch.tensor([2, 0], dtype=torch.uint8).bincount())""",
    """w = torch.tensor([0.5, 1., 1., 2.], requires_grad=True)
y = torch.bincount(torch.tensor([0, 1, 1, 3]), weights=w); print(y, y.grad_fn)
y.sum().backward()""",
    "torch.bincount(torch.tensor([0, -1]))",
    "torch.bincount(torch.tensor([[0, 1]]))",
    "torch.bincount(torch.tensor([0., 1.]))",
    "torch.bincount(torch.tensor([0, 1]), minlength=-1)",
    "torch.bincount(torch.tensor([0, 1]), weights=torch.tensor([1.]))",
    # F.pad (constant mode)
    """x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True); F = torch.nn.functional
y = F.pad(x, (1, -1, 0, 2), value=7.); g, = torch.autograd.grad(y, x, torch.ones(4, 3), create_graph=True)
print(y, y.grad_fn, y.grad_fn._saved_pad, g, F.pad(x, [1, 1]), F.pad(x, (0, 0, 1, 0), 'constant', 0.5), torch.constant_pad_nd(x, (1, 1), 2))""",
    "print(torch.nn.functional.pad(torch.tensor([1, 2]), (1, 1), value=2.5), torch.nn.functional.pad(torch.tensor([True]), (1, 1)), torch.nn.functional.pad(torch.tensor(1.), ()), torch.nn.functional.pad(torch.zeros(0, 2), (1, 1)), torch.nn.functional.pad(torch.ones(2, 2), (1, 1, 1, 1), value=float('-inf')))",
    "torch.nn.functional.pad(torch.ones(2, 3), (1,))",
    "torch.nn.functional.pad(torch.ones(2, 3), (1, 1, 1, 1, 1, 1))",
    "torch.nn.functional.pad(torch.ones(2, 3), (-2, -2))",
    "torch.nn.functional.pad(torch.ones(2, 3), (1, 1), mode='bad')",
    "torch.nn.functional.pad(torch.ones(2, 3), (1, 1), mode='reflect', value=1.)",
    "torch.nn.functional.pad(torch.ones(2, 3), (1.5, 1))",
    "torch.constant_pad_nd(torch.ones(2, 3), (1,))",
    """x = torch.tensor([[[1., 2.], [3., 4.]]], requires_grad=True)
for m in [torch.nn.ConstantPad2d(1, 3.5), torch.nn.ConstantPad1d((1, 2), 0.), torch.nn.ZeroPad2d((1, 1, 2, 0)), torch.nn.ZeroPad1d(2), torch.nn.ConstantPad3d(1, 1)]:
    y = m(x); print(m, m.padding, m.value, y.shape, y.grad_fn)
print(torch.nn.ZeroPad2d(1)(x), torch.nn.Sequential(torch.nn.ZeroPad2d(1), torch.nn.Flatten()))""",
    # unique, unique_consecutive
    """x = torch.tensor([3., 1., 2., 3., 1., float('nan'), float('nan')], requires_grad=True)
u = torch.unique(x); print(u, u.grad_fn, u.grad_fn.next_functions, x.unique(return_inverse=True, return_counts=True), torch.unique(x, sorted=False), x.unique(return_counts=True))
u.sum().backward()""",
    """t = torch.tensor([[1, 2], [1, 2], [0, 5]])
print(torch.unique(t, dim=0, return_counts=True, return_inverse=True), torch.unique(t, dim=1), t.unique(dim=-1, return_inverse=True), torch.unique(t, return_inverse=True), torch.unique(torch.tensor([True, False, True])), torch.unique(torch.tensor(5), return_inverse=True), torch.unique(torch.tensor([]), return_counts=True), torch.unique(torch.zeros(0, 3), dim=0))""",
    "torch.unique(torch.tensor([[1, 2]]), dim=2)",
    "torch.unique(torch.zeros(2, 0), dim=0)",
    """x = torch.tensor([[3., 1.], [3., 1.], [2., 2.]], requires_grad=True)
u = torch.unique(x, dim=0); print(u, u.grad_fn)
u.sum().backward()""",
    """x = torch.tensor([1., 1., 2., 2., 3., 1., 1., 2.], requires_grad=True)
u = torch.unique_consecutive(x); print(u, u.grad_fn, torch.unique_consecutive(x, return_inverse=True, return_counts=True), x.unique_consecutive(return_counts=True), torch.unique_consecutive(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_counts=True), torch.unique_consecutive(torch.tensor([1., float('nan'), float('nan')])), torch.unique_consecutive(torch.tensor([])))
u.sum().backward()""",
    # logsigmoid, multilabel_soft_margin_loss
    """x = torch.tensor([[-2., 0.5, 3.], [0., -30., 40.]], requires_grad=True); F = torch.nn.functional
y = F.logsigmoid(x); g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(y, y.grad_fn, y.grad_fn._saved_buffer, g, g.grad_fn, torch.nn.LogSigmoid())
t = torch.tensor([[1., 0., 1.], [0., 0.5, 1.]]); l = F.multilabel_soft_margin_loss(x, t, weight=torch.tensor([1., 2., 0.5])); l.backward(); print(l, l.grad_fn, x.grad)
print(torch.nn.MultiLabelSoftMarginLoss(reduction='none')(x, t), torch.nn.MultiLabelSoftMarginLoss())""",
    "torch.nn.functional.logsigmoid(torch.tensor([1, 2]))",
    "torch.nn.functional.multilabel_soft_margin_loss(torch.randn(2, 3), torch.rand(2, 3), reduction='avg')",
    # multi_margin_loss
    """x = torch.tensor([[0.1, 0.2, 0.4, 0.8], [0.5, -0.2, 0.3, 0.1]], requires_grad=True); y = torch.tensor([3, 0]); F = torch.nn.functional
l = F.multi_margin_loss(x, y); g, = torch.autograd.grad(l, x, create_graph=True); print(l, l.grad_fn, l.grad_fn._saved_p, l.grad_fn._saved_margin, l.grad_fn._saved_weight, g, g.grad_fn)
print(F.multi_margin_loss(x, y, p=2, margin=0.5, weight=torch.tensor([1., 2., 3., 4.]), reduction='none'), F.multi_margin_loss(x[0], torch.tensor(3)), F.multi_margin_loss(x[0], torch.tensor([3]), reduction='none'), torch.nn.MultiMarginLoss(p=2, margin=0.3), torch.nn.MultiMarginLoss()(x, y))
g.sum().backward()""",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 4), torch.tensor([0, 1]), p=3)",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 4), torch.tensor([0, 1]), weight=torch.ones(2, 2))",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 4), torch.tensor([4, 0]))",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 4), torch.tensor([3, 0, 1]))",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 4), torch.tensor([3., 0.]))",
    "torch.nn.functional.multi_margin_loss(torch.ones(2, 4, dtype=torch.long), torch.tensor([3, 0]))",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 3, 4), torch.tensor([0, 1]))",
    "torch.nn.functional.multi_margin_loss(torch.randn(2, 4), torch.tensor([3, 0]), weight=torch.ones(3))",
    "torch.nn.MultiMarginLoss(weight=torch.ones(2, 2))",
    # inverse
    """A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
B = torch.inverse(A); g, = torch.autograd.grad(B, A, torch.ones(2, 2), create_graph=True); print(B, B.grad_fn, B.grad_fn._saved_inverse, g, g.grad_fn, A.inverse(), torch.inverse(torch.zeros(0, 0)), torch.inverse(torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]])))""",
    "torch.inverse(torch.ones(2, 2))",
    "torch.inverse(torch.tensor([[0., 1., 0.], [1., 0., 0.], [0., 0., 0.]]))",
    "torch.inverse(torch.tensor([[[1., 2.], [3., 4.]], [[1., 0.], [0., 0.]]]))",
    "torch.inverse(torch.ones(2, 3))",
    "torch.inverse(torch.ones(2, 2, dtype=torch.long))",
    "torch.inverse(torch.ones(3))",
    # quantile, nanquantile
    """nan = float('nan'); x = torch.tensor([[3., 1., 2., 4.], [0., 5., 5., 4.]], requires_grad=True)
y = torch.quantile(x, torch.tensor([0.25, 0.5]), dim=1, keepdim=True); y.sum().backward(); print(y, y.grad_fn, x.grad)
print(torch.quantile(x, 0.3), x.quantile(0.5, 1, interpolation='nearest'), x.quantile(0.3, 0, True, interpolation='higher'), x.quantile(0.3, -1, interpolation='midpoint'), x.quantile(0.3, 1, interpolation='lower'))
print(torch.quantile(torch.tensor([1., nan, 3.]), 0.5), torch.nanquantile(torch.tensor([1., nan, 3.]), 0.5), torch.nanquantile(torch.tensor([nan, nan]), 0.5), torch.quantile(torch.tensor(2.), 0.3), torch.quantile(torch.tensor([1., 2., 3., 4.]), torch.tensor([0.125, 0.375, 0.625, 0.875]), interpolation='nearest'))""",
    "torch.quantile(torch.tensor([1., 2.]), 1.5)",
    "torch.quantile(torch.tensor([1., 2.]), torch.tensor([0.5], dtype=torch.float64))",
    "torch.quantile(torch.tensor([1, 2]), 0.5)",
    "torch.quantile(torch.tensor([1., 2.]), 0.5, interpolation='foo')",
    "torch.quantile(torch.tensor([]), 0.5)",
    "torch.quantile(torch.tensor([1., 2.]), torch.tensor([[0.5]]))",
    "torch.quantile(torch.tensor([1., 2.]), torch.tensor([1.5, 0.5]))",
    "torch.nanquantile(torch.tensor([1., 2.]), 0.5, dim=1)",
    "print(torch.nn.functional.soft_margin_loss(torch.zeros(0), torch.zeros(0)), torch.nn.functional.soft_margin_loss(torch.tensor([1., -1.]), torch.tensor([1, 1])), torch.nn.functional.soft_margin_loss(torch.tensor([100., -100.]), torch.tensor([-1., -1.]), size_average=False))",
]

KNOWN = {}
