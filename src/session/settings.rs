//! Values the manager sets with INFO, kept across games (managers may send them before
//! START, and c-gomoku-cli re-sends them after every START anyway).

use crate::protocol::Info;
use crate::search::TimeControl;

const MIB: i64 = 1 << 20;
const GIB: i64 = 1 << 30;
/// What `max_memory 0` ("no limit") and a missing value mean: the Gomocup limit.
pub const DEFAULT_MAX_MEMORY: i64 = 350 * MIB;
/// Kept outside the hash table for the board, stacks, buffers and the binary itself.
const RESERVED_MEMORY: i64 = 48 * MIB;
const MIN_HASH_BYTES: i64 = MIB;
/// A bigger table buys little and takes long to clear between games.
const MAX_HASH_BYTES: i64 = GIB;
/// The most a table sized from `max_memory` takes: a move of a minute at half a million
/// nodes a second fills 256 MiB at most, and making a 1 GiB table (its pages touched)
/// took over 3 s under wine, answering the next command late. `hash_size` may still ask
/// for up to `MAX_HASH_BYTES`.
const MAX_AUTO_HASH_BYTES: i64 = 256 * MIB;

/// Transposition table size for a memory limit: three quarters of what is left after
/// the reserve (the table is not the only allocation), between 1 MiB and 256 MiB.
pub fn hash_bytes_for(max_memory: i64) -> usize {
    let limit = if max_memory <= 0 {
        DEFAULT_MAX_MEMORY
    } else {
        max_memory
    };
    let table = (limit - RESERVED_MEMORY) / 4 * 3;
    table.clamp(MIN_HASH_BYTES, MAX_AUTO_HASH_BYTES) as usize
}

/// Most threads a search may use here: the machine's cores (at most `MAX_THREADS`).
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(crate::search::MAX_THREADS)
}

/// Board sides on which the network plays by default: trained on 15x15 and 20x20 games,
/// it was measured ahead of the classical evaluation on 12x12 to 22x22 and level on 10x10
/// (netI, 200 to 400 games a board; docs/network.md).
pub const NETWORK_SIZES: std::ops::RangeInclusive<usize> = 10..=22;

/// What the session must do after an INFO besides storing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoEffect {
    None,
    RuleChanged,
    MemoryChanged,
    /// `INFO seed`: the random choices of the reduced levels start again from it.
    Reseed(u64),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub time: TimeControl,
    /// Bytes; 0 = no limit (treated as `DEFAULT_MAX_MEMORY`).
    pub max_memory: i64,
    pub game_type: Option<i64>,
    /// The `INFO rule` bitmask, decoded with `Rule::from_bits`.
    pub rule_bits: i64,
    /// Folder for persistent files; unused for now but kept for an opening book.
    pub folder: Option<String>,
    /// Square under the mouse in Piskvork's debug mode; never printed.
    pub evaluate: Option<String>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// Requested search threads (`INFO thread_num`); see `search_threads`.
    pub threads: Option<i64>,
    /// Yixin-Board's `INFO hash_size` in KB: when set, the table has this size (within
    /// 1 MiB to 1 GiB) instead of one derived from `max_memory`. The later of the two wins.
    pub hash_kb: Option<i64>,
    /// A `max_memory` or `hash_size` has arrived: the table's size is the manager's, not
    /// a guess, so it may be made before the first search (see `Session::new_game`).
    pub memory_known: bool,
    /// `INFO nn 1` / `0` (or the command line's `--nn` / `--classical`): search with the
    /// network or with the classical evaluation; `None`: as `network_on` chooses.
    pub nn: Option<bool>,
    /// `INFO level N` (1 to 10), if one was given; its handicap applies to moves.
    pub level: Option<u8>,
}

impl Settings {
    /// Threads to search with: `INFO thread_num`, at least 1 (the default), and never
    /// more than the machine's cores (a thread without a core of its own only slows the
    /// others down).
    pub fn search_threads(&self) -> usize {
        self.threads
            .map_or(1, |n| n.clamp(1, max_threads() as i64) as usize)
    }

    pub fn hash_bytes(&self) -> usize {
        match self.hash_kb {
            Some(kb) => kb
                .saturating_mul(1024)
                .clamp(MIN_HASH_BYTES, MAX_HASH_BYTES) as usize,
            None => hash_bytes_for(self.max_memory),
        }
    }

    /// Whether a search on `board` uses the network (under any rule): as `INFO nn` or the
    /// command line says, else on at full strength on the boards where it was measured
    /// stronger than the classical evaluation (`NETWORK_SIZES`), and off for the reduced
    /// levels, which were calibrated without it.
    pub fn network_on(&self, board: &crate::game::Board) -> bool {
        let full_strength = self.level.is_none_or(|l| l == crate::levels::FULL);
        self.nn.unwrap_or(
            full_strength
                && NETWORK_SIZES.contains(&board.width())
                && NETWORK_SIZES.contains(&board.height()),
        )
    }

    /// Stores one INFO value. Unknown keys and unusable values are ignored (the protocol
    /// forbids replying to INFO); they are logged on stderr.
    pub fn apply(&mut self, info: Info) -> InfoEffect {
        match info {
            Info::TimeoutTurn(ms) => self.time.turn_ms = Some(ms),
            Info::TimeoutMatch(ms) => self.time.match_ms = Some(ms),
            Info::TimeLeft(ms) => self.time.left_ms = Some(ms),
            Info::MaxMemory(bytes) => return self.set_max_memory(bytes),
            Info::GameType(t) => self.game_type = Some(t),
            Info::Rule(bits) => {
                let changed = bits != self.rule_bits;
                self.rule_bits = bits;
                if changed {
                    return InfoEffect::RuleChanged;
                }
            }
            Info::MaxDepth(d) => {
                self.max_depth = positive(d).map(|d| d.min(u32::MAX as u64) as u32)
            }
            Info::MaxNode(n) => self.max_nodes = positive(n),
            Info::ThreadNum(n) => self.threads = Some(n),
            Info::HashSize(kb) => return self.set_hash_kb(kb),
            Info::Level(n) => self.set_level(n),
            Info::Seed(seed) => return InfoEffect::Reseed(seed as u64),
            Info::Nn(n) => self.nn = Some(n != 0),
            Info::Folder(path) => self.folder = Some(path),
            Info::Evaluate(at) => self.evaluate = Some(at),
            Info::BadValue { key, value } => log::warn!("INFO {key}: bad value '{value}' ignored"),
            Info::Unknown(key) => log::debug!("INFO {key}: unknown key ignored"),
        }
        InfoEffect::None
    }

    /// A named level sets the node limit it is played with (none at full strength) and
    /// its handicap.
    fn set_level(&mut self, n: i64) {
        match u8::try_from(n).ok().and_then(crate::levels::level) {
            Some(level) => {
                self.max_nodes = level.max_nodes;
                self.level = u8::try_from(n).ok();
            }
            None => log::warn!("INFO level {n}: not 1 to 10, ignored"),
        }
    }

    /// How moves are picked: the level's handicap, none without a level.
    pub fn handicap(&self) -> crate::levels::Handicap {
        self.level
            .and_then(crate::levels::level)
            .map_or(crate::levels::Handicap::NONE, |l| l.handicap)
    }

    fn set_max_memory(&mut self, bytes: i64) -> InfoEffect {
        if bytes < 0 {
            log::warn!("INFO max_memory {bytes}: negative, ignored");
            return InfoEffect::None;
        }
        self.resize(|s| {
            s.max_memory = bytes;
            s.hash_kb = None;
            s.memory_known = true;
        })
    }

    /// `hash_size` in KB; 0 goes back to sizing the table from `max_memory`.
    fn set_hash_kb(&mut self, kb: i64) -> InfoEffect {
        if kb < 0 {
            log::warn!("INFO hash_size {kb}: negative, ignored");
            return InfoEffect::None;
        }
        self.resize(|s| {
            s.hash_kb = (kb > 0).then_some(kb);
            s.memory_known = true;
        })
    }

    /// Applies `change`; reports whether the table size changed.
    fn resize(&mut self, change: impl FnOnce(&mut Settings)) -> InfoEffect {
        let before = self.hash_bytes();
        change(self);
        if self.hash_bytes() != before {
            InfoEffect::MemoryChanged
        } else {
            InfoEffect::None
        }
    }
}

/// Zero or less means "no limit" for depth and node counts.
fn positive(v: i64) -> Option<u64> {
    (v > 0).then_some(v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_size_follows_the_formula() {
        assert_eq!(
            hash_bytes_for(367_001_600),
            ((350 - 48) * MIB / 4 * 3) as usize
        );
        assert_eq!(hash_bytes_for(0), hash_bytes_for(350 * MIB));
        assert_eq!(hash_bytes_for(10 * MIB), MIB as usize);
        assert_eq!(hash_bytes_for(1), MIB as usize);
        assert_eq!(hash_bytes_for(i64::MAX), 256 * MIB as usize);
        assert_eq!(hash_bytes_for(0x7FFF_FFFF), 256 * MIB as usize);
        assert_eq!(
            hash_bytes_for(300 * MIB),
            ((300 - 48) * MIB / 4 * 3) as usize
        );
    }

    #[test]
    fn the_network_plays_by_default_where_it_was_measured() {
        use crate::game::{Board, Rule};
        let board = |w, h, rule| Board::new(w, h, rule);
        let mut s = Settings::default();
        for side in [10, 15, 17, 20, 22] {
            assert!(s.network_on(&board(side, side, Rule::Freestyle)), "{side}");
        }
        assert!(s.network_on(&board(20, 12, Rule::Freestyle)), "rectangular");
        assert!(!s.network_on(&board(9, 9, Rule::Freestyle)));
        assert!(!s.network_on(&board(23, 23, Rule::Freestyle)));
        assert!(
            !s.network_on(&board(20, 8, Rule::Freestyle)),
            "rectangular, one side out"
        );
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert!(s.network_on(&board(15, 15, rule)), "{rule:?}");
            assert!(!s.network_on(&board(9, 9, rule)), "{rule:?} on 9x9");
        }
        s.apply(Info::Level(5));
        assert!(
            !s.network_on(&board(15, 15, Rule::Freestyle)),
            "reduced level"
        );
        s.apply(Info::Level(10));
        assert!(s.network_on(&board(15, 15, Rule::Freestyle)), "full level");
        s.apply(Info::Nn(0));
        assert!(!s.network_on(&board(15, 15, Rule::Freestyle)), "INFO nn 0");
        s.apply(Info::Nn(1));
        assert!(
            s.network_on(&board(8, 8, Rule::Freestyle)),
            "INFO nn 1: any side"
        );
        s.apply(Info::Level(3));
        assert!(
            s.network_on(&board(15, 15, Rule::Freestyle)),
            "INFO nn 1 at any level"
        );
    }

    #[test]
    fn level_sets_the_node_limit() {
        let mut s = Settings::default();
        s.apply(Info::Level(1));
        assert_eq!(s.max_nodes, crate::levels::LEVELS[0].max_nodes);
        assert!(s.max_nodes.is_some());
        assert!(!s.handicap().is_none(), "level 1 is handicapped");
        s.apply(Info::Level(11));
        assert_eq!(
            s.max_nodes,
            crate::levels::LEVELS[0].max_nodes,
            "out of range: kept"
        );
        s.apply(Info::Level(10));
        assert_eq!(s.max_nodes, None, "full strength has no node limit");
        assert!(s.handicap().is_none(), "full strength has no handicap");
    }

    #[test]
    fn time_values_are_stored_including_negative() {
        let mut s = Settings::default();
        s.apply(Info::TimeoutTurn(5000));
        s.apply(Info::TimeoutMatch(0));
        s.apply(Info::TimeLeft(-20));
        assert_eq!(s.time.turn_ms, Some(5000));
        assert_eq!(s.time.match_ms, Some(0));
        assert_eq!(s.time.left_ms, Some(-20));
    }

    #[test]
    fn memory_change_is_reported_only_when_the_table_size_changes() {
        let mut s = Settings::default();
        assert_eq!(s.apply(Info::MaxMemory(367_001_600)), InfoEffect::None);
        assert_eq!(
            s.apply(Info::MaxMemory(100 * MIB)),
            InfoEffect::MemoryChanged
        );
        assert_eq!(s.apply(Info::MaxMemory(100 * MIB)), InfoEffect::None);
        assert_eq!(s.apply(Info::MaxMemory(-5)), InfoEffect::None);
        assert_eq!(s.max_memory, 100 * MIB);
    }

    #[test]
    fn hash_size_in_kb_overrides_max_memory_until_the_next_max_memory() {
        let mut s = Settings::default();
        assert_eq!(s.apply(Info::HashSize(65_536)), InfoEffect::MemoryChanged);
        assert_eq!(s.hash_bytes(), 64 * MIB as usize);
        assert_eq!(s.apply(Info::HashSize(65_536)), InfoEffect::None);
        // Below 1 MiB and above 1 GiB the table is clamped like a max_memory one.
        s.apply(Info::HashSize(1));
        assert_eq!(s.hash_bytes(), MIB as usize);
        s.apply(Info::HashSize(i64::MAX));
        assert_eq!(s.hash_bytes(), GIB as usize);
        assert_eq!(s.apply(Info::HashSize(-1)), InfoEffect::None);
        assert_eq!(s.hash_bytes(), GIB as usize);
        // max_memory afterwards takes over again; hash_size 0 also hands back.
        s.apply(Info::MaxMemory(100 * MIB));
        assert_eq!(s.hash_bytes(), hash_bytes_for(100 * MIB));
        s.apply(Info::HashSize(2048));
        assert_eq!(s.hash_bytes(), 2 * MIB as usize);
        s.apply(Info::HashSize(0));
        assert_eq!(s.hash_bytes(), hash_bytes_for(100 * MIB));
    }

    #[test]
    fn search_threads_stay_between_one_and_the_cores() {
        let mut s = Settings::default();
        assert_eq!(s.search_threads(), 1);
        for (asked, want) in [(0, 1), (-3, 1), (1, 1), (2, 2.min(max_threads()))] {
            s.apply(Info::ThreadNum(asked));
            assert_eq!(s.search_threads(), want, "thread_num {asked}");
        }
        s.apply(Info::ThreadNum(i64::MAX));
        assert_eq!(s.search_threads(), max_threads());
        assert!(max_threads() >= 1 && max_threads() <= crate::search::MAX_THREADS);
    }

    #[test]
    fn rule_change_is_reported() {
        let mut s = Settings::default();
        assert_eq!(s.apply(Info::Rule(0)), InfoEffect::None);
        assert_eq!(s.apply(Info::Rule(4)), InfoEffect::RuleChanged);
        assert_eq!(s.rule_bits, 4);
    }

    #[test]
    fn limits_and_strings_are_stored() {
        let mut s = Settings::default();
        s.apply(Info::MaxDepth(7));
        s.apply(Info::MaxNode(0));
        s.apply(Info::ThreadNum(4));
        s.apply(Info::Folder(r"C:\a b".into()));
        s.apply(Info::Evaluate("3,4".into()));
        s.apply(Info::Unknown("pondering".into()));
        assert_eq!(s.max_depth, Some(7));
        assert_eq!(s.max_nodes, None);
        assert_eq!(s.threads, Some(4));
        assert_eq!(s.folder.as_deref(), Some(r"C:\a b"));
        assert_eq!(s.evaluate.as_deref(), Some("3,4"));
    }
}
