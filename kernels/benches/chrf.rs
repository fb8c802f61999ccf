//! Criterion benches of the chrF kernels: sentence chrF / chrF++ on pairs of
//! growing length, and pairwise / aggregate chrF on self-MBR groups.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mteval_kernels::ChrfConfig;
use mteval_kernels::chrf::FastChrfOptions;
use mteval_kernels::chrf::group::Group;

fn sentence(n: usize, seed: usize) -> String {
    (0..n).map(|i| format!("wort{}", (i * 7 + seed) % 53)).collect::<Vec<_>>().join(" ")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("chrf_sentence");
    for n in [5usize, 20, 40, 80] {
        let (h, r) = (sentence(n, 1), sentence(n, 3));
        for (name, cfg) in [("chrF", ChrfConfig::default()), ("chrF++", ChrfConfig::chrf_plus_plus())] {
            g.throughput(Throughput::Elements(1));
            g.bench_with_input(BenchmarkId::new(name, n), &(&h, &r), |b, (h, r)| {
                b.iter(|| cfg.segment(std::hint::black_box(h), &[r.as_str()]).unwrap());
            });
        }
    }
    g.finish();
    let mut g = c.benchmark_group("chrf_group");
    g.sample_size(10);
    let cfg = FastChrfOptions::default().config();
    for n in [64usize, 256] {
        let texts: Vec<String> = (0..n).map(|i| sentence(20 + i % 17, i)).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        g.throughput(Throughput::Elements((n * n) as u64));
        g.bench_with_input(BenchmarkId::new("pairwise_mean", n), &refs, |b, t| {
            b.iter(|| Group::new(&cfg, t, None).unwrap().expected_utility(false));
        });
        g.bench_with_input(BenchmarkId::new("aggregate", n), &refs, |b, t| {
            b.iter(|| Group::new(&cfg, t, None).unwrap().aggregate());
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
