//! An external engine's process, whatever protocol it speaks: started from a command line,
//! written to line by line, its output read on a thread so that every wait has a deadline,
//! and told `quit` (then killed) when dropped. The UCI and xboard clients build on it.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    command: String,
}

impl EngineProcess {
    /// Starts `command`, split on whitespace (the first word is the program).
    ///
    /// # Errors
    /// The command is empty or the program does not start.
    pub fn start(command: &str) -> Result<EngineProcess, String> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or("empty engine command")?;
        let mut process = Command::new(program);
        process
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // An engine never outlives the match or oracle that drives it.
        crate::common::process::die_with_parent(&mut process);
        let mut child = process
            .spawn()
            .map_err(|e| format!("engine '{command}': {e}"))?;
        let stdin = child.stdin.take().ok_or("engine stdin")?;
        let stdout = child.stdout.take().ok_or("engine stdout")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            command: command.to_string(),
        })
    }

    /// The command line the engine was started with (errors name the engine by it).
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// The engine's stdin is closed (it died).
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("engine '{}': {e}", self.command))
    }

    /// The next line of output if one comes within `timeout`, else `None`.
    ///
    /// # Errors
    /// The engine's output closed (it exited).
    pub fn try_next_line(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Some(line)),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(format!("engine '{}' exited", self.command))
            }
        }
    }

    /// The next line of output, waiting at most `timeout`; `awaited` names what the caller
    /// waits for, in the timeout's message.
    ///
    /// # Errors
    /// Timeout or the engine's output closed.
    pub fn next_line(&mut self, timeout: Duration, awaited: &str) -> Result<String, String> {
        self.try_next_line(timeout)?.ok_or_else(|| {
            format!(
                "engine '{}': no '{awaited}' within {timeout:?}",
                self.command
            )
        })
    }

    /// Lines up to and including the first starting with `prefix`, each within `timeout`.
    ///
    /// # Errors
    /// As [`EngineProcess::next_line`].
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next_line(timeout, prefix)?;
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Both protocols end with `quit`; an engine that ignores it is killed.
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external engine's spec as clap's `value_parser` (`--engine` of `ablate` and
/// `reproduce`): `none`, `auto`, or a command whose program is there to run, checked before
/// any step (a missing one once failed only after hours of matches).
///
/// # Errors
/// A command whose program is not an executable file, or not on `PATH`.
pub fn engine_spec(spec: &str) -> Result<String, String> {
    if matches!(spec, "none" | "auto") {
        return Ok(spec.to_string());
    }
    let program = spec.split_whitespace().next().unwrap_or_default();
    let runnable = |p: &std::path::Path| {
        use std::os::unix::fs::PermissionsExt as _;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let found = if program.contains('/') {
        runnable(std::path::Path::new(program))
    } else {
        std::env::var_os("PATH")
            .into_iter()
            .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .any(|d| runnable(&d.join(program)))
    };
    if found {
        Ok(spec.to_string())
    } else {
        Err(format!(
            "'{program}' is not an executable file or a program on PATH (give a UCI engine's \
             command, auto or none)"
        ))
    }
}

/// An external engine's command from `spec`: `none`, `auto` (Stockfish on `PATH` or in
/// `/usr/games`, as Debian installs it; none if it is not there), or the command itself.
#[must_use]
pub fn find_engine(spec: &str) -> Option<String> {
    match spec {
        "none" => None,
        "auto" => std::env::var_os("PATH")
            .into_iter()
            .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .chain([std::path::PathBuf::from("/usr/games")])
            .map(|d| d.join("stockfish"))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string()),
        command => Some(command.to_string()),
    }
}
