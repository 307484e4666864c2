//! What the tests share: the binary, temporary directories, a small suite, helpers.

pub use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    sync::mpsc,
    time::Duration,
};

pub const EXE: &str = env!("CARGO_BIN_EXE_cutlab");

/// A test's own empty directory, removed with everything in it when the test ends.
pub struct TempDir(std::path::PathBuf);

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("cutlab-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    TempDir(dir)
}

/// Writes `body` as an executable shell script in `dir` and returns the `--engine` word that
/// runs it as a UCI engine.
pub fn script_engine(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join(name);
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("uci={}", script.display())
}

/// Asserts that a command succeeded; its standard error is the failure's message.
pub fn assert_success(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `cutlab reproduce --smoke --engine none --idle-wait 0 --out OUT`: the smallest whole study,
/// with our own oracle; a test adds its options.
pub fn reproduce_smoke(out: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(EXE);
    command
        .args([
            "reproduce",
            "--smoke",
            "--engine",
            "none",
            "--idle-wait",
            "0",
            "--out",
        ])
        .arg(out);
    command
}

/// `cutlab ablate --quick --methods rfp --engine none --idle-wait 0 --out OUT`: one method's
/// ablation with our own oracle; a test adds its efforts, extras and limits.
pub fn ablate_rfp(out: &std::path::Path) -> Command {
    let mut command = Command::new(EXE);
    command
        .args(["ablate", "--quick", "--methods", "rfp", "--engine", "none"])
        .args(["--idle-wait", "0", "--out"])
        .arg(out);
    command
}

/// `scripts/publish-run ARGS...` with this build as its `CUTLAB`: a run published into a
/// study, or with `--restore` a study restored into a run.
pub fn publish_run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/publish-run"
    ))
    .args(args)
    .env("CUTLAB", EXE)
    .output()
    .expect("publish-run runs")
}

/// Runs `command`, which must succeed (else its standard error is the failure), and returns
/// its output.
pub fn succeeds(command: &mut Command) -> std::process::Output {
    let out = command.output().expect("the command runs");
    assert_success(&out);
    out
}

/// The standard output of a command that must have succeeded (else its standard error).
pub fn stdout_of_success(out: &std::process::Output) -> String {
    assert_success(out);
    String::from_utf8_lossy(&out.stdout).to_string()
}

pub const SMALL_SUITE: &str = "\
r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - id \"a\";
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - id \"b\";
4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - id \"c\";
";

/// Writes [`SMALL_SUITE`] as `dir/suite.epd` and returns its path.
pub fn small_suite(dir: &std::path::Path) -> std::path::PathBuf {
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SMALL_SUITE).expect("suite written");
    suite
}

/// `cutlab depth --variants null-move --suite SUITE --out DIR/d.csv` and `limit` (`--depth 3`,
/// `--time-ms 3000`): the smallest search command; a test adds its options.
pub fn null_move_depth(
    suite: &std::path::Path,
    limit: [&str; 2],
    dir: &std::path::Path,
) -> Command {
    let mut command = Command::new(EXE);
    command
        .args(["depth", "--variants", "null-move"])
        .args(limit)
        .arg("--suite")
        .arg(suite)
        .arg("--out")
        .arg(dir.join("d.csv"));
    command
}

pub fn depth_run(dir: &std::path::Path, out: &str, extra: &[&str]) -> std::process::Output {
    let suite = small_suite(dir);
    let mut args = vec![
        "depth",
        "--suite",
        suite.to_str().unwrap(),
        "--variants",
        "null-move,null-move+mpc",
        "--depth",
        "5",
    ];
    let out_path = dir.join(out);
    args.extend(["--out", out_path.to_str().unwrap()]);
    args.extend(extra);
    Command::new(EXE).args(&args).output().expect("depth runs")
}

/// (position, variant, nodes) rows of a depth file, sorted.
pub fn depth_rows(path: &std::path::Path) -> Vec<(String, String, String)> {
    let mut reader = csv::Reader::from_path(path).expect("readable");
    let mut rows: Vec<_> = reader
        .records()
        .map(|r| {
            let r = r.expect("record");
            (r[0].to_string(), r[1].to_string(), r[6].to_string())
        })
        .collect();
    rows.sort();
    rows
}

/// Numbers that once crashed or hung a command (a division by zero, allocations of terabytes,
/// matches that never end) are refused where they are parsed: exit 2, clap's `error:` naming
/// the option and its range, no panic. UCI `Hash` larger than the machine is refused and the
/// old table kept.
/// Asserts that `cutlab ARGS` (two engines added for `match`) stops at parsing: exit 2,
/// clap's `error: invalid value` naming `option`, no panic.
pub fn assert_refused_at_parse(args: &[&str], option: &str) {
    let mut command = Command::new(EXE);
    command.args(args);
    if args[0] == "match" {
        command.args(["--engine", "variant=plain", "--engine", "variant=plain"]);
    }
    let out = command.output().expect("cutlab runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: invalid value") && stderr.contains(option),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

/// The processes whose command line mentions `needle` (Linux's /proc).
pub fn processes_mentioning(needle: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let e = e.ok()?;
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(needle)
                .then_some(pid)
        })
        .collect()
}

/// `cutlab match` of `plain` against itself, two games at 50 nodes a move, then `rest`.
pub fn plain_match<'a>(rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--engine",
        "variant=plain",
        "--engine",
        "variant=plain",
        "--nodes",
        "50",
        "--games",
        "2",
    ];
    args.extend_from_slice(rest);
    args
}

/// `cutlab match` between two engines (`variant=...`, `uci=...`, with their options); the
/// caller adds the rest.
pub fn match_of(engines: [&str; 2]) -> Command {
    let mut command = Command::new(EXE);
    command.args(["match", "--engine", engines[0], "--engine", engines[1]]);
    command
}

/// `cutlab match` of two variants at `nodes` per move into `out` (a CSV); the caller adds the
/// games, openings and the rest.
pub fn match_command(variants: [&str; 2], nodes: u32, out: &std::path::Path) -> Command {
    let mut command = Command::new(EXE);
    command
        .args(["match", "--engine", &format!("variant={}", variants[0])])
        .args(["--engine", &format!("variant={}", variants[1])])
        .args(["--nodes", &nodes.to_string(), "--out"])
        .arg(out);
    command
}
