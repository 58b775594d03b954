"""The network between server processes (the bus) and the processes the command line starts."""
