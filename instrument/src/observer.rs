//! The observer trait, the no-op observer and the tee that composes two observers.

use crate::{CutTestEvent, IterationEvent, NodeEvent, NodeExitEvent};

/// Receives search events; every method has an empty default body.
///
/// Call order per node: `enter_node` → (`cut_test`)* → `leave_node`; children nest inside.
/// The search builds node events only when [`Observer::NODE_EVENTS`] is set and cut-test
/// events only when [`Observer::TEST_EVENTS`] is set, so an observer pays only for what it
/// reads and the no-op observer compiles away.
pub trait Observer {
    /// Whether the search sends `enter_node` and `leave_node` (one pair per node).
    const NODE_EVENTS: bool = true;
    /// Whether the search sends `cut_test`.
    const TEST_EVENTS: bool = true;

    /// A node is entered.
    fn enter_node(&mut self, event: &NodeEvent) {
        let _ = event;
    }

    /// A forward-pruning test ran at the current node. `fen` writes the node's position as
    /// FEN, for the observers that keep it (it costs nothing unless called).
    fn cut_test(&mut self, event: &CutTestEvent, fen: &dyn Fn() -> String) {
        let _ = (event, fen);
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
    const NODE_EVENTS: bool = false;
    const TEST_EVENTS: bool = false;
}

/// Sends every event to two observers in turn (first `A`, then `B`).
#[derive(Debug, Default)]
pub struct Tee<A, B>(pub A, pub B);

impl<A: Observer, B: Observer> Observer for Tee<A, B> {
    const NODE_EVENTS: bool = A::NODE_EVENTS || B::NODE_EVENTS;
    const TEST_EVENTS: bool = A::TEST_EVENTS || B::TEST_EVENTS;

    fn enter_node(&mut self, event: &NodeEvent) {
        if A::NODE_EVENTS {
            self.0.enter_node(event);
        }
        if B::NODE_EVENTS {
            self.1.enter_node(event);
        }
    }

    fn cut_test(&mut self, event: &CutTestEvent, fen: &dyn Fn() -> String) {
        if A::TEST_EVENTS {
            self.0.cut_test(event, fen);
        }
        if B::TEST_EVENTS {
            self.1.cut_test(event, fen);
        }
    }

    fn leave_node(&mut self, event: &NodeExitEvent) {
        if A::NODE_EVENTS {
            self.0.leave_node(event);
        }
        if B::NODE_EVENTS {
            self.1.leave_node(event);
        }
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
    const NODE_EVENTS: bool = T::NODE_EVENTS;
    const TEST_EVENTS: bool = T::TEST_EVENTS;

    fn enter_node(&mut self, event: &NodeEvent) {
        (**self).enter_node(event);
    }

    fn cut_test(&mut self, event: &CutTestEvent, fen: &dyn Fn() -> String) {
        (**self).cut_test(event, fen);
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
