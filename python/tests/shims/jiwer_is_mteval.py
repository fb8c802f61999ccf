"""A pytest plugin that makes `import jiwer` (and `from jiwer.transforms import X`) give `mteval.jiwer`.

scripts/test-python.sh runs jiwer 4.0.0's own test suite, from jiwer's published source distribution
(`pip download --no-binary :all: --no-deps jiwer==4.0.0`, its tests/ folder), with `-p jiwer_is_mteval`:
the tests are jiwer's, unchanged and never copied here; only the modules they import are mteval's.
"""
import sys

from mteval import jiwer as _mteval_jiwer

sys.modules["jiwer"] = _mteval_jiwer
for _name in ("alignment", "measures", "process", "transformations", "transforms"):
    sys.modules[f"jiwer.{_name}"] = getattr(_mteval_jiwer, _name)
