//! Work items spread over worker threads, results handed back in completion order.

use std::{
    ops::ControlFlow,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
};

/// Runs `job` on every item with `threads` workers, each with its own state from `init` (an
/// engine with its TT), and hands every result to `sink` on the calling thread as it arrives,
/// so the caller can write and flush it at once. Stops at the first error of `init` or `sink`.
///
/// # Errors
/// The first error `init` or `sink` returned.
pub fn run<I: Sync, S, R: Send>(
    items: &[I],
    threads: usize,
    init: impl Fn() -> Result<S, String> + Sync,
    job: impl Fn(&mut S, &I) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), String>,
) -> Result<(), String> {
    run_until(items, threads, init, job, |result| {
        sink(result).map(|()| ControlFlow::Continue(()))
    })
}

/// As [`run`], and `sink` may also end the run early with `Break` (an SPRT that decided):
/// items not started are skipped and results still in flight are dropped.
///
/// # Errors
/// The first error `init` or `sink` returned.
pub fn run_until<I: Sync, S, R: Send>(
    items: &[I],
    threads: usize,
    init: impl Fn() -> Result<S, String> + Sync,
    job: impl Fn(&mut S, &I) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<ControlFlow<()>, String>,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Result<R, String>>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let (next, done, init, job) = (&next, &done, &init, &job);
            scope.spawn(move || {
                let mut state = match init() {
                    Ok(state) => state,
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        return;
                    }
                };
                while !done.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if sender.send(Ok(job(&mut state, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // On an error or a break the workers start no new item, and dropping the receiver
        // ends them at their next send.
        let outcome =
            receiver
                .into_iter()
                .try_for_each(|result| match result.and_then(&mut sink) {
                    Ok(ControlFlow::Continue(())) => Ok(()),
                    Ok(ControlFlow::Break(())) => Err(None),
                    Err(e) => Err(Some(e)),
                });
        done.store(true, Ordering::Relaxed);
        match outcome {
            Ok(()) | Err(None) => Ok(()),
            Err(Some(e)) => Err(e),
        }
    })
}

/// Runs one search of `work` (a position and the index of its variant in `configs`) at a
/// time on each of `threads` workers, a worker holding an engine per configuration (tables of
/// `hash_mib` MiB), and hands every result to `sink` as [`run`] does: the loop of a command
/// that compares variants position by position (`depth`, `oracle`).
///
/// # Errors
/// A configuration whose network cannot be loaded, or the first error of `sink`.
pub fn searches<'a, P: Sync, R: Send>(
    work: &[(&'a P, usize)],
    (threads, hash_mib): (usize, usize),
    configs: &[cutlab_search::SearchConfig],
    search: impl Fn(&mut cutlab_search::Search, &'a P, usize) -> R + Sync,
    sink: impl FnMut(R) -> Result<(), String>,
) -> Result<(), String> {
    run(
        work,
        threads,
        || engines(configs, hash_mib),
        |engines, &(p, v)| search(&mut engines[v], p, v),
        sink,
    )
}

/// A worker's engines, one per configuration (each with its table of `hash_mib` MiB): the
/// state of a worker that searches every variant in turn.
///
/// # Errors
/// A configuration whose network cannot be loaded.
pub fn engines(
    configs: &[cutlab_search::SearchConfig],
    hash_mib: usize,
) -> Result<Vec<cutlab_search::Search>, String> {
    configs
        .iter()
        .map(|c| cutlab_search::Search::new(c.clone(), hash_mib))
        .collect()
}
