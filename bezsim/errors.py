"""User-facing errors: the CLI prints these as one line and exits non-zero."""

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'polish'?"`` when ``word`` is close to one of ``choices`` (a typo),
    else ``""``: appended to an error that names an unknown word."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class BezsimError(Exception):
    """Base of every error caused by the user's input or environment, not by a bug."""

    exit_code = 2      # the CLI's exit status: a usage error unless a subclass says otherwise


class OutputError(BezsimError):
    """The output could not be written (disk full, read-only, gone): the environment failed,
    not the user's input, so the CLI exits 1 as for other OS errors."""

    exit_code = 1


class PolicyError(BezsimError, ValueError):
    """An unknown policy name or parameter, or a wrong number of policies."""
