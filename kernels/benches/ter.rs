//! Criterion benches of the TER kernel on synthetic sentence pairs of
//! growing length (a word drop, a substitution and a phrase move each).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mteval_kernels::Ter;

fn pair(n: usize) -> (String, String) {
    let r: Vec<String> = (0..n).map(|i| format!("w{}", i % 37)).collect();
    let mut h = r.clone();
    if n > 4 {
        h.remove(n / 3);
        h[n / 2] = "zz".into();
        let block: Vec<String> = h.drain(0..3).collect();
        let at = h.len() - 1;
        for (k, b) in block.into_iter().enumerate() {
            h.insert(at + k, b);
        }
    }
    (h.join(" "), r.join(" "))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ter_sentence");
    for n in [5usize, 20, 40, 80, 160] {
        let (h, r) = pair(n);
        let t = Ter::default();
        g.throughput(Throughput::Elements(1));
        g.bench_with_input(BenchmarkId::new("mteval", n), &(h, r), |b, (h, r)| {
            b.iter(|| t.segment(std::hint::black_box(h), &[r.as_str()]).unwrap());
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
