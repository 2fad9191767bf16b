"""The analysis chart as a pure function: its labels in the language asked for, names escaped inside them."""

from __future__ import annotations

import re

from service.pictures import analysis_svg

# One move of each class and one unclassed, as GET /games/{id}/analysis lists them.
ANALYSIS = {
    "moves": [
        {"number": 1, "seat": 0, "eval_before": 1.0, "eval_after": 0.5, "loss": 0.5, "class": None},
        {"number": 2, "seat": 1, "eval_before": 2.0, "eval_after": -1.0, "loss": 3.0, "class": "inaccuracy"},
        {"number": 3, "seat": 0, "eval_before": 4.0, "eval_after": -2.0, "loss": 6.0, "class": "mistake"},
        {"number": 4, "seat": 1, "eval_before": 3.0, "eval_after": -9.5, "loss": 12.5, "class": "blunder"},
    ]
}


def test_each_classed_move_is_marked_with_its_class_and_loss_in_the_language_asked_for():
    english = analysis_svg(ANALYSIS, ["Ann", "Bob"])
    assert "<title>move 4: blunder, 12.5 points lost</title>" in english
    assert "<title>move 2: inaccuracy, 3.0 points lost</title>" in english
    assert "move 1:" not in english  # an unclassed move is not marked
    french = analysis_svg(ANALYSIS, ["Ann", "Bob"], "fr")
    # A decimal comma in French, Spanish and Portuguese, as the /play page writes the same losses.
    assert "<title>coup 3 : erreur, 6,0 points perdus</title>" in french
    assert "<title>Analyse : Ann contre Bob</title>" in french
    spanish = analysis_svg(ANALYSIS, ["Ann", "Bob"], "es")
    assert "<title>jugada 4: error grave, 12,5 puntos perdidos</title>" in spanish
    assert "Bob por delante ↓" in spanish


def test_names_are_escaped_inside_the_translated_labels():
    chart = analysis_svg(ANALYSIS, ['<b>&"', "{second}"], "pt")
    assert "<title>Análise: &lt;b&gt;&amp;&quot; contra {second}</title>" in chart
    assert "&lt;b&gt;&amp;&quot; à frente ↑" in chart and "<b>" not in chart


def _moves(count: int) -> dict:
    return {
        "moves": [
            {"number": n, "seat": n % 2, "eval_before": 0.0, "eval_after": 1.0, "loss": 0.0, "class": None}
            for n in range(1, count + 1)
        ]
    }


def _tick_labels(chart: str) -> list[int]:
    # A tick's label is a text centred on its tick, under the plot.
    return [
        int(n)
        for n in re.findall(
            r'<text x="[\d.]+" y="\d+" font-size="11" text-anchor="middle"[^>]*>(\d+)</text>', chart
        )
    ]


def test_the_move_axis_is_ticked_at_round_numbers_ten_ticks_at_most():
    assert _tick_labels(analysis_svg(_moves(4), ["Ann", "Bob"])) == [1, 2, 3, 4]
    assert _tick_labels(analysis_svg(_moves(43), ["Ann", "Bob"])) == [5, 10, 15, 20, 25, 30, 35, 40]
    assert _tick_labels(analysis_svg(_moves(20), ["Ann", "Bob"])) == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    assert _tick_labels(analysis_svg(_moves(0), ["Ann", "Bob"])) == []


def test_each_move_has_an_unstroked_line_named_by_its_number_at_its_point():
    chart = analysis_svg(_moves(43), ["Ann", "Bob"])
    lines = re.findall(r'<line class="move-at" data-number="(\d+)" x1="([\d.]+)"[^>]* stroke="none"/>', chart)
    assert [int(n) for n, _ in lines] == list(range(1, 44))
    xs = [float(x) for _, x in lines]
    assert xs == sorted(xs) and len(set(xs)) == 43
    # The line of move 40 stands where its tick does.
    assert f'<text x="{dict(lines)["40"]}" y=' in chart
