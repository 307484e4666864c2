//! What one match of a run plays, decided once for the plan (its arguments) and the power
//! statement (its text and budget), so that the two cannot disagree.

use crate::common::speed;

/// A match's limit: a time control, or (`--deterministic`) the nodes per move that cost what
/// a time control costs at the reference speed.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLimit {
    /// The time control played, or the one the nodes stand for.
    tc: String,
    /// Nodes per move, under `--deterministic`.
    nodes: Option<u64>,
    /// Seconds a game takes on this machine, roughly ([`speed::game_seconds`]).
    game_seconds: f64,
}

impl MatchLimit {
    /// The limit of a match the scale plays at `scale_tc`: a `--tc` given replaces it as
    /// given; otherwise the scale's time control is scaled by the time factor. Under
    /// `--deterministic` the nodes come from the time control before the factor (they are the
    /// same search on any machine), and the factor only says what they cost here.
    ///
    /// # Errors
    /// A time control that is not `BASE+INC`.
    pub fn new(
        scale_tc: &str,
        given: Option<&str>,
        factor: f64,
        deterministic: bool,
    ) -> Result<MatchLimit, String> {
        let tc = given.unwrap_or(scale_tc);
        if deterministic {
            return Ok(MatchLimit {
                tc: tc.to_string(),
                nodes: Some(speed::nodes_per_move(tc)?),
                game_seconds: speed::game_seconds(tc)? * factor,
            });
        }
        let tc = match given {
            Some(tc) => tc.to_string(),
            None => speed::scaled_tc(tc, factor)?,
        };
        Ok(MatchLimit {
            game_seconds: speed::game_seconds(&tc)?,
            tc,
            nodes: None,
        })
    }

    /// The `cutlab match` arguments: `--nodes N` or `--tc TC`.
    pub fn args(&self) -> Vec<String> {
        match self.nodes {
            Some(nodes) => vec!["--nodes".into(), nodes.to_string()],
            None => vec!["--tc".into(), self.tc.clone()],
        }
    }

    /// As the power statement writes it: `74000 nodes per move`, or the time control.
    pub fn shown(&self) -> String {
        match self.nodes {
            Some(nodes) => format!("{nodes} nodes per move"),
            None => self.tc.clone(),
        }
    }

    /// Seconds a game takes on this machine, roughly.
    pub fn game_seconds(&self) -> f64 {
        self.game_seconds
    }
}

#[cfg(test)]
mod tests {
    use super::MatchLimit;

    /// The scale's time control is scaled, a given one played as given; nodes come from the
    /// time control before the factor (`speed::nodes_per_move`: 2+0.02 is 74,000).
    #[test]
    fn a_limit_is_what_the_match_plays() {
        let timed = MatchLimit::new("2+0.02", None, 2.0, false).unwrap();
        assert_eq!(timed.args(), ["--tc", "4+0.04"]);
        // 2 x (0.75 x 4 + 60 x 0.04) seconds.
        assert!((timed.game_seconds() - 10.8).abs() < 1e-9);
        let given = MatchLimit::new("2+0.02", Some("5+0.05"), 2.0, false).unwrap();
        assert_eq!(given.args(), ["--tc", "5+0.05"]);
        let nodes = MatchLimit::new("2+0.02", None, 2.0, true).unwrap();
        assert_eq!(nodes.args(), ["--nodes", "74000"]);
        assert_eq!(nodes.shown(), "74000 nodes per move");
        // The nodes of 2+0.02 take twice its 5.4 s on a machine at half the reference speed.
        assert!((nodes.game_seconds() - 10.8).abs() < 1e-9);
        let given_nodes = MatchLimit::new("2+0.02", Some("5+0.05"), 1.0, true).unwrap();
        assert_eq!(given_nodes.args(), ["--nodes", "186000"]);
        assert!(MatchLimit::new("2+0.02", Some("fast"), 1.0, false).is_err());
    }
}
