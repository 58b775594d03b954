"""The live game: its room, fair play, clocks, messages, chat, and sending its changes."""
