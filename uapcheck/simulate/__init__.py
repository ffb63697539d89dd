"""`uapcheck simulate`: numeric experiments with the actual family of a `.uap` file (numpy).

Evidence, not proof: random networks of the family show what a verdict says (separated tokens for
UAP, coinciding outputs for a view witness or a receptive-field pair, a vanishing normaliser for
ILL-POSED). Imported only by the `simulate` command and by `--simulate`, so numpy is never loaded
by a plain check.
"""
from .evaluate import SimulationUnsupported
from .run import Options, Simulation, simulate

__all__ = ["Options", "Simulation", "SimulationUnsupported", "simulate"]
