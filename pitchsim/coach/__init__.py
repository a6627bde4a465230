"""The coach: a person at the table (practice), each decision judged from its view, and
reviews of recorded games."""
