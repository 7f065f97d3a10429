//! Evaluation weights as data: the text files in `weights/`, compiled in and parsed once.
//!
//! Per empty square and colour the evaluator adds the values of the square's four line
//! patterns and the bonus of their combined threat. A colour's shapes count with the
//! "mover" values when it is to move and the "waiter" values when it is not (an open
//! three of the side to move is nearly a four already; the waiter's is a threat to meet).
//! `fivefold-tune` fits these numbers to game results and writes the same format.

use super::pattern::Pattern;
use super::pattern::PATTERN_COUNT;
use crate::game::{Color, Move, Rule};
use std::sync::OnceLock;

/// Index of the side-to-move role in `Weights::pattern` / `Weights::threat`.
pub const MOVER: usize = 0;
/// Index of the role of the side not to move.
pub const WAITER: usize = 1;

/// The weights for the caro rules: hand-set.
pub const HANDSET_TEXT: &str = include_str!("weights/handset.txt");
/// The weights the engine uses for freestyle (rule 0).
pub const FREESTYLE_TEXT: &str = include_str!("weights/freestyle.txt");
/// The weights the engine uses for standard, exactly five (rule 1).
pub const STANDARD_TEXT: &str = include_str!("weights/standard.txt");
/// Renju (rule 4) weighs Black's and White's shapes apart: Black's weights.
pub const RENJU_BLACK_TEXT: &str = include_str!("weights/renju_black.txt");
/// White's renju weights.
pub const RENJU_WHITE_TEXT: &str = include_str!("weights/renju_white.txt");

// The feature layout: what the weights are indexed by. The evaluator (`score.rs`) and
// the tuner read these; this file depends on nothing in the evaluator.

/// Number of combined threats (`Threat` in `score.rs`, which checks it): the length of
/// `Weights::threat`.
pub const THREAT_COUNT: usize = 10;

/// Values of `Evaluator::state_code`: a colour's threats in brief.
pub const STATE_CODES: usize = 72;
/// Threat states of a position: side to move's code by the opponent's.
pub const STATES: usize = STATE_CODES * STATE_CODES;

/// Ordered combinations of four line patterns (one per direction).
pub const COMBINATIONS: usize = PATTERN_COUNT * PATTERN_COUNT * PATTERN_COUNT * PATTERN_COUNT;

/// The index of four line patterns in direction order, below `COMBINATIONS`.
#[inline]
pub(super) fn combination_index(pats: [Pattern; 4]) -> usize {
    pats.iter().fold(0, |i, &p| i * PATTERN_COUNT + p as usize)
}

/// The combination of four patterns whatever their directions: the combination index of
/// the patterns sorted from best to worst, below `COMBINATIONS`.
pub fn combo_key(mut pats: [Pattern; 4]) -> usize {
    pats.sort_unstable_by(|a, b| b.cmp(a));
    combination_index(pats)
}

/// Length of a feature vector: tempo, the two initiative terms, then per role the
/// pattern values and the threat bonuses.
pub const FEATURES: usize = 3 + 2 * (PATTERN_COUNT + THREAT_COUNT);
pub const F_TEMPO: usize = 0;
pub const F_INITIATIVE_WIN: usize = 1;
pub const F_INITIATIVE_THREAT: usize = 2;

/// Index of pattern `p`'s value for `role` in a feature vector.
pub const fn pattern_feature(role: usize, p: usize) -> usize {
    3 + role * (PATTERN_COUNT + THREAT_COUNT) + p
}

/// Index of threat `t`'s bonus for `role` in a feature vector.
pub const fn threat_feature(role: usize, t: usize) -> usize {
    3 + role * (PATTERN_COUNT + THREAT_COUNT) + PATTERN_COUNT + t
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The side to move can use its shapes first.
    pub tempo: i32,
    /// We hold a double three or four-three and the opponent has no four to interpose.
    pub initiative_win: i32,
    /// The opponent holds one and we have no four: subtracted.
    pub initiative_threat: i32,
    /// Per role (`MOVER`, `WAITER`), the value of each line pattern, by `Pattern as usize`.
    pub pattern: [[i16; PATTERN_COUNT]; 2],
    /// Per role, the extra value of each combined threat, by `Threat as usize`.
    pub threat: [[i16; THREAT_COUNT]; 2],
    /// Per threat state (`Evaluator::state_index`: the side to move's threats in brief by
    /// its opponent's), a correction added when this colour is to move. Files list only
    /// the states that are not 0, as `state MOVER_CODE WAITER_CODE VALUE` lines.
    pub state: Vec<i16>,
    /// Per role, a correction to the value of a square by the combination of its four
    /// line patterns whatever their directions (indexed by `combo_key`). Files list only
    /// those that are not 0, as `combo ROLE P1 P2 P3 P4 VALUE` lines (role 0 mover, 1
    /// waiter; patterns by number, best first).
    pub combo: [Vec<i16>; 2],
    /// Move ordering: a square's score for the side to move is `policy[0]` at its
    /// combination of line patterns for the side to move (`combo_key`) plus `policy[1]` at
    /// the opponent's there. Fitted to a stronger engine's moves (`fivefold-tune
    /// --policy-from`); all 0 leaves the ordering by square values. Files list those
    /// that are not 0, as `policy SIDE P1 P2 P3 P4 VALUE` lines (side 0 own, 1 opponent).
    pub policy: [Vec<i16>; 2],
    /// Move ordering, added to `policy`: by the distance (the larger of the x and y
    /// distances, the last bucket for `NEAR_BUCKETS - 1` or more, or no such move) to the
    /// opponent's last move (`[0]`) and to ours (`[1]`). `policy_near SIDE V0 ... V7` lines.
    pub policy_near: [[i16; NEAR_BUCKETS]; 2],
}

/// Distance buckets of `Weights::policy_near`.
pub const NEAR_BUCKETS: usize = 8;

/// The `policy_near` bucket of `m` for an earlier move `last`: their distance, capped at
/// the last bucket, which also stands for no such move.
#[inline]
pub fn near_bucket(last: Option<Move>, m: Move) -> usize {
    last.map_or(NEAR_BUCKETS - 1, |a| a.distance(m).min(NEAR_BUCKETS - 1))
}

/// The key of the optional, repeatable threat-state lines.
const STATE_KEY: &str = "state";
/// The key of the optional, repeatable combination lines.
const COMBO_KEY: &str = "combo";
/// The key of the optional, repeatable move-ordering lines.
const POLICY_KEY: &str = "policy";
/// The key of the optional move-ordering distance lines.
const NEAR_KEY: &str = "policy_near";

const KEYS: [&str; 7] = [
    "tempo",
    "initiative_win",
    "initiative_threat",
    "mover_pattern",
    "mover_threat",
    "waiter_pattern",
    "waiter_threat",
];

impl Weights {
    /// Parses `key value...` lines; `#` starts a comment. Every key must appear once.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = Weights {
            tempo: 0,
            initiative_win: 0,
            initiative_threat: 0,
            pattern: [[0; PATTERN_COUNT]; 2],
            threat: [[0; THREAT_COUNT]; 2],
            state: vec![0; STATES],
            combo: [vec![0; COMBINATIONS], vec![0; COMBINATIONS]],
            policy: [vec![0; COMBINATIONS], vec![0; COMBINATIONS]],
            policy_near: [[0; NEAR_BUCKETS]; 2],
        };
        let mut seen = [false; KEYS.len()];
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or("");
            let nums = words
                .map(|s| s.parse::<i32>())
                .collect::<Result<Vec<i32>, _>>()
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            if key == STATE_KEY {
                w.set_state_line(&nums)
                    .map_err(|e| format!("line {}: {e}", n + 1))?;
                continue;
            }
            if key == NEAR_KEY {
                w.set_near_line(&nums)
                    .map_err(|e| format!("line {}: {e}", n + 1))?;
                continue;
            }
            if key == COMBO_KEY || key == POLICY_KEY {
                let table = if key == COMBO_KEY {
                    &mut w.combo
                } else {
                    &mut w.policy
                };
                set_keyed_line(table, key, &nums).map_err(|e| format!("line {}: {e}", n + 1))?;
                continue;
            }
            let k = KEYS
                .iter()
                .position(|&x| x == key)
                .ok_or_else(|| format!("line {}: unknown key '{key}'", n + 1))?;
            if std::mem::replace(&mut seen[k], true) {
                return Err(format!("line {}: '{key}' given twice", n + 1));
            }
            let want = match k {
                0..=2 => 1,
                3 | 5 => PATTERN_COUNT,
                _ => THREAT_COUNT,
            };
            if nums.len() != want {
                return Err(format!(
                    "line {}: '{key}' needs {want} numbers, got {}",
                    n + 1,
                    nums.len()
                ));
            }
            if k >= 3 && nums.iter().any(|&v| i16::try_from(v).is_err()) {
                return Err(format!("line {}: value out of range", n + 1));
            }
            match k {
                0 => w.tempo = nums[0],
                1 => w.initiative_win = nums[0],
                2 => w.initiative_threat = nums[0],
                3 => copy(&mut w.pattern[MOVER], &nums),
                4 => copy(&mut w.threat[MOVER], &nums),
                5 => copy(&mut w.pattern[WAITER], &nums),
                _ => copy(&mut w.threat[WAITER], &nums),
            }
        }
        if let Some(k) = seen.iter().position(|&s| !s) {
            return Err(format!("'{}' missing", KEYS[k]));
        }
        // Squares with stones count as Dead lines and no threat, at no value.
        if w.pattern.iter().any(|p| p[0] != 0) || w.threat.iter().any(|t| t[1] != 0) {
            return Err("the Dead pattern and the None threat must be worth 0".to_string());
        }
        Ok(w)
    }

    /// One `state MOVER_CODE WAITER_CODE VALUE` line's numbers.
    fn set_state_line(&mut self, nums: &[i32]) -> Result<(), String> {
        let &[m, wt, v] = nums else {
            return Err("'state' needs 3 numbers: mover code, waiter code, value".to_string());
        };
        let code = |c: i32| usize::try_from(c).ok().filter(|&c| c < STATE_CODES);
        let (Some(m), Some(wt)) = (code(m), code(wt)) else {
            return Err(format!("state codes must be below {STATE_CODES}"));
        };
        self.state[m * STATE_CODES + wt] =
            i16::try_from(v).map_err(|_| "value out of range".to_string())?;
        Ok(())
    }

    /// One `policy_near SIDE V0 ... V7` line's numbers.
    fn set_near_line(&mut self, nums: &[i32]) -> Result<(), String> {
        let Some((&side, values)) = nums
            .split_first()
            .filter(|(_, values)| values.len() == NEAR_BUCKETS)
        else {
            return Err(format!(
                "'{NEAR_KEY}' needs a side and {NEAR_BUCKETS} values"
            ));
        };
        let side = side_index(side, NEAR_KEY)?;
        if values.iter().any(|&v| i16::try_from(v).is_err()) {
            return Err("value out of range".to_string());
        }
        copy(&mut self.policy_near[side], values);
        Ok(())
    }

    /// The file format `parse` reads, after `header` (comment lines, each starting `#`).
    pub fn to_text(&self, header: &str) -> String {
        let join = |v: &[i16]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut s = String::from(header);
        if !s.is_empty() && !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str("# pattern order: Dead Overline B1 F1 B2 F2 B3 F3 B4 F4 F5\n");
        s.push_str(
            "# threat order: Forbidden None Flex3 Flex3Plus DoubleThree Four FourPlus FourThree \
             FlexFour Five\n",
        );
        s.push_str(&format!("tempo {}\n", self.tempo));
        s.push_str(&format!("initiative_win {}\n", self.initiative_win));
        s.push_str(&format!("initiative_threat {}\n", self.initiative_threat));
        s.push_str(&format!("mover_pattern {}\n", join(&self.pattern[MOVER])));
        s.push_str(&format!("mover_threat {}\n", join(&self.threat[MOVER])));
        s.push_str(&format!("waiter_pattern {}\n", join(&self.pattern[WAITER])));
        s.push_str(&format!("waiter_threat {}\n", join(&self.threat[WAITER])));
        if self.state.iter().any(|&v| v != 0) {
            s.push_str(
                "# threat states (side to move's code, opponent's code, value); a code is\n\
                 # ((open four? * 2 + four-three?) * 2 + double three?) * 9 + plain four\n\
                 # squares (0-2) * 3 + open three squares (0-2)\n",
            );
        }
        for (i, &v) in self.state.iter().enumerate().filter(|(_, &v)| v != 0) {
            s.push_str(&format!(
                "{STATE_KEY} {} {} {v}\n",
                i / STATE_CODES,
                i % STATE_CODES
            ));
        }
        if self.combo.iter().flatten().any(|&v| v != 0) {
            s.push_str(
                "# pattern combinations (role, four patterns by number best first, value)\n",
            );
        }
        keyed_lines(&self.combo, COMBO_KEY, &mut s);
        if self.policy.iter().flatten().any(|&v| v != 0) {
            s.push_str(
                "# move ordering (0 own shapes / 1 the opponent's, four patterns best first, \
                 value)\n",
            );
        }
        keyed_lines(&self.policy, POLICY_KEY, &mut s);
        for (side, values) in self.policy_near.iter().enumerate() {
            if values.iter().any(|&v| v != 0) {
                s.push_str(&format!("{NEAR_KEY} {side} {}\n", join(values)));
            }
        }
        s
    }

    /// The weights as a vector in feature order: `evaluate` is its dot product with
    /// `Evaluator::features`.
    pub fn to_vector(&self) -> [f64; FEATURES] {
        let mut v = [0.0; FEATURES];
        v[F_TEMPO] = self.tempo as f64;
        v[F_INITIATIVE_WIN] = self.initiative_win as f64;
        v[F_INITIATIVE_THREAT] = self.initiative_threat as f64;
        for role in [MOVER, WAITER] {
            for p in 0..PATTERN_COUNT {
                v[pattern_feature(role, p)] = self.pattern[role][p] as f64;
            }
            for t in 0..THREAT_COUNT {
                v[threat_feature(role, t)] = self.threat[role][t] as f64;
            }
        }
        v
    }

    /// The inverse of `to_vector`, rounding to integers (clamped to the `i16` range); the
    /// threat states, combinations and policy are all 0.
    pub fn from_vector(v: &[f64; FEATURES]) -> Weights {
        let small = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let mut w = Weights {
            tempo: v[F_TEMPO].round() as i32,
            initiative_win: v[F_INITIATIVE_WIN].round() as i32,
            initiative_threat: v[F_INITIATIVE_THREAT].round() as i32,
            pattern: [[0; PATTERN_COUNT]; 2],
            threat: [[0; THREAT_COUNT]; 2],
            state: vec![0; STATES],
            combo: [vec![0; COMBINATIONS], vec![0; COMBINATIONS]],
            policy: [vec![0; COMBINATIONS], vec![0; COMBINATIONS]],
            policy_near: [[0; NEAR_BUCKETS]; 2],
        };
        for role in [MOVER, WAITER] {
            for p in 0..PATTERN_COUNT {
                w.pattern[role][p] = small(v[pattern_feature(role, p)]);
            }
            for t in 0..THREAT_COUNT {
                w.threat[role][t] = small(v[threat_feature(role, t)]);
            }
        }
        w
    }

    /// The compiled-in weights `rule` evaluates `c`'s shapes with (and, when `c` is to
    /// move, the tempo and initiative terms). Only renju has a set per colour.
    pub fn for_side(rule: Rule, c: Color) -> &'static Weights {
        static SETS: [OnceLock<Weights>; 5] = [const { OnceLock::new() }; 5];
        let (slot, text) = compiled(rule, c);
        SETS[slot].get_or_init(|| match Weights::parse(text) {
            Ok(w) => w,
            // Compiled-in data, checked by the tests below: never fails in a built engine.
            Err(e) => panic!("bad compiled-in evaluation weights: {e}"),
        })
    }

    /// The text of the compiled-in weights file `for_side` parses.
    pub fn compiled_text(rule: Rule, c: Color) -> &'static str {
        compiled(rule, c).1
    }

    /// Whether `rule` weighs the two colours apart (then a position's features have a
    /// block per colour that matter, see `Evaluator::features`).
    pub fn per_colour(rule: Rule) -> bool {
        rule == Rule::Renju
    }
}

/// The compiled-in weights file for `rule` and colour `c`, and its slot among the parsed sets.
fn compiled(rule: Rule, c: Color) -> (usize, &'static str) {
    match rule {
        Rule::Freestyle => (0, FREESTYLE_TEXT),
        Rule::Caro | Rule::CaroExact => (1, HANDSET_TEXT),
        Rule::Standard => (2, STANDARD_TEXT),
        Rule::Renju if c == Color::Black => (3, RENJU_BLACK_TEXT),
        Rule::Renju => (4, RENJU_WHITE_TEXT),
    }
}

/// A role or side number of a `name` line: 0 or 1.
fn side_index(n: i32, name: &str) -> Result<usize, String> {
    usize::try_from(n)
        .ok()
        .filter(|&r| r <= 1)
        .ok_or(format!("{name}: the second number must be 0 or 1"))
}

/// One `combo ROLE P1 P2 P3 P4 VALUE` or `policy SIDE P1 P2 P3 P4 VALUE` line's numbers
/// into `table` (by role or side, then `combo_key`).
fn set_keyed_line(table: &mut [Vec<i16>; 2], name: &str, nums: &[i32]) -> Result<(), String> {
    let &[role, p1, p2, p3, p4, v] = nums else {
        return Err(format!(
            "'{name}' needs 6 numbers: role, four patterns, value"
        ));
    };
    let role = side_index(role, name)?;
    let mut pats = [Pattern::Dead; 4];
    for (slot, p) in pats.iter_mut().zip([p1, p2, p3, p4]) {
        *slot = u8::try_from(p)
            .ok()
            .filter(|&p| (p as usize) < PATTERN_COUNT)
            .map(Pattern::from_u8)
            .ok_or(format!("patterns are numbered below {PATTERN_COUNT}"))?;
    }
    let key = combo_key(pats);
    if key == 0 && name == COMBO_KEY {
        return Err("four Dead lines must be worth 0".to_string());
    }
    table[role][key] = i16::try_from(v).map_err(|_| "value out of range".to_string())?;
    Ok(())
}

/// The non-zero entries of `table` as `name ROLE P1 P2 P3 P4 VALUE` lines.
fn keyed_lines(table: &[Vec<i16>; 2], name: &str, out: &mut String) {
    for (role, values) in table.iter().enumerate() {
        for (key, &v) in values.iter().enumerate().filter(|(_, &v)| v != 0) {
            let p = [3, 2, 1, 0].map(|k| key / PATTERN_COUNT.pow(k) % PATTERN_COUNT);
            out.push_str(&format!(
                "{name} {role} {} {} {} {} {v}\n",
                p[0], p[1], p[2], p[3]
            ));
        }
    }
}

fn copy(dst: &mut [i16], src: &[i32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a weights file's numbers by key, independently of `parse`.
    fn numbers(text: &str, key: &str) -> Vec<i32> {
        text.lines()
            .find_map(|l| l.strip_prefix(key).filter(|r| r.starts_with(' ')))
            .map(|r| r.split_whitespace().map(|x| x.parse().unwrap()).collect())
            .unwrap_or_else(|| panic!("{key} missing"))
    }

    fn assert_engine_uses(text: &str, w: &Weights) {
        assert_eq!(numbers(text, "tempo"), vec![w.tempo]);
        assert_eq!(numbers(text, "initiative_win"), vec![w.initiative_win]);
        assert_eq!(
            numbers(text, "initiative_threat"),
            vec![w.initiative_threat]
        );
        let wide = |v: &[i16]| v.iter().map(|&x| x as i32).collect::<Vec<_>>();
        assert_eq!(numbers(text, "mover_pattern"), wide(&w.pattern[MOVER]));
        assert_eq!(numbers(text, "mover_threat"), wide(&w.threat[MOVER]));
        assert_eq!(numbers(text, "waiter_pattern"), wide(&w.pattern[WAITER]));
        assert_eq!(numbers(text, "waiter_threat"), wide(&w.threat[WAITER]));
    }

    #[test]
    fn engine_tables_are_the_files_numbers() {
        for c in [Color::Black, Color::White] {
            assert_engine_uses(FREESTYLE_TEXT, Weights::for_side(Rule::Freestyle, c));
            assert_engine_uses(STANDARD_TEXT, Weights::for_side(Rule::Standard, c));
            for rule in [Rule::Caro, Rule::CaroExact] {
                assert_engine_uses(HANDSET_TEXT, Weights::for_side(rule, c));
            }
        }
        assert_engine_uses(
            RENJU_BLACK_TEXT,
            Weights::for_side(Rule::Renju, Color::Black),
        );
        assert_engine_uses(
            RENJU_WHITE_TEXT,
            Weights::for_side(Rule::Renju, Color::White),
        );
    }

    #[test]
    fn only_renju_weighs_the_colours_apart() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroExact] {
            assert!(!Weights::per_colour(rule));
            assert!(std::ptr::eq(
                Weights::for_side(rule, Color::Black),
                Weights::for_side(rule, Color::White)
            ));
        }
        assert!(Weights::per_colour(Rule::Renju));
        // The renju files differ, so the tests that each colour gets its own numbers (here
        // and in `score`) can tell the colours apart.
        assert_ne!(
            Weights::for_side(Rule::Renju, Color::Black),
            Weights::for_side(Rule::Renju, Color::White)
        );
    }

    #[test]
    fn text_and_vector_round_trip() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for c in [Color::Black, Color::White] {
                let w = Weights::for_side(rule, c);
                assert_eq!(Weights::parse(&w.to_text("# header")).as_ref(), Ok(w));
                let dense = Weights::from_vector(&w.to_vector());
                assert_eq!(
                    &Weights {
                        state: w.state.clone(),
                        combo: w.combo.clone(),
                        policy: w.policy.clone(),
                        policy_near: w.policy_near,
                        ..dense
                    },
                    w
                );
            }
        }
    }

    #[test]
    fn malformed_files_are_rejected() {
        let good = HANDSET_TEXT;
        assert!(Weights::parse(good).is_ok());
        assert!(Weights::parse(&good.replace("tempo 24", "tempo x")).is_err());
        assert!(Weights::parse(&good.replace("tempo 24", "")).is_err());
        assert!(Weights::parse(&format!("{good}\ntempo 3\n")).is_err());
        assert!(Weights::parse(&good.replace("mover_threat 0 0", "mover_threat 0")).is_err());
        assert!(Weights::parse(&good.replace("mover_pattern 0", "mover_pattern 40000")).is_err());
        assert!(Weights::parse(&format!("{good}\nvalue 3\n")).is_err());
        assert!(Weights::parse(&good.replace("mover_pattern 0", "mover_pattern 5")).is_err());
        for bad in [
            "state 1 2",
            "state 72 0 5",
            "state 0 -1 5",
            "state 3 4 40000",
            "combo 0 8 7 0",
            "combo 2 8 7 0 0 10",
            "combo 0 11 7 0 0 10",
            "combo 1 0 0 0 0 10",
            "combo 0 8 7 0 0 40000",
            "policy 2 8 7 0 0 10",
            "policy 0 8 7 0",
            "policy_near 2 1 2 3 4 5 6 7 8",
            "policy_near 0 1 2 3",
        ] {
            assert!(
                Weights::parse(&format!("{good}\n{bad}\n")).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn state_lines_set_one_cell_each_and_round_trip() {
        let text = format!("{HANDSET_TEXT}\nstate 3 5 -40\nstate 71 0 25\n");
        let w = Weights::parse(&text).unwrap();
        assert_eq!(w.state[3 * STATE_CODES + 5], -40);
        assert_eq!(w.state[71 * STATE_CODES], 25);
        assert_eq!(w.state.iter().filter(|&&v| v != 0).count(), 2);
        assert_eq!(Weights::parse(&w.to_text("# header")), Ok(w));
    }

    #[test]
    fn combination_lines_set_one_value_whatever_the_order() {
        let text = format!("{HANDSET_TEXT}\ncombo 0 7 8 0 0 -30\ncombo 1 9 2 2 4 12\n");
        let w = Weights::parse(&text).unwrap();
        let p = |v: [u8; 4]| v.map(Pattern::from_u8);
        assert_eq!(w.combo[MOVER][combo_key(p([0, 8, 0, 7]))], -30);
        assert_eq!(w.combo[MOVER][combo_key(p([8, 7, 0, 0]))], -30);
        assert_eq!(w.combo[WAITER][combo_key(p([2, 4, 9, 2]))], 12);
        assert_eq!(w.combo[WAITER][combo_key(p([8, 7, 0, 0]))], 0);
        assert_eq!(w.combo.iter().flatten().filter(|&&v| v != 0).count(), 2);
        let again = Weights::parse(&w.to_text("# header")).unwrap();
        assert_eq!(again, w);
        assert!(w.to_text("").contains("combo 0 8 7 0 0 -30"));
    }

    #[test]
    fn policy_lines_set_one_value_whatever_the_order() {
        let text = format!(
            "{HANDSET_TEXT}\npolicy 0 7 8 0 0 -30\npolicy 1 0 0 0 0 12\npolicy_near 1 0 9 8 7 6 5 4 -3\n"
        );
        let w = Weights::parse(&text).unwrap();
        let p = |v: [u8; 4]| v.map(Pattern::from_u8);
        assert_eq!(w.policy[0][combo_key(p([0, 8, 0, 7]))], -30);
        assert_eq!(w.policy[1][0], 12);
        assert_eq!(w.policy.iter().flatten().filter(|&&v| v != 0).count(), 2);
        assert!(w.combo.iter().flatten().all(|&v| v == 0));
        assert_eq!(
            w.policy_near,
            [[0; NEAR_BUCKETS], [0, 9, 8, 7, 6, 5, 4, -3]]
        );
        assert_eq!(Weights::parse(&w.to_text("# header")), Ok(w));
    }
}
