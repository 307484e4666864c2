//! Progress bars on stderr (hidden when stderr is not a terminal).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over `len` items named `what`, with elapsed time and ETA.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let template = format!("{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, ETA {{eta}}");
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}
