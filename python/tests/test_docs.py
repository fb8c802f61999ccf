"""Every ```python example of the README and the guide (docs/*.md) runs, in a folder holding the files the
examples read (wmt.parquet, the demo data), with `references` and `hypotheses` defined as the speech pages
assume (tests/docs.rs runs the SQL and shell examples; src/lib.rs the Rust ones as doctests)."""
import os
import re
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = ["README.md", "docs/sql.md", "docs/cli.md", "docs/python.md", "docs/speech.md", "docs/meta-evaluation.md",
         "docs/cluster.md", "docs/gpu.md", "docs/parity.md"]


def python_blocks():
    out = []
    for page in PAGES:
        text = open(os.path.join(ROOT, page), encoding="utf-8").read()
        for m in re.finditer(r"^( *)```python\n(.*?)^ *```", text, re.S | re.M):
            indent = len(m.group(1))
            body = "\n".join(line[indent:] for line in m.group(2).splitlines())
            line = text[: m.start()].count("\n") + 1
            out.append(pytest.param(body, id=f"{page}:{line}"))
    return out


BLOCKS = python_blocks()


def test_the_guide_has_python_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("code", BLOCKS)
def test_example_runs(code, tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    shutil.copytree(os.path.join(ROOT, "data"), tmp_path / "data")
    demo = pq.read_table(os.path.join(ROOT, "data", "demo.parquet"))
    pq.write_table(demo, tmp_path / "wmt.parquet")
    monkeypatch.chdir(tmp_path)
    good = demo.filter(pc.equal(demo["system"], "sys-good"))
    env = {
        "references": good["ref"].to_pylist()[:20],
        "hypotheses": good["hyp"].to_pylist()[:20],
        "__name__": "__docs__",
    }
    exec(compile(code, "<docs example>", "exec"), env)
