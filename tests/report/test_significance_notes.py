"""What the Scores page says when its resamples are too few for any pair to be significant:
hand-checked p floors (Holm: n_pairs x 1 / (R + 1)), resample counts and the three endings (this
page offers enough, the command line does, nothing does)."""

from __future__ import annotations

import pytest

from mteval_core.report.writers import too_few_resamples
from mteval_core.settings.limits import MAX_RESAMPLES


def test_enough_resamples_say_nothing():
    assert too_few_resamples(1100, 55, 20000, 40) is None  # 55 / 1,101 = 0.04995
    assert too_few_resamples(20, 1, 20000, 40) is None  # 1 / 21 = 0.0476
    assert too_few_resamples(20000, 990, 20000, 40) is None  # 45 systems: 990 / 20,001 = 0.0495


def test_too_few_that_this_page_offers_more_of():
    """11 systems, 55 pairs, 200 resamples: 55 / 201 = 0.27363. 1,100 resamples give
    55 / 1,101 = 0.04995; 1,099 give 55 / 1,100 = 0.05 exactly, not below."""
    assert too_few_resamples(200, 55, 20000, 40) == (
        "With 200 resamples and Holm's correction over 55 pairs, the smallest p-value a pair "
        "can get is 0.2736: no pair can reach p < 0.05. Choose at least 1,100 resamples."
    )
    assert too_few_resamples(1099, 55, 20000, 40) == (
        "With 1,099 resamples and Holm's correction over 55 pairs, the smallest p-value a pair "
        "can get is 0.0500: no pair can reach p < 0.05. Choose at least 1,100 resamples."
    )


def test_one_pair_is_one_pair():
    """Two systems: 1 / 20 = 0.05 is not below 0.05, 1 / 21 is."""
    assert too_few_resamples(19, 1, 20000, 40) == (
        "With 19 resamples and Holm's correction over 1 pair, the smallest p-value a pair can "
        "get is 0.0500: no pair can reach p < 0.05. Choose at least 20 resamples."
    )


def test_too_few_that_only_the_command_line_offers_more_of():
    """20 systems, 190 pairs, 1,000 resamples: 190 / 1,001 = 0.18981. 3,799 resamples suffice
    (190 x (1 / 3,800) rounds below 0.05, see resamples_needed), more than the 2,000 a page
    offers for 6,500 segments."""
    assert too_few_resamples(1000, 190, 2000, 6500) == (
        "With 1,000 resamples and Holm's correction over 190 pairs, the smallest p-value a pair "
        "can get is 0.1898: no pair can reach p < 0.05. Choose at least 3,799 resamples, more "
        "than this page offers for 6,500 segments (2,000); the command line (mteval score) takes "
        "up to 20,000."
    )
    # as many as the page offers: said plainly, no detour through the command line
    assert too_few_resamples(1000, 190, 3799, 6500).endswith("Choose at least 3,799 resamples.")


def test_too_few_for_anything_this_server_allows():
    """46 systems, 1,035 pairs: 1,035 / 1,001 is over 1, so the floor is 1. It takes 20,699
    resamples (1,035 x (1 / 20,700) rounds below 0.05), over the limit of 20,000."""
    assert MAX_RESAMPLES == 20000
    assert too_few_resamples(1000, 1035, 20000, 40) == (
        "With 1,000 resamples and Holm's correction over 1,035 pairs, the smallest p-value a "
        "pair can get is 1.0000: no pair can reach p < 0.05. Choose at least 20,699 resamples, "
        "more than the 20,000 this server and the command line allow: compare fewer systems at "
        "a time."
    )


@pytest.mark.parametrize("resamples, pairs", [(0, 3), (200, 0)])
def test_no_resamples_or_no_pairs_are_not_asked_about(resamples, pairs):
    with pytest.raises(ValueError):
        too_few_resamples(resamples, pairs, 20000, 40)
