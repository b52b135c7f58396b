"""``import bezsim.openspiel`` registers Bézique with OpenSpiel as ``python_bezique`` (extra
``openspiel``); the game itself is ``bezsim.rl.openspiel``."""

from bezsim.rl.openspiel import BeziqueGame, BeziqueObserver, BeziqueState

__all__ = ["BeziqueGame", "BeziqueObserver", "BeziqueState"]
