"""The numba engine: integer arrays in, integer arrays out. The rules arrive as the params
array that bezsim.rules builds; outcomes leave as arrays that bezsim.io turns into tables.

The kernels compile with ``error_model="numpy"``: an integer division or modulo carries no
zero-divisor check that would raise (the engine divides only by seat counts, constants and
``max(1, ...)``), which measured 2-3% faster hands; plug-in policies keep numba's default.
Importing this package loads no numba: constants (``engine.constants``) stay cheap for the
rules and the command line; ``engine.jit`` places the kernels' cache (``bezsim.compile_cache``)
before any kernel is defined.
"""
