//! `cutlab games pack|unpack`: the PGNs of a study's matches in one archive of about a fifth
//! of their gzipped size, and back byte for byte (the format: [`crate::common::packed_games`]).

use std::{
    collections::HashSet,
    path::{Component, Path, PathBuf},
};

use clap::{Args, Subcommand};

use crate::common::{
    packed_games::{by_pgn, pack, read_packed, sort_games, split_games, unpack_game, write_packed},
    progress,
    results::new_output,
};

/// `cutlab games`: the subcommands.
#[derive(Subcommand)]
pub enum GamesCommand {
    /// Pack PGNs of plain games (tags and moves, as `cutlab match` writes them) into one
    /// xz-compressed CSV of about a fifth their gzipped size; refused unless each unpacks to
    /// the same bytes.
    Pack(PackArgs),
    /// Write a packed file's PGNs back into a folder, byte for byte as they were packed.
    Unpack(UnpackArgs),
}

/// Options of `cutlab games pack`.
#[derive(Args)]
pub struct PackArgs {
    /// The PGNs to pack.
    #[arg(required = true, num_args = 1.., value_name = "PGN")]
    pgns: Vec<PathBuf>,
    /// The file to write, `NAME.moves.csv.xz` (refused if it exists, unless `--force`).
    output: PathBuf,
    /// Store each PGN under its path below this folder (`matches/5000/a.pgn`), which
    /// `unpack` writes it back to; without it, under its file name.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Replace an existing output.
    #[arg(long)]
    force: bool,
}

/// Options of `cutlab games unpack`.
#[derive(Args)]
pub struct UnpackArgs {
    /// The packed file (`cutlab games pack`'s `.moves.csv.xz`).
    input: PathBuf,
    /// The folder to write into: each PGN at the name it was packed under.
    dir: PathBuf,
    /// Only these PGNs, by the names they were packed under (comma-separated or repeated; a
    /// name the file does not hold is refused with the list of those it does).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    only: Vec<String>,
    /// Replace existing PGNs.
    #[arg(long)]
    force: bool,
}

/// The name a PGN is packed under: its path below `root`, `/`-separated, or without a root
/// its file name.
///
/// # Errors
/// A PGN outside `root`, or a name that is not plain UTF-8 folders and a file name.
fn packed_name(pgn: &Path, root: Option<&Path>) -> Result<String, String> {
    let err = |why: &str| format!("{}: {why}", pgn.display());
    let below = match root {
        Some(root) => pgn
            .strip_prefix(root)
            .map_err(|_| err(&format!("not below --root {}", root.display())))?,
        None => Path::new(pgn.file_name().ok_or_else(|| err("not a file name"))?),
    };
    let parts = below
        .components()
        .filter(|c| *c != Component::CurDir)
        .map(|c| match c {
            Component::Normal(part) => part.to_str().ok_or_else(|| err("not a UTF-8 name")),
            _ => Err(err("must lie below --root (no `..`)")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if parts.is_empty() {
        return Err(err("names no file below --root"));
    }
    Ok(parts.join("/"))
}

/// Where a PGN packed under `name` is unpacked into `dir`.
///
/// # Errors
/// A name that would leave `dir` (absolute, or with `..`): a damaged or foreign file.
fn unpacked_path(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let below = Path::new(name);
    if name.is_empty()
        || !below
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    {
        return Err(format!(
            "the PGN name '{name}' would leave the folder it is unpacked into"
        ));
    }
    Ok(dir.join(below))
}

/// Runs `cutlab games`.
///
/// # Errors
/// An unreadable input, a PGN that would not come back byte for byte, a malformed packed
/// file, or an output that exists without `--force`.
pub fn run(command: &GamesCommand) -> Result<(), String> {
    match command {
        GamesCommand::Pack(args) => run_pack(args),
        GamesCommand::Unpack(args) => run_unpack(args),
    }
}

/// `cutlab games pack`.
fn run_pack(args: &PackArgs) -> Result<(), String> {
    let inputs: Vec<&Path> = args.pgns.iter().map(PathBuf::as_path).collect();
    new_output(&args.output, "OUTPUT", args.force, &inputs)?;
    let mut names = HashSet::new();
    let mut pgns = Vec::with_capacity(args.pgns.len());
    for path in &args.pgns {
        let name = packed_name(path, args.root.as_deref())?;
        if !names.insert(name.clone()) {
            return Err(format!(
                "{}: a second PGN named {name} (pass --root, whose folders tell them apart)",
                path.display()
            ));
        }
        let pgn = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        pgns.push((path, name, pgn));
    }
    let count: usize = pgns
        .iter()
        .map(|(_, _, pgn)| split_games(pgn).map_or(0, |games| games.len()))
        .sum();
    let bar = progress::bar(count as u64, "games");
    let mut games = Vec::with_capacity(count);
    for (path, name, pgn) in &pgns {
        let packed = pack(name, pgn, &|| bar.inc(1));
        games.extend(packed.map_err(|e| {
            bar.finish_and_clear();
            format!("{}: {e}", path.display())
        })?);
    }
    bar.finish_and_clear();
    sort_games(&mut games);
    write_packed(&args.output, &games)?;
    println!(
        "{} games of {} PGN files packed into {}",
        games.len(),
        names.len(),
        args.output.display()
    );
    Ok(())
}

/// `cutlab games unpack`.
fn run_unpack(args: &UnpackArgs) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", args.input.display());
    let games = read_packed(&args.input)?;
    let mut pgns = by_pgn(&games).map_err(at)?;
    if let Some(name) = args.only.iter().find(|n| !pgns.contains_key(n.as_str())) {
        let held: Vec<&str> = pgns.keys().copied().collect();
        return Err(format!(
            "--only: {} holds no PGN named {name} (it holds {})",
            args.input.display(),
            held.join(", ")
        ));
    }
    if !args.only.is_empty() {
        pgns.retain(|name, _| args.only.iter().any(|n| n == name));
    }
    let mut outputs = Vec::with_capacity(pgns.len());
    for name in pgns.keys() {
        let path = unpacked_path(&args.dir, name).map_err(at)?;
        new_output(&path, "DIR", args.force, &[&args.input])?;
        outputs.push(path);
    }
    let count: usize = pgns.values().map(Vec::len).sum();
    let bar = progress::bar(count as u64, "games");
    for ((name, games), path) in pgns.iter().zip(&outputs) {
        let pgn: Result<String, String> = games
            .iter()
            .map(|g| {
                bar.inc(1);
                unpack_game(g).map_err(|e| at(format!("{name}: game {}: {e}", g.game)))
            })
            .collect();
        let pgn = pgn.inspect_err(|_| bar.finish_and_clear())?;
        std::fs::write(path, pgn).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    bar.finish_and_clear();
    println!(
        "{count} games of {} PGN files unpacked into {}",
        outputs.len(),
        args.dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_is_named_below_its_root_and_unpacked_only_inside_the_folder() {
        let name = |pgn: &str, root: Option<&str>| packed_name(Path::new(pgn), root.map(Path::new));
        assert_eq!(
            name("run/matches/5000/a.pgn", Some("run")).unwrap(),
            "matches/5000/a.pgn"
        );
        assert_eq!(name("run/./m/a.pgn", Some("run")).unwrap(), "m/a.pgn");
        assert_eq!(name("/tmp/x/a.pgn", None).unwrap(), "a.pgn");
        assert!(
            name("elsewhere/a.pgn", Some("run"))
                .unwrap_err()
                .contains("not below --root")
        );
        assert!(
            name("run/../a.pgn", Some("run"))
                .unwrap_err()
                .contains("`..`")
        );
        let dir = Path::new("out");
        assert_eq!(
            unpacked_path(dir, "m/a.pgn").unwrap(),
            Path::new("out/m/a.pgn")
        );
        for bad in ["../a.pgn", "/etc/a.pgn", "m/../../a.pgn", ""] {
            assert!(unpacked_path(dir, bad).is_err(), "{bad}");
        }
    }
}
