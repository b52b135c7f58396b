"""The engine's Python front door: validated calls into the compiled kernels (``games``), the
compile announcements and their measured estimates (``compiling``), and the finder of the
game and seat where a plug-in policy failed (``plugin_faults``). Nothing here is compiled, so
editing it keeps the compiled cache.
"""
