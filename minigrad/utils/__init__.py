"""``minigrad.utils``: helpers around the engine (datasets and loaders in ``data``)."""

from minigrad.utils import data

__all__ = ["data"]
