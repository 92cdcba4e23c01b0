"""tools/tutorial_sweep.py on small tutorials written here (no third-party text in the repo):
how files split into blocks, how outputs are normalised and compared, and how a block is
classified after a run on torch and on minigrad."""

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("tutorial_sweep", ROOT / "tools/tutorial_sweep.py")
sweep = importlib.util.module_from_spec(spec)
sys.modules["tutorial_sweep"] = sweep   # dataclasses look their module up while the class is made
spec.loader.exec_module(sweep)

SEP = "#" * 30

GALLERY = f'''"""
A title
=======

Prose, with code in it that is not run::

    print("never")
"""

import torch

x = torch.ones(3, requires_grad=True)

{SEP}
# A text cell: these comment lines are prose.
#
#    print("not code either")

y = (x * 2).sum()
# a comment inside code stays code
y.backward()
x.grad

{SEP}
# A text cell with nothing after it

{SEP}
# Seeded numbers are torch's on both sides.
print(torch.randn(3))

# %%
# A cell opened the other way.
import sys
print("minigrad" in sys.modules)

{SEP}
# Something only the C-backed torch has.
print(torch._C is not None)

{SEP}
layer = torch.nn.Conv2d(1, 1, 3)

{SEP}
raise ValueError("the tutorial itself fails here")

{SEP}
import torch.nn.functional as F
print(F.relu(torch.tensor([-1.0, 2.0])))
'''

RST = """
Title
=====

.. code::

    import math
    a = torch.tensor([1.0, 2.0], requires_grad=True)

A literal block after a paragraph::

    b = (a * a).sum()
    b.backward()
    print(a.grad)

.. code-block:: bash

    pip install torch

.. code-block:: python
   :caption: with an option

   print(a.grad is not None)

A session:

  >>> c = a.detach()
  >>> c
  tensor([1., 2.])
  >>> for v in c.tolist():
  ...     print(v)
  1.0
  2.0

Which prints::

  Self CPU time total: 1.0ms, and no Python here
"""


def test_gallery_blocks_follow_sphinx_gallery_cells():
    blocks = sweep.split_gallery(GALLERY)
    codes = [b.code.strip() for b in blocks]
    assert codes[0] == "import torch\n\nx = torch.ones(3, requires_grad=True)"
    assert codes[1].startswith("y = (x * 2).sum()\n# a comment inside code stays code")
    assert codes[1].endswith("x.grad")
    assert codes[2] == "print(torch.randn(3))"          # the empty text cell made no block
    assert codes[3] == 'import sys\nprint("minigrad" in sys.modules)'
    assert not any("never" in c or "not code either" in c for c in codes)
    assert [b.number for b in blocks] == list(range(1, len(blocks) + 1))
    lines = GALLERY.splitlines()
    for block in blocks:
        assert lines[block.line - 1] == block.code.splitlines()[0]
    assert {b.mode for b in blocks} == {"gallery"}


def test_rst_blocks_directives_literals_and_doctests():
    blocks = sweep.split_rst(RST)
    assert [b.mode for b in blocks] == ["exec", "exec", "exec", "doctest", "exec"]
    assert blocks[0].code == "import math\na = torch.tensor([1.0, 2.0], requires_grad=True)\n"
    assert blocks[1].code.startswith("b = (a * a).sum()")
    assert blocks[2].code == "print(a.grad is not None)\n"   # option skipped, bash block skipped
    assert blocks[3].code == "c = a.detach()\nc\nfor v in c.tolist():\n    print(v)\n"
    assert blocks[3].expected == "tensor([1., 2.])\n1.0\n2.0\n"
    assert not sweep.is_python(blocks[4].code)                 # an output listing


def test_normalise_hides_engine_names_addresses_and_profiler_times():
    assert sweep.normalise("<minigrad.autograd.graph.Node object at 0x7f3a2b>  \n") == \
        "<torch.autograd.graph.Node object at 0xADDR>"
    table_a = textwrap.dedent("""\
        -----  ------------  ------
        Name   Self CPU %    # of Calls
        -----  ------------  ------
        aten::mul   60.00%   1000
        aten::div   40.00%   1000
        -----  ------------  ------
        Self CPU time total: 12.345ms
        """)
    table_b = table_a.replace("60.00%", "45.10%").replace("40.00%", "54.90%")
    table_b = table_b.replace("aten::mul   45.10%   1000\naten::div   54.90%   1000",
                              "aten::div   54.90%   1000\naten::mul   45.10%   1000")
    table_b = table_b.replace("12.345ms", "3.2ms")
    assert sweep.normalise(table_a) == sweep.normalise(table_b)
    assert sweep.normalise(table_a) != sweep.normalise(table_a.replace("aten::div", "aten::add"))


@pytest.mark.parametrize("a, b, same", [
    ("loss 0.123456789", "loss 0.1234567891", True),      # within 1e-6 relative
    ("loss 0.1234", "loss 0.1235", False),                 # a printed digit differs
    ("tensor([1., 2.])", "tensor([1., 2.])", True),
    ("dtype=torch.float32", "dtype=minigrad.float32", True),
    ("grad_fn=<MulBackward0>", "grad_fn=<MulBackward1>", False),
    ("a\nb", "a", False),
])
def test_compare_text(a, b, same):
    agree, first, worst, _ = sweep.compare_text(a, b)
    assert agree is same
    assert (first is None) is same
    if not same:
        assert "torch:" in first and "minigrad:" in first


def test_compare_text_says_whether_only_numbers_differ():
    _, first, worst, absolute = sweep.compare_text("0 1.5\n1 2.0", "0 1.5\n1 2.5")
    assert first.startswith("line 2:") and worst == pytest.approx(0.2)
    _, _, worst, _ = sweep.compare_text("tensor(1.)", "Tensor(1.)")
    assert worst == float("inf")


def test_out_of_scope_keywords_ignore_comments():
    assert sweep.out_of_scope_reason("m = nn.Conv2d(1, 1, 3)") == "convolution / pooling layers"
    assert sweep.out_of_scope_reason("# m = x.cuda()\nm = 1") is None
    assert sweep.out_of_scope_reason("x = x.cuda()") == "CUDA"
    assert sweep.out_of_scope_reason("import torchviz") is not None


def test_bound_names():
    tree = sweep.ast.parse("a, (b, *c) = f()\nd += 1\nfor e in x:\n    g = e\n"
                           "with h() as k:\n    pass\ndef f(): pass\n")
    assert sweep._bound_names(tree) == ["a", "b", "c", "d", "e", "g", "k"]


@pytest.fixture(scope="module")
def gallery_verdicts(tmp_path_factory):
    path = tmp_path_factory.mktemp("tutorials") / "synthetic_tutorial.py"
    path.write_text(GALLERY)
    return sweep.sweep_file(path, seed=0, timeout=240)


def test_sweep_classifies_each_block(gallery_verdicts):
    status = [v.status for v in gallery_verdicts]
    assert status == ["same", "same", "same", "differs", "minigrad error", "out of scope",
                      "out of scope", "same"]
    differs, error, conv, fails = gallery_verdicts[3:7]
    assert "torch:    False" in differs.detail and "minigrad: True" in differs.detail
    assert "AttributeError" in error.detail and "_C" in error.detail
    assert "(an earlier block of this file already failed on minigrad)" in error.detail
    assert conv.detail == "convolution / pooling layers"
    assert fails.detail == ("torch fails: ValueError: the tutorial itself fails here "
                            "(minigrad raises the same error)")


def test_sweep_runs_rst_cumulatively_with_the_preamble(tmp_path):
    path = tmp_path / "page.rst"
    path.write_text(RST)
    verdicts = sweep.sweep_file(path, seed=0, timeout=240)
    assert [v.status for v in verdicts] == ["same", "same", "same", "same", "not code"]
    blocks = sweep.split_rst(RST)
    torch_records, problem = sweep.run_engine(path, blocks, "torch", 0)
    assert problem is None
    assert torch_records[2]["stdout"] == "tensor([2., 4.])\n"
    assert torch_records[4]["stdout"] == "tensor([1., 2.])\n1.0\n2.0\n"   # doctest display


def test_summary_and_markdown(gallery_verdicts):
    table = sweep.summary_table(gallery_verdicts)
    assert table.endswith("4 of 6 in-scope blocks same")
    assert "synthetic_tutorial.py" in table and "TOTAL" in table
    text = sweep.failures_markdown(gallery_verdicts)
    assert "### synthetic_tutorial.py block 4" in text
    assert "### synthetic_tutorial.py block 5" in text
    assert "block 6" not in text


def test_out_of_scope_spreads_to_blocks_that_use_what_it_defined():
    blocks = [sweep.Block(1, 1, "class Odd:\n    def __torch_function__(self): pass\n"),
              sweep.Block(2, 5, "o = Odd()\n"),
              sweep.Block(3, 6, "x = 1\nprint(x)\n"),
              sweep.Block(4, 8, "Odd = int\nprint(Odd(o))\n"),
              sweep.Block(5, 9, "def f(o):\n    return [v for v in o]\nprint(f([1]))\n"),
              sweep.Block(6, 9, "print(Odd(2))\n")]
    reasons = sweep.scope_reasons(blocks)
    assert reasons[1] == "__torch_function__ / __torch_dispatch__"
    assert reasons[2].startswith("uses Odd, defined in an out-of-scope block (__torch_function__")
    assert reasons[3] is None                     # binds before it reads
    assert reasons[4].startswith("uses o,")       # rebinding Odd first does not clear o
    assert reasons[5] is None                     # o here is a parameter, v a loop variable
    assert reasons[6].startswith("uses Odd,")     # Odd was rebound by an out-of-scope block


def test_command_line_writes_the_summary_json_and_markdown(tmp_path, capsys):
    tutorials = tmp_path / "tutorials"
    (tutorials / "nested").mkdir(parents=True)
    (tutorials / "nested" / "page.rst").write_text(RST)
    (tutorials / "skipped.py").write_text("import torch\nprint(torch.ones(1))\n")
    out_json, out_md = tmp_path / "verdicts.json", tmp_path / "failing.md"
    assert sweep.main([str(tutorials), "--only", "page", "--json", str(out_json),
                       "--markdown", str(out_md)]) == 0
    printed = capsys.readouterr().out
    assert "page.rst" in printed and "skipped.py" not in printed
    assert printed.rstrip().endswith("4 of 4 in-scope blocks same")
    verdicts = sweep.json.loads(out_json.read_text())
    assert [v["status"] for v in verdicts] == ["same", "same", "same", "same", "not code"]
    assert out_md.read_text() == ""


def test_alias_maps_torch_modules_to_minigrad_modules():
    """In a fresh interpreter: each ``torch.X`` is the very module ``minigrad.X``, a module
    minigrad lacks is missing under torch's name, and the real torch is never loaded."""
    program = textwrap.dedent(f"""
        import importlib, sys
        sys.path.insert(0, {str(ROOT)!r})
        exec({sweep.ALIAS_SOURCE!r}, {{}})
        import torch.nn.functional as F
        import torch.autograd.forward_ad
        import minigrad.nn.functional
        assert F is minigrad.nn.functional and torch.autograd.forward_ad.__name__ == \\
            "minigrad.autograd.forward_ad"
        assert minigrad.__spec__.name == "minigrad"
        try:
            import torch.no_such_module
        except ModuleNotFoundError as error:
            print(error)
        print("torch._C" in sys.modules)
        """)
    result = sweep.subprocess.run([sys.executable, "-c", program], capture_output=True,
                                  text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "No module named 'torch.no_such_module'\nFalse\n"
