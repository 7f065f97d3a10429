//! The ten named strengths of the built-in engine, as protocol settings.
//!
//! Levels 6 to 10 limit the nodes per move (10 is full strength). Levels 1 to 5 add a
//! handicap (`Handicap`): several root moves are searched (as `YXNBEST` does) and one is
//! picked with a random bonus, and the opponent's threats are sometimes overlooked, as a
//! beginner does. `docs/board.md` gives the matches that calibrated them.

/// How a reduced level picks its move; `Handicap::NONE` plays the search's best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// Root moves searched (the best, then the best excluding those found, ...).
    pub lines: u32,
    /// Largest random bonus added to a line's score (evaluation units) before the pick.
    pub noise: i32,
    /// Percent chance, each move, to overlook the opponent's threats: the squares where
    /// the opponent would make a four, an open four, a four-three or a double three are
    /// not considered (unless they make a three or better for us too).
    pub overlook: u8,
    /// Percent chance, each move, to overlook the opponent's four as well (its five square).
    pub overlook_four: u8,
    /// Percent chance, each move, to miss our own fours and fives (their squares are not
    /// considered), as a novice does.
    pub miss_own: u8,
}

impl Handicap {
    pub const NONE: Handicap = Handicap {
        lines: 1,
        noise: 0,
        overlook: 0,
        overlook_four: 0,
        miss_own: 0,
    };

    pub fn is_none(&self) -> bool {
        *self == Handicap::NONE
    }
}

/// One level: its name, the `INFO max_node` it is played with (`None`: full strength,
/// limited by the clock only), its handicap and its calibrated Elo (on the scale where
/// `seed002 --level easy` is 0) with its 95% error, from the fit of all the calibration
/// matches (`docs/levels-matches.txt`, `scripts/level-elo.py`, `docs/board.md` "Levels").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub max_nodes: Option<u64>,
    pub handicap: Handicap,
    pub elo: i32,
    pub elo_error: i32,
}

/// The full-strength level.
pub const FULL: u8 = 10;

const fn limited(name: &'static str, nodes: u64, elo: i32, elo_error: i32) -> Level {
    Level {
        name,
        max_nodes: Some(nodes),
        handicap: Handicap::NONE,
        elo,
        elo_error,
    }
}

const fn handicapped(name: &'static str, nodes: u64, h: Handicap, elo: (i32, i32)) -> Level {
    Level {
        name,
        max_nodes: Some(nodes),
        handicap: h,
        elo: elo.0,
        elo_error: elo.1,
    }
}

/// A handicap: lines, noise, then the percent chances `[overlook, overlook_four, miss_own]`.
const fn h(lines: u32, noise: i32, chances: [u8; 3]) -> Handicap {
    Handicap {
        lines,
        noise,
        overlook: chances[0],
        overlook_four: chances[1],
        miss_own: chances[2],
    }
}

/// Levels 1 to 10, weakest first.
pub const LEVELS: [Level; 10] = [
    handicapped("Novice", 100, h(10, 4000, [100, 85, 85]), (-301, 110)),
    handicapped("Beginner", 100, h(8, 3500, [100, 75, 70]), (-26, 144)),
    handicapped("Learner", 100, h(8, 2500, [90, 50, 40]), (226, 168)),
    handicapped("Casual", 150, h(6, 1200, [60, 15, 5]), (517, 183)),
    handicapped("Improver", 200, h(4, 500, [30, 0, 0]), (709, 191)),
    limited("Club", 500, 1010, 203),
    limited("Strong", 2_000, 1106, 215),
    limited("Expert", 12_000, 1519, 266),
    limited("Master", 40_000, 1849, 283),
    Level {
        name: "Full strength",
        max_nodes: None,
        handicap: Handicap::NONE,
        // At least: measured with 300000 nodes a move standing in for the clock.
        elo: 2262,
        elo_error: 312,
    },
];

/// The level numbered `n` (1 to 10).
pub fn level(n: u8) -> Option<Level> {
    LEVELS.get(usize::from(n).checked_sub(1)?).copied()
}

/// The INFO line that sets level `n` (`INFO level N`; nothing for an unknown level).
pub fn info_lines(n: u8) -> Vec<String> {
    level(n)
        .map(|_| vec![format!("INFO level {n}")])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_numbered_from_one_and_grow() {
        assert_eq!(level(0), None);
        assert_eq!(level(11), None);
        assert_eq!(level(2).map(|l| l.name), Some("Beginner"));
        assert_eq!(info_lines(2), ["INFO level 2"]);
        assert!(info_lines(11).is_empty());
        let top = level(FULL).expect("the full level");
        assert_eq!((top.max_nodes, top.handicap), (None, Handicap::NONE));
        // Nodes never fall and the handicap never grows from one level to the next.
        for w in LEVELS.windows(2) {
            let nodes = |l: &Level| l.max_nodes.unwrap_or(u64::MAX);
            assert!(nodes(&w[0]) <= nodes(&w[1]));
            let (a, b) = (w[0].handicap, w[1].handicap);
            assert!(a.lines >= b.lines && a.noise >= b.noise && a.overlook >= b.overlook);
            assert!(a.overlook_four >= b.overlook_four && a.miss_own >= b.miss_own);
            assert!(
                w[0].elo < w[1].elo,
                "the calibration puts the levels in order"
            );
        }
    }
}
