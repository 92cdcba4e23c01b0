"""``torch.random``: the default generator's seed and state (the same functions as
``minigrad.manual_seed`` and friends, where torch also keeps them)."""

from minigrad._creation import (  # noqa: F401 - torch.random's names
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
