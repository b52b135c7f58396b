"""One decision at a time: the step API (``StepGame``), what a seat may see (``observe``),
and the terminal game (``play``) with the story of the hand told to a seat (``narrate``)."""

from bezsim.step.observe import OBSERVATION_SIZE, observation_vector, observe
from bezsim.step.step_game import OPEN, Action, Saved, StepGame, read_saved

__all__ = ["OBSERVATION_SIZE", "OPEN", "Action", "Saved", "StepGame", "observation_vector",
           "observe", "read_saved"]
