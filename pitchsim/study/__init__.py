"""Study runs: simulating millions of deals into Parquet parts, their manifest, checksums and verification, locks, tables and charts."""
