"""The numba engine: integer arrays in, integer arrays out (DESIGN.md)."""
