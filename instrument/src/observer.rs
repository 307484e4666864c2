//! The observer trait, the no-op observer and the tee that composes two observers.

use crate::{CutTestEvent, IterationEvent, NodeEvent, NodeExitEvent};

/// Receives search events; every method has an empty default body.
///
/// Call order per node: `enter_node` → (`cut_test`)* → `leave_node`; children nest inside.
/// The search skips building events altogether when [`Observer::ACTIVE`] is `false`.
pub trait Observer {
    /// Whether the search should build and send events at all.
    const ACTIVE: bool = true;

    /// A node is entered.
    fn enter_node(&mut self, event: &NodeEvent) {
        let _ = event;
    }

    /// A forward-pruning test ran at the current node.
    fn cut_test(&mut self, event: &CutTestEvent) {
        let _ = event;
    }

    /// The current node is left.
    fn leave_node(&mut self, event: &NodeExitEvent) {
        let _ = event;
    }

    /// An iteration of iterative deepening finished.
    fn iteration_finished(&mut self, event: &IterationEvent) {
        let _ = event;
    }

    /// The search finished (all iterations done or stopped).
    fn search_finished(&mut self) {}
}

/// Observes nothing; the search compiles to the uninstrumented engine with it.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoopObserver;

impl Observer for NoopObserver {
    const ACTIVE: bool = false;
}

/// Sends every event to two observers in turn (first `A`, then `B`).
#[derive(Debug, Default)]
pub struct Tee<A, B>(pub A, pub B);

impl<A: Observer, B: Observer> Observer for Tee<A, B> {
    const ACTIVE: bool = A::ACTIVE || B::ACTIVE;

    fn enter_node(&mut self, event: &NodeEvent) {
        self.0.enter_node(event);
        self.1.enter_node(event);
    }

    fn cut_test(&mut self, event: &CutTestEvent) {
        self.0.cut_test(event);
        self.1.cut_test(event);
    }

    fn leave_node(&mut self, event: &NodeExitEvent) {
        self.0.leave_node(event);
        self.1.leave_node(event);
    }

    fn iteration_finished(&mut self, event: &IterationEvent) {
        self.0.iteration_finished(event);
        self.1.iteration_finished(event);
    }

    fn search_finished(&mut self) {
        self.0.search_finished();
        self.1.search_finished();
    }
}

impl<T: Observer> Observer for &mut T {
    const ACTIVE: bool = T::ACTIVE;

    fn enter_node(&mut self, event: &NodeEvent) {
        (**self).enter_node(event);
    }

    fn cut_test(&mut self, event: &CutTestEvent) {
        (**self).cut_test(event);
    }

    fn leave_node(&mut self, event: &NodeExitEvent) {
        (**self).leave_node(event);
    }

    fn iteration_finished(&mut self, event: &IterationEvent) {
        (**self).iteration_finished(event);
    }

    fn search_finished(&mut self) {
        (**self).search_finished();
    }
}
