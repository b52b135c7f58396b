"""User-facing errors: the CLI prints these as one line and exits non-zero."""


class BezsimError(Exception):
    """Base of every error caused by the user's input or environment, not by a bug."""
