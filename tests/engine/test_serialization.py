"""minigrad.save / minigrad.load against torch.save / torch.load: files cross both ways
(minigrad's files read by torch.load with weights_only=True, torch's by minigrad.load), a
round trip keeps dtype, shape, strides, offsets, shared memory between views,
Parameters and requires_grad; weights_only refuses what torch refuses, with its message."""

from __future__ import annotations

import io
import pickle
import zipfile

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import assert_close, assert_same_error, pair, to_numpy

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]

# the same view of a tensor in both libraries (each keeps the base's memory)
VIEWS = {
    "whole": lambda x: x,
    "transpose": lambda x: x.transpose(0, 1),
    "row": lambda x: x[1],
    "column": lambda x: x[:, 1],
    "step": lambda x: x[::2, 1:],
    "expand": lambda x: x[:1].expand(3, -1),
    "flat": lambda x: x.reshape(-1),
}


def tensors(lib, array, view):
    base = lib.tensor(array.copy())
    return {"base": base, "view": VIEWS[view](base), "other": VIEWS[view](base)}


def facts(lib, obj):
    """What a loaded dict of tensors shows: values, dtype, shape, stride, offset, and which
    tensors share memory."""
    ptr = {k: t.untyped_storage().data_ptr() for k, t in obj.items()}
    return {k: (to_numpy(t).tolist(), str(t.dtype).split(".")[-1], tuple(t.shape), t.stride(),
                t.storage_offset(), sorted(j for j in obj if ptr[j] == ptr[k]))
            for k, t in obj.items()}


def saved(lib, obj, name="t.pt"):
    buf = io.BytesIO()
    lib.save(obj, buf)
    buf.seek(0)
    return buf


array_2d = st.sampled_from(DTYPES).flatmap(lambda d: hnp.arrays(
    np.dtype(d), st.tuples(st.integers(3, 4), st.integers(2, 4)),
    elements=hnp.from_dtype(np.dtype(d), allow_nan=False, allow_infinity=False)))


@settings(max_examples=40, deadline=None)
@given(array_2d, st.sampled_from(sorted(VIEWS)))
def test_files_cross_both_ways(array, view):
    ours, theirs = tensors(minigrad, array, view), tensors(torch, array, view)
    expected = facts(torch, torch.load(saved(torch, theirs)))
    assert facts(torch, torch.load(saved(minigrad, ours))) == expected
    assert facts(minigrad, minigrad.load(saved(torch, theirs))) == expected
    assert facts(minigrad, minigrad.load(saved(minigrad, ours))) == expected


def test_loaded_views_share_memory():
    x = minigrad.arange(6.0).reshape(2, 3)
    back = minigrad.load(saved(minigrad, [x, x.t(), x[1]]))
    back[0][1, 2] = 100.0
    assert back[1][2, 1].item() == back[2][2].item() == 100.0


def test_parameters_and_requires_grad():
    objs = []
    for lib in (minigrad, torch):
        objs.append({"p": lib.nn.Parameter(lib.ones(2, 2)),
                     "frozen": lib.nn.Parameter(lib.ones(2), requires_grad=False),
                     "leaf": lib.ones(3, requires_grad=True), "plain": lib.ones(3)})
    for loader, source in [(torch.load, minigrad), (minigrad.load, torch),
                           (minigrad.load, minigrad)]:
        back = loader(saved(source, objs[0] if source is minigrad else objs[1]))
        shown = {k: (type(v).__name__, v.requires_grad) for k, v in back.items()}
        assert shown == {"p": ("Parameter", True), "frozen": ("Parameter", False),
                         "leaf": ("Tensor", True), "plain": ("Tensor", False)}


def test_containers_numbers_dtypes_sizes():
    objs = [{"n": [1, (2.5, "s"), None, {"k": True}], "b": b"raw", "d": lib.float16,
             "size": lib.ones(2, 3).shape, "set": {1, 2}} for lib in (minigrad, torch)]
    back = torch.load(saved(minigrad, objs[0]))
    assert back == objs[1]
    mine = minigrad.load(saved(torch, objs[1]))
    assert mine == objs[0] and type(mine["size"]) is minigrad.Size


def models(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))


@pytest.mark.parametrize("direction", ["minigrad_to_torch", "torch_to_minigrad"])
def test_state_dict_moves_a_model(direction):
    src_lib, dst_lib = ((minigrad, torch) if direction == "minigrad_to_torch"
                        else (torch, minigrad))
    src = models(src_lib)
    with src_lib.no_grad():
        for p in src.parameters():
            p.mul_(1.5)  # not what the seed gives: the load must bring these
    dst = models(dst_lib)
    dst.load_state_dict(dst_lib.load(saved(src_lib, src.state_dict())))
    x = np.linspace(-1, 1, 15).reshape(5, 3).astype(np.float32)
    outs = {lib: net(lib.tensor(x)) for lib, net in ((src_lib, src), (dst_lib, dst))}
    assert_close(outs[minigrad], outs[torch])


def test_optimizer_state_dict_round_trip():
    outs = []
    for lib in (minigrad, torch):
        model = models(lib)
        opt = lib.optim.Adam(model.parameters(), lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            model(lib.ones(2, 3)).sum().backward()
            opt.step()
        outs.append(opt.state_dict())
    for loader in (minigrad.load, torch.load):
        back = loader(saved(minigrad, outs[0]))
        assert back["param_groups"] == outs[0]["param_groups"]
        for i, state in outs[0]["state"].items():
            for k, v in state.items():
                assert to_numpy(back["state"][i][k]).tolist() == to_numpy(v).tolist()
                assert_close(v, outs[1]["state"][i][k])


def test_whole_module_needs_weights_only_false():
    def run(lib):
        lib.load(saved(lib, lib.nn.Linear(2, 2)))

    assert_same_error(lambda: run(minigrad), lambda: run(torch))
    model = minigrad.load(saved(minigrad, models(minigrad)), weights_only=False)
    np.testing.assert_array_equal(model(minigrad.ones(1, 3)).detach().numpy(),
                                  models(minigrad)(minigrad.ones(1, 3)).detach().numpy())
    with pytest.raises(pickle.UnpicklingError, match="state_dict"):
        minigrad.load(saved(torch, torch.nn.Linear(2, 2)), weights_only=False)
    with minigrad.serialization.safe_globals([minigrad.nn.Linear]):
        assert isinstance(minigrad.load(saved(minigrad, minigrad.nn.Linear(2, 2))),
                          minigrad.nn.Linear)


def test_archive_layout_is_torchs(tmp_path):
    layouts = []
    for lib in (minigrad, torch):
        x = lib.arange(6.0)
        path = tmp_path / f"{lib.__name__}_ckpt.pt"
        lib.save({"x": x, "y": x[2:], "i": lib.tensor([1, 2])}, path)
        with zipfile.ZipFile(path) as zf:
            names = [n.split("/", 1)[1] for n in zf.namelist()]
            prefix = {n.split("/", 1)[0] for n in zf.namelist()}
            data_at = [i.header_offset for i in zf.infolist() if "/data/" in i.filename]
            raw = path.read_bytes()
            aligned = all((off + 30 + len(i.filename) + int.from_bytes(raw[off + 28:off + 30],
                                                                          "little")) % 64 == 0
                          for off, i in zip(data_at, [i for i in zf.infolist()
                                                      if "/data/" in i.filename]))
        layouts.append((names, prefix == {f"{lib.__name__}_ckpt"}, aligned))
    assert layouts[0] == layouts[1]


def test_saved_tensors_hooks_to_files(tmp_path):
    """The saved-tensors-hooks tutorial's pattern: each saved tensor goes to a file."""
    def run(lib):
        counter = iter(range(1000))

        def pack(t):
            name = str(tmp_path / f"{lib.__name__}_{next(counter)}.pt")
            lib.save(t, name)
            return name

        x, w = lib.linspace(-1, 1, 6).reshape(2, 3), lib.ones(3, 2)
        x.requires_grad_(), w.requires_grad_()
        with lib.autograd.graph.saved_tensors_hooks(pack, lambda name: lib.load(name)):
            y = (x @ w).tanh().exp().sum()
        y.backward()
        return x.grad, w.grad

    grads = [run(lib) for lib in (minigrad, torch)]
    for m, t in zip(*grads):
        assert_close(m, t)


def test_weights_only_default_and_plain_pickles():
    m, _ = pair([1.0, 2.0])
    assert minigrad.load(saved(minigrad, m), weights_only=None).tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="not a zip archive"):
        minigrad.load(io.BytesIO(b"not a zip"))
