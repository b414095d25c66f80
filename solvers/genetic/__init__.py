"""A memetic genetic algorithm: fleets as individuals, improved by local search.

``fleet`` holds where each ship may go and what a layout costs, ``repair_core`` its compiled
scoring and repair; ``algorithm`` evolves the population. It is incomplete: it finds
solutions but never proves there is none or one.
"""

from solvers.contract import Option, SolverSpec

GENETIC = SolverSpec(
    name="genetic", label="Genetic", entry="solvers.genetic.algorithm:events",
    summary="a population of fleet layouts: selection, crossover, mutation and min-conflicts repair",
    complete=False, explains=False,
    options=(
        Option("population", int, 20, 2, 500, help="individuals per generation"),
        Option("elite", float, 0.05, 0.0, 0.5, help="share copied unchanged into the next generation"),
        Option("tournament", int, 4, 1, 50, help="contestants in each selection tournament"),
        Option("crossover", float, 0.9, 0.0, 1.0, help="probability of crossover"),
        Option("region", int, -1, -1, 1,
               help="1: crossover by a cut across the board; 0: one-point over the ship list; -1: 1 for large fleets"),
        Option("mutation", float, 0.3, 0.0, 1.0, help="probability that a child has one ship moved"),
        Option("local_search", int, 30, 0, 1000, help="min-conflicts repair steps per child"),
        Option("noise", float, 0.05, 0.0, 1.0, help="chance that a repair step moves a ship anywhere"),
        Option("stagnation", int, -1, -1, 100_000,
               help="generations without improvement before a restart; -1: 20, 40 for large fleets"),
        Option("keep", int, -1, -1, 500,
               help="best winners of earlier rounds a restarted population starts with; -1: 5 for large fleets"),
        Option("max_generations", int, 0, 0, 10**9, help="0: no limit (the caller's time budget ends the run)"),
    ),
)
