"""The five figures of a campaign report, drawn from its metrics JSON (lib/metrics/types.ts).

Usage: campaign_figures.py <metrics.json> <out-dir>

Writes fig5a.svg, fig5d.svg, fig6a.svg, fig6c.svg, fig7.svg and prints one JSON line
{"figures": [...], "matplotlib": "<version>"}. Views follow the PhysVEC paper: executability by
topic x model x framework (Fig. 5a), executability vs iteration (5d), token and tool-call efficiency
(6a), pass rate vs number of trials (6c), completed tasks (7). Text stays text in the SVG
(svg.fonttype 'none') so the page is small and searchable; the hash salt makes ids deterministic
and distinct per figure.
"""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator

plt.rcParams.update({
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 100,
})

FRAMEWORK_STYLE = {
    "physvec": {"color": "#1f77b4", "marker": "o", "linestyle": "-"},
    "react": {"color": "#d62728", "marker": "x", "linestyle": "--"},
    "react-rag": {"color": "#ff7f0e", "marker": "^", "linestyle": "-."},
    "1-shot": {"color": "#7f7f7f", "marker": "s", "linestyle": ":"},
}
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def short_model(model):
    """A legend-sized model name: a scripted model's per-run template 'scripted:campaign/{task}.t{trial}'
    becomes 'scripted:campaign'; 'provider:org/model' keeps provider and the last path part."""
    provider, _, name = model.partition(":")
    if not name:
        return model
    parts = name.split("/")
    if "{" in name:
        fixed = [p for p in parts if "{" not in p]
        return f"{provider}:{'/'.join(fixed)}" if fixed else provider
    return f"{provider}:{parts[-1]}"


def series_name(model, framework):
    return f"{short_model(model)} / {framework}"


def no_data(ax, what):
    ax.text(0.5, 0.5, f"no {what} in this campaign", ha="center", va="center", transform=ax.transAxes, color="#666")


def save(fig, out, name):
    plt.rcParams["svg.hashsalt"] = name
    # No metadata block: no date (reproducible files) and no URLs in a page meant to be self-contained.
    fig.savefig(out / f"{name}.svg", format="svg", bbox_inches="tight",
                metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    plt.close(fig)
    return name


def grouped_bars(ax, topics, series, value, ylabel, ylim=None, mean_lines=False):
    """One cluster per topic, one bar per (model, framework) series; a missing group leaves a gap."""
    n = max(len(series), 1)
    width = 0.8 / n
    for i, (model, framework, by_topic) in enumerate(series):
        xs, ys = [], []
        for t, topic in enumerate(topics):
            g = by_topic.get(topic)
            v = value(g) if g else None
            if v is not None:
                xs.append(t - 0.4 + width * (i + 0.5))
                ys.append(v)
        style = FRAMEWORK_STYLE.get(framework, {})
        ax.bar(xs, ys, width=width * 0.92, color=PALETTE[i % len(PALETTE)], edgecolor=style.get("color", "black"),
               linewidth=0.8, label=series_name(model, framework))
    if mean_lines:
        # The paper's dashed lines: the mean over the series within each topic.
        for t, topic in enumerate(topics):
            vals = [value(bt[topic]) for _, _, bt in series if topic in bt and value(bt[topic]) is not None]
            if vals:
                ax.hlines(sum(vals) / len(vals), t - 0.45, t + 0.45, colors="black", linestyles="dashed", linewidth=0.8)
    ax.set_xticks(range(len(topics)))
    ax.set_xticklabels(topics)
    ax.set_ylabel(ylabel)
    if ylim:
        ax.set_ylim(*ylim)


def series_of(groups):
    by = {}
    for g in groups:
        by.setdefault((g["model"], g["framework"]), {})[g["topic"]] = g
    return [(m, f, bt) for (m, f), bt in by.items()]


def fig5a(m, out):
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    if m["groups"]:
        grouped_bars(ax, m["topics"], series_of(m["groups"]), lambda g: g["S"], "executability S (pass@8)", (0, 1.05))
        ax.legend(fontsize=7, ncol=2, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    else:
        no_data(ax, "runs")
    ax.set_title("Executability by topic × model × framework")
    return save(fig, out, "fig5a")


def fig5d(m, out):
    topics = m["topics"] or ["(none)"]
    fig, axes = plt.subplots(1, len(topics), figsize=(max(3.2 * len(topics), 4.5), 3.0), squeeze=False, sharey=True)
    for ax, topic in zip(axes[0], topics):
        rows = [g for g in m["byTopicFramework"] if g["topic"] == topic and g["runs"] > 0]
        for g in rows:
            curve = g["executabilityByIteration"]
            style = FRAMEWORK_STYLE.get(g["framework"], {})
            ax.plot(range(1, len(curve) + 1), curve, label=g["framework"], **style)
        if not rows:
            no_data(ax, "runs")
        ax.set_title(topic)
        ax.set_xlabel("iteration k")
        ax.set_xticks(range(1, 9))
        ax.set_ylim(-0.03, 1.05)
    axes[0][0].set_ylabel("S (executable by iteration k)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    for ax in axes[0][1:]:
        h, l = ax.get_legend_handles_labels()
        for hh, ll in zip(h, l):
            if ll not in labels:
                handles.append(hh)
                labels.append(ll)
    if handles:
        fig.legend(handles, labels, fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 0.95))
    fig.suptitle("Executability vs iteration", y=1.02)
    return save(fig, out, "fig5d")


def fig6a(m, out):
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    panels = [("tokensIn", "T_i (input tokens / run)"), ("tokensOut", "T_o (output tokens / run)"), ("toolCalls", "T_c (tool calls / run)")]
    series = series_of(m["groups"])
    for ax, (key, label) in zip(axes, panels):
        if series:
            grouped_bars(ax, m["topics"], series, lambda g, k=key: g[k], label, mean_lines=True)
        else:
            no_data(ax, "runs")
        ax.set_title(label.split(" (")[0])
    if series:
        axes[-1].legend(fontsize=7, ncol=1, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle("Token and tool-call efficiency (dashed: mean per topic)", y=1.03)
    fig.tight_layout()
    return save(fig, out, "fig6a")


def fig6c(m, out):
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    rows = [p for p in m["passAtN"] if p["passRate"]]
    max_n = 1
    for i, p in enumerate(rows):
        style = dict(FRAMEWORK_STYLE.get(p["framework"], {}))
        style["color"] = PALETTE[i % len(PALETTE)]
        n = len(p["passRate"])
        max_n = max(max_n, n)
        ax.plot(range(1, n + 1), p["passRate"], label=f"{series_name(p['model'], p['framework'])} ({p['tasks']} tasks)", **style)
    if not rows:
        no_data(ax, "trials")
    ax.set_xlabel("number of trials N")
    ax.set_ylabel(f"pass rate ({m['passCriterion']})")
    ax.set_xticks(range(1, max_n + 1))
    ax.set_xlim(0.7, max_n + 0.3)
    ax.set_ylim(-0.03, 1.05)
    ax.set_title("Pass rate vs number of trials")
    if rows:
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return save(fig, out, "fig6c")


def fig7(m, out):
    curves = [c for c in m["completed"] if c["byScientificIteration"]]
    fig, axes = plt.subplots(1, 2 if curves else 1, figsize=(10 if curves else 6, 3.4), squeeze=False)
    ax = axes[0][0]
    rows = m["completed"]
    if rows:
        xs = list(range(len(rows)))
        ax.bar(xs, [c["tasks"] for c in rows], width=0.6, facecolor="none", edgecolor="#999", linestyle="--", label="tasks")
        ax.bar(xs, [c["completed"] for c in rows], width=0.6,
               color=[FRAMEWORK_STYLE.get(c["framework"], {}).get("color", "#333") for c in rows], label="completed")
        for x, c in zip(xs, rows):
            ax.text(x, c["completed"], str(c["completed"]), ha="center", va="bottom", fontsize=8)
        ax.set_xticks(xs)
        ax.set_xticklabels([series_name(c["model"], c["framework"]) for c in rows], rotation=30, ha="right", fontsize=7)
        ax.legend(fontsize=7, frameon=False)
    else:
        no_data(ax, "runs")
    ax.set_ylabel("completed tasks")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("(a) tasks with physically valid results")
    if curves:
        bx = axes[0][1]
        max_k = max(len(c["byScientificIteration"]) for c in curves)
        for i, c in enumerate(curves):
            ys = c["byScientificIteration"]
            # Cumulative: a pair that stopped early stays at its final count up to the longest curve.
            ys = ys + [ys[-1]] * (max_k - len(ys))
            bx.plot(range(1, max_k + 1), ys, marker="o", color=PALETTE[i % len(PALETTE)],
                    label=series_name(c["model"], c["framework"]))
        bx.set_xticks(range(1, max_k + 1))
        bx.set_ylim(0, max(c["tasks"] for c in curves) + 0.5)
        bx.yaxis.set_major_locator(MaxNLocator(integer=True))
        bx.set_xlabel("Scientific verifier iteration")
        bx.set_ylabel("cumulative completed tasks")
        bx.set_title("(b) completed tasks by iteration")
        bx.legend(fontsize=7, frameon=False)
    fig.tight_layout()
    return save(fig, out, "fig7")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: campaign_figures.py <metrics.json> <out-dir>")
    metrics = json.loads(Path(sys.argv[1]).read_text())
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    written = [f(metrics, out) for f in (fig5a, fig5d, fig6a, fig6c, fig7)]
    print(json.dumps({"figures": written, "matplotlib": matplotlib.__version__}))


if __name__ == "__main__":
    main()
