"""Train the learned reader (engine/learned.py) on the commands corpus's dev split, and write its weights.

    python bench/train_kinds.py            # train, choose the threshold, write engine/data/kinds.json
    python bench/train_kinds.py --check    # retrain and compare with the shipped weights (no write)

Needs scikit-learn (the `test` extra). Only tests/corpora/commands/dev.yaml is read: the test split
measures the reader through the engine (`python bench/understanding.py`) and is never trained on.

Each message is labelled with the first command it carries that has no value (cancel, a question
back, small talk...), or "answer" when it only gives values. Features: engine.learned.features; the
5,000 that tell the labels apart most (chi-squared on the dev split) are kept, weighted by tf-idf,
and a multinomial logistic regression is fitted on them.

The threshold: the engine keeps a reading only when its probability reaches it. It is the lowest
value (in steps of 0.05, from 0.6) at which, in 5-fold cross-validation on dev repeated over DRAWS
random fold draws and pooled, the proposals the engine would carry out (a label with no value) are
right at least PRECISION of the time; so a message the rules leave unread is rarely sent the wrong
way, and a few messages added to dev do not move the threshold by the luck of one draw.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.learned import PROPOSED, WEIGHTS, KindModel, Label, features  # noqa: E402

DEV = ROOT / "tests" / "corpora" / "commands" / "dev.yaml"
FEATURES = 5000
C = 10.0
PRECISION = 0.97
DRAWS = 5
SLOT_KINDS = {"set_slot", "correct_slot"}


def labelled(path: Path = DEV) -> tuple[list[str], list[Label], str]:
    """The split's messages, their labels, and what they were read from (the file and its sha256)."""
    texts, labels, _, source = labelled_by_bot(path)
    return texts, labels, source


def labelled_by_bot(path: Path = DEV) -> tuple[list[str], list[Label], list[str], str]:
    """`labelled`, with the bot each message was typed to."""
    data = path.read_bytes()
    # libyaml when PyYAML has it: the 1 MB corpus takes seconds in pure Python
    entries = yaml.load(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    texts: list[str] = []
    labels: list[Label] = []
    bots: list[str] = []
    for e in entries:
        kinds = [c["kind"] for c in e["commands"] if c["kind"] not in SLOT_KINDS]
        texts.append(e["text"])
        labels.append(kinds[0] if kinds else "answer")
        bots.append(e["bot"])
    return texts, labels, bots, f"{path.relative_to(ROOT)} sha256:{hashlib.sha256(data).hexdigest()}"


def fit(texts: Sequence[str], labels: Sequence[str]) -> tuple[object, object]:
    """The fitted vectorizer and classifier."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
    from sklearn.feature_selection import SelectKBest, chi2
    from sklearn.linear_model import LogisticRegression

    counts = CountVectorizer(analyzer=features, min_df=2)
    x = counts.fit_transform(texts)
    keep = SelectKBest(chi2, k=min(FEATURES, x.shape[1])).fit(x, labels).get_support()
    vocabulary = [f for f, k in zip(counts.get_feature_names_out(), keep, strict=True) if k]
    tfidf = TfidfVectorizer(analyzer=features, vocabulary=vocabulary, sublinear_tf=True)
    model = LogisticRegression(C=C, max_iter=5000).fit(tfidf.fit_transform(texts), labels)
    return tfidf, model


def _cross_validated(texts: Sequence[str], labels: Sequence[str], seed: int) -> tuple[object, object]:
    """Each message's best label and its probability, read by a model trained on the other folds of one
    5-fold draw (`seed`)."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    y = np.array(labels)
    best = np.empty(len(y), dtype=object)
    prob = np.zeros(len(y))
    for train, held in StratifiedKFold(5, shuffle=True, random_state=seed).split(texts, y):
        tfidf, model = fit([texts[i] for i in train], y[train])
        p = model.predict_proba(tfidf.transform([texts[i] for i in held]))  # type: ignore[attr-defined]
        best[held] = model.classes_[p.argmax(1)]  # type: ignore[attr-defined]
        prob[held] = p.max(1)
    return best, prob


THRESHOLDS = [round(0.60 + 0.05 * k, 2) for k in range(8)]


def _proposals(best: object, labels: Sequence[str], prob: object, th: float) -> tuple[int, int]:
    """How many proposals the engine would carry out at `th`, and how many of them are right."""
    kept = [(b, t) for b, t, q in zip(best, labels, prob, strict=True) if q >= th and b in PROPOSED]  # type: ignore[call-overload]
    return len(kept), sum(b == t for b, t in kept)


def threshold(texts: Sequence[str], labels: Sequence[str], n: int = DRAWS) -> tuple[float, list[str]]:
    """The lowest threshold whose cross-validated proposals, pooled over `n` 5-fold draws, reach PRECISION,
    and the table behind it.

    Pooled because one draw decides too much near PRECISION: on dev of 27 Nov 2026 seeds 0-4 put 0.65 at
    0.972, 0.957, 0.968, 0.960, 0.964, so with seed 0 alone 18 messages added to dev moved the threshold from
    0.65 to 0.75 (bench/README.md, "The learned reader's threshold and its fold draw")."""
    import numpy as np

    pooled = {th: [0, 0] for th in THRESHOLDS}
    table = ["precision of the proposals per threshold " + " ".join(f"{th:.2f}" for th in THRESHOLDS)]
    accuracy = []
    for seed in range(n):
        best, prob = _cross_validated(texts, labels, seed)
        accuracy.append(float(np.mean(best == np.array(labels))))
        row = []
        for th in THRESHOLDS:
            kept, right = _proposals(best, labels, prob, th)
            pooled[th][0] += kept
            pooled[th][1] += right
            row.append(f"{right / kept if kept else 1.0:.3f}")
        table.append(f"  draw {seed}: " + " ".join(row))
    table.append("  pooled: " + " ".join(f"{r / k if k else 1.0:.3f}" for k, r in pooled.values()))
    table.insert(0, f"cross-validated on dev ({len(labels)} messages, {n} draws): accuracy {np.mean(accuracy):.3f}")
    chosen = 1.0
    for th, (kept, right) in pooled.items():
        precision = right / kept if kept else 1.0
        table.append(f"  threshold {th:.2f}: {kept / n:.0f} proposals a draw, {precision:.3f} right")
        if kept and right / kept >= PRECISION:
            chosen = th
            break
    return chosen, table


def label_thresholds(
    texts: Sequence[str], labels: Sequence[str], bots: Sequence[str], floor: float
) -> tuple[dict[str, float], list[str]]:
    """A diagnostic (`--by-bot`), not used for the weights: per proposed label, the lowest threshold (from
    `floor`, in steps of 0.05) whose proposals, each bot's messages read by a model trained on the other bots'
    only, are right at least PRECISION of the time (1.0: never). It says which labels lean on wordings one bot's
    cases taught: held out this way, "what's the derivative of x squared" (a request) is read as a question back
    and "the timer won't stop" (an answer) as a cancel. Applied as per-label thresholds (h-ask11) it left
    ask_back and cancel as they were through the engine, where the rules read such messages first, and lost
    small talk, so the shipped reader keeps one threshold."""
    import numpy as np

    y = np.array(labels)
    best = np.empty(len(y), dtype=object)
    prob = np.zeros(len(y))
    for bot in sorted(set(bots)):
        train = [i for i, b in enumerate(bots) if b != bot]
        held = [i for i, b in enumerate(bots) if b == bot]
        tfidf, model = fit([texts[i] for i in train], y[train])
        p = model.predict_proba(tfidf.transform([texts[i] for i in held]))  # type: ignore[attr-defined]
        best[held] = model.classes_[p.argmax(1)]  # type: ignore[attr-defined]
        prob[held] = p.max(1)
    table = [f"each bot held out ({len(set(bots))} bots), per label, from {floor:.2f}:"]
    chosen: dict[str, float] = {}
    for label in PROPOSED:
        cells = []
        for th in np.arange(floor, 0.96, 0.05):
            kept = [t for b, t, q in zip(best, y, prob, strict=True) if q >= th and b == label]
            right = sum(t == label for t in kept)
            if kept:
                cells.append(f"{th:.2f} {right}/{len(kept)}")
            if label not in chosen and (not kept or right / len(kept) >= PRECISION):
                chosen[label] = round(float(th), 2)
        chosen.setdefault(label, 1.0)
        table.append(f"  {label:9} {chosen[label]:.2f}   " + ", ".join(cells))
    return chosen, table


def export_fitted(tfidf: object, model: object, source: str, examples: int, threshold: float) -> KindModel:
    """The fitted vectorizer and classifier as the engine reads them."""
    idf = tfidf.idf_  # type: ignore[attr-defined]
    coef = model.coef_  # type: ignore[attr-defined]
    vocabulary = {
        f: (round(float(idf[j]), 6), [round(float(w), 6) for w in coef[:, j]])
        for f, j in sorted(tfidf.vocabulary_.items())  # type: ignore[attr-defined]
    }
    return KindModel(
        labels=list(model.classes_),  # type: ignore[attr-defined]
        intercepts=[round(float(b), 6) for b in model.intercept_],  # type: ignore[attr-defined]
        vocabulary=vocabulary,
        threshold=threshold,
        trained_on=source,
        examples=examples,
    )


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--check", action="store_true", help="retrain and compare with the shipped weights")
    ap.add_argument("--by-bot", action="store_true", help="also print each label's precision with each bot held out")
    ap.add_argument("--draws", type=int, default=DRAWS, help=f"5-fold draws the threshold is pooled over ({DRAWS})")
    args = ap.parse_args(argv)
    texts, labels, bots, source = labelled_by_bot()
    th, table = threshold(texts, labels, args.draws)
    print("\n".join(table))
    print(f"threshold: {th}")
    if args.by_bot:
        print("\n".join(label_thresholds(texts, labels, bots, th)[1]))
    tfidf, model = fit(texts, labels)
    trained = export_fitted(tfidf, model, source, len(texts), th)
    if args.check:
        shipped = KindModel.load()
        same = shipped == trained
        print("the shipped weights are what the dev split trains" if same else "the shipped weights differ: retrain")
        sys.exit(0 if same else 1)
    WEIGHTS.write_text(trained.model_dump_json(), encoding="utf-8")
    size = WEIGHTS.stat().st_size // 1024
    print(f"wrote {WEIGHTS.relative_to(ROOT)} ({size} KiB, {len(trained.vocabulary)} features)")


if __name__ == "__main__":
    main()
