"""The README's Python examples run, in order, in one namespace (as a user
pasting them would), from a scratch directory (the plot example writes
PNG files)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).parents[2] / "README.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_python_examples():
    assert len(blocks()) >= 2


def test_the_readme_python_examples_run(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for i, code in enumerate(blocks()):
        exec(compile(code, f"README.md python block {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "bm25" in out and "SignificanceResult" in out
