"""The one search core of the solver and the ``hard`` player: negamax alpha-beta on a stack.

* :mod:`sosgame.search.negamax`: the stack search, in its exact mode (the solver: to the end,
  under a node budget) and its heuristic mode (the player: depth-limited with a quiescence,
  under a deadline), each compiled from the same source.
* :mod:`sosgame.search.table`: the transposition table both use.
* :mod:`sosgame.search.keys`: position keys, exact under the board's symmetries or hashed.
* :mod:`sosgame.search.ordering`: the move lists and the cut-off memory (history, killers).
* :mod:`sosgame.search.leaves`: positions valued without a search (the last cells, a cut-off
  the table already proves, the lines still open).

The drivers are :func:`sosgame.solver.solve` and :class:`sosgame.ai.alphabeta.Searcher`.
"""
