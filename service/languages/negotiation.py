"""Which of our languages a client asked for: its Accept-Language (RFC 9110 section 12.5.4) read by q-value."""

from __future__ import annotations

from .spoken import DEFAULT_LANGUAGE, LANGUAGES

# More ranges than any browser sends: the rest of a longer header is not read.
_MAX_RANGES = 32


def negotiate(header: str | None) -> str:
    """The language to answer in: the highest-q range we speak, English when none is.

    A range counts by its primary subtag (`pt-BR` and `pt-PT` are `pt`),
    `*` stands for English, `q=0` asks for a language not at all, and among
    equal q-values the one listed first wins. Malformed ranges are skipped,
    never refused: an answer in English is better than an error.
    """
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for item in (header or "").split(",")[:_MAX_RANGES]:
        language, q = _range(item)
        if language is not None and q > best_q:
            best, best_q = language, q
    return best


def _range(item: str) -> tuple[str | None, float]:
    """(our language, q) of one `range;q=x`, or (None, 0) for a range we do not speak or cannot read."""
    tag, *params = (part.strip() for part in item.split(";"))
    primary = tag.split("-", 1)[0].lower()
    if primary == "*":
        primary = DEFAULT_LANGUAGE
    if primary not in LANGUAGES:
        return None, 0.0
    q = 1.0
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                return None, 0.0
            if not 0 <= q <= 1:
                return None, 0.0
    return primary, q
