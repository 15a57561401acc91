"""`import fastpr` leaves intervals, learn and multiclass for their first use."""
import json
import subprocess
import sys

import pytest

import fastpr

_LAZY_MODULES = ["fastpr.intervals", "fastpr.learn", "fastpr.multiclass"]


def _fresh(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def test_import_fastpr_leaves_the_lazy_modules_unloaded():
    loaded = _fresh("import json, sys, fastpr; "
                    f"print(json.dumps([m in sys.modules for m in {_LAZY_MODULES!r}]))")
    assert loaded == [False, False, False]


def test_lazy_names_load_on_first_use():
    loaded = _fresh("import json, sys, fastpr; fastpr.bootstrap; fastpr.learn.FixedLabels; "
                    "from fastpr import multiclass; "
                    f"print(json.dumps([m in sys.modules for m in {_LAZY_MODULES!r}]))")
    assert loaded == [True, True, True]


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
