"""Typed exceptions: ``InputError`` and ``ReadError`` (``ValueError``
subclasses) carry the place of the error (``.line``, ``.column``, ``.path``)
from the library's ``line()`` / ``column()`` accessors, for every reader."""

import io
import pickle

import numpy as np
import pytest

import adaptive_comp_metrics as acm


def raised(f, *args, **kwargs):
    with pytest.raises(ValueError) as info:
        f(*args, **kwargs)
    return info.value


def written(folder, name, text):
    """The file `name` in `folder`, holding `text`."""
    path = folder / name
    path.write_text(text)
    return path


def assert_read_error(e, line, path):
    """`e` is a ReadError at line `line` of the file `path`."""
    assert (type(e), e.line, e.path) == (acm.ReadError, line, str(path))


def test_trec_files_name_line_column_and_path(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("q1 0 d1 1\nq1 0 d2\n")
    e = raised(acm.parse_qrel, str(path))
    assert type(e) is acm.ReadError and isinstance(e, acm.InputError)
    assert (e.line, e.column, e.path) == (2, None, str(path))
    assert str(e).startswith(f"{path}: line 2")
    # A file object: no path.
    e = raised(acm.parse_qrel, io.StringIO("q1 0 d1 1\nq1 0 d2\n"))
    assert (e.line, e.path) == (2, None)
    # trec_eval's syntax names the column of a blank line.
    e = raised(acm.parse_qrel, io.StringIO("q 0 d 1\n\n"), syntax="trec_eval")
    assert (e.line, e.column) == (2, 1)
    run = written(tmp_path, "r.txt", "q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 nan x\n")
    assert_read_error(raised(acm.parse_run, run), 2, run)
    # A file that cannot be opened is an OSError, as before.
    with pytest.raises(OSError):
        acm.RelevanceEvaluator(str(path.parent / "none"), {"map"})


def test_word_pairs_and_vectors_name_their_line(tmp_path):
    pairs = written(tmp_path, "pairs.tsv", "a\tb\t1\nc\td\tx\n")
    assert_read_error(raised(acm.read_word_pairs, pairs), 2, pairs)
    good = written(tmp_path, "good.tsv", "a\tb\t1\nc\td\t2\na\tc\t3\n")
    vectors = written(tmp_path, "v.vec", "3 2\na 1 0\nb 0 1\nc 1 x\n")
    assert_read_error(raised(acm.evaluate_word_pairs, vectors, good), 4, vectors)


def test_lexsub_and_triplet_files_name_their_line(tmp_path):
    gold = written(tmp_path, "gold.txt", "bright.a 1 :: clever 2;\nbright.a 2 clever 2;\n")
    system = written(tmp_path, "system.best", "bright.a 1 :: clever\n")
    assert_read_error(raised(acm.lexsub_score, gold, system), 2, gold)
    data = written(tmp_path, "triplets.txt", "singer\nartist,0.80,person\n")
    assert_read_error(raised(acm.triplet_score, data, {"singer": np.ones(2)}), 2, data)


def test_errors_without_a_place_are_input_errors():
    e = raised(acm.spearmanr, [1.0, np.nan, 3.0], [1.0, 2.0, 3.0])
    assert type(e) is acm.InputError
    assert (e.line, e.column, e.path) == (None, None, None)
    e = raised(acm.RelevanceEvaluator, {"q": {"d": 1}}, {"no_such_measure"})
    assert type(e) is acm.InputError and "no_such_measure" in str(e)
    e = raised(acm.rho_w, [1.0, 2.0], [1.0, 1.0])
    assert type(e) is acm.InputError


def test_exceptions_pickle_with_their_place():
    e = acm.ReadError("f: line 3: bad", line=3, column=7, path="f")
    again = pickle.loads(pickle.dumps(e))
    assert (type(again), str(again), again.line, again.column, again.path) == (
        acm.ReadError,
        "f: line 3: bad",
        3,
        7,
        "f",
    )
    assert repr(again).startswith("ReadError(")
