"""Analyses that read run directories (Parquet) and answer questions with intervals."""
