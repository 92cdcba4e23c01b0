"""The parts of torch that minigrad leaves out on purpose, and the one error that says so.

minigrad covers what the course teaches. A learner who reaches for something beyond it
(``minigrad.nn.Conv2d``, ``minigrad.fft``, ``minigrad.jit``) gets an
AttributeError that names the torch feature, says minigrad does not implement it, and says
what to use instead, not Python's bare "has no attribute" or a failure deep inside. ``LEFT_OUT``
holds the names with advice of their own (for ``minigrad.nn``'s and ``minigrad.nn.functional``'s,
the list of what the package has, read from it when the error is raised); every other name
torch has and minigrad does not (``_torch_names.NAMES``, generated from torch) gets the same
error with a general hint, and ``import minigrad.fx`` too (``TorchNameFinder``). Any other
unknown name, one torch does not have either, gets the wording torch uses for a missing
attribute of a module.

Each package of minigrad hands its unknown names here from its module ``__getattr__`` (PEP 562),
which Python calls only for names the package does not define.
"""

import dis
import importlib
import sys
import textwrap

from minigrad._torch_names import NAMES

_EAGER = "minigrad only runs eagerly; call the function or module directly"


# the files of minigrad/nn/modules/ (torch's names), in the order the list names their kinds
_KINDS = {"linear": "linear", "activation": "activations", "loss": "losses",
          "distance": "distances", "normalization": "normalization", "dropout": "dropout",
          "sparse": "embedding", "flatten": "shape", "padding": "padding",
          "container": "containers"}


def _layers() -> str:
    """The advice for a layer minigrad.nn leaves out: the layers it has (every public ``Module``
    subclass but ``Module`` itself), read from the package when the error is raised, so the list
    cannot fall behind it, grouped by the file that defines them."""
    nn = importlib.import_module("minigrad.nn")
    groups: dict[str, list[str]] = {}
    for name, obj in sorted(vars(nn).items(), key=lambda item: item[0].lower()):
        if (not name.startswith("_") and isinstance(obj, type) and issubclass(obj, nn.Module)
                and obj is not nn.Module):
            groups.setdefault(obj.__module__.rpartition(".")[2], []).append(name)
    files = [*(file for file in _KINDS if file in groups), *sorted(groups.keys() - _KINDS.keys())]
    return ("minigrad.nn has these layers (build others from tensor operations, or run this "
            "code with torch):\n" + "\n".join(
                _wrap(f"{_KINDS.get(file, file)}: {', '.join(groups[file])}") for file in files))


def _functions() -> str:
    """The advice for a function minigrad.nn.functional leaves out: the functions it has (every
    public name but its modules), read from the module when the error is raised, as
    ``_layers``."""
    functional = importlib.import_module("minigrad.nn.functional")
    names = sorted((name for name, obj in vars(functional).items()
                    if not name.startswith("_") and callable(obj)), key=str.lower)
    return ("minigrad.nn.functional has these functions (build others from tensor operations, "
            "or run this code with torch):\n" + _wrap(", ".join(names)))


def _wrap(text: str) -> str:
    """``text`` as indented lines short enough to read in a notebook's output."""
    return textwrap.fill(text, width=92, initial_indent="  ", subsequent_indent="    ",
                         break_long_words=False, break_on_hyphens=False)


# package -> {name: what to use instead, or a function that writes it when the error is raised}
LEFT_OUT = {
    "minigrad": {
        "compile": _EAGER,
        "jit": "TorchScript tracing and scripting; " + _EAGER,
        "fx": "graph capture and transformation (symbolic_trace, make_fx); " + _EAGER,
        "ops": "torch's dispatcher registry of ATen operators (torch.ops.aten.mm...); call "
               "minigrad's functions (minigrad.mm...) directly",
        "overrides": "the tools of the __torch_function__ protocol; minigrad calls no "
                     "__torch_function__ handlers (a subclass of minigrad.Tensor keeps its type "
                     "through operations, as torch's default handler gives); run this code with "
                     "torch",
        "fft": "minigrad has no Fourier transforms; run this code with torch",
        "distributions": "draw numbers with minigrad.rand, randn, randint or Tensor.normal_, which "
                         "give torch's numbers after the same manual_seed",
        "sparse_coo_tensor": "minigrad has dense tensors only",
        "bfloat16": "NumPy has no bfloat16; use minigrad.float16 or minigrad.float32",
        "complex64": "the course differentiates real functions; use minigrad.float32",
        "complex128": "the course differentiates real functions; use minigrad.float64",
    },
    "minigrad.special": dict.fromkeys(
        ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
         "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
         "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
         "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
         "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
         "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
         "laguerre_polynomial_l", "legendre_polynomial_p", "gammainc", "gammaincc", "erfcx"],
        "minigrad.special has expit, logit, erf, erfc, erfinv, xlogy, xlog1py, expm1, exp2, "
        "log1p, logsumexp, softmax, log_softmax, gammaln, digamma, psi, polygamma, "
        "multigammaln, sinc, ndtr, ndtri, log_ndtr, i0, i0e, i1, i1e, round, entr and zeta; "
        "or run this code with torch"),
    "minigrad.nn": dict.fromkeys(
        ["Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d",
         "RNN", "LSTM", "GRU"], _layers),
    "minigrad.nn.utils": dict.fromkeys(
        ["rnn", "weight_norm", "spectral_norm", "parametrize", "parametrizations",
         "fusion", "stateless"],
        "minigrad.nn.utils has clip_grad_norm_, clip_grad_value_, get_total_norm, "
        "parameters_to_vector and vector_to_parameters (for a stateless call: "
        "minigrad.func.functional_call); or run this code with torch"),
    "minigrad.autograd.profiler": {
        "emit_itt": "minigrad's profiler keeps its events itself (profile, record_function); "
                    "it emits no Intel ITT ranges for VTune",
        "emit_nvtx": "NVTX ranges are for NVIDIA's profilers, and need a GPU, which minigrad "
                     "never uses; use minigrad.autograd.profiler.profile",
    },
    "minigrad.utils.checkpoint": dict.fromkeys(
        ["create_selective_checkpoint_contexts", "CheckpointPolicy",
         "SelectiveCheckpointContext"],
        "selective checkpointing chooses what to save per ATen operator, through torch's "
        "dispatcher (a TorchDispatchMode); minigrad.utils.checkpoint.checkpoint recomputes "
        "the whole function, or run this code with torch"),
    "minigrad.utils.data": dict.fromkeys(
        ["IterableDataset", "ChainDataset", "StackDataset", "DistributedSampler",
         "IterDataPipe", "MapDataPipe", "DFIterDataPipe", "DataChunk", "functional_datapipe",
         "guaranteed_datapipes_determinism", "non_deterministic", "runtime_validation",
         "runtime_validation_disabled", "argument_validation"],
        "minigrad.utils.data has map-style datasets only (Dataset, TensorDataset, Subset, "
        "ConcatDataset, random_split), the samplers (Sampler, SequentialSampler, "
        "RandomSampler, SubsetRandomSampler, WeightedRandomSampler, BatchSampler) and "
        "DataLoader, which reads every batch in the main process; or run this code with "
        "torch"),
    "minigrad.optim": {
        "SparseAdam": "minigrad has dense tensors only (no sparse gradients); use "
                      "minigrad.optim.Adam, or run this code with torch",
    },
    "minigrad.linalg": dict.fromkeys(
        ["svd", "svdvals", "eig", "eigh", "eigvals", "eigvalsh", "qr", "cholesky", "cholesky_ex",
         "lstsq", "pinv", "matrix_rank", "matrix_exp", "cond", "lu", "lu_factor",
         "lu_factor_ex", "lu_solve", "ldl_factor", "ldl_factor_ex", "ldl_solve",
         "householder_product", "tensorinv", "tensorsolve", "solve_triangular"],
        "minigrad.linalg has vector_norm, matrix_norm, norm, det, slogdet, inv, inv_ex, solve, "
        "solve_ex, cross, vecdot, matmul, multi_dot, matrix_power, diagonal, vander and "
        "LinAlgError "
        "(no SVD, eigen-, QR, Cholesky or LU decomposition of its own); run this code with "
        "torch"),
    "minigrad.utils.benchmark": dict.fromkeys(
        ["Fuzzer", "FuzzedParameter", "FuzzedTensor", "FuzzedSparseTensor", "ParameterAlias",
         "CallgrindStats", "FunctionCount", "FunctionCounts", "CopyIfCallgrind"],
        "minigrad.utils.benchmark has Timer, Measurement, TaskSpec and Compare (no fuzzed "
        "inputs, no Callgrind instruction counts); run this code with torch"),
    "minigrad.utils.benchmark.utils": dict.fromkeys(
        ["fuzzer", "sparse_fuzzer", "valgrind_wrapper", "cpp_jit"],
        "minigrad.utils.benchmark.utils has common, timer and compare (no fuzzers, Callgrind "
        "or C++ timing); run this code with torch"),
    "minigrad.nn.functional": dict.fromkeys(
        ["conv1d", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm"], _functions),
    "minigrad.func": {
        "functionalize": "it removes mutations for graph compilers; " + _EAGER,
        "debug_unwrap": "minigrad's transforms do not wrap tensors in levels of their own "
                        "(a tensor inside grad is the tensor itself)",
        "rearrange": "einops-style patterns; use permute, reshape and flatten",
    },
}


_ELSEWHERE = ("minigrad implements what PyTorch's autograd tutorials and documentation use, "
              "and leaves the rest of torch out; run this code with torch")


def _hint(package: str, name: str) -> str | None:
    """What to say about ``package.name`` if torch has it: its own advice, or the general one."""
    hint = LEFT_OUT.get(package, {}).get(name)
    if callable(hint):
        hint = hint()
    if hint is None and name in NAMES.get(package, ()):
        hint = _ELSEWHERE
    return hint


def missing(package: str, name: str) -> AttributeError | ImportError:
    """The error for ``package.name``, a name the package does not define (called from the
    package's ``__getattr__``)."""
    hint = _hint(package, name)
    if hint is not None:
        torch_name = "torch" + package[len("minigrad"):] + "." + name
        message = f"minigrad does not implement {torch_name}: {hint}"
        # ``from minigrad.nn.functional import conv2d``: Python turns an AttributeError into
        # its own "cannot import name"; an ImportError keeps the message
        return ImportError(message) if _from_import(sys._getframe(2)) else AttributeError(
            message)
    return AttributeError(f"module '{package}' has no attribute '{name}'")


def missing_tensor_attribute(self, name: str):
    """``Tensor.__getattr__``, which Python calls only for a name the tensor does not have:
    torch's methods minigrad leaves out (``x.stft``) say so, as a module's names do; any
    other name gets Python's (and torch's) message."""
    hint = _hint("minigrad.Tensor", name)
    if hint is not None:
        raise AttributeError(f"minigrad does not implement torch.Tensor.{name}: {hint}")
    raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def _from_import(frame) -> bool:
    """Whether ``frame`` is executing a ``from module import name`` statement."""
    try:
        return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM
    except (AttributeError, IndexError, TypeError):
        return False


class LeftOutFinder:
    """``import minigrad.jit`` and ``from minigrad.nn import Conv2d`` end in Python's import
    machinery, not in a module ``__getattr__``: Python would say "No module named
    'minigrad.jit'" or "cannot import name 'Conv2d'". This finder, first on ``sys.meta_path``,
    answers those names (and only those) with the same message as ``missing``, as a
    ``ModuleNotFoundError`` (an ``ImportError``, what an import statement raises)."""

    def find_spec(self, fullname: str, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if name in LEFT_OUT.get(package, ()):
            # a name other than ``fullname``: Python's ``from package import name`` swallows a
            # ModuleNotFoundError for exactly that module and would print its own words
            raise ModuleNotFoundError(str(missing(package, name).args[0]),
                                      name=f"{fullname} (left out)")
        return None


class TorchNameFinder:
    """``import minigrad.fx`` for a module torch has and minigrad leaves out: last on
    ``sys.meta_path``, so it is asked only once no other finder found the module; the same
    error as ``missing``'s, as a ``ModuleNotFoundError``."""

    def find_spec(self, fullname: str, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package.startswith("minigrad") and name in NAMES.get(package, ()):
            raise ModuleNotFoundError(f"minigrad does not implement torch{fullname[8:]}: "
                                      f"{_ELSEWHERE}", name=f"{fullname} (left out)")
        return None


if not any(isinstance(finder, LeftOutFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, LeftOutFinder())
if not any(isinstance(finder, TorchNameFinder) for finder in sys.meta_path):
    sys.meta_path.append(TorchNameFinder())
