"""The research tools: solves too large for one search, their certificates, and the book.

* :mod:`~sosgame.research.split` plans a solve split into pieces a few moves deep, and
  combines their values; :mod:`~sosgame.research.pieces` solves or bounds one piece and keeps
  its result on disk; :mod:`~sosgame.research.goals` and :mod:`~sosgame.research.bounded` ask
  the pieces only the null-window questions the root needs; :mod:`~sosgame.research.distribute`
  runs all that on local processes or a Dask cluster (``sosgame solve --split``).
* :mod:`~sosgame.research.certificate` writes the proof of a solved position for the
  independent checker :mod:`sosgame.certify`; :mod:`~sosgame.research.walk` keeps the entries
  met on random walks down a proof too large to write (``sosgame solve --walks``), and
  :mod:`~sosgame.research.sample` a random sample of one too large to keep
  (``sosgame certify --extract``).
* :mod:`~sosgame.research.book_build` builds the opening book that ``perfect`` reads
  (``make book``).

The product (the players, the exact solver they use, the interfaces) never imports this
package; the command line loads it only for the options above.
"""
