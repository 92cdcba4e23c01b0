"""``torch.backends``: switches for the libraries torch can compute with (cuDNN, MPS, MKL...).

minigrad computes with NumPy on the CPU, so none of them changes what it computes. Each
submodule answers as a CPU-only torch does (``cudnn.is_available()`` is False, the flags keep
the values they are given), so reproducibility boilerplate such as
``torch.backends.cudnn.deterministic = True`` runs unchanged.
"""

from minigrad.backends import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp  # noqa: F401
