"""Reviewing a game: its record (record.py), replayed through the engine, and the value of
each decision's options to the seat that took it (values.py)."""
