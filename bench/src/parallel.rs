//! Work items spread over worker threads, results handed back in completion order.

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    mpsc,
};

/// Runs `job` on every item with `threads` workers, each with its own state from `init` (an
/// engine with its TT), and hands every result to `sink` on the calling thread as it arrives,
/// so the caller can write and flush it at once. Stops at the first error of `sink`.
///
/// # Errors
/// The first error `sink` returned.
pub fn run<I: Sync, S, R: Send>(
    items: &[I],
    threads: usize,
    init: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, &I) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), String>,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<R>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let (next, init, job) = (&next, &init, &job);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if sender.send(job(&mut state, item)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Dropping the receiver on an error stops the workers at their next send.
        receiver.into_iter().try_for_each(&mut sink)
    })
}
