"""The fit behind DEEP_WEIGHTS reads the evaluation's own terms and solves least squares exactly."""

import pytest

from service.bots.evaluation import ANALYSIS_WEIGHTS, DEEP_WEIGHTS, seat_value
from tests.support.positions import position, seat, window_rows
from tools.evalfit import as_terms, least_squares, seat_terms


@pytest.mark.parametrize("weights", [ANALYSIS_WEIGHTS, DEEP_WEIGHTS], ids=["analysis", "deep"])
def test_a_weight_set_written_as_the_fits_terms_is_the_evaluation(weights):
    # The fit's rows are seat 0's terms minus seat 1's: a weight set's
    # coefficients over them must give the evaluation's difference, or the
    # errors it prints for the shipped weights would be of something else.
    state = position(
        seat(buttons=9, position=17, income=4, rows=window_rows((3, 3), (3, 4))),
        seat(buttons=3, position=12, income=1),
        bonus_owner=1,
    )
    row = [a - b for a, b in zip(seat_terms(state, 0), seat_terms(state, 1), strict=True)]
    linear = sum(c * x for c, x in zip(as_terms(weights)[:-1], row, strict=True))
    assert linear == pytest.approx(seat_value(state, 0, weights) - seat_value(state, 1, weights))


def test_least_squares_recovers_the_coefficients_of_exact_data():
    rows = [[1.0, x, x * x, (x * 7) % 5] for x in range(12)]
    targets = [2.0 - 0.5 * r[1] + 0.25 * r[2] + 3.0 * r[3] for r in rows]
    assert least_squares(rows, targets) == pytest.approx([2.0, -0.5, 0.25, 3.0])
