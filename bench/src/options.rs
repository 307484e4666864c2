//! Options several commands share, flattened into their arguments.

use std::path::PathBuf;

use clap::Args;
use cutlab_search::SearchConfig;
use cutlab_suites::Suite;
use serde::Serialize;

/// Where the positions come from.
#[derive(Args, Debug, Serialize)]
pub struct SuiteOptions {
    /// EPD, FEN or PGN file; without it the built-in suite (`trace` needs it or `--fen`).
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Skip malformed suite lines (and report how many) instead of stopping.
    #[arg(long)]
    pub skip_invalid: bool,
}

impl SuiteOptions {
    /// The suite, or the built-in one.
    ///
    /// # Errors
    /// An unreadable or malformed suite (`file:line: problem`).
    pub fn load(&self) -> Result<Suite, String> {
        crate::load_suite(self.suite.as_deref(), self.skip_invalid)
    }
}

/// The models and confidence applied to the variants a command searches with.
#[derive(Args, Debug, Serialize)]
pub struct ModelOptions {
    /// Confidence p of probabilistic alpha-beta (variants with `prob-ab`).
    #[arg(long)]
    pub confidence: Option<f64>,
    /// ProbCut/MPC parameter file written by `cutlab fit` (default: the built-in fit).
    #[arg(long)]
    pub params: Option<PathBuf>,
}

impl ModelOptions {
    /// The configuration of `variant` with these options applied.
    ///
    /// # Errors
    /// An unknown variant, an unreadable parameter file, or a bad confidence.
    pub fn config(&self, variant: &str) -> Result<SearchConfig, String> {
        crate::resolve_config(variant, self.params.as_deref(), self.confidence)
    }
}
