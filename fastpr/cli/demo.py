"""``fastpr demo``: the papers' worked examples as text, and as figures when matplotlib is here."""
import importlib.util
import warnings
from pathlib import Path

import numpy as np

from .. import datasets
from ..curves import interpolate_pr
from ..intervals import bootstrap, confidence_interval, delong
from ..metrics import evaluate
from ..prevalence import at_prevalence
from ..results import PR_METHODS
from ..thresholds import evaluate_at_thresholds, hull_thresholds
from ..unachievable import auc_pr_min


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
    boot = bootstrap(y_true, y_score, n_boot=1000, seed=0)
    logit = confidence_interval(y_true, y_score, rule="logit")
    roc = delong(y_true, y_score)
    lines += [
        "  95% intervals of the interpolated AUC-PR:",
        f"    bootstrap [{boot.low:.4f}, {boot.high:.4f}] (1,000 stratified replicates); "
        f"logit [{logit.low:.4f}, {logit.high:.4f}]",
        f"  95% DeLong interval of AUC-ROC [{roc.low:.4f}, {roc.high:.4f}]",
    ]
    return lines


def _reversal_report():
    y_true, score_a, score_b = datasets.reversal_rankings()
    a, b = evaluate(y_true, score_a), evaluate(y_true, score_b)
    return [
        "AUC-ROC and AUC-PR disagree (Davis & Goadrich 2006, section 5): 20 positives among",
        "2,000 negatives, ranked two ways",
        "             AUC-ROC  AUC-PR   (paper: A 0.813 / 0.514, B 0.875 / 0.038)",
        f"  ranking A  {a.auc_roc:.3f}    {a.auc_pr:.3f}   ten positives first, ten spread deep",
        f"  ranking B  {b.auc_roc:.3f}    {b.auc_pr:.3f}   positive i below 13 + 25 i negatives",
    ]


def _unachievable_report():
    lines = ["The unachievable region (Boyd et al. 2012): the AUC-PR of the worst ranking",
             "  prevalence  interpolated  average_precision (1,000 examples)"]
    for prevalence in (0.5, 0.1, 0.01):
        n_pos = round(1000 * prevalence)
        lines.append(f"  {prevalence:10}  {auc_pr_min(n_pos, 1000 - n_pos):12.4f}  "
                     f"{auc_pr_min(n_pos, 1000 - n_pos, method='average_precision'):17.4f}")
    return lines


def _protocols_report():
    y_true, y_score = datasets.skewed_ranking(n_samples=200_000, prevalence=0.01)
    keep = y_true | (np.arange(y_true.size) % 10 == 0)
    full, sampled = evaluate(y_true, y_score), evaluate(y_true[keep], y_score[keep])
    shifted = at_prevalence(y_true[keep], y_score[keep], full.prevalence).evaluation
    tune, test = slice(0, 100_000), slice(100_000, None)
    honest = evaluate_at_thresholds(y_true[test], y_score[test],
                                    hull_thresholds(y_true[tune], y_score[tune])).evaluation
    fitted = evaluate(y_true[test], y_score[test])
    return [
        "Prevalence shift: keep every 10th negative of the skewed ranking, then report at the",
        "full data's base rate",
        f"  AUC-PR on all data {full.auc_pr:.4f}; on the down-sampled data "
        f"{sampled.auc_pr:.4f}; shifted back to {full.prevalence:.2%}: {shifted.auc_pr:.4f}",
        "  (equal to the first up to the noise of keeping one negative in ten)",
        "Honest hull protocol: hull thresholds chosen on one half, applied to the other",
        f"  hull AUC-PR fitted on the test half {fitted.auc_pr_hull:.4f}; with thresholds from "
        f"the tuning half {honest.auc_pr:.4f}",
    ]


def _coarse_ranking():
    """Binormal scores rounded to whole numbers (a rating scale): 2,000 examples, 30% positive,
    nine thresholds, so the straight-line error and the unachievable region both show."""
    y_true, y_score = datasets.binormal(2000, 0.3, separation=1.5, seed=3)
    return y_true, np.round(y_score)


def _figures(out):
    """Write the demo's figures into ``out``; returns their paths."""
    from matplotlib.figure import Figure

    from .. import plot

    out.mkdir(parents=True, exist_ok=True)
    y_true, y_score = datasets.skewed_ranking()
    y6, s6 = datasets.figure6_ranking()
    y_rev, score_a, score_b = datasets.reversal_rankings()
    drawings = {
        "roc_hull.png": lambda ax: plot.plot_roc(y_true, y_score, ax=ax, label="skewed ranking"),
        "pr_curve.png": lambda ax: plot.plot_pr(*_coarse_ranking(), ax=ax, label="coarse scores",
                                                linear=True),
        "pr_linear_error.png": lambda ax: plot.plot_pr(y6, s6, ax=ax, label="Figure 6",
                                                       linear=True, achievable=False),
    }
    paths = []
    for name, draw in drawings.items():
        figure = Figure(figsize=(6, 6))
        draw(figure.subplots())
        paths.append(_save(figure, out / name))
    figure = Figure(figsize=(11, 5.5))
    roc_axes, pr_axes = figure.subplots(1, 2)
    rankings = {"A": (y_rev, score_a), "B": (y_rev, score_b)}
    plot.plot_comparison(rankings, kind="roc", ax=roc_axes, hull=False)
    plot.plot_comparison(rankings, kind="pr", ax=pr_axes, achievable=False)
    paths.append(_save(figure, out / "reversal.png"))
    return paths


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    return path


def demo(out="fastpr-demo", figures=True):
    """Print the worked examples; write their figures into ``out`` when matplotlib is installed."""
    sections = [_table1_report(), _figure6_report(), _estimators_report(), _reversal_report(),
                _unachievable_report(), _protocols_report()]
    print("\n\n".join("\n".join(section) for section in sections))
    if not figures:
        return
    if importlib.util.find_spec("matplotlib") is None:
        print(f'\nFigures: pip install "fastpr[plot]" and fastpr demo draws them into {out}/.')
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # none expected; keep the demo's output clean
        paths = _figures(Path(out))
    print("\nFigures: " + ", ".join(str(p) for p in paths))
