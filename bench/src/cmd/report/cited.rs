//! Figures a study's prose quotes from outside its data: a parameter of a command, a constant
//! of a source, another study's finding, a measurement of an older build. Each is named in the
//! manifest with what it is and where it is stated, and drawn as the report's last table, so
//! that a reader sees which numbers the data does not give. A figure cited from a file
//! (another study's report, a source file, a configuration beside the games) is checked
//! against that file; one stated only outside the repository (a paper, a log no longer kept)
//! is marked as not checked.
//!
//! ```toml
//! [[cited]]
//! figure = "949,502"
//! what = "nodes of `modern` to depth 9 before the corrections"
//! file = "manifest.toml"
//! ```

use std::path::Path;

use cutlab_analysis::rows::read_bytes;
use serde::Deserialize;

use super::numbers;

/// A manifest's cited figures.
#[derive(Debug, Default, Deserialize)]
pub struct CitedFigures {
    #[serde(default)]
    cited: Vec<Cited>,
}

/// One cited figure: what it is, and the file or the place outside the repository that
/// states it (exactly one of the two).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cited {
    /// The figure as the prose writes it (`"949,502"`, `"0.77"`).
    figure: String,
    /// What it is.
    what: String,
    /// A file that states it, relative to the study's folder (`.gz` and `.xz` read through).
    #[serde(default)]
    file: Option<String>,
    /// Where it is stated outside the repository.
    #[serde(default)]
    elsewhere: Option<String>,
}

impl CitedFigures {
    /// The report's table of cited figures (nothing when there are none), each figure from a
    /// file checked against it.
    ///
    /// # Errors
    /// A figure that is not one number, a file that cannot be read or does not state its
    /// figure, or an entry with neither or both of `file` and `elsewhere`.
    pub fn table(&self, dir: &Path) -> Result<String, String> {
        if self.cited.is_empty() {
            return Ok(String::new());
        }
        let mut md = "\n## Figures cited\n\nThe numbers the text quotes from outside this \
                      study's data, each with where it is stated (`cutlab report --check` \
                      finds each in its file; one stated elsewhere is not checked).\n\n\
                      | figure | what | stated in |\n| ---: | --- | --- |\n"
            .to_string();
        for c in &self.cited {
            let source = match (&c.file, &c.elsewhere) {
                (Some(file), None) => {
                    c.check(&dir.join(file))?;
                    format!("`{file}`")
                }
                (None, Some(place)) => format!("{place} (not checked)"),
                _ => {
                    return Err(format!(
                        "cited figure {}: give `file` (checked) or `elsewhere`, one of them",
                        c.figure
                    ));
                }
            };
            md.push_str(&format!("| {} | {} | {source} |\n", c.figure, c.what));
        }
        Ok(md)
    }
}

impl Cited {
    /// Whether the file at `path` states the figure.
    fn check(&self, path: &Path) -> Result<(), String> {
        let text = String::from_utf8_lossy(&read_bytes(path)?).into_owned();
        match numbers::states(&text, &self.figure) {
            None => Err(format!(
                "cited figure {:?}: not one number (write it as the prose does)",
                self.figure
            )),
            Some(false) => Err(format!(
                "{}: does not state the cited figure {}",
                path.display(),
                self.figure
            )),
            Some(true) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A figure its file states (a CSV's commas separate) passes and is drawn with the file;
    /// one the file does not state, a figure that is not one number, or an entry without a
    /// source fails, naming it; one stated elsewhere is drawn as not checked.
    #[test]
    fn a_cited_figure_is_found_in_its_file() {
        let dir = crate::common::scratch_dir("cited");
        std::fs::write(dir.join("config.toml"), "seed = 7\nnodes = 949502\n").unwrap();
        std::fs::write(dir.join("loss.csv"), "epoch,loss\n16,0.009256826\n").unwrap();
        let cited = |entries: &str| -> Result<String, String> {
            toml::from_str::<CitedFigures>(entries).unwrap().table(&dir)
        };
        let md = cited(
            "[[cited]]\nfigure = \"949,502\"\nwhat = \"nodes\"\nfile = \"config.toml\"\n\
             [[cited]]\nfigure = \"54\"\nwhat = \"a margin\"\nelsewhere = \"Stockfish\"\n\
             [[cited]]\nfigure = \"0.00926\"\nwhat = \"a loss\"\nfile = \"loss.csv\"\n",
        )
        .unwrap();
        assert!(md.contains("| 949,502 | nodes | `config.toml` |"), "{md}");
        assert!(
            md.contains("| 54 | a margin | Stockfish (not checked) |"),
            "{md}"
        );
        let err =
            cited("[[cited]]\nfigure = \"8\"\nwhat = \"x\"\nfile = \"config.toml\"\n").unwrap_err();
        assert!(err.contains("does not state the cited figure 8"), "{err}");
        let err = cited("[[cited]]\nfigure = \"7 or 8\"\nwhat = \"x\"\nfile = \"config.toml\"\n")
            .unwrap_err();
        assert!(err.contains("not one number"), "{err}");
        let err = cited("[[cited]]\nfigure = \"7\"\nwhat = \"x\"\n").unwrap_err();
        assert!(err.contains("one of them"), "{err}");
        assert_eq!(cited("").unwrap(), "");
        std::fs::remove_dir_all(&dir).ok();
    }
}
