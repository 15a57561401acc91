"""``fastpr demo``: the papers' worked examples as text, and as figures when matplotlib is here."""
import importlib.util
import sys
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


def _estimators_report(y_true, y_score):
    e = evaluate(y_true, y_score)
    lines = [
        "Every estimator on the skewed ranking, synthetic data that the next two sections use",
        f"too: {e.n_pos:.0f} positives, {e.n_neg:,.0f} negatives (prevalence "
        f"{e.prevalence:.2%}), scores rounded",
        f"to 2 decimals: {e.n_thresholds} distinct thresholds",
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


def _prevalence_report(y_true, y_score):
    """Down-sample the negatives ten ways (every 10th, from each offset), shift each back."""
    full = evaluate(y_true, y_score)
    kept = [y_true | (np.arange(y_true.size) % 10 == offset) for offset in range(10)]
    first = evaluate(y_true[kept[0]], y_score[kept[0]])
    shifted = np.array([at_prevalence(y_true[keep], y_score[keep], full.prevalence)
                        .evaluation.auc_pr for keep in kept])
    return [
        "Prevalence shift: keep every 10th negative of the skewed ranking (as down-sampled",
        "training data does), then report at the full data's base rate",
        f"  AUC-PR on all data {full.auc_pr:.4f}; on the {first.n_neg:,.0f} negatives kept "
        f"{first.auc_pr:.4f} (prevalence {first.prevalence:.2%});",
        f"  shifted back to {full.prevalence:.2%}: {shifted[0]:.4f}",
        "  The shift undoes the prevalence, not the sampling: the ten ways of keeping one",
        f"  negative in ten give {shifted.min():.4f} to {shifted.max():.4f} once shifted, "
        f"mean {shifted.mean():.4f} (above {full.auc_pr:.4f}:",
        "  precision is convex in the false positives, so their noise raises it on average)",
    ]


def _hull_protocol_report(y_true, y_score):
    half = y_true.size // 2
    tune, test = slice(0, half), slice(half, None)
    honest = evaluate_at_thresholds(y_true[test], y_score[test],
                                    hull_thresholds(y_true[tune], y_score[tune])).evaluation
    fitted = evaluate(y_true[test], y_score[test])
    return [
        "Honest hull protocol: the skewed ranking's hull thresholds chosen on its first half,",
        "applied to its second",
        f"  second half: AUC-PR {fitted.auc_pr:.4f}; hull AUC-PR fitted on it "
        f"{fitted.auc_pr_hull:.4f} (optimistic),",
        f"  with thresholds from the first half {honest.auc_pr:.4f}",
    ]


def _coarse_ranking():
    """Binormal scores rounded to whole numbers (a rating scale): 2,000 examples, 30% positive,
    nine thresholds, so the straight-line error and the unachievable region both show."""
    y_true, y_score = datasets.binormal(2000, 0.3, separation=1.5, seed=3)
    return y_true, np.round(y_score)


def _figures(out, skewed):
    """Write the demo's figures into ``out``; returns {path: what it shows}."""
    from .. import plot

    out.mkdir(parents=True, exist_ok=True)
    y6, s6 = datasets.figure6_ranking()
    y_rev, score_a, score_b = datasets.reversal_rankings()
    drawings = {
        "roc_hull.png": ("the skewed ranking's ROC curve and its convex hull",
                         lambda ax: plot.plot_roc(*skewed, ax=ax, label="skewed ranking")),
        "pr_curve.png": ("other data: 2,000 scores rounded to integers, 30% positive",
                         lambda ax: plot.plot_pr(*_coarse_ranking(), ax=ax,
                                                 label="coarse scores", linear=True)),
        "pr_linear_error.png": ("Figure 6's ranking: the correct curve and the straight lines",
                                lambda ax: plot.plot_pr(y6, s6, ax=ax, label="Figure 6",
                                                        linear=True, achievable=False)),
    }
    shown = {}
    for name, (caption, draw) in drawings.items():
        # (The figures grow by the height of their legends, below the Axes.)
        figure, ax = plot.drawing.new_figure(1, (6, 5.8), pyplot=False)
        draw(ax)
        shown[_save(figure, out / name)] = caption
    figure, (roc_axes, pr_axes) = plot.drawing.new_figure(2, (11, 5.8), pyplot=False)
    rankings = {"A": (y_rev, score_a), "B": (y_rev, score_b)}
    plot.plot_comparison(rankings, kind="roc", ax=roc_axes, hull=False)
    plot.plot_comparison(rankings, kind="pr", ax=pr_axes, achievable=False)
    shown[_save(figure, out / "reversal.png")] = "rankings A and B, where the areas disagree"
    return shown


def _save(figure, path):
    figure.savefig(path, dpi=100)
    return path


def demo(out="fastpr-demo", figures=True):
    """Print the worked examples; write their figures into ``out`` when matplotlib is installed.
    Returns the exit status: 1, with a line on stderr, where the figures cannot be written."""
    skewed = datasets.skewed_ranking()
    sections = [_table1_report(), _figure6_report(), _estimators_report(*skewed),
                _prevalence_report(*skewed), _hull_protocol_report(*skewed), _reversal_report(),
                _unachievable_report()]
    print("\n\n".join("\n".join(section) for section in sections))
    if not figures:
        return 0
    if importlib.util.find_spec("matplotlib") is None:
        print(f'\nFigures: .venv/bin/pip install -q ".[plot]" and fastpr demo draws them into {out}/.')
        return 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # none expected; keep the demo's output clean
            shown = _figures(Path(out), skewed)
    except OSError as error:  # (a file in the way, a read-only directory)
        print(f"fastpr demo: cannot write the figures into {out or '.'}: "
              f"{error.strerror or error} (--out DIR chooses where, --no-figures none)",
              file=sys.stderr)
        return 1
    width = max(len(str(path)) for path in shown)
    print("\nFigures:\n" + "\n".join(f"  {path!s:<{width}}  {caption}"
                                      for path, caption in shown.items()))
    return 0
