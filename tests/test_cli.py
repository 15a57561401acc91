"""The README's main job, run as a user runs it."""
import subprocess
import sys


def _run(*args):
    return subprocess.run([sys.executable, "-m", "fastpr", *args], capture_output=True, text=True,
                          timeout=300)


def test_demo_reports_the_worked_examples():
    result = _run("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # Table 1 rows (TP, FP, recall, precision) as the paper prints them.
    for row in ["5      5   0.250      0.500", "6     10   0.300      0.375",
                "7     15   0.350      0.318", "8     20   0.400      0.286",
                "9     25   0.450      0.265", "10     30   0.500      0.250"]:
        assert row in out
    assert "interpolated AUC-PR (correct)      0.0295" in out
    assert "linear interpolation (wrong)       0.5141" in out
    for method in ["interpolated", "davis_goadrich", "average_precision", "lower_trapezoid",
                   "upper_trapezoid", "linear", "hull"]:
        assert f"\n  {method} " in out


def test_demo_says_in_one_line_where_it_cannot_write_its_figures(tmp_path):
    # A traceback (FileExistsError) followed the whole report.
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    result = _run("demo", "--out", str(in_the_way))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"fastpr demo: cannot write the figures into {in_the_way}")
    assert result.stderr.count("\n") == 1
    assert "interpolated AUC-PR (correct)      0.0295" in result.stdout


def test_unknown_command_fails_cleanly():
    result = _run("frobnicate")
    assert result.returncode == 2
    assert "invalid choice: 'frobnicate'" in result.stderr
    assert "Traceback" not in result.stderr


def test_warmup_refuses_a_count_of_processes_below_one():
    for jobs, message in (("0", "must be at least 1, got 0"), ("x", "must be a whole number")):
        result = _run("warmup", "--jobs", jobs)
        assert result.returncode == 2
        assert f"argument --jobs: {message}" in result.stderr
        assert "Traceback" not in result.stderr
