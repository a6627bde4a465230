"""The chart kinds and their defaults: light enough for the CLI to import at start-up
(``pitchsim.study.charts`` itself pulls in matplotlib and pandas, only when a chart is drawn)."""

KINDS = {
    "heatmap": "P(make 2) and P(make 3) by trump length x highest trump (one player count)",
    "players": "P(make k), k = 1-4, against player count for a few trump holdings",
    "points": "distribution of the pitcher's points, per player count",
    "bids": "bidding chart: the highest bid with a positive expected score, by key trumps x length",
}
DEFAULT_HOLDINGS = ("A-K-Q", "A-J-2", "A-x-x", "K-J-x", "K-x-x", "Q-x-x", "J-x")
DEFAULT_MIN_COUNT = 2500  # a cell's 95% interval is then at most about +/-2 points of percentage
