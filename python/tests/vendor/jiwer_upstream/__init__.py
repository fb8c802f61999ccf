"""jiwer 4.0.0's own tests (github.com/jitsi/jiwer, tag v4.0.0, tests/), run against `mteval.jiwer`.

Copied unchanged from jiwer (Apache License 2.0, Copyright 8x8, Inc.) except the imports: `import jiwer` is
`from mteval import jiwer` and `from jiwer import X` is `from mteval.jiwer import X`. Left out, as they test
what mteval.jiwer does not provide: test_transforms.py (jiwer's transform classes), test_count_errors.py
(`collect_error_counts`, `visualize_error_counts`) and test_speed.py (pytest-benchmark).
"""
