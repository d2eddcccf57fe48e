"""Analysis: tournaments, ratings and balance reports over many simulated games."""
