//! Records the commit the binary is built from (`CUTLAB_COMMIT`) and how its code was
//! generated (`CUTLAB_BUILD`), so that its outputs (a run's manifest, the data a network is
//! trained on) name them wherever they are written.

use std::process::Command;

/// The code generation that sets this build apart from a default one: the processor it is
/// built for (`-C target-cpu`) and whether a profile guided it (`-C profile-use`,
/// `scripts/build-pgo`); `default` when neither is given.
fn build(rustflags: &str) -> String {
    let flags: Vec<&str> = rustflags.split('\x1f').collect();
    // `-C opt=value` and `-Copt=value` alike.
    let codegen: Vec<&str> = flags
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match *f {
            "-C" => flags.get(i + 1).copied(),
            f => f.strip_prefix("-C"),
        })
        .collect();
    let mut parts: Vec<String> = codegen
        .iter()
        .filter(|o| o.starts_with("target-cpu="))
        .map(ToString::to_string)
        .collect();
    if codegen.iter().any(|o| o.starts_with("profile-use=")) {
        parts.push("profile-guided".into());
    }
    if parts.is_empty() {
        "default".into()
    } else {
        parts.join(", ")
    }
}

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".to_string(), |s| s.trim().to_string());
    println!("cargo:rustc-env=CUTLAB_COMMIT={commit}");
    let rustflags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    println!("cargo:rustc-env=CUTLAB_BUILD={}", build(&rustflags));
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo:rerun-if-changed=../.git/HEAD");
    println!("cargo:rerun-if-changed=../.git/refs/heads");
}
