"""Whether to answer at all: does what the search computes tell a wrong article from a right one?

The support bot answers with the best article whenever one passes the search's judges
(flows/support/lookup.py). On the blind sets' test halves about one answer in eleven is the wrong
article (bench/README.md). This measures, on the dev halves only (the main corpus's and the four
blind sets'), whether a decision over what the search already computes could withhold those
answers: below a threshold, ask which of the two nearest articles it is (when there is a runner-up)
or say the help centre does not cover it.

Per article answered, the features (all from the hits `look_up` returns and the words searched):

- `log score`: the best article's bm25 (flows/support/rerank.py);
- `margin`: the runner-up's score over the best's (0 without one);
- `coverage`: the share of the request's searched words the article holds anywhere;
- `weighted coverage`: the same, each word weighted by its rarity in English (7 - Zipf, at least
  0.5): "wifi" in "i forgot my wifi password" counts more than "keep" or "want";
- `rarest unexplained`: that weight of the rarest searched word the article does not hold,
  devices aside ("samsung", "ipad" tell where, not what);
- `elsewhere`: how many searched words the article does not hold are a title or tag word of another.

It also prints the dev halves' figures as `CLOSE` (flows/support/lookup.py: the runner-up's share of the
best score from which the two are offered as a choice) moves from 0.9 down: the margin as the
decision's other lever.

It prints each feature's ROC AUC (right against wrong), and the trade-off curve of a logistic
regression over all of them, fitted leaving one dev split out (so each split's probabilities come
from a model that never saw it), and of the score and the coverage alone: top-1, wrong-article rate
and no-match precision on the pooled dev halves as the threshold moves. The test halves are never read.

    python bench/search_confidence.py              # on the shipped help centre
    python bench/search_confidence.py --unlisted   # without its not_about and elsewhere lists (bench/search.py):
                                                   # the dev halves' wrong articles as a request no list foresaw
"""

from __future__ import annotations

import math
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wordfreq import zipf_frequency

from bench.search import unlisted
from flows.support import lookup
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.lookup import ABROAD, look_up
from flows.support.spelling import STEMMER
from tests.search_corpus import Case, load, load_fresh, load_fresh2, load_fresh3, load_fresh4, score

DEV: dict[str, Callable[[], list[Case]]] = {
    "dev": lambda: load("dev"),
    "dev fresh": lambda: load_fresh("dev"),
    "dev fresh2": lambda: load_fresh2("dev"),
    "dev fresh3": lambda: load_fresh3("dev"),
    "dev fresh4": lambda: load_fresh4("dev"),
}
FEATURES = ("log score", "margin", "coverage", "weighted coverage", "rarest unexplained", "elsewhere")
Answer = str | tuple[str, ...] | None


@dataclass
class Row:
    split: str
    expected: str | None
    answer: Answer  # what the bot answers now
    best: str | None = None  # the article answered, when one is
    second: str | None = None
    features: tuple[float, ...] = ()

    @property
    def right(self) -> bool:
        return self.answer == self.expected


def rarity(word: str) -> float:
    return max(0.5, 7.0 - zipf_frequency(word, "en"))


def rows_of(kb: KnowledgeBase) -> list[Row]:
    headings = kb.headings
    places = kb.places
    rows: list[Row] = []
    for split, cases in DEV.items():
        for case in cases():
            found = look_up(kb, case.q)
            row = Row(split, case.doc, found.answer)
            rows.append(row)
            if found.kind != "article":
                continue
            best = found.hits[0]
            words = kb.searched(ABROAD.in_english(case.q))
            stems = STEMMER.stemWords(words)
            held = [s in best.matched for s in stems]
            total = sum(rarity(w) for w in words) or 1.0
            unexplained = [w for w, s, h in zip(words, stems, held, strict=True) if not h and s not in places]
            row.best = best.doc.id
            row.second = found.hits[1].doc.id if len(found.hits) > 1 else None
            row.features = (
                math.log(best.score),
                found.hits[1].score / best.score if len(found.hits) > 1 else 0.0,
                sum(held) / max(len(stems), 1),
                sum(rarity(w) for w, h in zip(words, held, strict=True) if h) / total,
                max((rarity(w) for w in unexplained), default=0.0),
                float(sum(1 for s, h in zip(stems, held, strict=True) if not h and s in headings)),
            )
    return rows


def figures(rows: list[Row], confident: Callable[[Row], bool]) -> tuple[float, float, float]:
    """Top-1, wrong-article rate and no-match precision when an answer `confident` does not hold is
    withheld: a choice of the two nearest articles when there is a runner-up, else nothing."""
    right = wrong = nothing = rightly_nothing = 0
    for r in rows:
        answer = r.answer
        if r.best is not None and not confident(r):
            answer = (r.best, r.second) if r.second else None
        right += answer == r.expected
        wrong += isinstance(answer, str) and answer != r.expected
        if answer is None:
            nothing += 1
            rightly_nothing += r.expected is None
    return right / len(rows), wrong / len(rows), rightly_nothing / nothing if nothing else 1.0


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--unlisted", action="store_true", help="without the hand-written lists")
    args = parser.parse_args()
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    with tempfile.TemporaryDirectory() as tmp:
        folder = unlisted(Path(tmp) / "kb") if args.unlisted else SHIPPED_KB
        kb = KnowledgeBase(folder, str(Path(tmp) / "index.db"))
        rows = rows_of(kb)
        sweep = close_sweep(kb)
        kb.close()
    answered = [r for r in rows if r.best is not None]
    x = np.array([r.features for r in answered])
    y = np.array([r.best == r.expected for r in answered])
    print(f"pooled dev halves: {len(rows)} queries, {len(answered)} answered with an article, {int((~y).sum())} wrong")
    print("ROC AUC of each feature, right against wrong article (0.5: no signal; below: higher means wrong):")
    for i, name in enumerate(FEATURES):
        print(f"  {name:<20} {roc_auc_score(y, x[:, i]):.3f}")
    # each split's probabilities from a model fitted on the other splits
    p: dict[int, float] = {}
    for split in DEV:
        train = [i for i, r in enumerate(answered) if r.split != split]
        held = [i for i, r in enumerate(answered) if r.split == split]
        model = LogisticRegression(max_iter=5000).fit(x[train], y[train])
        for i, prob in zip(held, model.predict_proba(x[held])[:, 1], strict=True):
            p[id(answered[i])] = float(prob)
        if 0 < y[held].sum() < len(held):
            auc = roc_auc_score(y[held], [p[id(answered[i])] for i in held])
            print(f"  logistic regression, {split} left out: AUC {auc:.3f}")
    blind = [r for r in rows if r.split != "dev"]
    print("\nthe trade-off as the threshold moves (below it: a choice of the two nearest, else nothing)")
    print(f"{'decision':<28} {'pooled dev: top-1':>17} {'wrong':>6} {'no-match':>8}", end="")
    print(f"   {'blind dev: top-1':>16} {'wrong':>6}")
    curves: list[tuple[str, Callable[[float], Callable[[Row], bool]], list[float]]] = [
        ("p(right) >=", lambda t: lambda r: p[id(r)] >= t, [0.0, 0.6, 0.7, 0.75, 0.8, 0.85, 0.875, 0.9, 0.925]),
        ("score >=", lambda t: lambda r: math.exp(r.features[0]) >= t, [0.0, 2.5, 3.0, 3.5, 4.0]),
        ("coverage >=", lambda t: lambda r: r.features[2] >= t, [0.0, 0.25, 0.34, 0.5]),
        ("weighted coverage >=", lambda t: lambda r: r.features[3] >= t, [0.0, 0.3, 0.35, 0.4, 0.5]),
    ]
    for name, rule, thresholds in curves:
        for t in thresholds:
            top1, wrong, precision = figures(rows, rule(t))
            btop1, bwrong, _ = figures(blind, rule(t))
            print(f"{name + f' {t:g}':<28} {top1:>17.3f} {wrong:>6.3f} {precision:>8.3f}", end="")
            print(f"   {btop1:>16.3f} {bwrong:>6.3f}")
    print("\nthe runner-up's share of the best score from which the two are asked about (lookup.CLOSE, 0.9 shipped)")
    print("\n".join(sweep))


def close_sweep(kb: KnowledgeBase) -> list[str]:
    """The pooled dev halves as the runner-up's share that makes a choice moves (lookup.CLOSE), as lines."""
    cases = [c for load_split in DEV.values() for c in load_split()]
    shipped = lookup.CLOSE
    lines = [f"{'CLOSE':<8} {'pooled dev: top-1':>17} {'wrong':>6} {'no-match':>8} {'choice':>7} {'listing':>8}"]
    try:
        for close in (0.9, 0.85, 0.8, 0.75, 0.7):
            lookup.CLOSE = close  # read by lookup.as_close at each call
            s = score(cases, lambda q: look_up(kb, q).answer)
            shown = f"{s.top1:>17.3f} {s.wrong:>6.3f} {s.no_match_precision:>8.3f}"
            shown += f" {s.choice:>7.3f} {s.choice_right:>8.3f}"
            lines.append(f"{close:<8g} {shown}")
    finally:
        lookup.CLOSE = shipped
    return lines


if __name__ == "__main__":
    main()
