"""Policies: who decides what a seat plays and declares (see builtin.py for the contract)."""
