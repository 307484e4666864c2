//! The machine's other load: how many cores processes other than a step's own keep busy. A
//! step that measures time waits for an idle machine before it starts, and every step's
//! record says how busy the others kept the machine while it ran (Linux's `/proc/stat`, less
//! the CPU time of the step's own processes; elsewhere nothing is measured).

use std::time::{Duration, Instant};

/// Other processes below this many busy cores leave the machine idle enough to time a search.
pub const IDLE_CORES: f64 = 0.5;

/// How long the machine is watched before a step that measures time.
const WINDOW: Duration = Duration::from_secs(3);

/// How long to wait between looks at a busy machine.
const RETRY: Duration = Duration::from_secs(30);

/// Cumulative CPU time of the whole machine, in clock ticks (`/proc/stat`'s `cpu` line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ticks {
    /// Ticks spent running processes (user, nice, system, interrupts, steal).
    busy: u64,
    /// Every tick, idle and waiting on input included.
    total: u64,
}

/// The `cpu` line of `/proc/stat`'s text, and the number of `cpuN` lines (the cores).
fn parse_stat(text: &str) -> Option<(Ticks, usize)> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let fields: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice, already in user, nice]
    let (idle, iowait) = (*fields.get(3)?, fields.get(4).copied().unwrap_or(0));
    let busy: u64 = fields.iter().take(8).sum::<u64>() - idle - iowait;
    let cores = text
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    Some((
        Ticks {
            busy,
            total: busy + idle + iowait,
        },
        cores,
    ))
}

/// The CPU seconds of this process's finished children (and theirs), user and system.
fn children_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage writes one `rusage` into the zeroed struct it is given.
        #[expect(unsafe_code, reason = "getrusage has no safe wrapper in std")]
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            (libc::getrusage(libc::RUSAGE_CHILDREN, &raw mut usage) == 0).then_some(usage)
        };
        usage.map_or(0.0, |u| {
            let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            seconds(u.ru_utime) + seconds(u.ru_stime)
        })
    }
    #[cfg(not(unix))]
    0.0
}

/// Cores kept busy by others over an interval: the machine's busy share of `cores`, less the
/// `own` CPU seconds spent in `wall` seconds by the step's processes; never below 0.
fn other_cores(before: Ticks, after: Ticks, cores: usize, own: f64, wall: f64) -> f64 {
    let total = after.total.saturating_sub(before.total);
    if total == 0 || wall <= 0.0 {
        return 0.0;
    }
    let busy = after.busy.saturating_sub(before.busy) as f64 / total as f64 * cores as f64;
    (busy - own / wall).max(0.0)
}

/// A measurement of the others' load, from its start to [`Meter::other_cores`].
pub struct Meter {
    ticks: Ticks,
    cores: usize,
    own: f64,
    clock: Instant,
}

impl Meter {
    /// Starts measuring; `None` where the machine does not say (not Linux).
    #[must_use]
    pub fn start() -> Option<Meter> {
        let (ticks, cores) = parse_stat(&std::fs::read_to_string("/proc/stat").ok()?)?;
        Some(Meter {
            ticks,
            cores,
            own: children_cpu_seconds(),
            clock: Instant::now(),
        })
    }

    /// Cores that other processes than this one's finished children kept busy since the start,
    /// on average, to two decimals.
    #[must_use]
    pub fn other_cores(&self) -> Option<f64> {
        let (ticks, _) = parse_stat(&std::fs::read_to_string("/proc/stat").ok()?)?;
        let own = children_cpu_seconds() - self.own;
        let cores = other_cores(
            self.ticks,
            ticks,
            self.cores,
            own,
            self.clock.elapsed().as_secs_f64(),
        );
        Some((cores * 100.0).round() / 100.0)
    }
}

/// Cores that other processes keep busy now (over a few seconds); `None` where unknown.
fn busy_now() -> Option<f64> {
    let meter = Meter::start()?;
    std::thread::sleep(WINDOW);
    meter.other_cores()
}

/// Whether a step that ran `seconds` with `other_cores_busy` (its record's) already watched the
/// others for the window of [`wait_for_idle`] and saw them leave the machine idle: the step
/// after it need not look again.
#[must_use]
pub fn watched_idle(seconds: f64, other_cores_busy: Option<f64>) -> bool {
    seconds >= WINDOW.as_secs_f64() && other_cores_busy.is_some_and(|busy| busy < IDLE_CORES)
}

/// Waits until other processes leave the machine idle (below [`IDLE_CORES`]), at most
/// `limit`, saying so on standard error: step `step` measures time, which the others would
/// slow. Past the limit the step runs anyway, and its record says how busy the machine was.
pub fn wait_for_idle(step: &str, limit: Duration) {
    if limit.is_zero() {
        return;
    }
    let start = Instant::now();
    let mut said = None::<Instant>;
    while let Some(busy) = busy_now().filter(|&b| b >= IDLE_CORES) {
        let waited = start.elapsed();
        if waited >= limit {
            eprintln!(
                "step {step}: runs on a busy machine after {:.0} min ({busy:.1} cores busy); its \
                 record and the report say so",
                waited.as_secs_f64() / 60.0
            );
            return;
        }
        if said.is_none() {
            eprintln!(
                "step {step} measures time: waiting up to {:.0} min for an idle machine (other \
                 processes keep {busy:.1} cores busy; --idle-wait sets the limit)",
                limit.as_secs_f64() / 60.0
            );
            said = Some(Instant::now());
        } else if said.is_some_and(|t| t.elapsed() >= Duration::from_secs(600)) {
            eprintln!(
                "step {step}: still waiting after {:.0} min ({busy:.1} cores busy)",
                waited.as_secs_f64() / 60.0
            );
            said = Some(Instant::now());
        }
        std::thread::sleep(RETRY.min(limit - waited));
    }
    if said.is_some() {
        eprintln!(
            "step {step}: the machine is idle after {:.0} min",
            start.elapsed().as_secs_f64() / 60.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{Ticks, other_cores, parse_stat};

    const STAT: &str = "cpu  100 20 30 800 50 5 5 0 7 0\n\
                        cpu0 50 10 15 400 25 3 2 0 7 0\n\
                        cpu1 50 10 15 400 25 2 3 0 0 0\n\
                        intr 12345\nctxt 99\n";

    #[test]
    fn busy_ticks_leave_out_idle_and_waiting_and_count_guests_once() {
        let (ticks, cores) = parse_stat(STAT).unwrap();
        assert_eq!(cores, 2);
        assert_eq!(ticks.busy, 100 + 20 + 30 + 5 + 5);
        assert_eq!(ticks.total, ticks.busy + 800 + 50);
        assert!(parse_stat("intr 1\n").is_none());
    }

    #[test]
    fn others_are_the_busy_cores_less_the_steps_own() {
        let before = Ticks { busy: 0, total: 0 };
        // Two cores for 10 s (2,000 ticks at 100 Hz), all busy.
        let full = Ticks {
            busy: 2000,
            total: 2000,
        };
        // The step used 10 CPU seconds in 10 s: one core; the other was someone else's.
        assert!((other_cores(before, full, 2, 10.0, 10.0) - 1.0).abs() < 1e-9);
        // The step used both cores: nobody else.
        assert!(other_cores(before, full, 2, 20.0, 10.0).abs() < 1e-9);
        // Half the ticks busy and the step idle: one core of others.
        let half = Ticks {
            busy: 1000,
            total: 2000,
        };
        assert!((other_cores(before, half, 2, 0.0, 10.0) - 1.0).abs() < 1e-9);
        // A step's CPU time above the busy share (clock skew) is not a negative load.
        assert!(other_cores(before, half, 2, 30.0, 10.0).abs() < 1e-9);
        assert!(other_cores(before, before, 2, 0.0, 0.0).abs() < 1e-9);
    }
}
