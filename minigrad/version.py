"""``torch.version``: what this build is. minigrad's own version; no CUDA, no ROCm."""

__version__ = "0.1.0"
cuda = None
hip = None
debug = False
