"""`import fastpr` loads what `evaluate` needs and leaves the other modules for their first use."""
import json
import subprocess
import sys

import pytest

import fastpr

_LAZY_MODULES = ["fastpr.accumulator", "fastpr.curves", "fastpr.fmeasure", "fastpr.gain",
                 "fastpr.intervals", "fastpr.learn", "fastpr.multiclass", "fastpr.prevalence",
                 "fastpr.space", "fastpr.swept", "fastpr.thresholds"]


def _fresh(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def test_import_fastpr_leaves_the_lazy_modules_unloaded():
    loaded = _fresh("import json, sys, fastpr; "
                    f"print(json.dumps([m in sys.modules for m in {_LAZY_MODULES!r}]))")
    assert not any(loaded)


def test_lazy_names_load_on_first_use():
    first_uses = ("fastpr.Accumulator; fastpr.PRCurve; fastpr.MaxFBeta; fastpr.PRGCurve; "
                  "fastpr.bootstrap; fastpr.learn.FixedLabels; from fastpr import multiclass; "
                  "fastpr.at_prevalence; fastpr.dominates; fastpr.roc_points; "
                  "fastpr.hull_thresholds")
    loaded = _fresh(f"import json, sys, fastpr; {first_uses}; "
                    f"print(json.dumps([m in sys.modules for m in {_LAZY_MODULES!r}]))")
    assert all(loaded)


def test_a_function_named_as_a_module_stays_the_function():
    # Loading fastpr.aggregate (the module) must not hide fastpr.aggregate (the function), nor
    # a name of a lazy module the names loaded before it.
    kinds = _fresh("import json, fastpr, fastpr.aggregate, fastpr.swept; "
                   "print(json.dumps([callable(fastpr.aggregate), "
                   "fastpr.roc_points.__module__, fastpr.sweep.__module__]))")
    assert kinds == [True, "fastpr.swept", "fastpr.swept"]


def test_lazy_names_are_the_modules_names():
    from fastpr import intervals, learn, multiclass

    for name in ("bootstrap", "compare", "delong", "BootstrapResult", "fold_interval"):
        assert getattr(fastpr, name) is getattr(intervals, name)
    assert fastpr.learn is learn
    assert fastpr.multiclass is multiclass
    assert {"bootstrap", "learn", "multiclass"} <= set(dir(fastpr))
    assert set(fastpr.__all__) <= set(dir(fastpr))


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        fastpr.no_such_name  # noqa: B018
