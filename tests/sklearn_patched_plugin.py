"""A pytest plugin for tests/test_sklearn_suite.py: the session runs with scikit-learn's ranking
metrics patched by fastpr.sklearn, and writes each test's outcome, one JSON object a line, to the
file that FASTPR_SUITE_REPORT names."""
import json
import os

import fastpr.sklearn


def pytest_configure(config):
    # Before collection: the test module's own imports then get fastpr's functions.
    fastpr.sklearn.patch()


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        with open(os.environ["FASTPR_SUITE_REPORT"], "a", encoding="utf-8") as out:
            out.write(json.dumps({"test": report.nodeid.split("::", 1)[-1], "when": report.when,
                                  "outcome": report.outcome,
                                  "message": str(report.longrepr)[-2000:] if report.failed
                                  else None}) + "\n")
