"""The guards against abuse: limits on connections, requests, bodies, rates and new games."""
