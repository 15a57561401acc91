"""The ``fastpr`` command. ``fastpr demo`` reports on the embedded worked examples."""
import argparse
import sys

from . import datasets
from .curves import interpolate_pr
from .metrics import PR_METHODS, evaluate

def _table1_report():
    points = interpolate_pr(*datasets.table1_points())
    lines = ["Davis & Goadrich (2006) Table 1: interpolating between A = (TP 5, FP 5) and",
             "B = (TP 10, FP 30) with P = 20 (local skew s = 5)",
             "    TP     FP  recall  precision"]
    for tp, fp, r, p in zip(points.tp, points.fp, points.recall, points.precision):
        lines.append(f"{tp:6.0f} {fp:6.0f}  {r:6.3f}  {p:9.3f}")
    return lines


def _figure6_report():
    e = evaluate(*datasets.figure6_ranking())
    return [
        "Davis & Goadrich (2006) Figure 6: 433 positives, 56,164 negatives; nine positives",
        "ranked first, everything else tied below them",
        f"  interpolated AUC-PR (correct)      {e.auc_pr:.4f}   (paper: 0.031)",
        f"  Davis-Goadrich composite trapezoid {e.auc_pr_dg:.4f}",
        f"  linear interpolation (wrong)       {e.auc_pr_linear:.4f}   (paper: about 0.5)",
    ]


def _estimators_report():
    y_true, y_score = datasets.skewed_ranking()
    e = evaluate(y_true, y_score)
    lines = [
        f"Every estimator on a skewed synthetic ranking: {e.n_pos:.0f} positives, "
        f"{e.n_neg:.0f} negatives (prevalence {e.prevalence:.2%}),",
        f"scores rounded to 2 decimals: {e.n_thresholds} distinct thresholds",
        f"  {'method':<20}AUC-PR",
    ]
    lines += [f"  {m:<20}{e.area(m):.4f}" for m in PR_METHODS]
    lines += [
        f"  AUC-ROC {e.auc_roc:.4f}, on its convex hull {e.auc_roc_hull:.4f}",
        f"  AUC-PR of the worst possible ranking {e.auc_pr_min:.4f}; "
        f"normalised AUC-PR {e.auc_npr:.4f}",
    ]
    return lines


def demo():
    sections = [_table1_report(), _figure6_report(), _estimators_report()]
    print("\n\n".join("\n".join(section) for section in sections))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="fastpr", description="Exact, fast and honest precision-recall and ROC analysis."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="report on the papers' worked examples (no data needed)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo()
    return 0


if __name__ == "__main__":
    sys.exit(main())
