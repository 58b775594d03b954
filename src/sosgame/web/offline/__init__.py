"""Play on the player's own device: the files a browser needs to run the engine itself (the
engine's wheel and Pyodide's runtime), which the app serves so that it never needs a CDN."""
