"""User-facing errors: the CLI prints these as one line and exits non-zero."""


class BezsimError(Exception):
    """Base of every error caused by the user's input or environment, not by a bug."""

    exit_code = 2      # the CLI's exit status: a usage error unless a subclass says otherwise


class OutputError(BezsimError):
    """The output could not be written (disk full, read-only, gone): the environment failed,
    not the user's input, so the CLI exits 1 as for other OS errors."""

    exit_code = 1
