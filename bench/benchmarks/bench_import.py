"""Import plus first call in a fresh interpreter, with numba's on-disk cache warm.

``setup`` runs in the benchmark process and calls every public function once, which writes (or
validates) the cache; the timed code then runs in a new interpreter (asv ``timeraw_``), so it
measures what a user's script pays: importing numba and fastpr and loading the cached kernels.
Target: import + first evaluate <= 1.0 s.
"""
import fastpr

_FIRST_CALL = "fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])"


class ImportTime:
    number = 1
    repeat = (3, 7, 60.0)
    timeout = 300

    def setup(self):
        y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
        fastpr.evaluate(y, s)
        fastpr.evaluate(y, [float(v) for v in s])
        fastpr.auc_pr(y, s)

    def timeraw_import_fastpr(self):
        return "import fastpr"

    def timeraw_import_and_first_evaluate(self):
        return "import fastpr\n" + _FIRST_CALL

    def timeraw_import_numpy(self):
        """Baseline: NumPy alone."""
        return "import numpy"

    def timeraw_import_sklearn_metrics(self):
        """Baseline: what a scikit-learn user pays before the first metric."""
        return "import sklearn.metrics"
