//! The five named strengths of the built-in engine, as protocol settings.

/// One level: its name and the `INFO max_node` it is played with (`None`: full strength,
/// limited by the clock only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub max_nodes: Option<u64>,
}

/// Levels 1 to 5, weakest first. Each step is four to five times the nodes of the one below;
/// `docs/board.md` gives the matches that calibrated them.
pub const LEVELS: [Level; 5] = [
    Level {
        name: "Beginner",
        max_nodes: Some(500),
    },
    Level {
        name: "Casual",
        max_nodes: Some(2_000),
    },
    Level {
        name: "Club",
        max_nodes: Some(8_000),
    },
    Level {
        name: "Expert",
        max_nodes: Some(40_000),
    },
    Level {
        name: "Master",
        max_nodes: None,
    },
];

/// The level numbered `n` (1 to 5).
pub fn level(n: u8) -> Option<Level> {
    LEVELS.get(usize::from(n).checked_sub(1)?).copied()
}

/// The INFO lines that set level `n`: `INFO max_node N` below full strength.
pub fn info_lines(n: u8) -> Vec<String> {
    level(n)
        .and_then(|l| l.max_nodes)
        .map(|nodes| vec![format!("INFO max_node {nodes}")])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_numbered_from_one_and_grow() {
        assert_eq!(level(0), None);
        assert_eq!(level(6), None);
        assert_eq!(level(1).map(|l| l.name), Some("Beginner"));
        assert_eq!(info_lines(2), ["INFO max_node 2000"]);
        assert!(info_lines(5).is_empty());
        let nodes: Vec<u64> = LEVELS.iter().filter_map(|l| l.max_nodes).collect();
        assert!(nodes.windows(2).all(|w| w[0] < w[1]));
    }
}
