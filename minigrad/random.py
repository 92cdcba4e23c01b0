"""``torch.random``: the default generator's seed and state (the same functions as
``minigrad.manual_seed`` and friends, where torch also keeps them), and ``fork_rng``."""

import contextlib

from minigrad._creation import (  # noqa: F401 - torch.random's names
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type="cuda"):
    """Run a block with the generator's state put back afterwards: draws inside it do not
    change the numbers drawn after it. (A CPU-only torch has no device generators to fork.)"""
    if not enabled:
        yield
        return
    if devices is not None:
        list(devices)  # torch reads them once; there are no device states to keep here
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
