"""jiwer 4.0.0's named transformations (`jiwer.transformations`): Composes of `mteval.jiwer.transforms`, equal
step for step to jiwer's, run in Rust."""

from . import transforms as tr

__all__ = ["wer_default", "wer_contiguous", "wer_standardize", "wer_standardize_contiguous", "cer_default",
           "cer_contiguous"]

wer_default = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToListOfListOfWords()])

wer_contiguous = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToSingleSentence(),
                             tr.ReduceToListOfListOfWords()])

wer_standardize = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(),
                              tr.RemoveWhiteSpace(replace_by_space=True), tr.RemoveMultipleSpaces(), tr.Strip(),
                              tr.ReduceToListOfListOfWords()])

wer_standardize_contiguous = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(),
                                         tr.RemoveKaldiNonWords(), tr.RemoveWhiteSpace(replace_by_space=True),
                                         tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToSingleSentence(),
                                         tr.ReduceToListOfListOfWords()])

cer_default = tr.Compose([tr.Strip(), tr.ReduceToListOfListOfChars()])

cer_contiguous = tr.Compose([tr.Strip(), tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfChars()])
