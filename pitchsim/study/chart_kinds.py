"""The chart kinds and their defaults: light enough for the CLI to import at start-up
(``pitchsim.study.charts`` itself pulls in matplotlib and pandas, only when a chart is drawn)."""

KINDS = {
    "heatmap": "P(make 2) and P(make 3) by trump length x highest trump (one player count)",
    "players": "P(make k) for the lowest bids against player count, for a few key-trump holdings",
    "points": "distribution of the points the pitcher's side won, per player count",
    "bids": "bidding chart: the highest bid with a positive expected score, by key trumps x length",
}
DEFAULT_SHOWN = 6  # lines of the players chart when no holding is named: the most frequent
DEFAULT_MIN_COUNT = 2500  # a cell's 95% interval is then at most about +/-2 points of percentage
