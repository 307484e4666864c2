//! Tuned weights written as the engine's `search/src/eval/weights.rs`: one block per section
//! of the layout, eight weights to a line, with the command and figures that produced them.

use std::fmt::Write as _;

use cutlab_search::eval::layout::SECTIONS;

/// Names of the piece tables inside the PSQT section.
const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The Rust source of the weights file. `provenance` lines become its doc comment.
#[must_use]
pub fn render(weights: &[[f64; 2]], provenance: &[String]) -> String {
    let mut out = String::from(
        "//! Evaluation weights (middlegame, endgame; centipawns), one block per section of\n\
         //! `layout.rs`, tuned by Texel's method:\n//!\n",
    );
    for line in provenance {
        let _ = writeln!(out, "{}", format!("//! {line}").trim_end());
    }
    out.push_str(
        "\nuse super::{Phased as S, layout::COUNT};\n\n\
         /// The weight of every feature, indexed as in `layout.rs`.\n\
         #[rustfmt::skip]\n\
         pub static WEIGHTS: [S; COUNT] = [\n",
    );
    for section in SECTIONS {
        let _ = writeln!(out, "    // {}: {}", section.name, section.indexed_by);
        let values = &weights[section.offset..section.offset + section.len];
        for (row, chunk) in values.chunks(8).enumerate() {
            if section.name == "PSQT" && row % 8 == 0 {
                let _ = writeln!(out, "    // {}", PIECES[row / 8]);
            }
            let cells: Vec<String> = chunk
                .iter()
                .map(|w| format!("S({:4}, {:4}),", round(w[0]), round(w[1])))
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    out.push_str("];\n");
    out
}

fn round(value: f64) -> i64 {
    // Weights are centipawns well inside i64; `as` saturates anything else.
    #[allow(clippy::cast_possible_truncation)]
    let rounded = value.round() as i64;
    rounded
}

#[cfg(test)]
mod tests {
    use cutlab_search::eval::{layout::COUNT, weights::WEIGHTS};

    use super::*;

    #[test]
    fn the_shipped_weights_render_to_their_own_numbers() {
        let weights: Vec<[f64; 2]> = WEIGHTS
            .iter()
            .map(|w| [f64::from(w.0), f64::from(w.1)])
            .collect();
        let text = render(&weights, &["made by a test".to_string()]);
        assert!(text.starts_with("//! Evaluation weights"));
        assert!(text.contains("//! made by a test\n"));
        let cells = text.matches("S(").count();
        assert_eq!(cells, COUNT);
        let first = WEIGHTS[0];
        assert!(text.contains(&format!("S({:4}, {:4}),", first.0, first.1)));
    }
}
