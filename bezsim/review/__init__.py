"""Reviewing a game: its record (record.py), replayed through the engine, the value of each
decision's options to the seat that took it (values.py), the luck of every seat's cards and
each seat's result split into skill and luck (luck.py), and the whole game's review
(game_review.py): ``review_record`` and its DataFrames, ``decisions_frame``,
``summary_frame`` and ``luck_frame``."""

from bezsim.review.game_review import decisions_frame, luck_frame, review_record, summary_frame

__all__ = ["decisions_frame", "luck_frame", "review_record", "summary_frame"]
