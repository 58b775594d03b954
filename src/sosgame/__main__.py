"""``python -m sosgame``: the same as the ``sosgame`` command."""

from sosgame.cli import main

raise SystemExit(main())
