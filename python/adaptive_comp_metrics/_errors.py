"""The package's exceptions: ``ValueError`` subclasses that say where."""

from __future__ import annotations


class InputError(ValueError):
    """Input the library refused, with its message (what and where) and the
    place as attributes, as polars and tokenizers raise theirs:

    - ``line``: the 1-based line of the file or text read (None when the
      error names none: arrays, options);
    - ``column``: the 1-based column of that line, where the error names one
      (a blank line of trec_eval's qrels syntax, a field of a file), else None;
    - ``path``: the file read (None for arrays, text or a file object).

    A ``ValueError``, so ``except ValueError`` catches it as before.
    """

    def __init__(
        self,
        message: str = "",
        *,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.path = path


class ReadError(InputError):
    """An error at a line of an input being read (a qrels or run line, a
    benchmark's pair, a vector, a lexical-substitution or triplet line):
    ``line`` is set."""


# Shown (and pickled) under the package's name.
InputError.__module__ = ReadError.__module__ = "adaptive_comp_metrics"
