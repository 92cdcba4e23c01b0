# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Loose ends: how torch's functions and dtypes describe themselves (reprs, attributes),
subclasses of Parameter and Tensor in custom Functions."""

_DTYPES = "[torch.float16, torch.float32, torch.float64, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]"

PROBES = [
    f"for d in {_DTYPES}:\n    print(d, d.is_floating_point, d.is_complex, d.is_signed, d.itemsize, d.abbr, d.to_real())",
    "for d in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]:\n    try:\n        d.to_complex()\n    except RuntimeError as e:\n        print(e)",
    "print(torch.tensor([1.5]).dtype.to_real(), torch.tensor([1]).dtype.is_signed)",
]

KNOWN = {
    "print(torch.float32.to_complex())": "minigrad leaves complex dtypes out (the course "
    "differentiates real functions): the left-out error",
}
