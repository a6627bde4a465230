"""The game itself: cards, the rules and their variants, hand features, and the plain-Python reference engine that is the specification."""
