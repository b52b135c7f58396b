"""bezsim: Monte Carlo strategy analysis for the card game Bézique."""

__version__ = "0.1.0"
