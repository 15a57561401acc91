"""asv suites for fastpr; shared data generation lives in ``_data``."""
