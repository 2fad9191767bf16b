"""The analysis chart as a pure function: its labels in the language asked for, names escaped inside them."""

from __future__ import annotations

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
