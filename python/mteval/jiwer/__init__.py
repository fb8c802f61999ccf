"""jiwer 4.0.0's API with jiwer's numbers, transformed and aligned by mteval's Rust kernels on all cores.

    from mteval import jiwer
    jiwer.wer(reference, hypothesis)                 # the reference first, as in jiwer
    t = jiwer.Compose([jiwer.ToLowerCase(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(),
                       jiwer.Strip(), jiwer.ReduceToListOfListOfWords()])
    jiwer.wer(refs, hyps, reference_transform=t, hypothesis_transform=t)
    out = jiwer.process_words(refs, hyps)
    print(jiwer.visualize_alignment(out))
    print(jiwer.visualize_error_counts(out))

The submodules are jiwer's: `transforms` (every transform class), `transformations` (`wer_default`,
`wer_contiguous`, `wer_standardize`, `wer_standardize_contiguous`, `cer_default`, `cer_contiguous`), `process`
(`process_words`, `process_characters`, `WordOutput`, `CharacterOutput`, `AlignmentChunk`), `measures` (`wer`,
`mer`, `wil`, `wip`, `cer`) and `alignment` (`visualize_alignment`, `collect_error_counts`,
`visualize_error_counts`). A Compose of jiwer's transform classes runs in Rust; any other callable is called from
Python, and the tokens it gives are aligned in Rust.
"""

from .alignment import *  # noqa: F401,F403
from .measures import *  # noqa: F401,F403
from .process import *  # noqa: F401,F403
from .transformations import *  # noqa: F401,F403
from .transforms import *  # noqa: F401,F403
from . import alignment, measures, process, transformations, transforms  # noqa: F401

name = "jiwer"
