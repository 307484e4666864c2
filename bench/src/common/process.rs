//! Child processes that die with their parent, and files that one process writes at a time:
//! killing a `reproduce` or `ablate` run (SIGKILL included) ends the step it runs, and a
//! second run on the same output is refused while the first holds it.

use std::{fs::File, path::Path, process::Command};

/// Makes the child started by `command` receive SIGTERM when this process (strictly: the
/// thread that starts it) ends, however it ends (Linux's `PR_SET_PDEATHSIG`); a child whose
/// parent is already gone when it starts exits at once.
pub fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt as _;
        let parent = std::process::id();
        #[expect(
            unsafe_code,
            reason = "pre_exec runs in the forked child; prctl, getppid and _exit are async-signal-safe"
        )]
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before the signal was armed.
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Takes this process's exclusive lock on `file` (an open handle of `path`), held until the
/// handle closes or the process ends.
///
/// # Errors
/// Another process holds it: the output is in use.
pub fn lock(file: &File, path: &Path) -> Result<(), String> {
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => format!(
            "{}: in use by another cutlab run (wait for it to end, or choose another output)",
            path.display()
        ),
        std::fs::TryLockError::Error(e) => format!("{}: {e}", path.display()),
    })
}

/// Locks output directory `dir` for this process's lifetime (the returned handle): a run of
/// `reproduce` or `ablate` on a directory that another run is writing is refused. Shards of
/// one run (`shard`, `K/N`) share the directory and lock their share only.
///
/// # Errors
/// The directory is in use, or its lock file cannot be made.
pub fn lock_dir(dir: &Path, shard: Option<crate::common::shard::Shard>) -> Result<File, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name = shard.map_or_else(
        || ".lock".to_string(),
        |s| format!(".lock-shard-{}-of-{}", s.k, s.n),
    );
    let path = dir.join(name);
    let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    lock(&file, dir)?;
    Ok(file)
}

/// The line SIGINT prints before the process exits with 130.
static INTERRUPTED: &[u8] =
    b"\ncutlab: interrupted; run the same command again with --resume to continue\n";

/// SIGINT's and SIGTERM's handler: writes [`INTERRUPTED`] and exits with 128 + the signal
/// (130 and 143), the shell's codes for them.
extern "C" fn interrupted(signal: libc::c_int) {
    #[expect(
        unsafe_code,
        reason = "write and _exit are async-signal-safe, as a handler needs"
    )]
    unsafe {
        libc::write(2, INTERRUPTED.as_ptr().cast(), INTERRUPTED.len());
        libc::_exit(128 + signal);
    }
}

/// On SIGINT (Ctrl-C) or SIGTERM (`kill`, a scheduler's end of a job), a command that
/// resumes says how to continue before it exits with 130 or 143; its output keeps every row
/// written whole (a torn last row is dropped on resume).
pub fn say_resume_on_interrupt() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        #[expect(
            unsafe_code,
            reason = "installs a handler that only calls async-signal-safe functions"
        )]
        unsafe {
            libc::signal(
                signal,
                interrupted as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
}
