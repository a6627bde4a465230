"""Strategies and whole games: play and bidding policies by name, rounds, duplicate tournaments."""
