"""The environments' compiled code, shared by ``bezsim.step`` and ``bezsim.rl``: the action map
(``actions``), a seat's observation vector and legal-action mask (``observation``), N games
stepped in one call (``batch_step``) and the baseline agent's updates (``linear_learner``).
Kernels only: everything here is part of the compile cache's key (bezsim/compile_cache.py).
"""
