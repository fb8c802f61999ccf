"""What a parity probe of the drop-in faces found (session of 2026-11-29): each case against the reference itself,
installed in the test venv (sacrebleu 2.6.0, cer 1.2.0, jiwer 4.0.0, whisper-normalizer 0.1.15)."""

import math

import cer as their_cer
import jiwer as their_jiwer
import pytest
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as TheirTercom
from whisper_normalizer.basic import BasicTextNormalizer as TheirBasic
from whisper_normalizer.english import EnglishNumberNormalizer as TheirNumbers
from whisper_normalizer.english import EnglishSpellingNormalizer as TheirSpellings
from whisper_normalizer.english import EnglishTextNormalizer as TheirEnglish

import mteval
from mteval import jiwer as mj
from mteval.normalizers import (BasicTextNormalizer, EnglishNumberNormalizer, EnglishSpellingNormalizer,
                                EnglishTextNormalizer)


def outcome(f, *args, **kwargs):
    """The value of a call, or the type of what it raised."""
    try:
        return f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)


@pytest.mark.parametrize("text", ["it's\t", "a's\u3000", "it's\r", "x's\x1d", "It's  here ", "", " \t", "a b"])
@pytest.mark.parametrize("normalized", [False, True])
def test_the_tercom_tokenizer_does_not_strip_before_tokenizing(text, normalized):
    # TER's preprocessing rstrips a segment; the tokenizer alone does not.
    assert mteval.TercomTokenizer(normalized=normalized)(text) == TheirTercom(normalized=normalized)(text)


@pytest.mark.parametrize("hyp, ref", [
    (["a", ""], ["a"]),
    (["a b"], ["a", "b"]),
    ([""], ["a"]),
    (["a\x1d"], ["a"]),
    (["", ""], ["x", "y", "z"]),
    (["b a", "c"], ["a", "b c"]),
    ("abc", "abd"),
    (("a", "b"), ("a", "c")),
])
def test_cer_takes_any_words_as_cer_does(hyp, ref):
    assert mteval.calculate_cer(hyp, ref) == their_cer.calculate_cer(hyp, ref)


def test_cer_shifts_words_of_immutable_sequences_where_cer_cannot():
    # cer shifts a phrase by item assignment, which a str or a tuple refuses (TypeError); mteval scores them as the
    # same words in a list.
    for hyp, ref in [("ab c", "abc"), (("a", "b"), ("b", "a"))]:
        assert outcome(their_cer.calculate_cer, hyp, ref) is TypeError
        assert mteval.calculate_cer(hyp, ref) == their_cer.calculate_cer(list(hyp), list(ref))


def test_cer_corpus_takes_any_words_as_cer_does():
    hyps, refs = [["a", ""], "abc", ["x y", "z"]], [["a"], "abd", ["x", "y z"]]
    ours, theirs = mteval.calculate_cer_corpus(hyps, refs), their_cer.calculate_cer_corpus(hyps, refs)
    assert ours == theirs


def test_jiwers_measures_default_their_texts_to_none():
    for name in ["wer", "mer", "wil", "wip", "cer"]:
        for args, kwargs in [((), {}), (("a b",), {}), ((), {"hypothesis": "a"})]:
            theirs = outcome(getattr(their_jiwer, name), *args, **kwargs)
            assert theirs is ValueError
            assert outcome(getattr(mj, name), *args, **kwargs) is theirs, (name, args, kwargs)


@pytest.mark.parametrize("kwargs", [
    {"line_width": -1}, {"line_width": 0}, {"line_width": 10.5}, {"line_width": 3.0}, {"line_width": 12},
    {"line_width": math.inf}, {"line_width": math.nan}, {"line_width": 2**64}, {"show_measures": 0},
    {"show_measures": "yes"}, {"skip_correct": None}, {"skip_correct": []}, {"skip_correct": [0]},
])
def test_visualize_alignment_takes_jiwers_argument_values(kwargs):
    refs, hyps = ["the cat sat on the mat", "a b c"], ["the cat sit on mat", "a b c"]
    for process in ["process_words", "process_characters"]:
        theirs = their_jiwer.visualize_alignment(getattr(their_jiwer, process)(refs, hyps), **kwargs)
        assert mj.visualize_alignment(getattr(mj, process)(refs, hyps), **kwargs) == theirs, (process, kwargs)


@pytest.mark.parametrize("value", [b"A b", b"", bytearray(b"Colour"), None, 5, ("a",), b"colour honour"])
@pytest.mark.parametrize("ours, theirs", [
    (EnglishTextNormalizer, TheirEnglish), (BasicTextNormalizer, TheirBasic), (EnglishNumberNormalizer, TheirNumbers),
])
def test_normalisers_refuse_what_is_not_a_string_as_whisper_normalizer_does(value, ours, theirs):
    want = outcome(theirs(), value)
    got = outcome(ours(), value)
    assert got == want and type(got) is type(want), (value, got, want)


@pytest.mark.parametrize("value", [b"", b"colour", None, 5, bytearray(b"")])
def test_the_spelling_normaliser_refuses_what_is_not_a_string_as_whisper_normalizer_does(value):
    want = outcome(TheirSpellings(), value)
    got = outcome(EnglishSpellingNormalizer(), value)
    assert got == want and type(got) is type(want), (value, got, want)


@pytest.mark.parametrize("make, score", [
    (lambda m: m.BLEU(), lambda x: x.sentence_score("a", [])),
    (lambda m: m.CHRF(), lambda x: x.sentence_score("a", [])),
    (lambda m: m.TER(), lambda x: x.sentence_score("a", [])),
    (lambda m: m.BLEU(), lambda x: x.corpus_score([], [[]])),
    (lambda m: m.BLEU(tokenize="foo"), lambda x: x.corpus_score(["a"], [["a"]])),
    (lambda m: m.BLEU(smooth_method="foo"), lambda x: x.corpus_score(["a"], [["a"]])),
    (lambda m: m.BLEU(trg_lang="ja"), lambda x: x.corpus_score(["a"], [["a"]])),
    (lambda m: m.BLEU(tokenize="ja-mecab"), lambda x: x.corpus_score(["a"], [["a"]])),
    (lambda m: m.BLEU(tokenize="flores200"), lambda x: x.corpus_score(["a"], [["a"]])),
])
def test_sacrebleus_exceptions_are_raised_and_stay_value_errors(make, score):
    import sacrebleu
    want = outcome(lambda: score(make(sacrebleu)))
    got = outcome(lambda: score(make(mteval)))
    assert isinstance(want, type) and issubclass(got, want) and issubclass(got, ValueError), (want, got)


# A third probe (session of 2026-11-29, seventh): option values sacrebleu and fastchrf take that mteval refused.
@pytest.mark.parametrize("kwargs", [
    {"beta": -1}, {"beta": -3, "word_order": 2}, {"beta": -0.5}, {"char_order": 0, "word_order": 0},
    {"char_order": 0, "word_order": 2}, {"char_order": 0, "word_order": 0, "eps_smoothing": True},
])
def test_chrf_takes_sacrebleus_degenerate_options(kwargs):
    import sacrebleu
    hyps, refs = ["the cat sat", "a dog", ""], [["the cat sat on the mat", "a dog barks", "x"]]
    theirs, ours = sacrebleu.CHRF(**kwargs), outcome(mteval.CHRF, **kwargs)
    for call in (lambda m: m.corpus_score(hyps, refs), lambda m: m.sentence_score(hyps[0], [refs[0][0]])):
        want = outcome(call, theirs)
        if isinstance(ours, type):
            # With eps smoothing and no order sacrebleu divides by zero when it scores; mteval refuses the options.
            assert issubclass(ours, ValueError) and want is ZeroDivisionError, (kwargs, ours, want)
            continue
        got = outcome(call, ours)
        if want is IndexError:
            # No order at all: sacrebleu's sentence_score crashes summing an empty statistics list
            # (sum_of_lists); its corpus formula gives 0, as mteval gives for a sentence too.
            assert kwargs.get("char_order") == kwargs.get("word_order") == 0 and got.score == 0.0, (kwargs, got)
            continue
        assert (got.score, str(got)) == (want.score, str(want)), kwargs


@pytest.mark.parametrize("kwargs", [{"max_ngram_order": 0}, {"max_ngram_order": 0, "effective_order": True}])
def test_bleu_takes_no_ngram_order_as_sacrebleu(kwargs):
    import sacrebleu
    hyps, refs = ["a b c", "d e"], [["a b c d", "d e"]]
    theirs, ours = sacrebleu.BLEU(**kwargs), mteval.BLEU(**kwargs)
    want, got = theirs.corpus_score(hyps, refs), ours.corpus_score(hyps, refs)
    assert (got.score, str(got), got.precisions) == (want.score, str(want), want.precisions)
    assert str(ours.sentence_score(hyps[0], [refs[0][0]])) == str(theirs.sentence_score(hyps[0], [refs[0][0]]))


@pytest.mark.parametrize("beta", [-2.0, -0.5, 0.0, 0.5])
def test_fastchrf_takes_any_finite_beta(beta):
    import fastchrf
    hyps = [["the cat sat", "a cat sat on", ""]]
    refs = [["the cat sat on the mat", "cats sat"]]
    assert mteval.aggregate_chrf(hyps, refs, beta=beta) == fastchrf.aggregate_chrf(hyps, refs, beta=beta)
    assert mteval.pairwise_chrf(hyps, refs, beta=beta) == fastchrf.pairwise_chrf(hyps, refs, beta=beta)
