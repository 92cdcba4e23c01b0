"""The parts of torch that minigrad leaves out on purpose, and the one error that says so.

minigrad covers what the course teaches. A learner who reaches for something beyond it
(``minigrad.nn.Conv2d``, ``minigrad.utils.checkpoint``, ``minigrad.func``) gets an
AttributeError that names the torch feature, says minigrad does not implement it, and says
what to use instead, not Python's bare "has no attribute" or a failure deep inside. Any other
unknown name gets the wording torch uses for a missing attribute of a module.

Each package of minigrad hands its unknown names here from its module ``__getattr__`` (PEP 562),
which Python calls only for names the package does not define.
"""

_EAGER = "minigrad only runs eagerly; call the function or module directly"
_LAYER = ("minigrad.nn has the layers the course uses (Linear, ReLU, Tanh, Sigmoid, Softmax, "
          "LogSoftmax, Sequential, MSELoss, CrossEntropyLoss, BCEWithLogitsLoss); build others "
          "from tensor operations, or run this code with torch")
_FUNCTION = ("minigrad.nn.functional has linear, relu, tanh, sigmoid, softmax, log_softmax, "
             "mse_loss, nll_loss, cross_entropy and binary_cross_entropy_with_logits; build "
             "others from tensor operations, or run this code with torch")

# package -> {name: what to use instead}
LEFT_OUT = {
    "minigrad": {
        "func": "functorch transforms (grad, vjp, jacrev, vmap...); use minigrad.autograd.grad "
                "or minigrad.autograd.functional (vjp, jvp, jacobian, hessian, hvp, vhp) instead",
        "vmap": "functorch's batching transform; loop over the batch, or use "
                "minigrad.autograd.functional.jacobian for Jacobians",
        "compile": _EAGER,
        "jit": "TorchScript tracing and scripting; " + _EAGER,
        "linalg": "use minigrad.matmul, minigrad.outer, Tensor.norm and minigrad.einsum, or run "
                  "this code with torch",
        "fft": "minigrad has no Fourier transforms; run this code with torch",
        "special": "use the tensor functions minigrad has (exp, log, sigmoid, tanh, ...)",
        "distributions": "draw numbers with minigrad.rand, randn, randint or Tensor.normal_, which "
                         "give torch's numbers after the same manual_seed",
        "sparse_coo_tensor": "minigrad has dense tensors only",
        "bfloat16": "NumPy has no bfloat16; use minigrad.float16 or minigrad.float32",
        "complex64": "the course differentiates real functions; use minigrad.float32",
        "complex128": "the course differentiates real functions; use minigrad.float64",
    },
    "minigrad.utils": {
        "checkpoint": "lesson 14 builds checkpointing by hand with a custom "
                      "minigrad.autograd.Function",
    },
    "minigrad.nn": dict.fromkeys(
        ["Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm",
         "Dropout", "Embedding", "RNN", "LSTM", "GRU", "Flatten", "Identity", "GELU",
         "LeakyReLU", "ELU", "SiLU", "Softplus", "NLLLoss", "L1Loss", "BCELoss",
         "HuberLoss", "SmoothL1Loss"], _LAYER),
    "minigrad.nn.functional": dict.fromkeys(
        ["conv1d", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "layer_norm", "dropout",
         "embedding", "one_hot", "gelu", "leaky_relu", "elu", "silu", "softplus", "l1_loss",
         "binary_cross_entropy", "huber_loss",
         "smooth_l1_loss", "normalize", "pad"], _FUNCTION),
}


def missing(package: str, name: str) -> AttributeError:
    """The error for ``package.name``, a name the package does not define."""
    hint = LEFT_OUT.get(package, {}).get(name)
    if hint is not None:
        torch_name = "torch" + package[len("minigrad"):] + "." + name
        return AttributeError(f"minigrad does not implement {torch_name}: {hint}")
    return AttributeError(f"module '{package}' has no attribute '{name}'")
