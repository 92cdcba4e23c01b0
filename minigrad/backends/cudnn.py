"""``torch.backends.cudnn`` in a CPU-only torch: no cuDNN; the flags keep their values."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    return False


def version():
    return None
