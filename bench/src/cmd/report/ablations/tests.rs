//! The ablations contrast's tests: its differences, its rows and its sections.

use super::*;

/// The change is the second Elo minus the first, its half-width the two half-widths in
/// quadrature (30 and 40 give 50).
#[test]
fn the_change_is_the_difference_with_intervals_in_quadrature() {
    let m = |elo, h| {
        Some(Measured {
            elo,
            half_width: Some(h),
            games: 400,
            stopped: true,
            pentanomial: Pentanomial::default(),
        })
    };
    let (text, verdict) = difference(m(-50.0, 30.0), m(10.0, 40.0));
    assert_eq!(text, "+60.0 [+10.0, +110.0]");
    assert_eq!(verdict, "differs");
    let (text, verdict) = difference(m(-50.0, 30.0), m(-20.0, 40.0));
    assert_eq!(text, "+30.0 [-20.0, +80.0]");
    assert_eq!(verdict, "not shown to differ");
    let few = Some(Measured {
        elo: 0.0,
        half_width: None,
        games: 8,
        stopped: false,
        pentanomial: Pentanomial::default(),
    });
    assert_eq!(difference(m(0.0, 1.0), few).1, "too few games");
    assert_eq!(difference(None, m(0.0, 1.0)).1, "to play");
}

/// A games file of `variant` against `reference`, one game pair per entry of `pairs`:
/// the variant's points with White, then with Black.
fn games(variant: &str, reference: &str, pairs: &[(f64, f64)]) -> String {
    let mut csv = String::from(
        "game,pair,opening,white,black,result,termination,plies,first_engine_score,restarts\n",
    );
    for (p, &(first, second)) in pairs.iter().enumerate() {
        for (k, score) in [first, second].into_iter().enumerate() {
            let (white, black) = if k == 0 {
                (variant, reference)
            } else {
                (reference, variant)
            };
            let white_score = if k == 0 { score } else { 1.0 - score };
            let result = match white_score {
                1.0 => "1-0",
                0.0 => "0-1",
                _ => "1/2-1/2",
            };
            csv.push_str(&format!(
                "{},{},o{p},{white},{black},{result},adjudication,80,{score},0\n",
                2 * p + 1 + k,
                p + 1
            ));
        }
    }
    csv
}

/// A run of `comparisons` with the same games at each of `nodes`.
fn run_at(
    dir: &Path,
    stack: &str,
    comparisons: &[(Direction, &str, Option<String>)],
    nodes: &[u64],
) {
    for n in nodes {
        std::fs::create_dir_all(dir.join(format!("matches/{n}"))).unwrap();
    }
    let manifest = Manifest {
        header: crate::common::pipeline::study::Header {
            scale: "decisive".into(),
            time_factor: 1.0,
            ..Default::default()
        },
        stack: stack.into(),
        baseline: "null-move+lmr".into(),
        comparisons: comparisons
            .iter()
            .map(|(direction, method, _)| Comparison {
                direction: *direction,
                method: (*method).into(),
                variant: format!("{stack}-{method}"),
            })
            .collect(),
        nodes: nodes.to_vec(),
        looks: vec![24],
        stop_within: 15.0,
        ..Manifest::default()
    };
    std::fs::write(
        dir.join("manifest.toml"),
        toml::to_string(&manifest).unwrap(),
    )
    .unwrap();
    for (c, (_, _, csv)) in manifest.comparisons.iter().zip(comparisons) {
        for &n in nodes {
            if let Some(csv) = csv {
                std::fs::write(dir.join(MatchKey::of(c, n).games_file()), csv).unwrap();
            }
        }
    }
}

/// A run of `comparisons` with their games at 1000 nodes.
fn run(dir: &Path, stack: &str, comparisons: &[(Direction, &str, Option<String>)]) {
    run_at(dir, stack, comparisons, &[1000]);
}

/// Several efforts and directions: a section and a figure per effort, each direction's
/// rows labelled, and one count by chance over every contrast of every effort.
#[test]
fn several_efforts_and_directions_get_a_section_each() {
    let dir = crate::common::scratch_dir("ablations-2");
    let even = || {
        Some(games(
            "a",
            "s",
            &[(0.5, 0.5), (1.0, 0.0), (0.5, 0.5)].repeat(4),
        ))
    };
    let comparisons = [
        (Direction::Without, "rfp", even()),
        (Direction::Added, "mpc", even()),
        (Direction::Doubled, "nodes", even()),
    ];
    run_at(&dir.join("one"), "modern", &comparisons, &[1000, 4000]);
    run_at(&dir.join("two"), "modern+nnue", &comparisons, &[1000, 4000]);
    let study: AblationStudy = toml::from_str(
        "title = \"t\"\ntext = \"x\"\ndirections = [\"without\", \"doubled\"]\n\
         nodes = [1000, 4000]\n[[runs]]\nlabel = \"one\"\ndir = \"one\"\n\
         [[runs]]\nlabel = \"two\"\ndir = \"two\"\n",
    )
    .unwrap();
    let md = report(&dir, &study, true).unwrap();
    for n in [1000, 4000] {
        assert!(md.contains(&format!("## {n} nodes per move")), "{md}");
        assert!(dir.join(format!("elo-by-run-{n}.svg")).is_file());
    }
    let labels: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| method"))
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .filter(|c| !c.starts_with('-') && !c.starts_with(':'))
        .collect();
    assert_eq!(
        labels,
        ["without `rfp`", "twice the nodes"].repeat(2),
        "{md}"
    );
    assert!(md.contains("0 of the 4 contrasts differ"), "{md}");
    let mut missing = study;
    missing.nodes.push(9);
    assert!(
        report(&dir, &missing, false)
            .unwrap_err()
            .contains("no matches at 9 nodes")
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Rows pair the runs' comparisons by direction and method: one the second run lacks is
/// left out, one without games says so, one between its rule's looks is playing; a variant
/// that loses every pair in the first run and scores evenly in the second has changed by
/// a positive amount.
#[test]
fn rows_pair_the_runs_comparisons() {
    let dir = crate::common::scratch_dir("ablations");
    let mut pairs = vec![(0.0, 0.5); 10];
    pairs.extend([(0.5, 0.5); 2]);
    let losing = games("a", "s", &pairs);
    let mut pairs = vec![(1.0, 0.5); 4];
    pairs.extend([(0.5, 0.0); 4]);
    pairs.extend([(0.5, 0.5); 4]);
    let even = games("b", "s", &pairs);
    run(
        &dir.join("one"),
        "modern",
        &[
            (Direction::Without, "rfp", Some(losing)),
            (Direction::Without, "lmp", None),
            (
                Direction::Without,
                "iir",
                Some(games("a", "s", &[(0.5, 0.5); 12])),
            ),
            (
                Direction::Without,
                "singular",
                Some(games("a", "s", &[(0.5, 0.5); 12])),
            ),
            (Direction::Added, "rfp", None),
        ],
    );
    run(
        &dir.join("two"),
        "modern+nnue",
        &[
            (Direction::Without, "rfp", Some(even)),
            (Direction::Without, "lmp", None),
            (
                Direction::Without,
                "singular",
                Some(games("b", "s", &[(0.5, 0.5); 11])),
            ),
        ],
    );
    let study: AblationStudy = toml::from_str(
        "title = \"t\"\ntext = \"x\"\ndirections = [\"without\"]\nnodes = [1000]\n\
         [[runs]]\nlabel = \"one\"\ndir = \"one\"\n[[runs]]\nlabel = \"two\"\ndir = \"two\"\n",
    )
    .unwrap();
    let md = report(&dir, &study, true).unwrap();
    assert!(dir.join("elo-by-run.svg").is_file());
    let rows: Vec<Vec<&str>> = md
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            l.split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 3, "{md}");
    let (rfp, lmp, singular) = (&rows[0], &rows[1], &rows[2]);
    assert_eq!(rfp[..2], ["`rfp`", "24"], "{rfp:?}");
    assert!(
        rfp[2].starts_with('-') && rfp[4].starts_with("+0.0 ± "),
        "{rfp:?}"
    );
    assert!(rfp[5].starts_with('+') && rfp[6] == "differs", "{rfp:?}");
    assert_eq!(lmp[2], "not played", "{lmp:?}");
    assert_eq!(lmp[6], "to play", "{lmp:?}");
    // 22 games is no look of the rule (24): the match is still playing.
    assert!(
        singular[4].ends_with("(playing)") && singular[6] == "playing",
        "{singular:?}"
    );
    // Only contrasts whose two matches have stopped are counted against chance.
    assert!(
        md.contains(
            "1 of the 1 contrasts whose matches have both stopped (2 more wait for a match \
             to stop) differ"
        ),
        "{md}"
    );
    let bad: AblationStudy = toml::from_str(
        "title = \"t\"\ntext = \"x\"\ndirections = [\"without\"]\nnodes = [5]\n\
         [[runs]]\nlabel = \"one\"\ndir = \"one\"\n[[runs]]\nlabel = \"two\"\ndir = \"two\"\n",
    )
    .unwrap();
    assert!(
        report(&dir, &bad, false)
            .unwrap_err()
            .contains("no matches at 5 nodes")
    );
    std::fs::remove_dir_all(&dir).ok();
}
