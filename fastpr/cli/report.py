"""The report of ``fastpr evaluate``: its shape, and its table, json and csv renderings."""
import csv
import dataclasses
import io
import json
import math
import re
import textwrap
from typing import NamedTuple

from ..results import Evaluation

FIELDS = tuple(field.name for field in dataclasses.fields(Evaluation))
COUNTS = ("n_pos", "n_neg", "n_thresholds")  # not averaged over groups
MEAN_FIELDS = tuple(f for f in FIELDS if f not in COUNTS)
INTERVAL_FIELDS = ("auc_pr_ci_low", "auc_pr_ci_high")
METRICS = FIELDS + INTERVAL_FIELDS  # every results dict holds these keys, in this order



class PointOption(NamedTuple):
    """An option that adds columns: one per value given and per field of the library's result,
    named ``template.format(value)`` in json and csv (the table abbreviates the words)."""

    option: str
    argument: str  # of the library function, for its errors in the command's terms
    function: str  # fastpr's function, called with the option's values
    type: type
    metavar: str
    help: str
    columns: tuple  # (name template, field of the function's result)


POINT_OPTIONS = (
    PointOption("--at-precision", "min_precision", "recall_at_precision", float, "P",
                "add a column of the best recall at one threshold with precision >= P "
                "(repeatable)", (("recall@precision>={}", "value"),)),
    PointOption("--at-recall", "min_recall", "precision_at_recall", float, "R",
                "add a column of the best precision at one threshold with recall >= R "
                "(repeatable)", (("precision@recall>={}", "value"),)),
    PointOption("--at-fpr", "max_fpr", "tpr_at_fpr", float, "F",
                "add a column of the best TPR (sensitivity) at one threshold with FPR <= F "
                "(repeatable)", (("tpr@fpr<={}", "value"),)),
    PointOption("--at-tpr", "min_tpr", "tnr_at_tpr", float, "T",
                "add a column of the best TNR (specificity) at one threshold with TPR >= T "
                "(repeatable)", (("tnr@tpr>={}", "value"),)),
    PointOption("--top-k", "k", "top_k", int, "K",
                "add columns of the precision and recall of the K highest scores, a tie at the "
                "K-th score shared in proportion (repeatable)",
                (("precision@{}", "precision"), ("recall@{}", "recall"))),
)
# The table's abbreviations of the words in the names of those columns.
_SHORT = {"recall": "R", "precision": "P", "tpr": "TPR", "fpr": "FPR", "tnr": "TNR"}
_WORDS = {"recall": "best recall", "precision": "best precision", "tpr": "best TPR",
          "tnr": "best TNR"}


def point_columns(options):
    """(column name, function, level, field) of every column that the values of ``options``
    ({option: values or None}) add, in the order of POINT_OPTIONS and of the values."""
    return [(template.format(_level_text(value)), point.function, value, field)
            for point in POINT_OPTIONS for value in options.get(point.option) or ()
            for template, field in point.columns]


def _level_text(value):
    return str(value) if isinstance(value, int) else repr(float(value))


def _point_head(name):
    """The table's head of an added column: "recall@precision>=0.9" -> "R@P>=0.9"."""
    return re.sub("recall|precision|tpr|fpr|tnr", lambda word: _SHORT[word.group()], name)


def _point_words(name):
    """The key's words for an added column."""
    rate, _, constraint = name.partition("@")
    if constraint.isdigit():
        return f"{rate} of the {constraint} highest scores"
    constraint = re.sub("tpr|fpr", lambda word: word.group().upper(), constraint)
    constraint = constraint.replace(">=", " >= ").replace("<=", " <= ")
    return f"{_WORDS[rate]} at one threshold with {constraint}"


# Each field's head in the table, short so that a row fits a terminal, and the key's words for
# it; json and csv name the fields in full.
_HEADS = {
    "n_pos": ("pos", "positives"),
    "n_neg": ("neg", "negatives (both total weights with --weight)"),
    "prevalence": ("prev", "prevalence"),
    "n_thresholds": ("thr", "distinct scores"),
    "auc_roc": ("roc", "AUC-ROC"),
    "auc_roc_hull": ("roc_hull", "AUC-ROC of the ROC convex hull"),
    "auc_pr": ("pr", "AUC-PR interpolated between operating points (exact)"),
    "auc_pr_dg": ("pr_dg", "Davis & Goadrich's composite trapezoid"),
    "average_precision": ("ap", "average precision (scikit-learn's)"),
    "auc_pr_lower": ("lower", "lower trapezoid"),
    "auc_pr_upper": ("upper", "upper trapezoid"),
    "auc_pr_linear": ("linear", "straight lines between points (overstate across mixed ties)"),
    "auc_pr_hull": ("pr_hull", "AUC-PR of the achievable curve (ROC hull)"),
    "auc_pr_min": ("pr_min", "AUC-PR of the worst ranking"),
    "auc_npr": ("npr", "normalised AUC-PR, (pr - pr_min) / (1 - pr_min)"),
}
# The short words of the table's first column for the rows that are not one group's.
ALL_ROWS, MEAN_ROWS = "(all)", "(mean)"

SHAPES = f"""\
output (--format):
  table  one row per model; with --group, per group and model: all rows first,
         then each group, then the mean over the groups with both classes (a
         group without positives or negatives has undefined areas). Columns are
         abbreviated; the key under the table spells them out.
  json   {{"file", "n_rows", "models": [names], "added_metrics": [names],
          "interval": null or {{"metric", "method", "confidence", "replicates",
                               "seed"}},
          "all": {{model: results}},
          "groups": null or {{group: {{model: results}}}},
          "mean": null or {{model: results}},
          "mean_over": null or {{"groups", "used", "no_positives", "no_negatives"}}}}
         Each results object holds every metric below, then those that
         --at-precision, --at-recall, --at-fpr, --at-tpr and --top-k add (named
         in added_metrics, as "recall@precision>=0.9" or "precision@1000"); null
         where it does not apply (counts in the mean, the interval without
         --bootstrap) or is undefined (a constraint that no threshold meets).
  csv    a header line, then one line per results: subset (all, group or mean),
         group (empty unless subset is group), model, then the metrics below and
         the added ones; an empty cell where a value does not apply, nan where
         it is undefined.
{textwrap.fill(" ".join(METRICS), 80, initial_indent="  metrics ", subsequent_indent=" " * 9)}
         (fastpr.Evaluation's fields; auc_pr_ci_low and auc_pr_ci_high bound the
         --bootstrap interval of auc_pr).

Rows are counted from 1, the first row of data. Bad input ends with exit status 1
and one line on stderr."""


def empty(file, models, n_rows, added=()):
    """The report before any result: every key present, as ``SHAPES`` describes it;
    ``added`` names the metrics that options add."""
    return {"file": str(file), "n_rows": int(n_rows), "models": list(models),
            "added_metrics": list(added), "interval": None, "all": {}, "groups": None,
            "mean": None, "mean_over": None}


def results(values, added=()):
    """A results dict with every metric and the ``added`` ones, None where one does not apply;
    counts as integers where they are whole (unweighted, or whole weights)."""
    out = {name: values.get(name) for name in (*METRICS, *added)}
    for name in COUNTS:
        if out[name] is not None and float(out[name]).is_integer():
            out[name] = int(out[name])
    return out


def interval_bounds(result):
    """The bounds of a :class:`fastpr.BootstrapResult` under their report names."""
    return dict(zip(INTERVAL_FIELDS, (result.low, result.high)))


def interval_settings(args):
    return {"metric": "auc_pr", "method": args.ci_method, "confidence": args.confidence,
            "replicates": args.bootstrap, "seed": args.seed}


def _sections(report):
    """(subset, group, model, results) for every line of the report, in order."""
    lines = [("all", "", m, r) for m, r in report["all"].items()]
    for group, by_model in (report["groups"] or {}).items():
        lines += [("group", group, m, r) for m, r in by_model.items()]
    lines += [("mean", "", m, r) for m, r in (report["mean"] or {}).items()]
    return lines


# --------------------------------------------------------------------------- table
def _cell(name, value):
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    if name in COUNTS:  # total weights
        return f"{value:.6g}"
    if math.isnan(value):
        return "nan"
    # four decimals, unless they would show a rare class's prevalence or area as 0.0000
    return f"{value:.4f}" if value == 0 or abs(value) >= 0.001 else f"{value:.2e}"


def _interval_cell(values):
    low, high = (values[name] for name in INTERVAL_FIELDS)
    return "" if low is None else f"[{_cell('', low)}, {_cell('', high)}]"


def _title(report):
    models = report["models"]
    shown = ", ".join(models[:8]) + (", ..." if len(models) > 8 else "")
    title = (f"{report['file']}: {report['n_rows']} rows, {len(models)} "
             f"model{'s' if len(models) > 1 else ''} ({shown})")
    if report["groups"] is not None:
        title += f", {len(report['groups'])} groups"
    return title


def _mean_note(over):
    left_out = [f"{count} had no {kind}" for kind, count in
                (("positives", over["no_positives"]), ("negatives", over["no_negatives"]))
                if count]
    note = f"{MEAN_ROWS}: mean over {over['used']} of {over['groups']} groups"
    return note + (f" ({'; '.join(left_out)})" if left_out else "")


def _key(report):
    """The lines under the table that spell out its column heads."""
    entries = [f"{head} = {words}" for head, words in _HEADS.values()]
    entries += [f"{_point_head(name)} = {_point_words(name)}"
                for name in report["added_metrics"]]
    interval = report["interval"]
    if interval is not None:
        entries.append(f"{interval['confidence']:.0%} CI = {interval['method']} bootstrap "
                       f"interval of pr, {interval['replicates']} replicates, seed "
                       f"{interval['seed']}")
    lines, line = [], "key:"
    for entry in entries:
        if len(line) + len(entry) + 2 > 96:
            lines.append(line + ";")
            line = "    "
        line += (" " if line.endswith(":") or not line.strip() else "; ") + entry
    return lines + [line + "."]


def _columns(report):
    """(head, cell of a results dict) for each metric column: the interval next to its pr."""
    columns = []
    for name, (head, _) in _HEADS.items():
        columns.append((head, lambda values, name=name: _cell(name, values[name])))
        if name == "auc_pr" and report["interval"] is not None:
            columns.append((f"{report['interval']['confidence']:.0%} CI", _interval_cell))
    columns += [(_point_head(name), lambda values, name=name: _cell(name, values[name]))
                for name in report["added_metrics"]]
    return columns


def _render_table(report):
    grouped = report["groups"] is not None
    columns = _columns(report)
    heads = ["group"] * grouped + ["model"] + [head for head, _ in columns]
    rows = []
    for subset, group, model, values in _sections(report):
        first = {"all": ALL_ROWS, "mean": MEAN_ROWS, "group": group}[subset]
        rows.append([first] * grouped + [model] + [cell(values) for _, cell in columns])
    widths = [max(len(cells[k]) for cells in [heads, *rows]) for k in range(len(heads))]
    n_labels = 1 + grouped  # left-aligned; the numbers are right-aligned

    def line(cells):
        return "  ".join(c.ljust(w) if k < n_labels else c.rjust(w)
                         for k, (c, w) in enumerate(zip(cells, widths))).rstrip()

    lines = [_title(report), "", line(heads), *map(line, rows), ""]
    if grouped:
        lines.append(_mean_note(report["mean_over"]))
    return "\n".join(lines + _key(report))


# --------------------------------------------------------------------------- csv and json
def _csv_value(value):
    if value is None:
        return ""
    return value if isinstance(value, int) else repr(float(value))


def _render_csv(report):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = [*METRICS, *report["added_metrics"]]
    writer.writerow(["subset", "group", "model", *names])
    for subset, group, model, values in _sections(report):
        writer.writerow([subset, group, model, *(_csv_value(values[m]) for m in names)])
    return buffer.getvalue().rstrip("\n")


def _json_ready(value):
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_ready(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def render(report, output_format):
    """The report as text: ``"table"``, ``"json"`` or ``"csv"``."""
    if output_format == "json":
        return json.dumps(_json_ready(report), indent=2)
    if output_format == "csv":
        return _render_csv(report)
    return _render_table(report)
