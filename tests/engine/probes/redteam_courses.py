# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""What a learner pastes from the popular PyTorch courses and books (written afresh for a red
team, in the style of d2l.ai, Zero to Mastery, the UvA DL course, CS231n, Raschka's PyTorch in
one hour and LLMs from scratch, micrograd/makemore): tensors and their printing, autograd,
from-scratch and concise models on synthetic data, training loops printing rounded losses,
DataLoader, nn.init, nn.utils, state_dicts. torch.range (deprecated, end included) and
torch.histogram were missing; torch.distributions is left out on purpose (its clear error is a
known difference)."""

PROBES = [
    # --- d2l.ai preliminaries: ndarray, data manipulation, linear algebra, calculus, autograd, probability
    """x = torch.arange(12, dtype=torch.float32)
print(x)
print(x.numel(), x.shape, x.dtype)""",
    """x = torch.arange(12)
X = x.reshape(3, 4)
print(X)
print(x.reshape(-1, 6))
print(X.shape, X.size(), X.size(1))""",
    """print(torch.zeros((2, 3, 4)))
print(torch.ones((2, 3, 4)).sum())""",
    """torch.manual_seed(0)
print(torch.randn(3, 4))""",
    """print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))""",
    """X = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print(X[-1], X[1:3])
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)""",
    """x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)""",
    """x = torch.tensor([1.0, 2, 4, 8])
print(torch.exp(x))""",
    """X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0))
print(torch.cat((X, Y), dim=1))
print(X == Y)
print(X.sum())""",
    """a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b)
print(a + b)""",
    """X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.ones(3, 4)
before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
print('id(Z):', id(Z) == id(Z))
zid = id(Z)
Z[:] = X + Y
print(id(Z) == zid)
before = id(X)
X += Y
print(id(X) == before)""",
    """X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
A = X.numpy()
B = torch.from_numpy(A)
print(type(A), type(B))
a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))""",
    """x = torch.tensor(3.0)
y = torch.tensor(2.0)
print(x + y, x * y, x / y, x**y)""",
    """x = torch.arange(3)
print(x)
print(x[2])
print(len(x))
print(x.shape)""",
    """A = torch.arange(6).reshape(3, 2)
print(A)
print(A.T)""",
    """A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)""",
    """print(torch.arange(24).reshape(2, 3, 4))""",
    """A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()
print(A, A + B)
print(A * B)""",
    """a = 2
X = torch.arange(24).reshape(2, 3, 4)
print(a + X, (a * X).shape)""",
    """x = torch.arange(3, dtype=torch.float32)
print(x, x.sum())""",
    """A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print(A.shape, A.sum())
print(A.sum(axis=0), A.sum(axis=0).shape)
print(A.sum(axis=1), A.sum(axis=1).shape)
print(A.sum(axis=[0, 1]) == A.sum())""",
    """A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print(A.mean(), A.sum() / A.numel())
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])""",
    """A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)
print(A / sum_A)
print(A.cumsum(axis=0))""",
    """x = torch.arange(3, dtype=torch.float32)
y = torch.ones(3, dtype=torch.float32)
print(x, y, torch.dot(x, y))
print(torch.sum(x * y))""",
    """A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
x = torch.arange(3, dtype=torch.float32)
print(A.shape, x.shape, torch.mv(A, x), A@x)""",
    """A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = torch.ones(3, 4)
print(torch.mm(A, B), A@B)""",
    """u = torch.tensor([3.0, -4.0])
print(torch.norm(u))
print(torch.abs(u).sum())
print(torch.norm(torch.ones((4, 9))))""",
    """x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)""",
    """x = torch.arange(4.0, requires_grad=True)
y = 2 * torch.dot(x, x)
y.backward()
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)""",
    """x = torch.arange(4.0, requires_grad=True)
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)""",
    """x = torch.arange(4.0, requires_grad=True)
y = x * x
y.backward()""",
    """x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)""",
    """def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
print(a.grad)""",
    """import numpy as np
def f(x):
    return 3 * x ** 2 - 4 * x
for h in 10.0**np.arange(-1, -6, -1):
    print(f'h={h:.5f}, numerical limit={(f(1+h)-f(1))/h:.5f}')""",
    """x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(x.grad)""",
    """x = torch.arange(0.0, 1.0, 0.25, requires_grad=True)
y = torch.sin(x)
y.sum().backward()
print(x.grad)
print(torch.cos(x))""",
    """fair_probs = torch.ones(6) / 6
torch.manual_seed(0)
counts = torch.multinomial(fair_probs, 10, replacement=True)
print(counts)""",
    """torch.manual_seed(0)
fair_probs = torch.ones(6) / 6
samples = torch.multinomial(fair_probs, 1000, replacement=True)
counts = torch.bincount(samples, minlength=6)
print(counts, counts / 1000)""",
    """torch.manual_seed(1)
probs = torch.tensor([0.5, 0.5])
draws = torch.multinomial(probs, 100, replacement=True)
print(draws.float().mean())
cum = draws.float().cumsum(0) / torch.arange(1, 101)
print(cum[:5], cum[-1])""",
    """torch.manual_seed(0)
x = torch.rand(5)
print(x, x.dtype)
print(x > 0.5)
print((x > 0.5).sum().item())""",
    """torch.manual_seed(42)
num_tosses = 100
heads = sum([torch.rand(1).item() > 0.5 for _ in range(num_tosses)])
tails = num_tosses - heads
print("heads, tails: ", [heads, tails])""",
    """X = torch.arange(12).reshape(3, 4)
print(X.T.shape, X.T.T.shape)
A = torch.arange(9.).reshape(3,3)
B = torch.ones(3,3)
print((A + B).T == A.T + B.T)""",
    """A = torch.arange(9.).reshape(3,3)
print(A + A.T)
print((A + A.T) == (A + A.T).T)""",
    """X = torch.arange(24.).reshape(2, 3, 4)
print(len(X))
print(X / X.sum(axis=1, keepdims=True))""",
    """X = torch.arange(6.).reshape(2,3)
print(X / X.sum(axis=1))""",
    """X = torch.arange(24.).reshape(2, 3, 4)
print(X.sum(axis=0).shape, X.sum(axis=1).shape, X.sum(axis=2).shape)
print(torch.linalg.norm(X))""",
    """x = torch.arange(4.)
print(torch.linalg.norm(x), torch.linalg.norm(x, ord=1), torch.linalg.norm(x, ord=float('inf')))""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
print(dy)
d2y, = torch.autograd.grad(dy, x)
print(d2y)""",
    """x = torch.randn(3).requires_grad_()
print(x.requires_grad, x.is_leaf)
y = x.sum()
print(y.grad_fn, y.is_leaf)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.sum()
y.backward()
y.backward()""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()""",
    # --- Zero to Mastery, PyTorch fundamentals: tensor attributes, dtypes, reshaping, stacking, squeezing, indexing, NumPy, reproducibility (torch.range: once missing)
    """scalar = torch.tensor(7)
print(scalar, scalar.ndim, scalar.item(), type(scalar.item()))""",
    """vector = torch.tensor([7, 7])
print(vector, vector.ndim, vector.shape)""",
    """MATRIX = torch.tensor([[7, 8], [9, 10]])
print(MATRIX, MATRIX.ndim, MATRIX[1], MATRIX.shape)""",
    """TENSOR = torch.tensor([[[1, 2, 3], [3, 6, 9], [2, 4, 5]]])
print(TENSOR, TENSOR.ndim, TENSOR.shape, TENSOR[0])""",
    """torch.manual_seed(42)
random_tensor = torch.rand(size=(3, 4))
print(random_tensor, random_tensor.dtype)""",
    """random_image_size_tensor = torch.rand(size=(224, 224, 3))
print(random_image_size_tensor.shape, random_image_size_tensor.ndim)""",
    """zeros = torch.zeros(size=(3, 4))
ones = torch.ones(size=(3, 4))
print(zeros, zeros.dtype, ones, ones.dtype)""",
    """zero_to_ten = torch.arange(start=0, end=10, step=1)
print(zero_to_ten)
ten_zeros = torch.zeros_like(input=zero_to_ten)
print(ten_zeros)""",
    """print(torch.range(0, 10))""",
    """float_32_tensor = torch.tensor([3.0, 6.0, 9.0], dtype=None, device=None, requires_grad=False)
print(float_32_tensor.shape, float_32_tensor.dtype, float_32_tensor.device)""",
    """float_16_tensor = torch.tensor([3.0, 6.0, 9.0], dtype=torch.float16)
print(float_16_tensor, float_16_tensor.dtype)
float_32_tensor = torch.tensor([3.0, 6.0, 9.0])
print(float_16_tensor * float_32_tensor)""",
    """some_tensor = torch.rand(3, 4)
print(some_tensor)
print(f"Shape of tensor: {some_tensor.shape}")
print(f"Datatype of tensor: {some_tensor.dtype}")
print(f"Device tensor is stored on: {some_tensor.device}")""",
    """tensor = torch.tensor([1, 2, 3])
print(tensor + 10, tensor * 10, tensor - 10)
print(torch.multiply(tensor, 10), torch.mul(tensor, 10), torch.add(tensor, 10))
print(tensor)""",
    """tensor = torch.tensor([1, 2, 3])
print(tensor, "*", tensor)
print("Equals:", tensor * tensor)
print(torch.matmul(tensor, tensor), tensor @ tensor)""",
    """tensor_A = torch.tensor([[1, 2], [3, 4], [5, 6]], dtype=torch.float32)
tensor_B = torch.tensor([[7, 10], [8, 11], [9, 12]], dtype=torch.float32)
torch.matmul(tensor_A, tensor_B)""",
    """tensor_A = torch.tensor([[1, 2], [3, 4], [5, 6]], dtype=torch.float32)
tensor_B = torch.tensor([[7, 10], [8, 11], [9, 12]], dtype=torch.float32)
print(tensor_A)
print(tensor_B.T)
print(f"Original shapes: tensor_A = {tensor_A.shape}, tensor_B = {tensor_B.shape}")
output = torch.matmul(tensor_A, tensor_B.T)
print(output)
print(f"Output shape: {output.shape}")
print(torch.mm(tensor_A, tensor_B.T))""",
    """tensor_A = torch.tensor([[1, 2], [3, 4], [5, 6]])
tensor_B = torch.tensor([[7, 10], [8, 11], [9, 12]], dtype=torch.float32)
torch.mm(tensor_A, tensor_B.T)""",
    r"""torch.manual_seed(42)
linear = torch.nn.Linear(in_features=2, out_features=6)
x = torch.tensor([[1, 2], [3, 4], [5, 6]], dtype=torch.float32)
output = linear(x)
print(f"Input shape: {x.shape}\n")
print(f"Output:\n{output}\n\nOutput shape: {output.shape}")""",
    """x = torch.arange(0, 100, 10)
print(x)
print(f"Minimum: {x.min()}")
print(f"Maximum: {x.max()}")
print(f"Sum: {x.sum()}")
x.mean()""",
    """x = torch.arange(0, 100, 10)
print(f"Mean: {x.type(torch.float32).mean()}")
print(torch.max(x), torch.min(x), torch.mean(x.type(torch.float32)), torch.sum(x))""",
    """tensor = torch.arange(10, 100, 10)
print(f"Tensor: {tensor}")
print(f"Index where max value occurs: {tensor.argmax()}")
print(f"Index where min value occurs: {tensor.argmin()}")""",
    """tensor = torch.arange(10., 100., 10.)
print(tensor.dtype)
tensor_float16 = tensor.type(torch.float16)
print(tensor_float16)
tensor_int8 = tensor.type(torch.int8)
print(tensor_int8)""",
    """x = torch.arange(1., 8.)
print(x, x.shape)
x_reshaped = x.reshape(1, 7)
print(x_reshaped, x_reshaped.shape)""",
    """x = torch.arange(1., 8.)
z = x.view(1, 7)
print(z, z.shape)
z[:, 0] = 5
print(z, x)""",
    """x = torch.arange(1., 8.)
x_stacked = torch.stack([x, x, x, x], dim=0)
print(x_stacked)
x_stacked = torch.stack([x, x, x, x], dim=1)
print(x_stacked)""",
    r"""x = torch.arange(1., 8.)
x_reshaped = x.reshape(1, 7)
print(f"Previous tensor: {x_reshaped}")
print(f"Previous shape: {x_reshaped.shape}")
x_squeezed = x_reshaped.squeeze()
print(f"\nNew tensor: {x_squeezed}")
print(f"New shape: {x_squeezed.shape}")""",
    r"""x = torch.arange(1., 8.)
x_squeezed = x.reshape(1, 7).squeeze()
print(f"Previous shape: {x_squeezed.shape}")
x_unsqueezed = x_squeezed.unsqueeze(dim=0)
print(f"\nNew tensor: {x_unsqueezed}")
print(f"New shape: {x_unsqueezed.shape}")""",
    """x_original = torch.rand(size=(224, 224, 3))
x_permuted = x_original.permute(2, 0, 1)
print(f"Previous shape: {x_original.shape}")
print(f"New shape: {x_permuted.shape}")
x_original[0, 0, 0] = 728218
print(x_original[0, 0, 0], x_permuted[0, 0, 0])""",
    r"""x = torch.arange(1, 10).reshape(1, 3, 3)
print(x, x.shape)
print(f"First square bracket:\n{x[0]}")
print(f"Second square bracket: {x[0][0]}")
print(f"Third square bracket: {x[0][0][0]}")""",
    """x = torch.arange(1, 10).reshape(1, 3, 3)
print(x[:, 0])
print(x[:, :, 1])
print(x[:, 1, 1])
print(x[0, 0, :])
print(x[0, 2, 2], x[:, :, 2])""",
    """x = torch.arange(1, 10).reshape(1, 3, 3)
print(x[1])""",
    """x = torch.arange(1, 10).reshape(1, 3, 3)
print(x[0, 3])""",
    """import numpy as np
array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array)
print(array, tensor)
print(tensor.dtype)
array = array + 1
print(array, tensor)""",
    """tensor = torch.ones(7)
numpy_tensor = tensor.numpy()
print(tensor, numpy_tensor, numpy_tensor.dtype)
tensor = tensor + 1
print(tensor, numpy_tensor)""",
    """import numpy as np
array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array).type(torch.float32)
print(tensor, tensor.dtype)""",
    """random_tensor_A = torch.rand(3, 4)
random_tensor_B = torch.rand(3, 4)
print(random_tensor_A == random_tensor_B)""",
    r"""RANDOM_SEED = 42
torch.manual_seed(seed=RANDOM_SEED)
random_tensor_C = torch.rand(3, 4)
torch.random.manual_seed(seed=RANDOM_SEED)
random_tensor_D = torch.rand(3, 4)
print(f"Tensor C:\n{random_tensor_C}\n")
print(f"Tensor D:\n{random_tensor_D}\n")
print(f"Does Tensor C equal Tensor D? (anywhere)")
print(random_tensor_C == random_tensor_D)""",
    """print(torch.cuda.is_available())
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device)
print(torch.cuda.device_count())""",
    """device = "cuda" if torch.cuda.is_available() else "cpu"
tensor = torch.tensor([1, 2, 3])
print(tensor, tensor.device)
tensor_on_gpu = tensor.to(device)
print(tensor_on_gpu)
print(tensor_on_gpu.cpu().numpy())""",
    """tensor = torch.tensor([1, 2, 3])
tensor.to("cuda")""",
    """torch.manual_seed(7)
x = torch.rand(7, 7)
y = torch.rand(1, 7)
print(torch.matmul(x, y.T))""",
    """torch.manual_seed(0)
x = torch.rand(7, 7)
print(x.shape)
print(torch.matmul(x, torch.rand(1,7)))""",
    """torch.manual_seed(7)
t = torch.rand(1, 1, 1, 10)
t_squeezed = t.squeeze()
print(t, t.shape)
print(t_squeezed, t_squeezed.shape)""",
    """x = torch.tensor([[1, 2], [3, 4]])
print(x.max(dim=0), x.argmax(dim=1))""",
    """x = torch.tensor([1, 2, 3])
print(x.dtype, x.float().dtype, x.double().dtype, x.half().dtype, x.long().dtype, x.int().dtype, x.bool())""",
    """x = torch.arange(10)
print(x.view(2, 5), x.view(-1, 2).shape)
x.view(3, 3)""",
    """x = torch.arange(10)
x.reshape(3, -1)""",
    """x = torch.arange(10)
print(torch.vstack([x, x]).shape, torch.hstack([x, x]).shape, torch.dstack([x, x]).shape)""",
    """x = torch.zeros(2, 1, 2, 1, 2)
print(x.size())
print(torch.squeeze(x).size(), torch.squeeze(x, 0).size(), torch.squeeze(x, 1).size(), torch.squeeze(x, (1, 2, 3)).size())""",
    """x = torch.arange(6).reshape(2, 3)
print(x.unsqueeze(0).shape, x.unsqueeze(-1).shape, x[None].shape, x[..., None].shape, x[:, None, :].shape)
x.unsqueeze(3)""",
    """x = torch.arange(6).reshape(2, 3)
print(x.permute(1, 0), x.permute(1, 0).is_contiguous())
x.permute(1, 0).view(6)""",
    """x = torch.arange(6).reshape(2, 3)
print(x.permute(2, 0))""",
    """x = torch.arange(24).reshape(2, 3, 4)
print(x.flatten(), x.flatten(start_dim=1).shape, torch.flatten(x, 0, 1).shape)""",
    """t = torch.tensor([[1, 2, 3]])
print(t.shape, t.ndim, t.ndimension(), t.dim(), t.nelement(), t.element_size())""",
    """t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(t.T, t.mT, t.t(), t.transpose(0, 1))""",
    """x = torch.arange(0, 100, 10)
print(x.min(), x.max(), x.type(torch.float32).mean(), x.sum(), x.float().std())
print(x.argmin(), x.argmax())""",
    # --- Zero to Mastery, PyTorch workflow: a linear regression's train/test loop, nn.Parameter, inference_mode, saving and loading a state_dict
    """weight = 0.7
bias = 0.3
start, end, step = 0, 1, 0.02
X = torch.arange(start, end, step).unsqueeze(dim=1)
y = weight * X + bias
print(X[:10], y[:10])
print(len(X), len(y))
train_split = int(0.8 * len(X))
X_train, y_train = X[:train_split], y[:train_split]
X_test, y_test = X[train_split:], y[train_split:]
print(len(X_train), len(y_train), len(X_test), len(y_test))""",
    """from torch import nn
class LinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
        self.bias = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.weights * x + self.bias
torch.manual_seed(42)
model_0 = LinearRegressionModel()
print(list(model_0.parameters()))
print(model_0.state_dict())
print(model_0)""",
    """from torch import nn
class LinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
        self.bias = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
    def forward(self, x):
        return self.weights * x + self.bias
torch.manual_seed(42)
model_0 = LinearRegressionModel()
X_test = torch.arange(0.8, 1.0, 0.02).unsqueeze(1)
with torch.inference_mode():
    y_preds = model_0(X_test)
print(y_preds)
print(y_preds.requires_grad, y_preds.is_inference())
with torch.no_grad():
    y_preds = model_0(X_test)
print(y_preds.requires_grad, y_preds.is_inference())""",
    """from torch import nn
torch.manual_seed(42)
class LinearRegressionModelV2(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_layer = nn.Linear(in_features=1, out_features=1)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear_layer(x)
model_1 = LinearRegressionModelV2()
print(model_1, model_1.state_dict())
print(next(model_1.parameters()).device)""",
    """from torch import nn
torch.manual_seed(42)
model_1 = nn.Linear(1, 1)
X = torch.arange(0, 1, 0.02).unsqueeze(dim=1)
y = 0.7 * X + 0.3
loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_1.parameters(), lr=0.01)
for epoch in range(100):
    model_1.train()
    loss = loss_fn(model_1(X[:40]), y[:40])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        model_1.eval()
        with torch.inference_mode():
            test_loss = loss_fn(model_1(X[40:]), y[40:])
        print(f"Epoch: {epoch} | Train loss: {loss:.4f} | Test loss: {test_loss:.4f}")
print({k: [round(v, 4) for v in p.flatten().tolist()] for k, p in model_1.state_dict().items()})""",
    """import io
from torch import nn
torch.manual_seed(42)
model = nn.Linear(1, 1)
buf = io.BytesIO()
torch.save(obj=model.state_dict(), f=buf)
buf.seek(0)
loaded = nn.Linear(1, 1)
print(loaded.load_state_dict(torch.load(f=buf)))
print(loaded.state_dict())
x = torch.tensor([[0.5]])
print(model(x) == loaded(x))""",
    """import io
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
print(list(sd.keys()))
print({k: v.shape for k, v in sd.items()})""",
    """from torch import nn
model = nn.Linear(2, 1)
bad = {'weight': torch.zeros(1, 3), 'bias': torch.zeros(1)}
model.load_state_dict(bad)""",
    """from torch import nn
model = nn.Linear(2, 1)
print(model.load_state_dict({'weight': torch.zeros(1, 2)}, strict=False))
model.load_state_dict({'weight': torch.zeros(1, 2), 'extra': torch.ones(1)})""",
    """import tempfile, os
from torch import nn
torch.manual_seed(1)
model = nn.Linear(3, 2)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "01_pytorch_workflow_model_0.pth")
    print(f"Saving model to: {os.path.basename(path)}")
    torch.save(obj=model.state_dict(), f=path)
    m2 = nn.Linear(3, 2)
    m2.load_state_dict(torch.load(f=path))
    print(torch.equal(m2.weight, model.weight), torch.equal(m2.bias, model.bias))""",
    """import io
from torch import nn
torch.manual_seed(1)
model = nn.Linear(3, 2)
buf = io.BytesIO()
torch.save(model, buf)
buf.seek(0)
torch.load(buf)""",
    """from torch import nn
torch.manual_seed(42)
model = nn.Linear(1, 1)
print(model.weight, model.bias)
print(model.weight.dtype, model.weight.shape, model.weight.requires_grad)
print(type(model.weight), isinstance(model.weight, torch.Tensor))""",
    """from torch import nn
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(p * 2)
print(repr(p.data), p.grad)
q = nn.Parameter(torch.tensor([1, 2]))""",
    """from torch import nn
p = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
print(p, p.requires_grad)""",
    """torch.manual_seed(42)
with torch.inference_mode():
    x = torch.randn(3)
x.requires_grad_(True)""",
    """with torch.inference_mode():
    x = torch.ones(3)
y = torch.ones(3, requires_grad=True)
z = x * y
print(z.requires_grad)
x.add_(1)""",
    """with torch.inference_mode():
    x = torch.ones(3)
print(x, x.is_inference(), torch.is_inference_mode_enabled())
x[0] = 5""",
    """from torch import nn
model = nn.Linear(2, 2)
print(model.training)
model.eval()
print(model.training)
model.train()
print(model.training)
print(model.train(False).training)""",
    """from torch import nn
model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
model.eval()
print([m.training for m in model.modules()])""",
    """torch.manual_seed(42)
import torch.nn as nn
model = nn.Linear(1, 1)
loss_fn = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.linspace(0, 1, 11).unsqueeze(1)
y = 2 * X + 1
losses = []
for epoch in range(20):
    pred = model(X)
    loss = loss_fn(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print([f"{l:.4f}" for l in losses[::5]])
print(type(losses[0]))""",
    """torch.manual_seed(0)
y_true = torch.tensor([1.0, 2.0, 3.0])
y_pred = torch.tensor([1.5, 2.5, 2.0])
print(torch.nn.L1Loss()(y_pred, y_true), torch.nn.MSELoss()(y_pred, y_true))
print(torch.mean(torch.abs(y_pred - y_true)))
print(torch.nn.functional.l1_loss(y_pred, y_true, reduction='none'))""",
    """import torch.nn as nn
loss_fn = nn.L1Loss()
print(loss_fn)
print(nn.MSELoss(), nn.BCELoss(), nn.BCEWithLogitsLoss(), nn.CrossEntropyLoss())
opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.01)
print(opt)""",
    """import torch.nn as nn
opt = torch.optim.Adam([nn.Parameter(torch.zeros(1))], lr=0.001)
print(opt)
print(opt.state_dict())""",
    """import torch.nn as nn
loss_fn = nn.L1Loss()
loss_fn(torch.zeros(3), torch.zeros(3, 1))""",
    """import torch.nn as nn
loss_fn = nn.MSELoss()
print(loss_fn(torch.zeros(3), torch.ones(3, 1)))""",
    """torch.manual_seed(42)
model = torch.nn.Linear(1, 1)
print(model.state_dict().keys())
print(model.state_dict()['weight'].requires_grad)
print(type(model.state_dict()))
for name, param in model.named_parameters():
    print(name, param.shape, param.requires_grad)""",
    """from torch import nn
torch.manual_seed(42)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(1))
m = M()
m(torch.ones(1))""",
    """from torch import nn
class M(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.randn(1))
m = M()""",
    """import numpy as np
torch.manual_seed(42)
X = torch.arange(0, 1, 0.02).unsqueeze(1)
y = 0.7 * X + 0.3
model = torch.nn.Linear(1, 1)
model.eval()
with torch.inference_mode():
    preds = model(X)
print(np.round(preds.numpy()[:3], 4))
preds.numpy()
print(preds.numpy().dtype)""",
    """torch.manual_seed(42)
model = torch.nn.Linear(1, 1)
preds = model(torch.ones(2, 1))
preds.numpy()""",
    """torch.manual_seed(42)
model = torch.nn.Linear(1, 1)
preds = model(torch.ones(2, 1))
print(preds.detach().numpy())""",
    # --- UvA DL tutorial 2 and Raschka's PyTorch in one hour: XOR with nn.Module, datasets and DataLoader, BCEWithLogits, accuracy, an MLP's training loop
    """import torch.nn as nn
class SimpleClassifier(nn.Module):
    def __init__(self, num_inputs, num_hidden, num_outputs):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, num_hidden)
        self.act_fn = nn.Tanh()
        self.linear2 = nn.Linear(num_hidden, num_outputs)
    def forward(self, x):
        x = self.linear1(x)
        x = self.act_fn(x)
        x = self.linear2(x)
        return x
torch.manual_seed(42)
model = SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1)
print(model)
for name, param in model.named_parameters():
    print(f"Parameter {name}, shape {param.shape}")""",
    """import torch.utils.data as data
class XORDataset(data.Dataset):
    def __init__(self, size, std=0.1):
        super().__init__()
        self.size = size
        self.std = std
        self.generate_continuous_xor()
    def generate_continuous_xor(self):
        data = torch.randint(low=0, high=2, size=(self.size, 2), dtype=torch.float32)
        label = (data.sum(dim=1) == 1).to(torch.long)
        data += self.std * torch.randn(data.shape)
        self.data = data
        self.label = label
    def __len__(self):
        return self.size
    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]
torch.manual_seed(42)
dataset = XORDataset(size=200)
print("Size of dataset:", len(dataset))
print("Data point 0:", dataset[0])""",
    r"""import torch.utils.data as data
torch.manual_seed(42)
x = torch.randint(0, 2, (8, 2), dtype=torch.float32)
y = (x.sum(1) == 1).long()
ds = data.TensorDataset(x, y)
loader = data.DataLoader(ds, batch_size=4, shuffle=True)
data_inputs, data_labels = next(iter(loader))
print("Data inputs", data_inputs.shape, "\n", data_inputs)
print("Data labels", data_labels.shape, "\n", data_labels)""",
    """import torch.nn as nn
loss_module = nn.BCEWithLogitsLoss()
logits = torch.tensor([0.5, -1.0, 2.0, 0.0])
labels = torch.tensor([1, 0, 1, 1])
print(loss_module(logits, labels.float()))
loss_module(logits, labels)""",
    """import torch.nn as nn
print(nn.BCEWithLogitsLoss()(torch.zeros(3, 1), torch.ones(3)))""",
    """import torch.nn as nn
import torch.utils.data as data
torch.manual_seed(42)
class SimpleClassifier(nn.Module):
    def __init__(self, num_inputs, num_hidden, num_outputs):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, num_hidden)
        self.act_fn = nn.Tanh()
        self.linear2 = nn.Linear(num_hidden, num_outputs)
    def forward(self, x):
        return self.linear2(self.act_fn(self.linear1(x)))
x = torch.randint(0, 2, (64, 2), dtype=torch.float32)
y = (x.sum(1) == 1).long()
x = x + 0.1 * torch.randn(x.shape)
loader = data.DataLoader(data.TensorDataset(x, y), batch_size=16, shuffle=True)
model = SimpleClassifier(2, 4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_module = nn.BCEWithLogitsLoss()
model.train()
for epoch in range(5):
    for data_inputs, data_labels in loader:
        preds = model(data_inputs)
        preds = preds.squeeze(dim=1)
        loss = loss_module(preds, data_labels.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, f"{loss.item():.4f}")
model.eval()
true_preds, num_preds = 0., 0.
with torch.no_grad():
    for data_inputs, data_labels in loader:
        preds = model(data_inputs).squeeze(dim=1)
        preds = torch.sigmoid(preds)
        pred_labels = (preds >= 0.5).long()
        true_preds += (pred_labels == data_labels).sum()
        num_preds += data_labels.shape[0]
acc = true_preds / num_preds
print(f"Accuracy of the model: {100.0*acc:4.2f}%")
print(type(true_preds), acc.dtype)""",
    """x = torch.arange(3, dtype=torch.float32, requires_grad=True)
print(x)
a = x + 2
b = a ** 2
c = b + 3
y = c.mean()
print("Y", y)
y.backward()
print(x.grad)""",
    """torch.manual_seed(42)
x = torch.Tensor(2, 3, 4)
print(x.shape)""",
    """x = torch.Tensor([[1, 2], [3, 4]])
print(x, x.dtype)
print(torch.Tensor(2).shape, torch.FloatTensor([1, 2]), torch.LongTensor([1, 2]))""",
    """import numpy as np
np_arr = np.array([[1, 2], [3, 4]])
tensor = torch.from_numpy(np_arr)
print("Numpy array:", np_arr)
print("PyTorch tensor:", tensor)
tensor = torch.arange(4)
np_arr = tensor.numpy()
print("PyTorch tensor:", tensor)
print("Numpy array:", np_arr)""",
    """x1 = torch.rand(2, 3)
x2 = torch.rand(2, 3)
y = x1 + x2
print(y.shape)
x2.add_(x1)
print(torch.allclose(x2, y))""",
    """x = torch.arange(6)
print("X", x)
x = x.view(2, 3)
print("X", x)
x = x.permute(1, 0)
print("X", x)""",
    """x = torch.arange(6)
x = x.view(2, 3)
W = torch.arange(9).view(3, 3)
h = torch.matmul(x, W)
print("H", h)""",
    """x = torch.arange(12).view(3, 4)
print("X", x)
print(x[:, 1])
print(x[0])
print(x[:2, -1])
print(x[1:3, :])""",
    """torch.manual_seed(42)
x = torch.ones((3,))
print(x.requires_grad)
x.requires_grad_(True)
print(x.requires_grad)""",
    """import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
print(model[0], model[-1], len(model))
print(model[0:2])
print([type(m).__name__ for m in model.children()])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
print(sum(p.numel() for p in model.parameters()))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
print(model.weight.grad)
out = model(torch.ones(3, 2)).sum()
out.backward()
print(model.weight.grad, model.bias.grad)
model.zero_grad()
print(model.weight.grad)""",
    """import torch.nn as nn
m = nn.Module()
print(m)
print(list(m.parameters()))
m()""",
    """import torch.utils.data as data
torch.manual_seed(0)
ds = data.TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
print(len(ds), ds[0], ds[1:3])
loader = data.DataLoader(ds, batch_size=2)
for xb, yb in loader:
    print(xb.shape, yb)
print(len(loader))""",
    """import torch.utils.data as data
ds = data.TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
loader = data.DataLoader(ds, batch_size=2, drop_last=True)
print(len(loader), [yb.tolist() for _, yb in loader])""",
    """import torch.utils.data as data
data.TensorDataset(torch.zeros(3), torch.zeros(4))""",
    """import torch.utils.data as data
torch.manual_seed(0)
ds = data.TensorDataset(torch.arange(10.))
train, test = data.random_split(ds, [8, 2])
print(len(train), len(test), [train[i] for i in range(3)])
print(train.indices)""",
    """import torch.utils.data as data
torch.manual_seed(0)
train, val = data.random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(42))
print(list(train), list(val))""",
    """import torch.utils.data as data
loader = data.DataLoader(list(range(7)), batch_size=3)
print([b for b in loader])
loader = data.DataLoader([(i, float(i)) for i in range(4)], batch_size=2)
print([b for b in loader])""",
    """import torch.utils.data as data
loader = data.DataLoader([{'x': torch.ones(2), 'y': i} for i in range(4)], batch_size=3)
for b in loader:
    print(b)""",
    """import torch.utils.data as data
torch.manual_seed(123)
loader = data.DataLoader(torch.arange(6), batch_size=2, shuffle=True)
for epoch in range(2):
    print([b.tolist() for b in loader])""",
    """import torch.utils.data as data
class ToyDataset(data.Dataset):
    def __init__(self, X, y):
        self.features = X
        self.labels = y
    def __getitem__(self, index):
        one_x = self.features[index]
        one_y = self.labels[index]
        return one_x, one_y
    def __len__(self):
        return self.labels.shape[0]
X_train = torch.tensor([[-1.2, 3.1], [-0.9, 2.9], [-0.5, 2.6], [2.3, -1.1], [2.7, -1.5]])
y_train = torch.tensor([0, 0, 0, 1, 1])
train_ds = ToyDataset(X_train, y_train)
print(len(train_ds))
torch.manual_seed(123)
train_loader = data.DataLoader(dataset=train_ds, batch_size=2, shuffle=True, num_workers=0, drop_last=True)
for idx, (x, y) in enumerate(train_loader):
    print(f"Batch {idx+1}:", x, y)""",
    """import torch.nn.functional as F
y = torch.tensor([1.0])
x1 = torch.tensor([1.1])
w1 = torch.tensor([2.2], requires_grad=True)
b = torch.tensor([0.0], requires_grad=True)
z = x1 * w1 + b
a = torch.sigmoid(z)
loss = F.binary_cross_entropy(a, y)
print(loss)
from torch.autograd import grad
grad_L_w1 = grad(loss, w1, retain_graph=True)
grad_L_b = grad(loss, b, retain_graph=True)
print(grad_L_w1)
print(grad_L_b)
loss.backward()
print(w1.grad, b.grad)""",
    """import torch.nn as nn
class NeuralNetwork(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(num_inputs, 30),
            nn.ReLU(),
            nn.Linear(30, 20),
            nn.ReLU(),
            nn.Linear(20, num_outputs),
        )
    def forward(self, x):
        logits = self.layers(x)
        return logits
torch.manual_seed(123)
model = NeuralNetwork(50, 3)
print(model)
num_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("Total number of trainable model parameters:", num_params)
print(model.layers[0].weight.shape)
print(model.layers[0].bias[:5])
X = torch.rand((1, 50))
out = model(X)
print(out)
with torch.no_grad():
    out = torch.softmax(model(X), dim=1)
print(out)""",
    """import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data as data
torch.manual_seed(123)
X_train = torch.tensor([[-1.2, 3.1], [-0.9, 2.9], [-0.5, 2.6], [2.3, -1.1], [2.7, -1.5]])
y_train = torch.tensor([0, 0, 0, 1, 1])
loader = data.DataLoader(data.TensorDataset(X_train, y_train), batch_size=2, shuffle=True, drop_last=True)
model = nn.Sequential(nn.Linear(2, 30), nn.ReLU(), nn.Linear(30, 20), nn.ReLU(), nn.Linear(20, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
num_epochs = 3
for epoch in range(num_epochs):
    model.train()
    for batch_idx, (features, labels) in enumerate(loader):
        logits = model(features)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"Epoch: {epoch+1:03d}/{num_epochs:03d}"
              f" | Batch {batch_idx:03d}/{len(loader):03d}"
              f" | Train Loss: {loss:.2f}")
model.eval()
with torch.no_grad():
    outputs = model(X_train)
probas = torch.softmax(outputs, dim=1)
print(torch.round(probas, decimals=2))
predictions = torch.argmax(probas, dim=1)
print(predictions, torch.argmax(outputs, dim=1))
print(predictions == y_train, torch.sum(predictions == y_train))""",
    """def compute_accuracy(model, X, y):
    model = model.eval()
    with torch.no_grad():
        logits = model(X)
    predictions = torch.argmax(logits, dim=1)
    compare = y == predictions
    correct = torch.sum(compare)
    return (correct / len(compare)).item()
torch.manual_seed(1)
model = torch.nn.Linear(2, 2)
print(round(compute_accuracy(model, torch.randn(6, 2), torch.tensor([0, 1, 0, 1, 1, 0])), 4))""",
    """torch.manual_seed(123)
print(torch.cuda.is_available(), torch.backends.mps.is_available())
tensor_1 = torch.tensor([1., 2., 3.])
tensor_2 = torch.tensor([4., 5., 6.])
print(tensor_1 + tensor_2)
tensor_1 = tensor_1.to("cpu")
print(tensor_1.device, tensor_1.is_cuda)""",
    """tensor0d = torch.tensor(1)
tensor1d = torch.tensor([1, 2, 3])
tensor2d = torch.tensor([[1, 2], [3, 4]])
tensor3d = torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
print(tensor1d.dtype)
floatvec = torch.tensor([1.0, 2.0, 3.0])
print(floatvec.dtype)
floatvec = tensor1d.to(torch.float32)
print(floatvec.dtype)
print(tensor2d.shape, tensor2d.reshape(1, 4), tensor2d.view(1, 4), tensor2d.T, tensor2d.matmul(tensor2d.T), tensor2d @ tensor2d.T)""",
    # --- micrograd/makemore style: bigram counts, multinomial with a Generator, one_hot, cross_entropy, C[X] embeddings, tanh saturation, kaiming-scaled MLP
    """words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'mia', 'ella']
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N[0], N.dtype, N.sum())
p = N[0].float()
p = p / p.sum()
print(p)
g = torch.Generator().manual_seed(2147483647)
ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
print(itos[ix])""",
    """g = torch.Generator().manual_seed(2147483647)
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)
print(torch.multinomial(p, num_samples=20, replacement=True, generator=g))""",
    """words = ['emma', 'olivia', 'ava', 'isabella', 'sophia']
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for a, b in zip(chs, chs[1:]):
        N[stoi[a], stoi[b]] += 1
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P.shape, P[0].sum())
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print(''.join(out))
log_likelihood = 0.0
n = 0
for w in words:
    chs = ['.'] + list(w) + ['.']
    for a, b in zip(chs, chs[1:]):
        prob = P[stoi[a], stoi[b]]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
print(f'{log_likelihood=}')
nll = -log_likelihood
print(f'{nll=}')
print(f'{nll/n}')""",
    """P = torch.ones(4, 4)
P /= P.sum(1)
print(P)
P = torch.arange(16.).view(4, 4)
print(P / P.sum(1), P / P.sum(1, keepdim=True))""",
    """P = torch.arange(16.).view(4, 4)
P.sum(1, keepdims=True).shape
P = P / P.sum(1, keepdim=True)
print(P[0].sum(), P.sum(1))""",
    """import torch.nn.functional as F
xs = torch.tensor([0, 5, 13, 13, 1])
xenc = F.one_hot(xs, num_classes=27).float()
print(xenc.shape, xenc.dtype)
print(F.one_hot(xs))
print(F.one_hot(torch.tensor([2, 0]), 3))""",
    """import torch.nn.functional as F
F.one_hot(torch.tensor([0, 5]), num_classes=3)""",
    """import torch.nn.functional as F
F.one_hot(torch.tensor([0.0, 1.0]), num_classes=3)""",
    """import torch.nn.functional as F
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
xenc = F.one_hot(xs, num_classes=27).float()
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
print(probs.shape, probs[0].sum())
loss = -probs[torch.arange(5), ys].log().mean()
print(loss)
W.grad = None
loss.backward()
print(W.grad.shape, W.grad[0, :4])
W.data += -50 * W.grad
print(W[0, :3])""",
    """import torch.nn.functional as F
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
for k in range(20):
    xenc = F.one_hot(xs, num_classes=27).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(5), ys].log().mean() + 0.01 * (W**2).mean()
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
    if k % 5 == 0:
        print(k, f"{loss.item():.4f}")""",
    """import torch.nn.functional as F
logits = torch.tensor([[-2., -3., 0., 5.]])
print(F.cross_entropy(logits, torch.tensor([3])))
logits = torch.tensor([[-100., -3., 0., 100.]])
counts = logits.exp()
print(counts, counts / counts.sum())
print(F.cross_entropy(logits, torch.tensor([3])))""",
    """g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 2), generator=g)
print(C[5])
X = torch.tensor([[0, 0, 5], [0, 5, 13], [5, 13, 13]])
emb = C[X]
print(emb.shape)
print(emb[1, 2], C[13])
print(C[torch.tensor([5, 6, 7])])""",
    """import torch.nn.functional as F
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 2), generator=g)
print(torch.allclose(F.one_hot(torch.tensor(5), num_classes=27).float() @ C, C[5]))""",
    """g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 2), generator=g)
X = torch.tensor([[0, 0, 5], [0, 5, 13]])
emb = C[X]
print(torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1).shape)
print(torch.cat(torch.unbind(emb, 1), 1).shape)
print(emb.view(2, 6))
print(emb.view(-1, 6) @ torch.ones(6, 1))""",
    """a = torch.arange(18)
print(a.shape, a.view(2, 9), a.view(3, 3, 2).shape)
print(a.storage().tolist()[:3])
print(a.untyped_storage().nbytes())""",
    """g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 2), generator=g)
emb = C[torch.tensor([[0, 0, 5]])]
W1 = torch.randn((6, 100), generator=g)
b1 = torch.randn(100, generator=g)
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(h.shape, h[0, :4])
print((h.abs() > 0.99).float().mean())
emb @ W1""",
    """import torch.nn.functional as F
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 10), generator=g)
context = [0, 0, 0]
W1 = torch.randn((30, 50), generator=g) * 0.2
W2 = torch.randn((50, 27), generator=g) * 0.01
out = []
for _ in range(8):
    emb = C[torch.tensor([context])]
    h = torch.tanh(emb.view(1, -1) @ W1)
    logits = h @ W2
    probs = F.softmax(logits, dim=1)
    ix = torch.multinomial(probs, num_samples=1, generator=g).item()
    context = context[1:] + [ix]
    out.append(ix)
print(out)""",
    """lre = torch.linspace(-3, 0, 10)
lrs = 10**lre
print(lrs)""",
    """g = torch.Generator().manual_seed(2147483647)
x = torch.randn(1000, 10, generator=g)
w = torch.randn(10, 200, generator=g) / 10**0.5
y = x @ w
print(f"{x.mean():.3f} {x.std():.3f} {y.mean():.3f} {y.std():.3f}")""",
    """torch.manual_seed(42)
import random
random.seed(42)
words = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']
random.shuffle(words)
n1 = int(0.8*len(words))
print(words[:n1], words[n1:])""",
    """g = torch.Generator().manual_seed(2147483647)
print(g.initial_seed(), torch.randn(2, generator=g), torch.rand(2, generator=g), torch.randint(0, 10, (3,), generator=g))
print(torch.randperm(5, generator=g))""",
    """g = torch.Generator().manual_seed(42)
state = g.get_state()
a = torch.rand(3, generator=g)
g.set_state(state)
b = torch.rand(3, generator=g)
print(torch.equal(a, b), state.shape, state.dtype)""",
    """torch.randn(3, generator=42)""",
    """import torch.nn.functional as F
logits = torch.randn(4, 5, requires_grad=True)
y = torch.tensor([1, 0, 4, 2])
loss = F.cross_entropy(logits, y)
loss.backward()
dlogits = F.softmax(logits, 1)
dlogits[range(4), y] -= 1
dlogits /= 4
print(torch.allclose(dlogits, logits.grad), (dlogits - logits.grad).abs().max().item() < 1e-6)""",
    """def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f'{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff: {maxdiff}')
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = torch.tanh(x)
y.sum().backward()
cmp('tanh', 1 - y.detach()**2, x)""",
    """g = torch.Generator().manual_seed(2147483647)
x = torch.randn(32, 64, generator=g)
h = torch.tanh(x * 3)
print(f"{(h.abs() > 0.99).float().mean():.4f}")
hist = torch.histc(h, bins=5, min=-1, max=1)
print(hist)""",
    """x = torch.randn(5)
print(x.logsumexp(0).shape, torch.logsumexp(torch.tensor([[1., 2.], [3., 4.]]), dim=1))
print(torch.tensor([[1., 2.], [3., 4.]]).max(1, keepdim=True))""",
    # --- nn.init (with manual_seed and generators), nn.utils' clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.uniform_(w))
print(nn.init.normal_(w, mean=0.0, std=0.02))
print(nn.init.constant_(w, 0.3))
print(nn.init.ones_(w), nn.init.zeros_(w))""",
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('relu')))
print(nn.init.xavier_normal_(w))""",
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.kaiming_uniform_(w, mode='fan_in', nonlinearity='relu'))
print(nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'))
print(nn.init.kaiming_normal_(w, a=0.1))""",
    """import torch.nn as nn
for name in ['linear', 'conv2d', 'sigmoid', 'tanh', 'relu', 'selu']:
    print(name, nn.init.calculate_gain(name))
print(nn.init.calculate_gain('leaky_relu', 0.2))
nn.init.calculate_gain('gelu')""",
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.eye_(w))
print(nn.init.orthogonal_(torch.empty(3, 3)))
print(nn.init.trunc_normal_(w, std=0.02))
print(nn.init.sparse_(torch.empty(4, 3), sparsity=0.5))""",
    """import torch.nn as nn
nn.init.xavier_uniform_(torch.empty(3))""",
    """import torch.nn as nn
nn.init.kaiming_normal_(torch.empty(0, 3))""",
    """import torch.nn as nn
nn.init.kaiming_normal_(torch.empty(4, 3), mode='fan_avg')""",
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(2, 2)
nn.init.xavier_uniform(w)
print(w)""",
    """import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
def init_normal(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, mean=0, std=0.01)
        nn.init.zeros_(m.bias)
net.apply(init_normal)
print(net[0].weight.data[0], net[0].bias.data[0])
def init_constant(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 1)
        nn.init.zeros_(m.bias)
net.apply(init_constant)
print(net[0].weight.data[0], net[0].bias.data[0])""",
    """import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
def init_xavier(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
def init_42(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 42)
net[0].apply(init_xavier)
net[2].apply(init_42)
print(net[0].weight.data[0])
print(net[2].weight.data)""",
    """import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
def my_init(m):
    if type(m) == nn.Linear:
        print("Init", *[(name, param.shape) for name, param in m.named_parameters()][0])
        nn.init.uniform_(m.weight, -10, 10)
        m.weight.data *= m.weight.data.abs() >= 5
net.apply(my_init)
print(net[0].weight[:2])
net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])""",
    """import torch.nn as nn
torch.manual_seed(0)
shared = nn.Linear(8, 8)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1))
X = torch.rand(size=(2, 4))
net(X)
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
print(len(list(net.parameters())), len(list(net.named_parameters())))
print([n for n, _ in net.named_parameters()])""",
    """import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
print(net[2].state_dict())
print(type(net[2].bias), net[2].bias, net[2].bias.data)
print(net[2].weight.grad == None)
print(*[(name, param.shape) for name, param in net[0].named_parameters()])
print(*[(name, param.shape) for name, param in net.named_parameters()])
print(net.state_dict()['2.bias'].data)""",
    """import torch.nn as nn
def block1():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4), nn.ReLU())
def block2():
    net = nn.Sequential()
    for i in range(2):
        net.add_module(f'block {i}', block1())
    return net
torch.manual_seed(0)
rgnet = nn.Sequential(block2(), nn.Linear(4, 1))
print(rgnet)
print(rgnet[0][1][0].bias.data)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1))
loss = model(torch.randn(5, 3)).pow(2).sum()
loss.backward()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters())))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
model(torch.randn(4, 3)).sum().backward()
print(model.weight.grad)
nn.utils.clip_grad_value_(model.parameters(), clip_value=1.5)
print(model.weight.grad, model.bias.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
model(torch.randn(4, 3)).sum().backward()
print(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type='inf'))
print(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=1))
print(model.weight.grad)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
w.grad = torch.tensor([float('nan'), 1.0])
nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
print(nn.utils.clip_grad_norm_([w], 1.0))
print(nn.utils.clip_grad_norm_([], 1.0))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec.requires_grad, vec.grad_fn)
nn.utils.vector_to_parameters(torch.arange(vec.numel(), dtype=torch.float32), model.parameters())
print(model[0].weight, model[1].bias)""",
    """import torch.nn as nn
model = nn.Linear(2, 3)
nn.utils.vector_to_parameters(torch.zeros(5), model.parameters())""",
    """import torch.nn as nn
model = nn.Linear(2, 3)
nn.utils.vector_to_parameters([1.0, 2.0], model.parameters())""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 3)
print(nn.utils.parameters_to_vector([model.weight]).tolist() == model.weight.flatten().tolist())
print(nn.utils.parameters_to_vector(model.parameters()).data_ptr() != model.weight.data_ptr())""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 2)
x = torch.randn(1, 2)
for step in range(3):
    model.zero_grad()
    (model(x) * 100).sum().backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    print(step, f"{norm.item():.3f}", [f"{g:.3f}" for g in model.bias.grad.tolist()])""",
    """import torch.nn as nn
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity='relu')
        nn.init.constant_(m.bias, 0.01)
torch.manual_seed(3)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
model.apply(init_weights)
print(model[0].weight, model[2].bias)""",
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 4, requires_grad=True)
nn.init.normal_(w)
print(w.grad_fn, w.is_leaf, w.requires_grad)
nn.init.constant_(w, 2)
print(w)""",
    """import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(2, 3)
fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(w)
print(fan_in, fan_out)
std = (2.0 / (fan_in + fan_out)) ** 0.5
print(round(std, 6))""",
    """import torch.nn as nn
torch.manual_seed(0)
g = torch.Generator().manual_seed(7)
print(nn.init.normal_(torch.empty(3), generator=g))
print(nn.init.uniform_(torch.empty(3), -1, 1, generator=g))
print(nn.init.kaiming_uniform_(torch.empty(2, 2), generator=g))""",
    """import torch.nn as nn
print(nn.init.dirac_(torch.empty(2, 2, 3)))""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.eye(3))
    lin.bias.fill_(0.5)
print(lin.weight, lin.bias)
print(lin(torch.ones(1, 3)))""",
    """import torch.nn as nn
lin = nn.Linear(3, 3)
lin.weight.copy_(torch.eye(3))""",
    """import torch.nn as nn
lin = nn.Linear(3, 3)
lin.weight.fill_(1.0)""",
    """import torch.nn as nn
lin = nn.Linear(3, 3)
lin.weight = torch.zeros(3, 3)""",
    """import torch.nn as nn
lin = nn.Linear(2, 2)
lin.weight = nn.Parameter(torch.ones(2, 2))
print(lin.weight, lin(torch.ones(1, 2)).shape)
lin.reset_parameters()
print(lin.weight.shape)""",
    # --- d2l.ai from scratch and concise: linear regression, softmax regression, MLP, dropout, weight decay, corr2d
    r"""import random
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
torch.manual_seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 100)
print('features:', features[0], '\nlabel:', labels[0])
print(features.shape, labels.shape)""",
    r"""import random
random.seed(0)
torch.manual_seed(0)
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
features = torch.arange(20.).reshape(10, 2)
labels = torch.arange(10.).reshape(10, 1)
for X, y in data_iter(4, features, labels):
    print(X, '\n', y)
    break""",
    """import random
random.seed(1)
torch.manual_seed(1)
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
def data_iter(batch_size, features, labels):
    indices = list(range(len(features)))
    random.shuffle(indices)
    for i in range(0, len(features), batch_size):
        j = torch.tensor(indices[i: min(i + batch_size, len(features))])
        yield features[j], labels[j]
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 200)
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.03
for epoch in range(3):
    for X, y in data_iter(10, features, labels):
        l = squared_loss(linreg(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, 10)
    with torch.no_grad():
        train_l = squared_loss(linreg(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}'[:20])
print(f'error in estimating w: {(true_w - w.reshape(true_w.shape)).abs().max() < 0.5}')
print(f'error in estimating b: {abs(true_b - b.item()) < 0.5}')""",
    """w = torch.zeros(2, 1, requires_grad=True)
w -= 0.1""",
    """w = torch.zeros(2, 1, requires_grad=True)
w.grad = torch.ones(2, 1)
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w.grad_fn, w.is_leaf)
w.grad.zero_()
print(w.grad)""",
    """w = torch.zeros(2, 1, requires_grad=True)
w = w - 0.1
print(w.is_leaf, w.grad_fn)
w.sum().backward()
print(w.grad)""",
    """from torch.utils import data
from torch import nn
torch.manual_seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
X = torch.normal(0, 1, (100, 2))
y = (X @ true_w + true_b + torch.normal(0, 0.01, (100,))).reshape(-1, 1)
def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)
data_iter = load_array((X, y), 10)
print(next(iter(data_iter))[0].shape)
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
for epoch in range(3):
    for Xb, yb in data_iter:
        l = loss(net(Xb), yb)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(X), y)
    print(f'epoch {epoch + 1}, loss {l:f}'[:17])
w = net[0].weight.data
print('error in estimating w:', (true_w - w.reshape(true_w.shape)).abs().max() < 0.1)
b = net[0].bias.data
print('error in estimating b:', abs(true_b - b.item()) < 0.1)""",
    """from torch import nn
loss = nn.HuberLoss()
print(loss(torch.tensor([0.0, 2.0, 5.0]), torch.tensor([0.5, 0.0, 0.0])))
print(nn.HuberLoss(delta=2.0, reduction='sum')(torch.tensor([0.0, 2.0, 5.0]), torch.zeros(3)))
print(nn.SmoothL1Loss()(torch.tensor([0.0, 2.0, 5.0]), torch.zeros(3)))""",
    """X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))
def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition
torch.manual_seed(0)
X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))""",
    """y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])
def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])
print(cross_entropy(y_hat, y))
def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())
print(accuracy(y_hat, y) / len(y))""",
    """class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n
    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]
    def reset(self):
        self.data = [0.0] * len(self.data)
    def __getitem__(self, idx):
        return self.data[idx]
m = Accumulator(2)
m.add(torch.tensor(3.0), 2)
m.add(torch.tensor([1.5]), torch.tensor(4))
print(m[0], m[1], m[0] / m[1])""",
    """torch.manual_seed(0)
num_inputs, num_outputs = 20, 4
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
def softmax(X):
    X_exp = torch.exp(X)
    return X_exp / X_exp.sum(1, keepdim=True)
def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)
def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])
X = torch.randn(32, 4, 5)
y = torch.randint(0, 4, (32,))
updater = torch.optim.SGD([W, b], lr=0.1)
for epoch in range(5):
    l = cross_entropy(net(X), y)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    acc = (net(X).argmax(axis=1) == y).float().mean()
    print(epoch, f"{l.mean().item():.4f}", f"{acc.item():.4f}")""",
    """from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.Flatten(), nn.Linear(20, 4))
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
X = torch.randn(16, 4, 5)
y = torch.randint(0, 4, (16,))
l = loss(net(X), y)
print(l.shape, l.grad_fn)
trainer.zero_grad()
l.mean().backward()
trainer.step()
print(f"{loss(net(X), y).mean().item():.4f}")""",
    """from torch import nn
print(nn.Flatten()(torch.zeros(2, 3, 4)).shape, nn.Flatten(0)(torch.zeros(2, 3)).shape, nn.Flatten(1, 2)(torch.zeros(2, 3, 4, 5)).shape)
print(nn.Flatten())
print(nn.Unflatten(1, (2, 2))(torch.zeros(3, 4)).shape)""",
    """x = torch.arange(-8.0, 8.0, 2.0, requires_grad=True)
y = torch.relu(x)
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad)
x.grad.data.zero_()
y = torch.sigmoid(x)
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad)
x.grad.data.zero_()
y = torch.tanh(x)
y.backward(torch.ones_like(x))
print(x.grad)""",
    """x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(x.shape, y.detach()[78:83])""",
    """x = torch.tensor([0.0], requires_grad=True)
torch.relu(x).backward()
print(x.grad)
x.grad = None
torch.nn.functional.leaky_relu(x, 0.1).backward()
print(x.grad)
x.grad = None
torch.abs(x).backward()
print(x.grad)""",
    """from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.Flatten(), nn.Linear(12, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 3))
X = torch.randn(2, 3, 4)
print(net(X).shape)
net.eval()
a = net(X)
b = net(X)
print(torch.equal(a, b))""",
    """def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1: return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)
torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1))""",
    """torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(torch.nn.functional.dropout(X, 0.5))
print(torch.nn.functional.dropout(X, 0.5, training=False))
print(torch.nn.Dropout(p=0.25)(X))
torch.nn.Dropout(p=1.5)""",
    r"""torch.manual_seed(0)
M = torch.normal(0, 1, size=(4, 4))
print('a single matrix \n', M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print('after multiplying 100 matrices\n', M.abs().max() > 1e10)""",
    """from torch import nn
def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2
torch.manual_seed(0)
w = torch.normal(0, 1, size=(5, 1), requires_grad=True)
print(l2_penalty(w))
net = nn.Linear(5, 1)
trainer = torch.optim.SGD([{"params": net.weight, 'weight_decay': 3}, {"params": net.bias}], lr=0.003)
print(trainer)""",
    """def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y
X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))""",
    """def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y
X = torch.ones((4, 6))
X[:, 2:4] = 0
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)
torch.manual_seed(0)
K2 = torch.randn(1, 2, requires_grad=True)
for i in range(5):
    Y_hat = corr2d(X, K2)
    l = (Y_hat - Y) ** 2
    print(Y_hat.grad_fn)
    break""",
    """def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y
X = torch.ones((3, 4))
X[:, 1:3] = 0
Y = corr2d(X, torch.tensor([[1.0, -1.0]]))
K = torch.zeros(1, 2, requires_grad=True)
for i in range(10):
    l = ((corr2d(X, K) - Y) ** 2).sum()
    l.backward()
    with torch.no_grad():
        K -= 0.1 * K.grad
        K.grad.zero_()
    if (i + 1) % 5 == 0:
        print(f'epoch {i + 1}, loss {l.sum():.3f}')
print(K.reshape(1, 2).detach().round(decimals=2))""",
    # --- CS231n's PyTorch tutorial: barebones and Module API, Sequential, kaiming_normal_, check_accuracy, optimizers and schedulers
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m.parameters())
print(m.named_parameters(), m.children(), m.modules())""",
    """dtype = torch.float32
device = torch.device('cpu')
print(device, repr(device), device.type, device.index)
x = torch.zeros((64, 50), dtype=dtype, device=device)
print(x.device, x.dtype, x.shape)""",
    """def flatten(x):
    N = x.shape[0]
    return x.view(N, -1)
x = torch.arange(12).view(2, 1, 3, 2)
print('Before flattening: ', x)
print('After flattening: ', flatten(x))""",
    """import torch.nn.functional as F
def two_layer_fc(x, params):
    x = x.view(x.shape[0], -1)
    w1, w2 = params
    x = F.relu(x.mm(w1))
    x = x.mm(w2)
    return x
torch.manual_seed(0)
hidden_layer_size = 42
x = torch.zeros((64, 50))
w1 = torch.zeros((50, hidden_layer_size))
w2 = torch.zeros((hidden_layer_size, 10))
scores = two_layer_fc(x, [w1, w2])
print(scores.size())""",
    """import math
def random_weight(shape):
    if len(shape) == 2:
        fan_in = shape[0]
    else:
        fan_in = math.prod(shape[1:])
    w = torch.randn(shape) * math.sqrt(2. / fan_in)
    w.requires_grad = True
    return w
def zero_weight(shape):
    return torch.zeros(shape, requires_grad=True)
torch.manual_seed(0)
print(random_weight((3, 5)))
print(zero_weight(3))""",
    """import torch.nn as nn
import torch.nn.functional as F
class TwoLayerFC(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        nn.init.kaiming_normal_(self.fc1.weight)
        self.fc2 = nn.Linear(hidden_size, num_classes)
        nn.init.kaiming_normal_(self.fc2.weight)
    def forward(self, x):
        x = x.view(x.shape[0], -1)
        scores = self.fc2(F.relu(self.fc1(x)))
        return scores
torch.manual_seed(0)
input_size = 50
x = torch.zeros((64, input_size))
model = TwoLayerFC(input_size, 42, 10)
scores = model(x)
print(scores.size())
print(model.fc1.weight.std() > 0.1)""",
    """num_correct = torch.tensor(7)
print('Got %d / %d correct (%.2f)' % (num_correct, 10, 70.0))
print('%s' % torch.tensor([1.5]), '%f' % torch.tensor(2.5), '%.3e' % torch.tensor([3.25]))
'%d' % torch.tensor([1, 2])""",
    """import torch.nn as nn
print(nn.Sequential(nn.Linear(2, 3), nn.ReLU()))
from collections import OrderedDict
model = nn.Sequential(OrderedDict([('fc1', nn.Linear(2, 3)), ('relu', nn.ReLU()), ('fc2', nn.Linear(3, 1))]))
print(model)
print(model.fc1, model[1])""",
    """import torch.nn as nn
print(nn.Sequential(nn.Linear(2, 3), nn.ReLU())['0'])""",
    """import torch.nn as nn
print(nn.Sequential(nn.Linear(2, 3), nn.ReLU())[5])""",
    """import torch.nn as nn
seq = nn.Sequential(nn.Linear(2, 3))
seq.append(nn.ReLU())
seq.insert(0, nn.Identity())
seq.extend([nn.Linear(3, 1)])
print(seq)
del seq[0]
print(seq)""",
    """import torch.nn as nn
torch.manual_seed(0)
optimizer = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1e-2, momentum=0.9, nesterov=True)
print(optimizer)
print(optimizer.param_groups[0]['lr'], optimizer.defaults['momentum'])""",
    """import torch.nn as nn
torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1e-2, nesterov=True)""",
    """torch.optim.SGD([], lr=0.1)""",
    """import torch.nn as nn
model = nn.Linear(2, 2)
torch.optim.SGD(model, lr=0.1)""",
    """import torch.nn as nn
torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=-1)""",
    """import torch.nn as nn
opt = torch.optim.SGD(nn.Linear(2, 2).parameters())
print(opt.defaults['lr'])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
for _ in range(3):
    loss = model(torch.ones(2, 3)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print(list(opt.state_dict()['state'][0].keys()), opt.state_dict()['state'][0]['step'])
print(opt.state_dict()['param_groups'])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]['lr'])""",
    """import torch.nn as nn
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
sched.step()""",
    """import torch.nn as nn
torch.manual_seed(0)
class CS231nNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x
net = CS231nNet()
print(net)
print(net(torch.ones(1, 4)).shape, len(net.layers))""",
    """import torch.nn as nn
torch.manual_seed(0)
layers = nn.ModuleDict({'a': nn.Linear(2, 2), 'b': nn.ReLU()})
print(layers, list(layers.keys()), 'a' in layers)
x = torch.ones(1, 2)
for k, m in layers.items():
    x = m(x)
print(x.shape)""",
    """import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2), nn.Linear(2, 2)]
net = Net()
print(len(list(net.parameters())))
print(net)""",
    """import torch.nn as nn
torch.manual_seed(0)
p = nn.ParameterList([nn.Parameter(torch.randn(2)) for _ in range(2)])
print(p)
print(len(p), p[0])""",
    """import torch.nn.functional as F
x = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
print(F.relu(x), F.softmax(x, dim=1), F.log_softmax(x, dim=-1))
print(F.softmax(x))""",
    """import torch.nn as nn
print(nn.Softmax(dim=1)(torch.tensor([[1.0, 2.0]])), nn.Softmax())
print(nn.Softmax()(torch.tensor([[1.0, 2.0]])))""",
    """import torch.nn.functional as F
scores = torch.tensor([[2.0, 1.0, 0.1]])
F.cross_entropy(scores, torch.tensor([3]))""",
    """import torch.nn.functional as F
scores = torch.tensor([[2.0, 1.0, 0.1]])
F.cross_entropy(scores, torch.tensor([1.0]))""",
    """import torch.nn.functional as F
scores = torch.tensor([[2.0, 1.0, 0.1]])
F.cross_entropy(scores, torch.tensor([1], dtype=torch.int32))""",
    """import torch.nn.functional as F
scores = torch.tensor([[2.0, 1.0, 0.1], [1.0, 1.0, 1.0]])
print(F.cross_entropy(scores, torch.tensor([0, -100])), F.cross_entropy(scores, torch.tensor([0, 2]), ignore_index=2))""",
    """import torch.nn as nn
x = torch.tensor([[0.2, 0.8], [0.6, 0.4]])
print(nn.BCELoss()(x, torch.tensor([[0.0, 1.0], [1.0, 0.0]])))
nn.BCELoss()(torch.tensor([1.2]), torch.tensor([1.0]))""",
    """import torch.nn as nn
print(nn.BCELoss()(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(torch.tensor([0.5, -0.5]), torch.tensor([1.0, 0.0])))""",
    # --- a learner's mistakes along the way: shapes, dtypes, leaves, in-place ops, grads, printing options
    """x = torch.tensor([1.0, 2.0])
x.item()""",
    """x = torch.tensor([1, 2, 3])
x.mean()""",
    """x = torch.tensor([1, 2, 3])
torch.mean(x, dtype=torch.float32)
print(torch.mean(x, dtype=torch.float32))""",
    """x = torch.ones(2, 3, requires_grad=True)
x.numpy()""",
    """x = torch.tensor([[1, 2], [3, 4]])
y = torch.tensor([1.5, 2.5])
print(x * y, (x * y).dtype, x / 2, x // 2, (x / 2).dtype)""",
    """a = torch.ones(2, 3)
b = torch.ones(3, 2)
a + b""",
    """a = torch.ones(2, 3)
torch.matmul(a, torch.ones(2))""",
    """torch.cat([torch.ones(2, 2), torch.ones(3, 3)])""",
    """torch.cat([torch.ones(2), torch.ones(3, 3)], dim=0)""",
    """print(torch.cat([torch.ones(2, dtype=torch.int64), torch.ones(2)]))
torch.cat(torch.ones(2), torch.ones(2))""",
    """x = torch.tensor([[1, 2], [3, 4]])
x.view(3)""",
    """torch.tensor([[1, 2], [3]])""",
    """torch.tensor([1, 2], dtype=torch.float32, requires_grad=True)
print(torch.tensor([1, 2], requires_grad=True))""",
    """x = torch.tensor([torch.tensor(1.0), torch.tensor(2.0)])
print(x)
torch.tensor([torch.ones(2), torch.ones(2)])""",
    """print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]))
print(torch.tensor([[1.0, 2.0]]).tolist(), torch.tensor(3.5).tolist())""",
    """torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.34567]))
torch.set_printoptions(profile='default')
print(torch.tensor([1.23456, 2.34567]))""",
    """torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-5, 1.0, 1e5]))
torch.set_printoptions(sci_mode=None)
print(torch.tensor([1e-5, 1.0, 1e5]))""",
    """print(torch.tensor([1e-8, 1.0]), torch.tensor([1e10]), torch.tensor([0.1, 100.0]), torch.tensor([123456789.0]))""",
    """print(torch.arange(2000.))
print(torch.arange(1000.).reshape(10, 100))""",
    """print(torch.full((2, 2), float('nan')), torch.tensor([float('inf'), -float('inf'), 1.5]))""",
    """x = torch.linspace(0, 1, 5)
print(x)
print(x.tolist())
print([round(v, 2) for v in x.tolist()])""",
    """print(torch.zeros(0), torch.zeros(2, 0), torch.zeros(0, 3).shape, torch.empty(0).sum())""",
    """print(torch.tensor(True), torch.tensor([True, False]) & torch.tensor([True, True]), ~torch.tensor([True, False]))
print(torch.tensor([1, 0]).bool(), torch.tensor([True]).int())""",
    """x = torch.tensor([1.0, -1.0])
-torch.tensor([True])""",
    """x = torch.tensor([3, 1, 2])
print(x.sort(), torch.sort(x, descending=True), x.topk(2), torch.argsort(x))""",
    """x = torch.tensor([[3, 1, 2], [9, 8, 7]])
values, indices = torch.max(x, dim=1)
print(values, indices)
print(torch.max(x, 1)[0], x.max(dim=0).values)""",
    """x = torch.tensor([1.0, 2.0, 3.0])
print(torch.where(x > 1.5, x, torch.zeros_like(x)), torch.where(x > 1.5))
print(torch.where(x > 1.5, x, 0.0), torch.clamp(x, min=1.5), x.clamp(max=2))""",
    """x = torch.tensor([1.0, 2.0, 3.0])
print(x[x > 1.5], x[[0, 2]], x[torch.tensor([True, False, True])])
x[x > 1.5] = 0
print(x)""",
    """A = torch.arange(6.).reshape(2, 3)
print(torch.einsum('ij->ji', A), torch.einsum('ij,j->i', A, torch.ones(3)), torch.einsum('ij,kj->ik', A, A))""",
    """a = torch.ones(2, 3, 4)
b = torch.ones(2, 4, 5)
print(torch.bmm(a, b).shape, (a @ b).shape, torch.matmul(a, torch.ones(4)).shape)
torch.bmm(a, torch.ones(4, 5))""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.requires_grad = False""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x.grad.zero_()""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * 2).sum()
y.backward()
print(y.grad)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad, x.grad)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
y.sum().backward()
print(y.grad, y.retains_grad)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x[0] = 5""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.clone()
y[0] = 5
y.sum().backward()
print(x.grad, y.grad_fn)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.sigmoid()
z = y * 2
y.mul_(2)
z.sum().backward()""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
print(y, y.grad_fn, y.grad_fn.next_functions)
print(y.grad_fn.name())""",
    """x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
print(torch.autograd.grad(y, [x, w]))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * 2).sum()
torch.autograd.grad(y, [x, w])""",
    """x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * 2).sum()
print(torch.autograd.grad(y, [x, w], allow_unused=True))""",
    """from torch.autograd.functional import jacobian, hessian
def f(x):
    return x ** 2 + x.sum()
print(jacobian(f, torch.tensor([1.0, 2.0])))
print(hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0])))""",
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
@torch.no_grad()
def f(x):
    return x * 2
print(f(x).requires_grad)
with torch.enable_grad():
    print((x * 2).requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)""",
    """x = torch.ones(2, requires_grad=True)
print(x.detach().requires_grad, x.detach_())""",
    """x = torch.ones(2, requires_grad=True)
y = x * 2
print(y.data, y.data.requires_grad, y.detach().grad_fn)
print(x.data_ptr() == x.detach().data_ptr())""",
    """import math
x = torch.tensor(math.pi / 4, requires_grad=True)
y = torch.sin(x) * torch.cos(x)
y.backward()
print(x.grad, round(math.cos(2 * math.pi / 4), 6))""",
    """x = torch.linspace(0, 2 * 3.14159, 5, requires_grad=True)
y = torch.sin(x)
grads = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))[0]
print(grads)
print(torch.cos(x).detach())""",
    # --- attention and GPT chapters (Raschka's LLMs from scratch, d2l attention): masks, Embedding, LayerNorm, GELU, sampling
    """torch.manual_seed(123)
inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33]])
query = inputs[1]
attn_scores_2 = torch.empty(inputs.shape[0])
for i, x_i in enumerate(inputs):
    attn_scores_2[i] = torch.dot(x_i, query)
print(attn_scores_2)
attn_weights_2_tmp = attn_scores_2 / attn_scores_2.sum()
print("Attention weights:", attn_weights_2_tmp)
print("Sum:", attn_weights_2_tmp.sum())
def softmax_naive(x):
    return torch.exp(x) / torch.exp(x).sum(dim=0)
print(softmax_naive(attn_scores_2))
print(torch.softmax(attn_scores_2, dim=0))""",
    """inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]])
attn_scores = inputs @ inputs.T
attn_weights = torch.softmax(attn_scores, dim=-1)
print(attn_weights)
print("All row sums:", attn_weights.sum(dim=-1).round(decimals=4))
all_context_vecs = attn_weights @ inputs
print(all_context_vecs)""",
    """import torch.nn as nn
class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))
    def forward(self, x):
        keys = x @ self.W_key
        queries = x @ self.W_query
        values = x @ self.W_value
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        return attn_weights @ values
torch.manual_seed(123)
sa_v1 = SelfAttention_v1(3, 2)
print(sa_v1(torch.rand(4, 3)))""",
    """context_length = 4
mask_simple = torch.tril(torch.ones(context_length, context_length))
print(mask_simple)
mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
scores = torch.arange(16.).view(4, 4) / 10
masked = scores.masked_fill(mask.bool(), -torch.inf)
print(masked)
print(torch.softmax(masked, dim=-1))""",
    """torch.manual_seed(123)
dropout = torch.nn.Dropout(0.5)
example = torch.ones(6, 6)
print(dropout(example))""",
    """import torch.nn as nn
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('mask', torch.triu(torch.ones(context_length, context_length), diagonal=1))
    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        return attn_weights @ values
torch.manual_seed(123)
batch = torch.stack((torch.rand(6, 3), torch.rand(6, 3)), dim=0)
print(batch.shape)
ca = CausalAttention(3, 2, 6, 0.0)
context_vecs = ca(batch)
print("context_vecs.shape:", context_vecs.shape)
print(context_vecs[0, :2])
print(ca.state_dict().keys())
print([n for n, _ in ca.named_buffers()])""",
    """import torch.nn as nn
torch.manual_seed(123)
embedding_layer = nn.Embedding(6, 3)
print(embedding_layer.weight)
print(embedding_layer(torch.tensor([3])))
print(embedding_layer(torch.tensor([2, 3, 5, 1])))
print(embedding_layer)""",
    """import torch.nn as nn
emb = nn.Embedding(4, 2)
emb(torch.tensor([4]))""",
    """import torch.nn as nn
emb = nn.Embedding(4, 2)
emb(torch.tensor([1.0]))""",
    """import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(4, 2, padding_idx=0)
print(emb.weight)
out = emb(torch.tensor([[0, 1], [2, 0]]))
out.sum().backward()
print(emb.weight.grad)""",
    r"""import torch.nn as nn
torch.manual_seed(123)
batch_example = torch.randn(2, 5)
layer = nn.Sequential(nn.Linear(5, 6), nn.ReLU())
out = layer(batch_example)
print(out)
mean = out.mean(dim=-1, keepdim=True)
var = out.var(dim=-1, keepdim=True)
print("Mean:\n", mean)
print("Variance:\n", var)
out_norm = (out - mean) / torch.sqrt(var)
torch.set_printoptions(sci_mode=False)
print("Normalized layer outputs:\n", out_norm)
print("Mean:\n", out_norm.mean(dim=-1, keepdim=True))
print("Variance:\n", out_norm.var(dim=-1, keepdim=True))""",
    """import torch.nn as nn
class LayerNorm(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))
    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        norm_x = (x - mean) / torch.sqrt(var + self.eps)
        return self.scale * norm_x + self.shift
torch.manual_seed(123)
x = torch.randn(2, 5)
ln = LayerNorm(emb_dim=5)
out_ln = ln(x)
print(torch.allclose(out_ln, nn.LayerNorm(5)(x), atol=1e-6))
print(f"{out_ln.mean(dim=-1, keepdim=True).abs().max().item() < 1e-6}")
print(out_ln.var(dim=-1, keepdim=True, unbiased=False))""",
    """import torch.nn as nn
print(nn.LayerNorm(5), nn.GELU(), nn.GELU(approximate='tanh'))
x = torch.linspace(-2, 2, 5)
print(nn.GELU()(x), nn.GELU(approximate='tanh')(x))
class GELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1 + torch.tanh(torch.sqrt(torch.tensor(2.0 / torch.pi)) * (x + 0.044715 * torch.pow(x, 3))))
print(GELU()(x))""",
    """torch.manual_seed(123)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.var(x), x.var(dim=0, unbiased=False), x.var(dim=1, correction=0), x.std(0))""",
    """torch.manual_seed(123)
idx = torch.tensor([[6109, 3626, 6100, 345], [6109, 1110, 6622, 257]])
logits = torch.randn(2, 4, 10)
print(logits[:, -1, :].shape)
probas = torch.softmax(logits[:, -1, :], dim=-1)
idx_next = torch.argmax(probas, dim=-1, keepdim=True)
print(idx_next, torch.cat((idx[:, :2], idx_next), dim=1))""",
    """torch.manual_seed(123)
next_token_logits = torch.tensor([4.51, 0.89, -1.90, 6.75, 1.63, -1.62, -1.89, 6.28, 1.79])
probas = torch.softmax(next_token_logits, dim=0)
next_token_id = torch.multinomial(probas, num_samples=1).item()
print(next_token_id)
def print_sampled_tokens(probas):
    torch.manual_seed(123)
    sample = [torch.multinomial(probas, num_samples=1).item() for i in range(1_000)]
    sampled_ids = torch.bincount(torch.tensor(sample))
    print(sampled_ids.tolist())
print_sampled_tokens(probas)
def softmax_with_temperature(logits, temperature):
    return torch.softmax(logits / temperature, dim=0)
print(softmax_with_temperature(next_token_logits, 5))""",
    """next_token_logits = torch.tensor([4.51, 0.89, -1.90, 6.75, 1.63, -1.62, -1.89, 6.28, 1.79])
top_logits, top_pos = torch.topk(next_token_logits, 3)
print("Top logits:", top_logits)
print("Top positions:", top_pos)
new_logits = torch.where(condition=next_token_logits < top_logits[-1], input=torch.tensor(float("-inf")), other=next_token_logits)
print(new_logits)
print(torch.softmax(new_logits, dim=0))""",
    """torch.manual_seed(0)
logits = torch.randn(2, 3, 5)
targets = torch.tensor([[1, 2, 3], [0, 4, 1]])
logits_flat = logits.flatten(0, 1)
targets_flat = targets.flatten()
print(logits_flat.shape, targets_flat.shape)
loss = torch.nn.functional.cross_entropy(logits_flat, targets_flat)
print(loss, torch.exp(loss))
torch.nn.functional.cross_entropy(logits, targets)""",
    """torch.manual_seed(0)
logits = torch.randn(2, 5, 3)
targets = torch.tensor([[1, 2, 0], [0, 2, 1]])
print(torch.nn.functional.cross_entropy(logits, targets))""",
    """probs = torch.tensor([0.1, 0.2, 0.7])
torch.manual_seed(0)
print(torch.multinomial(probs, 2), torch.multinomial(probs, 3, replacement=False))
torch.multinomial(probs, 4)""",
    """torch.manual_seed(0)
print(torch.bernoulli(torch.full((5,), 0.5)), torch.normal(torch.zeros(3), torch.ones(3)), torch.normal(2.0, 3.0, size=(2,)))
print(torch.randint(0, 10, (3,)).dtype, torch.randint(5, (2, 2)), torch.randn_like(torch.zeros(2)), torch.rand_like(torch.zeros(2)))""",
    """torch.randn_like(torch.zeros(2, dtype=torch.long))""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
print(m.weight.dtype)
m.double()
print(m.weight.dtype, m(torch.ones(1, 2, dtype=torch.float64)).dtype)
m.to(torch.float16)
print(m.weight.dtype)
m.float()
m(torch.ones(1, 2, dtype=torch.float64))""",
    """x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(torch.gather(x, 1, torch.tensor([[0], [2]])), x.cumsum(1), x.cumprod(0), torch.diff(x))
print(torch.zeros(3).scatter_(0, torch.tensor([0, 2]), torch.tensor([5.0, 6.0])))
print(torch.zeros(3).index_add_(0, torch.tensor([0, 0]), torch.tensor([1.0, 2.0])))""",
    """X = torch.arange(10).reshape((2, 5))
import torch.nn.functional as F
print(F.one_hot(X.T, 28).shape)
def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm
p = torch.ones(3, requires_grad=True)
(p * torch.tensor([3.0, 4.0, 0.0])).sum().backward()
print(grad_clipping([p], 1.0), p.grad)""",
    """def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X
    if valid_lens is None:
        return torch.nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return torch.nn.functional.softmax(X.reshape(shape), dim=-1)
torch.manual_seed(0)
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))""",
    """queries = torch.normal(0, 1, (2, 1, 2))
keys = torch.ones((2, 10, 2))
print(torch.bmm(queries, keys.transpose(1, 2)).shape)
print(torch.repeat_interleave(torch.tensor([1, 2]), 2), torch.tensor([1, 2]).repeat(2), torch.tensor([[1, 2]]).expand(3, 2))""",
    """torch.manual_seed(0)
X = torch.normal(0, 1, (3, 1))
W_xh = torch.normal(0, 1, (1, 4))
H = torch.normal(0, 1, (3, 3))
W_hh = torch.normal(0, 1, (3, 4))
a = torch.matmul(X, W_xh) + torch.matmul(H, W_hh)
b = torch.matmul(torch.cat((X, H), 1), torch.cat((W_xh, W_hh), 0))
print(torch.allclose(a, b), (a - b).abs().max() < 1e-5)""",
    # --- torch.histogram (once missing): a makemore-style look at tanh saturation, its forms and errors
    """x = torch.tensor([1., 2, 1, 4, 2.5])
r = torch.histogram(x, bins=4)
print(r, type(r).__name__, r.hist, r.bin_edges)
print(torch.histogram(x, bins=4, range=(0., 3.)))
print(torch.histogram(x, bins=torch.tensor([0., 1.5, 2., 5.])))
print(torch.histogram(x, bins=3, weight=torch.tensor([1., 2, 3, 4, 5]), density=True))
print(torch.histogram(x, 3, density=True))
print(x.histogram(3))
print(torch.histogram(torch.tensor([2., 2.]), 2))
print(torch.histogram(torch.tensor([]), 2))
print(torch.histogram(torch.tensor([[1., 5.], [3., 7.]]), 2))
print(torch.histogram(torch.tensor([1., 5.], dtype=torch.float64), 2))
for f in [lambda: torch.histogram(torch.tensor([1, 2]), 2), lambda: torch.histogram(x, 0), lambda: torch.histogram(x, 2, range=(3., 1.)),
          lambda: torch.histogram(x, torch.tensor([0., 1.], dtype=torch.float64)), lambda: torch.histogram(x, torch.tensor([[0., 1.]])),
          lambda: torch.histogram(x, 2, range=(0., float('inf'))), lambda: torch.histogram(x, 2, weight=torch.ones(3)),
          lambda: torch.histogram(x, 2, range=(1, 2)), lambda: torch.histogram(torch.tensor([1., float('nan')]), 2),
          lambda: torch.histogram(x, torch.tensor([3., 1., 2.])), lambda: torch.histogram(x, -1), lambda: torch.histogram(x),
          lambda: torch.histogram(x, torch.tensor([1.])), lambda: torch.histogram(x, 2.5), lambda: torch.histogram(x, 2, range=[1]),
          lambda: torch.histogram(x.half(), 2), lambda: torch.histogram(x, 2, weight=torch.ones(5, dtype=torch.float64)),
          lambda: torch.histogram(x, torch.tensor([])), lambda: torch.histogram(x, 2, range=(1, True))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)""",
    """x = torch.ones(3, requires_grad=True)
h = torch.histogram(x, 2)
print(h, h.hist.grad_fn.next_functions, h.bin_edges.requires_grad, h.bin_edges.grad_fn.next_functions)
h.hist.sum().backward()""",
    """x = torch.ones(3)
b = torch.tensor([0., 1, 2], requires_grad=True)
w = torch.ones(3, requires_grad=True)
h = torch.histogram(x, b, weight=w)
print(len(h.hist.grad_fn.next_functions), h.hist.grad_fn.name())
with torch.no_grad():
    print(torch.histogram(x, b, weight=w))""",
    """g = torch.Generator().manual_seed(2147483647)
h = torch.tanh(torch.randn(1000, generator=g) * 2)
hy, hx = torch.histogram(h, bins=50)
print(hy, hx)
print(torch.histogram(h, bins=7, density=True))
print(torch.histogram(h.double(), bins=13, range=(-0.5, 0.5)))""",
    """g = torch.Generator().manual_seed(2147483647)
h = torch.tanh(torch.randn(100, generator=g) * 2)
hy, hx = torch.histogram(h, bins=4)
print(hy, hx)""",
    # --- Zero to Mastery classification (synthetic circles and blobs), UvA's seeding and saving, DataLoader's collate_fn and samplers
    """torch.manual_seed(42)
torch.cuda.manual_seed(42)
torch.cuda.manual_seed_all(42)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.rand(2))""",
    r"""import io
import torch.nn as nn
torch.manual_seed(42)
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
state_dict = model.state_dict()
print(state_dict)
buf = io.BytesIO()
torch.save(state_dict, buf)
buf.seek(0)
state_dict = torch.load(buf)
new_model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
new_model.load_state_dict(state_dict)
print("Original model\n", model.state_dict())
print("\nLoaded model\n", new_model.state_dict())""",
    """import torch.utils.data as data
def numpy_collate(batch):
    return torch.stack([b[0] for b in batch]), torch.tensor([b[1] for b in batch])
ds = [(torch.tensor([float(i), float(-i)]), i % 2) for i in range(5)]
loader = data.DataLoader(ds, batch_size=2, collate_fn=numpy_collate, pin_memory=False)
for xb, yb in loader:
    print(xb, yb)""",
    """import torch.utils.data as data
ds = [(torch.tensor([float(i)]), i % 2) for i in range(5)]
for xb, yb in data.DataLoader(ds, batch_size=2):
    print(xb, yb, yb.dtype)""",
    """import torch.utils.data as data
ds = data.TensorDataset(torch.arange(6.).view(3, 2))
for (xb,) in data.DataLoader(ds, batch_size=2):
    print(xb)
print(ds.tensors[0].shape)""",
    """import torch.utils.data as data
class D(data.Dataset):
    pass
d = D()
len(d)""",
    """import torch.utils.data as data
class D(data.Dataset):
    def __getitem__(self, i):
        return i
d = D()
print(d[3])
print(data.ConcatDataset([data.TensorDataset(torch.ones(2)), data.TensorDataset(torch.zeros(3))])[3])""",
    """import torch.utils.data as data
loader = data.DataLoader(range(5), batch_size=2, shuffle=False)
print(len(loader), loader.batch_size, loader.drop_last, type(loader.sampler).__name__)
loader = data.DataLoader(range(5), batch_size=2, shuffle=True)
print(type(loader.sampler).__name__)""",
    """import torch.utils.data as data
data.DataLoader(range(5), batch_size=0)""",
    """import torch.utils.data as data
data.DataLoader(range(5), sampler=data.SequentialSampler(range(5)), shuffle=True)""",
    """import torch.utils.data as data
print(list(data.BatchSampler(data.SequentialSampler(range(7)), batch_size=3, drop_last=False)))
torch.manual_seed(0)
print(list(data.RandomSampler(range(5))), list(data.SubsetRandomSampler([1, 3, 5])) if hasattr(data, 'SubsetRandomSampler') else None)""",
    r"""import torch.nn as nn
torch.manual_seed(42)
def make_circles(n, noise=0.03):
    t = torch.rand(n) * 2 * torch.pi
    r = torch.where(torch.arange(n) % 2 == 0, 1.0, 0.5)
    X = torch.stack([r * torch.cos(t), r * torch.sin(t)], dim=1)
    X += noise * torch.randn(X.shape)
    y = (torch.arange(n) % 2 == 0).float()
    return X, y
X, y = make_circles(20)
print(X[:5], y[:5])
print(X.shape, y.shape, X.dtype, y.dtype)
class CircleModelV0(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(in_features=2, out_features=5)
        self.layer_2 = nn.Linear(in_features=5, out_features=1)
    def forward(self, x):
        return self.layer_2(self.layer_1(x))
model_0 = CircleModelV0()
print(model_0)
with torch.inference_mode():
    untrained_preds = model_0(X)
print(f"Length of predictions: {len(untrained_preds)}, Shape: {untrained_preds.shape}")
print(f"\nFirst 10 predictions:\n{untrained_preds[:10]}")
print(f"\nFirst 10 test labels:\n{y[:10]}")""",
    """def accuracy_fn(y_true, y_pred):
    correct = torch.eq(y_true, y_pred).sum().item()
    acc = (correct / len(y_pred)) * 100
    return acc
y_logits = torch.tensor([[-0.4], [0.3], [0.1], [-0.2]])
y_pred_probs = torch.sigmoid(y_logits)
print(y_pred_probs)
y_preds = torch.round(y_pred_probs)
y_pred_labels = torch.round(torch.sigmoid(y_logits))
print(torch.eq(y_preds.squeeze(), y_pred_labels.squeeze()))
print(y_preds.squeeze())
print(accuracy_fn(torch.tensor([0., 1., 1., 1.]), y_preds.squeeze()))""",
    """import torch.nn as nn
torch.manual_seed(42)
X = torch.randn(40, 2)
y = (X[:, 0] * X[:, 1] > 0).float()
model_3 = nn.Sequential(nn.Linear(2, 10), nn.ReLU(), nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 1))
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model_3.parameters(), lr=0.1)
for epoch in range(15):
    model_3.train()
    y_logits = model_3(X).squeeze()
    y_pred = torch.round(torch.sigmoid(y_logits))
    loss = loss_fn(y_logits, y)
    acc = torch.eq(y, y_pred).sum().item() / len(y) * 100
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(f"Epoch: {epoch} | Loss: {loss:.5f}, Accuracy: {acc:.2f}%")""",
    """import torch.nn as nn
torch.manual_seed(42)
NUM_CLASSES, NUM_FEATURES = 4, 2
centers = torch.tensor([[2., 2.], [-2., 2.], [-2., -2.], [2., -2.]])
y_blob = torch.randint(0, NUM_CLASSES, (40,))
X_blob = centers[y_blob] + 0.5 * torch.randn(40, NUM_FEATURES)
print(X_blob[:3], y_blob[:5], y_blob.dtype)
class BlobModel(nn.Module):
    def __init__(self, input_features, output_features, hidden_units=8):
        super().__init__()
        self.linear_layer_stack = nn.Sequential(
            nn.Linear(in_features=input_features, out_features=hidden_units),
            nn.Linear(in_features=hidden_units, out_features=hidden_units),
            nn.Linear(in_features=hidden_units, out_features=output_features),
        )
    def forward(self, x):
        return self.linear_layer_stack(x)
model_4 = BlobModel(input_features=NUM_FEATURES, output_features=NUM_CLASSES, hidden_units=8)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model_4.parameters(), lr=0.1)
y_logits = model_4(X_blob[:5])
y_pred_probs = torch.softmax(y_logits, dim=1)
print(y_logits)
print(y_pred_probs)
print(torch.sum(y_pred_probs[0]).round(decimals=3), torch.argmax(y_pred_probs[0]))
for epoch in range(20):
    y_logits = model_4(X_blob)
    y_pred = torch.softmax(y_logits, dim=1).argmax(dim=1)
    loss = loss_fn(y_logits, y_blob)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(f"Epoch: {epoch} | Loss: {loss:.5f}, Acc: {(y_pred == y_blob).float().mean() * 100:.2f}%")""",
    """import torch.nn as nn
loss_fn = nn.CrossEntropyLoss()
loss_fn(torch.randn(4, 3), torch.tensor([0., 1., 2., 0.]).unsqueeze(1))""",
    """import torch.nn as nn
loss_fn = nn.CrossEntropyLoss()
loss_fn(torch.randn(4, 3), torch.tensor([0, 1, 2]))""",
    """import torch.nn as nn
loss_fn = nn.BCEWithLogitsLoss()
loss_fn(torch.randn(4, 1), torch.tensor([0., 1., 1., 0.]))""",
    """import torch.nn as nn
print(nn.BCELoss()(torch.sigmoid(torch.tensor([0.3, -0.2])), torch.tensor([1, 0])))""",
    """import torch.nn as nn
torch.manual_seed(0)
A = torch.arange(-10, 10, 1, dtype=torch.float32)
print(A)
def relu(x):
    return torch.maximum(torch.tensor(0), x)
def sigmoid(x):
    return 1 / (1 + torch.exp(-x))
print(relu(A))
print(sigmoid(A))
print(torch.allclose(sigmoid(A), torch.sigmoid(A)))""",
    """from timeit import default_timer as timer
start = timer()
x = torch.ones(3) * 2
end = timer()
print(isinstance(end - start, float), x)""",
    """x = torch.tensor([0.25, 0.5, 0.75])
print(torch.round(x), x.round(), torch.round(torch.tensor([1.5, 2.5, -0.5])), torch.round(torch.tensor(1.2345), decimals=2))""",
    """x = torch.tensor([[1, 2], [3, 4]])
print(torch.max(x, dim=0), torch.amax(x, dim=0), torch.aminmax(x, dim=1))
print(torch.tensor([0.0, -0.0]).max(), torch.tensor([-0.0, 0.0]).max(dim=0))""",
    # --- utils.data's samplers (SubsetRandomSampler, WeightedRandomSampler, RandomSampler with replacement: once missing) and DataLoader's checks (batch_size=0 was accepted)
    """import torch.utils.data as data
data.DataLoader(range(5), batch_size=2.0)""",
    """import torch.utils.data as data
data.DataLoader(range(5), drop_last=1)""",
    """import torch.utils.data as data
data.DataLoader(range(5), num_workers=-1)""",
    """import torch.utils.data as data
data.DataLoader(range(5), batch_size=None, drop_last=True)""",
    """import torch.utils.data as data
bs = data.BatchSampler(data.SequentialSampler(range(5)), 2, False)
loader = data.DataLoader(range(10, 15), batch_sampler=bs)
print([b.tolist() for b in loader], len(loader), loader.batch_size, loader.drop_last)
data.DataLoader(range(5), batch_sampler=bs, shuffle=True)""",
    """import torch.utils.data as data
loader = data.DataLoader([1.5, 2.5], batch_size=None)
print(list(loader), len(loader))""",
    """import torch.utils.data as data
torch.manual_seed(0)
print(list(data.SubsetRandomSampler([1, 3, 5])), len(data.SubsetRandomSampler([1, 3, 5])))
print(list(data.SubsetRandomSampler(torch.tensor([1, 3, 5]))))
g = torch.Generator().manual_seed(3)
print(list(data.SubsetRandomSampler(range(10, 16), generator=g)))
print(torch.rand(1))""",
    """import torch.utils.data as data
torch.manual_seed(0)
idx = list(range(10))
train_sampler = data.SubsetRandomSampler(idx[:8])
valid_sampler = data.SubsetRandomSampler(idx[8:])
ds = data.TensorDataset(torch.arange(10.), torch.arange(10) % 2)
train_loader = data.DataLoader(ds, batch_size=3, sampler=train_sampler)
valid_loader = data.DataLoader(ds, batch_size=3, sampler=valid_sampler)
for xb, yb in train_loader:
    print(xb, yb)
print([xb.tolist() for xb, _ in valid_loader], len(train_loader))""",
    """import torch.utils.data as data
torch.manual_seed(0)
s = data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, replacement=True)
print(list(s), len(s))
print(list(data.WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False)))
print(torch.rand(1))""",
    """import torch.utils.data as data
torch.manual_seed(0)
labels = torch.tensor([0, 0, 0, 0, 1, 1])
class_counts = torch.bincount(labels)
weights = 1.0 / class_counts[labels].float()
print(weights)
sampler = data.WeightedRandomSampler(weights, num_samples=len(weights), replacement=True)
loader = data.DataLoader(data.TensorDataset(torch.arange(6.), labels), batch_size=3, sampler=sampler)
for xb, yb in loader:
    print(xb, yb)""",
    """import torch.utils.data as data
data.WeightedRandomSampler([1.0, 2.0], 0)""",
    """import torch.utils.data as data
data.WeightedRandomSampler([[1.0, 2.0]], 2)""",
    """import torch.utils.data as data
data.WeightedRandomSampler([1.0, 2.0], 2, replacement=1)""",
    """import torch.utils.data as data
torch.manual_seed(0)
s = data.RandomSampler(range(5), replacement=True, num_samples=40)
print(list(s), len(s))
print(list(data.RandomSampler(range(4), num_samples=10)))
print(torch.rand(1))""",
    """import torch.utils.data as data
data.RandomSampler(range(5), replacement=1)""",
    """import torch.utils.data as data
data.RandomSampler([])""",
    """import torch.utils.data as data
print(issubclass(data.SequentialSampler, data.Sampler), isinstance(data.RandomSampler(range(3)), data.Sampler))""",
    """import torch.utils.data as data
class EvenSampler(data.Sampler):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return iter(range(0, self.n, 2))
    def __len__(self):
        return (self.n + 1) // 2
loader = data.DataLoader(torch.arange(10, 20), batch_size=2, sampler=EvenSampler(10))
print([b.tolist() for b in loader])""",
    """import torch.utils.data as data
print(data.get_worker_info())""",
    """import torch.utils.data as data
data.no_such_thing""",
    # --- d2l's builder's guide (custom layers, file I/O), PyTorch's own learn-by-example polynomial fits, schedulers and optimizers
    """import torch.nn as nn
import torch.nn.functional as F
class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, X):
        return X - X.mean()
layer = CenteredLayer()
print(layer(torch.tensor([1.0, 2, 3, 4, 5])))
net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())
torch.manual_seed(0)
Y = net(torch.rand(4, 8))
print(f"{Y.mean().abs().item() < 1e-6}")
print(net)""",
    """import torch.nn as nn
import torch.nn.functional as F
class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)
torch.manual_seed(0)
linear = MyLinear(5, 3)
print(linear.weight)
print(linear(torch.rand(2, 5)))
print(linear)""",
    """import io
x = torch.arange(4)
buf = io.BytesIO()
torch.save(x, buf)
buf.seek(0)
x2 = torch.load(buf)
print(x2)
y = torch.zeros(4)
buf = io.BytesIO()
torch.save([x, y], buf)
buf.seek(0)
x2, y2 = torch.load(buf)
print((x2, y2))
buf = io.BytesIO()
mydict = {'x': x, 'y': y}
torch.save(mydict, buf)
buf.seek(0)
print(torch.load(buf))""",
    """import io
import torch.nn as nn
import torch.nn.functional as F
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)
    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))
torch.manual_seed(0)
net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
clone = MLP()
clone.load_state_dict(torch.load(buf))
print(clone.eval())
Y_clone = clone(X)
print(Y_clone == Y)""",
    """import torch.nn as nn
class FixedHiddenMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.rand_weight = torch.rand((20, 20), requires_grad=False)
        self.linear = nn.Linear(20, 20)
    def forward(self, X):
        X = self.linear(X)
        X = torch.relu(X @ self.rand_weight + 1)
        X = self.linear(X)
        while X.abs().sum() > 1:
            X /= 2
        return X.sum()
torch.manual_seed(0)
net = FixedHiddenMLP()
print(net(torch.rand(2, 20)))
print([n for n, _ in net.named_parameters()], len(net.state_dict()))""",
    """import torch.nn as nn
class MySequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self.add_module(str(idx), module)
    def forward(self, X):
        for module in self.children():
            X = module(X)
        return X
torch.manual_seed(0)
net = MySequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10))
print(net(torch.rand(2, 20)).shape)
print(net)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for name, cls, kw in [('exp', torch.optim.lr_scheduler.ExponentialLR, {'gamma': 0.9}),
                      ('cos', torch.optim.lr_scheduler.CosineAnnealingLR, {'T_max': 4}),
                      ('multistep', torch.optim.lr_scheduler.MultiStepLR, {'milestones': [1, 3], 'gamma': 0.1})]:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = cls(opt, **kw)
    lrs = []
    for _ in range(5):
        opt.step()
        sched.step()
        lrs.append(round(sched.get_last_lr()[0], 6))
    print(name, lrs)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1)
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98]:
    sched.step(loss)
    print(opt.param_groups[0]['lr'])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=6)
for _ in range(6):
    opt.step()
    sched.step()
    print(round(opt.param_groups[0]['lr'], 5), end=' ')
print()""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda epoch: 0.5 ** epoch)
for _ in range(3):
    opt.step(); sched.step()
print(sched.get_last_lr(), sched.state_dict()['last_epoch'])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
for Opt, kw in [(torch.optim.SGD, dict(lr=0.1, momentum=0.9)), (torch.optim.Adam, dict(lr=0.01)), (torch.optim.AdamW, dict(lr=0.01)), (torch.optim.RMSprop, dict(lr=0.01)), (torch.optim.Adagrad, dict(lr=0.1))]:
    torch.manual_seed(0)
    m = nn.Linear(3, 1)
    opt = Opt(m.parameters(), **kw)
    X = torch.randn(8, 3)
    y = X.sum(1, keepdim=True)
    for _ in range(5):
        loss = ((m(X) - y) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    print(Opt.__name__, f"{loss.item():.4f}")""",
    """import torch.nn as nn
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=0.01, betas=(0.9, 0.999))
print(opt)
opt.add_param_group({'params': nn.Parameter(torch.zeros(2)), 'lr': 0.1})
print(len(opt.param_groups), opt.param_groups[1]['lr'], opt.param_groups[1]['betas'])""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print(m.weight.grad)
opt.zero_grad()
print(m.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
def closure():
    opt.zero_grad()
    loss = m(torch.ones(1, 2)).pow(2).sum()
    loss.backward()
    return loss
print(opt.step(closure))""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = x * y
z.backward(torch.tensor([1.0, 0.5]))
print(x.grad, y.grad)
print(z.is_leaf, z.requires_grad, z.grad_fn.next_functions)""",
    """features = torch.ones(4)
target = torch.tensor([1.0, 0.0])
W = torch.full((4, 2), 0.25, requires_grad=True)
bias = torch.zeros(2, requires_grad=True)
logits = features @ W + bias
loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target)
print("logits come from", logits.grad_fn, "and the loss from", loss.grad_fn)
loss.backward()
print(W.grad, bias.grad, logits.detach().requires_grad)""",
    """m = torch.eye(3, 4, requires_grad=True)
r = (2 * m - 1).pow(3).T
g = torch.full_like(r, 0.5)
r.backward(g, retain_graph=True)
print("once:", m.grad)
r.backward(g, retain_graph=True)
print("twice (accumulated):", m.grad)
m.grad = None
r.backward(g)
print("after resetting:", m.grad)""",
    """import math
torch.manual_seed(1)
grid = torch.linspace(0, math.pi, 100)
target = torch.cos(grid)
p0, p1, p2 = (torch.randn((), requires_grad=True) for _ in range(3))
for it in range(90):
    guess = p0 + p1 * grid + p2 * grid ** 2
    err = ((guess - target) ** 2).mean()
    if it % 30 == 29:
        print(it, f"{err.item():.3f}")
    err.backward()
    with torch.no_grad():
        for p in (p0, p1, p2):
            p -= 5e-3 * p.grad
            p.grad = None
print(f"cos(x) ~ {p0.item():.3f} + {p1.item():.3f} x + {p2.item():.3f} x^2")""",
    """class CubicMinusTwoX(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3 - 2 * t
    @staticmethod
    def backward(ctx, upstream):
        (t,) = ctx.saved_tensors
        return upstream * (3 * t ** 2 - 2)
t = torch.linspace(-2, 2, 5, requires_grad=True)
out = CubicMinusTwoX.apply(t)
print(out, out.grad_fn)
out.sum().backward()
print(t.grad)""",
    """torch.manual_seed(0)
t = torch.linspace(-1, 1, 50)
powers = t.unsqueeze(1) ** torch.tensor([1, 2])
print(powers.shape, powers[:2])
net = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Flatten(0, 1))
crit = torch.nn.MSELoss(reduction='sum')
goal = 3 * t ** 2 - t
for k in range(100):
    loss = crit(net(powers), goal)
    if k % 50 == 49:
        print(k, f"{loss.item():.3f}")
    net.zero_grad()
    loss.backward()
    with torch.no_grad():
        for w in net.parameters():
            w -= 1e-3 * w.grad
print([round(v, 3) for v in net[0].weight.flatten().tolist()], round(net[0].bias.item(), 3))""",
    # --- printing: summarised tensors, print options, small dtypes, f-strings, strides
    """torch.manual_seed(123)
print(torch.rand(1000))""",
    """torch.manual_seed(123)
print(torch.randn(30, 30))""",
    """torch.set_printoptions(linewidth=40)
print(torch.arange(20.))
torch.set_printoptions(linewidth=80)""",
    """torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
torch.set_printoptions(profile='default')
print(torch.arange(10))""",
    """x = torch.tensor([300, -5], dtype=torch.int64)
print(x.to(torch.uint8), x.to(torch.int8), torch.tensor([250], dtype=torch.uint8) + 10)""",
    """print(torch.tensor([0.1, 0.2], dtype=torch.float16) * 3, torch.tensor([65504.0], dtype=torch.float16) * 2)
print(torch.finfo(torch.float16).max, torch.finfo(torch.float32).eps, torch.iinfo(torch.int32).max)""",
    """x = torch.tensor(3.14159)
print(f"{x}", f"{x:.2f}", str(x), repr(x), format(x.item(), '.3f'))""",
    """x = torch.tensor([3.14159, 2.0])
print(f"{x:.2f}")""",
    """print(torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([True]), torch.tensor([1.0], dtype=torch.float64), torch.tensor(2, dtype=torch.int16))""",
    """print(torch.empty(2, 3).shape, torch.full((2, 2), 7), torch.full((2,), 7.0).dtype, torch.full((2,), True))""",
    """x = torch.arange(12).reshape(3, 4)
print(x.stride(), x.T.stride(), x.T.is_contiguous(), x.T.contiguous().stride(), x.storage_offset(), x[1].storage_offset())""",
    """x = torch.ones(3, 4)
print(x.type(), x.long().type(), x.is_floating_point(), torch.is_tensor(x), torch.numel(x))""",
    """x = torch.randn(3)
print(type(x), x.__class__.__name__, type(x.shape), type(x.shape[0]), x.shape == (3,), x.shape == torch.Size([3]))""",
    """x = torch.zeros(2, 3)
print(x.new_ones(2), x.new_zeros((1, 2)), x.new_tensor([1, 2]), x.new_full((2,), 3.0), x.new_empty(0).shape)""",
    # --- micrograd's check against torch in double, makemore's manual backprop compared exactly and approximately, activation statistics
    """a = torch.Tensor([1.5]).double(); a.requires_grad = True
b = torch.Tensor([-0.5]).double(); b.requires_grad = True
wa = torch.Tensor([-2.0]).double(); wa.requires_grad = True
wb = torch.Tensor([0.75]).double(); wb.requires_grad = True
c = torch.Tensor([2.25]).double(); c.requires_grad = True
act = torch.tanh(a * wa + b * wb + c)
print(act.data.item(), act.dtype)
act.backward()
for name, leaf in [('a', a), ('b', b), ('wa', wa), ('wb', wb), ('c', c)]:
    print(name, leaf.grad.item())""",
    """import torch.nn.functional as F
g = torch.Generator().manual_seed(2147483647)
n_embd, n_hidden, vocab_size, block_size, batch = 4, 16, 7, 3, 8
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5/3)/((n_embd * block_size)**0.5)
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
b2 = torch.randn(vocab_size, generator=g) * 0.1
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
Xb = torch.randint(0, vocab_size, (batch, block_size), generator=g)
Yb = torch.randint(0, vocab_size, (batch,), generator=g)
emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
h = torch.tanh(hprebn)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum**-1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(batch), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h, hprebn, embcat, emb]:
    t.retain_grad()
loss.backward()
print(f"{loss.item():.4f}")
def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    print(f'{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s}')
dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(batch), Yb] = -1.0/batch
cmp('logprobs', dlogprobs, logprobs)
dprobs = (1.0 / probs) * dlogprobs
cmp('probs', dprobs, probs)
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
cmp('counts_sum_inv', dcounts_sum_inv, counts_sum_inv)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum**-2) * dcounts_sum_inv
cmp('counts_sum', dcounts_sum, counts_sum)
dcounts += torch.ones_like(counts) * dcounts_sum
cmp('counts', dcounts, counts)
dnorm_logits = counts * dcounts
cmp('norm_logits', dnorm_logits, norm_logits)
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
cmp('logit_maxes', dlogit_maxes, logit_maxes)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
cmp('logits', dlogits, logits)
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
cmp('h', dh, h)
cmp('W2', dW2, W2)
cmp('b2', db2, b2)
dhprebn = (1.0 - h**2) * dh
cmp('hprebn', dhprebn, hprebn)
dembcat = dhprebn @ W1.T
cmp('embcat', dembcat, embcat)
demb = dembcat.view(emb.shape)
cmp('emb', demb, emb)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        dC[Xb[k, j]] += demb[k, j]
cmp('C', dC, C)""",
    """import torch.nn.functional as F
g = torch.Generator().manual_seed(42)
logits = torch.randn(5, 6, generator=g, requires_grad=True)
Yb = torch.tensor([0, 3, 5, 1, 2])
loss_fast = F.cross_entropy(logits, Yb)
loss_fast.backward()
dlogits = F.softmax(logits, 1)
dlogits[range(5), Yb] -= 1
dlogits /= 5
print(f"{loss_fast.item():.6f}", (dlogits - logits.grad).abs().max().item() < 1e-7)
print(F.softmax(logits, 1)[0], dlogits[0] * 5)""",
    """g = torch.Generator().manual_seed(0)
x = torch.randn(10, 4, generator=g)
print(x.mean(0, keepdim=True), x.var(0, keepdim=True, unbiased=True), x.std(0))
xhat = (x - x.mean(0, keepdim=True)) / torch.sqrt(x.var(0, keepdim=True, unbiased=False) + 1e-5)
print(f"{xhat.mean().abs().item() < 1e-6}", xhat.std(0, unbiased=False))""",
    """class Linear:
    def __init__(self, fan_in, fan_out, bias=True, g=None):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in**0.5
        self.bias = torch.zeros(fan_out) if bias else None
    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out
    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])
class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out
    def parameters(self):
        return []
g = torch.Generator().manual_seed(2147483647)
layers = [Linear(10, 20, g=g), Tanh(), Linear(20, 20, g=g), Tanh(), Linear(20, 5, g=g)]
with torch.no_grad():
    layers[-1].weight *= 0.1
    for layer in layers[:-1]:
        if isinstance(layer, Linear):
            layer.weight *= 5/3
parameters = [p for layer in layers for p in layer.parameters()]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
x = torch.randn(32, 10, generator=g)
for layer in layers:
    x = layer(x)
for i, layer in enumerate(layers[:-1]):
    if isinstance(layer, Tanh):
        t = layer.out
        print('layer %d (%10s): mean %+.2f, std %.2f, saturated: %.2f%%' % (i, layer.__class__.__name__, t.mean(), t.std(), (t.abs() > 0.97).float().mean()*100))""",
    """g = torch.Generator().manual_seed(1)
w = torch.randn(4, 3, generator=g, requires_grad=True)
x = torch.randn(6, 4, generator=g)
loss = (x @ w).tanh().pow(2).mean()
loss.backward()
lr = 0.1
ud = [((lr * p.grad).std() / p.data.std()).log10().item() for p in [w]]
print([f"{v:.3f}" for v in ud])
print(f"{w.grad.std().item():.5f}", w.grad.shape, tuple(w.shape))""",
    # --- module API the courses lean on: forward hooks for activation stats, freezing, deepcopy, extra_repr, buffers and parameters
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))
stats = {}
def hook(name):
    def fn(module, inp, out):
        stats[name] = (round(out.mean().item(), 4), round(out.std().item(), 4), round((out.abs() > 0.97).float().mean().item(), 4))
    return fn
handles = [m.register_forward_hook(hook(n)) for n, m in model.named_modules() if isinstance(m, nn.Tanh)]
model(torch.randn(16, 4))
print(stats)
for h in handles:
    h.remove()
stats.clear()
model(torch.randn(16, 4))
print(stats)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
for p in model[0].parameters():
    p.requires_grad = False
print([(n, p.requires_grad) for n, p in model.named_parameters()])
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]['params']))
model(torch.randn(3, 4)).sum().backward()
print(model[0].weight.grad, model[2].bias.grad)
model.requires_grad_(False)
print(any(p.requires_grad for p in model.parameters()))""",
    """import copy
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 2)
clone = copy.deepcopy(model)
with torch.no_grad():
    clone.weight.add_(1.0)
print(torch.equal(model.weight, clone.weight), clone.weight.requires_grad, type(clone.weight).__name__)
print(clone.weight.is_leaf)""",
    """import torch.nn as nn
class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
    def forward(self, x):
        return x * self.factor
    def extra_repr(self):
        return f"factor={self.factor}"
print(Scale(3), nn.Sequential(Scale(2), nn.ReLU()))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
print(list(model.named_children()))
print(model.get_parameter('0.bias'), model.get_submodule('1'))
print(dict(model.named_buffers()), model.state_dict().keys())""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 3)
model.half()
print(model.weight.dtype)
model(torch.ones(1, 2))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 3)
print(model.weight.T.shape, model.weight.t().is_contiguous(), model.weight.mT.shape)
x = torch.randn(4, 2)
print(torch.allclose(model(x), x @ model.weight.T + model.bias))
print(torch.nn.functional.linear(x, model.weight, model.bias).shape)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 1)
m.register_forward_pre_hook(lambda mod, args: print('pre', args[0].shape))
m(torch.ones(2, 3))
print(m._forward_pre_hooks.__class__.__name__, len(m._forward_pre_hooks))""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 1)
x = torch.randn(2, 3, requires_grad=True)
h = x.register_hook(lambda g: print('grad of x', g))
m(x).sum().backward()
h.remove()
x.grad = None
m(x).sum().backward()
print(x.grad)""",
    """import torch.nn as nn
model = nn.Linear(2, 2)
model.zero_grad(set_to_none=True)
print(model.weight.grad)
print(model.training, model.eval().training)
print(nn.Linear(2, 2, bias=False), nn.Linear(2, 2, bias=False).bias)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.foo = torch.ones(1)
print('foo' in dict(m.named_buffers()), m.foo)
m.register_buffer('bar', torch.zeros(1), persistent=False)
print(list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
m.register_buffer('bar', torch.ones(1))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.register_buffer('weight', torch.ones(1))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.register_parameter('extra', nn.Parameter(torch.ones(2)))
print([n for n, _ in m.named_parameters()])
m.register_parameter('extra2', torch.ones(2))""",
    # --- data from NumPy: datasets of arrays and NumPy scalars (np.int32 was collated as int64), checkpoints of model and optimizer
    """import numpy as np
import torch.utils.data as data
X = np.arange(12, dtype=np.float32).reshape(6, 2)
y = np.array([0, 1, 0, 1, 1, 0])
ds = list(zip(X, y))
for xb, yb in data.DataLoader(ds, batch_size=4):
    print(xb, yb)""",
    """import numpy as np
import torch.utils.data as data
ds = [(np.float64(1.5), 'a'), (np.float64(2.5), 'b')]
print(next(iter(data.DataLoader(ds, batch_size=2))))
print(next(iter(data.DataLoader([np.int32(3), np.int32(4)], batch_size=2))))""",
    """import torch.utils.data as data
print(data.default_collate([torch.tensor(1.0), torch.tensor(2.0)]), data.default_collate([(1, 2.0), (3, 4.0)]))
print(data.default_collate([{'a': 1}, {'a': 2}]))""",
    """import torch.utils.data as data
data.default_collate([torch.ones(2), torch.ones(3)])""",
    """import io
import torch.nn as nn
buf = io.BytesIO()
torch.save({'epoch': 3, 'model': nn.Linear(1, 1).state_dict(), 'loss': 0.25}, buf)
buf.seek(0)
ckpt = torch.load(buf, map_location='cpu')
print(ckpt['epoch'], ckpt['loss'], list(ckpt['model'].keys()))""",
    """import io
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model(torch.ones(1, 2)).sum().backward()
opt.step()
buf = io.BytesIO()
torch.save({'model_state_dict': model.state_dict(), 'optimizer_state_dict': opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
model2 = nn.Linear(2, 1)
opt2 = torch.optim.Adam(model2.parameters(), lr=0.01)
model2.load_state_dict(ck['model_state_dict'])
opt2.load_state_dict(ck['optimizer_state_dict'])
print(opt2.state_dict()['state'][0]['step'], opt2.state_dict()['state'][0]['exp_avg'])
print(opt2.param_groups[0]['lr'])""",
    """import numpy as np
a = np.array([1.0, 2.0])
t = torch.tensor(a)
print(t.dtype, torch.from_numpy(a).dtype, torch.as_tensor(a).dtype, torch.tensor(a, dtype=torch.float32).dtype)
print(torch.tensor(np.float32(2.5)), torch.tensor([np.int64(1), np.int64(2)]))""",
    """import numpy as np
t = torch.ones(2) + np.ones(2)
print(t, type(t))
print(np.ones(2) + torch.ones(2))""",
    """import numpy as np
x = torch.tensor([1.0, 2.0])
print(np.array(x), np.asarray(x).dtype, x.numpy().tolist(), np.mean(x.numpy()))
print(torch.tensor(np.array([[1, 2], [3, 4]])).T)""",
    """import numpy as np
x = np.arange(6).reshape(2, 3)[:, ::2]
print(torch.from_numpy(x))
print(torch.from_numpy(np.arange(3)[::-1]))""",
    # --- everyday ops and derivatives the chapters print: reductions, activations and their gradients, views, slicing
    """x = torch.arange(6.).reshape(2, 3)
print(x.sum(dim=(0, 1)), x.mean(dim=-1), x.prod(1), x.norm(dim=1), x.max(), x.argmax(), x.argmax(dim=0))
print(x.exp().log(), x.sqrt(), x.abs().neg(), x.sign(), x.pow(0.5), x ** -1)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.pow(2).sum(dim=1).sqrt().mean()
y.backward()
print(y, x.grad)""",
    """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.stack([x.sum(), (x ** 2).sum()])
jac = torch.stack([torch.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(2)])
print(jac)""",
    """x = torch.tensor([0.5, 1.0], requires_grad=True)
y = torch.sin(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
g2, = torch.autograd.grad(g.sum(), x)
print(g, g2, -torch.sin(x))""",
    """x = torch.linspace(-2, 2, 5, requires_grad=True)
sp = torch.nn.functional.softplus(x)
sp.sum().backward()
print(sp, x.grad, torch.sigmoid(x))""",
    """x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
for f in [torch.relu, torch.nn.functional.elu, torch.nn.functional.silu, torch.nn.functional.leaky_relu, torch.nn.functional.mish, torch.nn.functional.hardtanh, torch.nn.functional.relu6, torch.nn.functional.selu]:
    x.grad = None
    f(x).sum().backward()
    print(f.__name__, x.grad)""",
    """import torch.nn as nn
print(nn.ReLU(), nn.LeakyReLU(0.2), nn.ELU(), nn.Sigmoid(), nn.Tanh(), nn.Softplus(beta=2), nn.PReLU(), nn.SiLU(), nn.Identity())
torch.manual_seed(0)
print(nn.PReLU()(torch.tensor([-1.0, 2.0])))""",
    """x = torch.tensor([[1.0, 2.0, 3.0]])
print(torch.nn.functional.normalize(x), torch.nn.functional.normalize(x, p=1, dim=1), torch.nn.functional.cosine_similarity(x, x * 2))
print(torch.cdist(x, x + 1), torch.nn.functional.pairwise_distance(x, x + 1))""",
    """torch.manual_seed(0)
a = torch.randn(4)
b = a.clone()
print(a is b, torch.equal(a, b), a.data_ptr() == b.data_ptr())
c = a.view(2, 2)
c[0, 0] = 100
print(a[0].item(), c._base is a)""",
    """x = torch.arange(10)
print(x[::2], x[1::3], x[-3:], x[torch.tensor([0, -1])], x.chunk(3), x.split(4), x.split([3, 7]))
x[::-1]""",
    """x = torch.arange(12).view(3, 4)
print(x.flip(0), torch.fliplr(x), x.roll(1, 1), x.narrow(1, 1, 2), x.unbind(0)[0], x.tril(), x.triu(1))""",
    """x = torch.arange(6).view(2, 3)
print(x.repeat(2, 1), x.expand(2, 2, 3).shape, x.unsqueeze(0).expand(4, -1, -1).shape, x.tile((1, 2)))
x.expand(3, 3)""",
    # --- d2l's data preprocessing without pandas: arrays torch reads and one it cannot (object)
    """import numpy as np
x = np.array([1, 2, 3], dtype=object)
torch.tensor(x)""",
    """import numpy as np
rows = np.array([[np.nan, 127500.0], [2.0, 106000.0], [4.0, 178100.0]])
col = rows[:, 0]
rows[:, 0] = np.where(np.isnan(col), np.nanmean(col), col)
X = torch.tensor(rows[:, :1])
y = torch.tensor(rows[:, 1])
print(X, y, X.dtype, torch.tensor(np.array([True, False])), torch.tensor(np.array(['1.5']).astype(float)))""",
]

_DISTRIBUTIONS = ("torch.distributions is left out on purpose: minigrad gives its clear "
                  "left-out error (draw with rand, randn, randint, multinomial or Tensor.normal_)")

KNOWN: dict[str, str] = {
    """import torch.distributions as dist
print(dist)""": _DISTRIBUTIONS,
    """from torch.distributions import multinomial
fair_probs = torch.ones([6]) / 6
print(multinomial.Multinomial(1, fair_probs).sample().shape)""": _DISTRIBUTIONS,
    """torch.manual_seed(0)
d = torch.distributions.Normal(torch.tensor(0.0), torch.tensor(1.0))
print(d.sample())""": _DISTRIBUTIONS,
    """x = torch.tensor([1.0, 2.0], dtype=torch.bfloat16)
print(x, x.dtype, x.element_size())""":
        "bfloat16 is left out on purpose (NumPy has no bfloat16): the clear left-out error",
    """from torch.utils.data import IterableDataset
print(IterableDataset)""":
        "iterable-style datasets are left out on purpose: minigrad's loader reads map-style "
        "datasets; the import gets the clear left-out error",
    """import torch.nn as nn
x = torch.linspace(-3, 3, 7)
print(nn.GELU()(x))""":
        "float32 GELU of a contiguous tensor of more than one element runs oneDNN's JIT kernel in "
        "torch, whose own erf and exp approximations put GELU(-3) at -0.00405023 (the exact value "
        "is -0.00404969, minigrad's): beyond control, it shows in the 4th decimal",
}

# training loops: float32 matrix products and sums whose last bits depend on the CPU's kernels;
# GELU runs oneDNN's kernel, which depends on the CPU too
KERNEL_DEPENDENT = {code for code in [*PROBES, *KNOWN]
                    if ("optim." in code and ".backward()" in code) or "GELU()(x))" in code}
