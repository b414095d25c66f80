"""Tools for puzzle authors: difficulty grades, redundant hints and the level generator."""
