"""Advice for one hand: bid odds (bid-odds) and the auction advisor (advise)."""
