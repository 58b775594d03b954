"""The computer's part: its moves in worker processes, the store's queue of them, and analysis."""
