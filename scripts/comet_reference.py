"""comet-compare's statistics, run from unbabel-comet's own published compare.py (never copied into
this repository): the reference that mteval's `--comet-compare` is tested against.

`load(path)` imports comet/cli/compare.py from the unbabel-comet 2.2.7 wheel (fetch it with
`pip download --no-deps unbabel-comet==2.2.7` and unzip comet/cli/compare.py) with stand-ins for the
imports its statistics do not use (torch, the COMET models, jsonargparse, sacrebleu's dataset helpers).
`seed_everything` is pytorch_lightning's for what the statistics see: it seeds numpy's global state.
`reference(...)` is compare_command's statistics part, in its order: seed, bootstrap_resampling,
pairwise_bootstrap, then ttest_rel per pair (itertools.combinations order), as comet-compare runs them
on its float32 score matrix. `printed(...)` is what comet-compare prints for those results.
"""
import contextlib
import importlib.util
import io
import random
import sys
import types

import numpy as np


def _stub(name, **attrs):
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[name] = mod
    return mod


class Name(str):
    """A system name as comet-compare holds it (a jsonargparse Path_fr: printed by its rel_path)."""

    @property
    def rel_path(self):
        return str(self)


def load(path):
    """compare.py as a module, with stand-ins for the model-side imports."""
    # scipy first: its array-API helpers must not take the torch stand-in for torch.
    from scipy import stats  # noqa: F401

    def seed_everything(seed):
        random.seed(seed)
        np.random.seed(seed)
        return seed

    _stub("torch", set_float32_matmul_precision=lambda *_: None)
    _stub("pytorch_lightning", seed_everything=seed_everything)
    _stub("jsonargparse", ArgumentParser=object, Namespace=object)
    _stub("jsonargparse.typing", Path_fr=Name)
    try:  # the real one where installed (other code in the process may use it)
        from sacrebleu.utils import get_reference_files, get_source_file  # noqa: F401
    except ImportError:
        _stub("sacrebleu")
        _stub("sacrebleu.utils", get_reference_files=None, get_source_file=None)
    _stub("comet", download_model=None, load_from_checkpoint=None)
    spec = importlib.util.spec_from_file_location("comet_compare_reference", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    # scipy's array-API helpers look for a loaded torch: the stand-in must not be mistaken for it.
    del sys.modules["torch"]
    mod.seed_everything_impl = seed_everything
    return mod


def reference(cc, scores, names, seed=12, num_splits=300, sample_ratio=0.4, alternative="two-sided"):
    """compare_command's statistics over `scores` (systems x segments, float32): its results list."""
    from scipy import stats

    seg_scores = np.array(scores, dtype="float32")
    names = [Name(n) for n in names]
    population_size = seg_scores.shape[1]
    cc.seed_everything_impl(seed)
    sys_scores = cc.bootstrap_resampling(
        seg_scores, sample_size=max(int(population_size * sample_ratio), 1), num_splits=num_splits
    )
    results = list(cc.pairwise_bootstrap(sys_scores, names))
    pairs = cc.combinations(zip(names, seg_scores), 2)
    for (x_name, x_seg), (y_name, y_seg) in pairs:
        t = stats.ttest_rel(x_seg, y_seg, alternative=alternative)
        for res in results:
            if res["x_name"] == x_name and res["y_name"] == y_name:
                res["paired_t-test"] = {"statistic": t.statistic, "p_value": t.pvalue}
    return results, names


def printed(cc, results, names):
    """What comet-compare prints after scoring: each pair's results, a blank line, the summary."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for data in results:
            cc.display_statistical_results(data)
        print()
        cc.t_tests_summary(results, tuple(names))
    return out.getvalue()


def _num(v):
    v = float(v)
    return None if v != v else v


def as_json(results):
    """The results with every number as a Python float (float32 values widened exactly; NaN as
    None, which JSON lacks)."""
    out = []
    for r in results:
        b = r["bootstrap_resampling"]
        t = r["paired_t-test"]
        out.append(
            {
                "x_name": str(r["x_name"]),
                "y_name": str(r["y_name"]),
                "bootstrap_resampling": {k: _num(v) for k, v in b.items()},
                "paired_t-test": {k: _num(v) for k, v in t.items()},
            }
        )
    return out
