"""The policy-spec language: names, parameters and tuned defaults (``registry``), a line-up
resolved once for a variant (``policy_set``), ``@file.json`` parameter sets (``params_file``).
Pure Python: the kernels never import it, so editing it keeps the compiled cache.
"""
