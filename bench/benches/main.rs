//! Criterion benches, organised as criterion's own: one group per file in `benchmarks/`.
//! Each reports nodes (or positions) per second and asserts the work it did.

mod benchmarks;

criterion::criterion_main! {
    benchmarks::movegen::benches,
    benchmarks::evaluation::benches,
    benchmarks::quiescence::benches,
    benchmarks::search::benches,
    benchmarks::instrument::benches,
}
