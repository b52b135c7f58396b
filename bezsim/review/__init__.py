"""Reviewing a game: its record (record.py), replayed through the engine."""
