//! Line patterns: what a stone on an empty square would make along one line.
//!
//! A square's neighbourhood along a direction is its line key (see `game::Board`): ten
//! squares, five each side. For every key and colour we precompute the best shape the
//! colour gets by playing there, recursively: a five now; an open four (two ways to five);
//! a four (one way); an open three (one move from an open four); and so on down to ones.
//! Only lines through the square count, so a key's pattern never depends on far-away stones.

use crate::game::{key_slot, Color, Rule, KEY_BITS};
use std::sync::OnceLock;

/// Shape along one line, ordered from worst to best (OL aside).
/// Finer threes and twos, refitted, played level (journal "Static evaluation and
/// improving").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pattern {
    Dead = 0,
    /// Playing here makes an overline that does not win (exact-five rules).
    Overline,
    B1,
    F1,
    B2,
    F2,
    B3,
    F3,
    /// A four: one square left to make five.
    B4,
    /// An open four (or two fours in one line): two squares make five.
    F4,
    /// Playing here makes a winning five.
    F5,
}

pub const PATTERN_COUNT: usize = 11;

impl Pattern {
    const ALL: [Pattern; PATTERN_COUNT] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
    ];

    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }

    /// The shape one move weaker: what a square is worth when a further move reaches `self`.
    fn one_move_away(self) -> Pattern {
        match self {
            Pattern::F4 => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        }
    }
}

/// Cells of an eleven-square line seen by one colour; the centre (index 5) is ours.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPP: u8 = 2;
const WALL: u8 = 3;
const LEN: usize = 11;
const MID: usize = 5;

type Line = [u8; LEN];

fn encode(line: &Line) -> usize {
    line.iter()
        .enumerate()
        .fold(0, |acc, (i, &c)| acc | (c as usize) << (2 * i))
}

/// Anything past the first opponent stone or wall on each side cannot affect the centre's
/// lines; normalising it shrinks the memo to a few thousand real shapes.
fn canonical(mut line: Line) -> Line {
    for side in [-1isize, 1] {
        let mut i = MID as isize + side;
        let mut blocked = false;
        while (0..LEN as isize).contains(&i) {
            let c = &mut line[i as usize];
            if blocked {
                *c = WALL;
            } else if *c == OPP || *c == WALL {
                blocked = true;
            }
            i += side;
        }
    }
    line
}

/// Whether the run of own stones through the centre wins, and its length.
fn centre_run(line: &Line, rule: Rule, color: Color) -> (bool, usize) {
    let mut lo = MID;
    while lo > 0 && line[lo - 1] == OWN {
        lo -= 1;
    }
    let mut hi = MID;
    while hi + 1 < LEN && line[hi + 1] == OWN {
        hi += 1;
    }
    let len = hi - lo + 1;
    let blocked =
        (lo > 0 && line[lo - 1] == OPP) as u8 + (hi + 1 < LEN && line[hi + 1] == OPP) as u8;
    (rule.run_wins(color, len, blocked), len)
}

struct Classifier {
    rule: Rule,
    color: Color,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

impl Classifier {
    fn classify(&mut self, line: Line) -> Pattern {
        let line = canonical(line);
        let code = encode(&line);
        if self.memo[code] != UNKNOWN {
            return Pattern::from_u8(self.memo[code]);
        }
        let p = self.classify_uncached(&line);
        self.memo[code] = p as u8;
        p
    }

    fn classify_uncached(&mut self, line: &Line) -> Pattern {
        let (wins, len) = centre_run(line, self.rule, self.color);
        if wins {
            return Pattern::F5;
        }
        if len >= 6 {
            return Pattern::Overline;
        }
        let mut fives = 0;
        for i in (0..LEN).filter(|&i| line[i] == EMPTY) {
            let mut next = *line;
            next[i] = OWN;
            if centre_run(&next, self.rule, self.color).0 {
                fives += 1;
            }
        }
        match fives {
            0 => {}
            1 => return Pattern::B4,
            _ => return Pattern::F4,
        }
        let mut best = Pattern::Dead;
        for i in (0..LEN).filter(|&i| line[i] == EMPTY) {
            let mut next = *line;
            next[i] = OWN;
            best = best.max(self.classify(next).one_move_away());
        }
        best
    }
}

/// Pattern lookup for one rule: `get(color, key)`, or both colours at once by `get_pair`.
pub struct PatternTable {
    /// Both colours' patterns side by side, so a square's refresh reads one entry: two
    /// tables read separately cost two cache misses where one does.
    pairs: Vec<[Pattern; 2]>,
    /// Freestyle never looks five squares away (a run of five through the square fits in
    /// four each side, and longer runs win too), so it indexes by the inner eight squares
    /// only: a table 16 times smaller, which stays in cache.
    shift: u32,
    mask: u32,
    /// How far along a line a stone can change a square's pattern: 4 in freestyle, 5
    /// where an exact five must see the square beyond.
    reach: isize,
}

impl PatternTable {
    fn build(rule: Rule) -> PatternTable {
        let (shift, bits, reach) = if rule == Rule::Freestyle {
            (2, KEY_BITS - 4, 4)
        } else {
            (0, KEY_BITS, 5)
        };
        let [black, white]: [Vec<Pattern>; 2] = [Color::Black, Color::White].map(|color| {
            let mut cls = Classifier {
                rule,
                color,
                memo: vec![UNKNOWN; 1 << (2 * LEN)],
            };
            (0..1u32 << bits)
                .map(|index| cls.classify(line_from_key(index << shift, color)))
                .collect()
        });
        PatternTable {
            pairs: black.into_iter().zip(white).map(|(b, w)| [b, w]).collect(),
            shift,
            mask: (1 << bits) - 1,
            reach,
        }
    }

    /// The shared table for `rule`, built on first use (tens of milliseconds).
    pub fn for_rule(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; 5] = [const { OnceLock::new() }; 5];
        let slot = match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 2,
            Rule::Caro => 3,
            Rule::CaroExact => 4,
        };
        TABLES[slot].get_or_init(|| PatternTable::build(rule))
    }

    #[inline]
    pub fn get(&self, color: Color, key: u32) -> Pattern {
        self.get_pair(key)[color.idx()]
    }

    /// Black's and White's patterns (indexed by `Color::idx`) for a line key.
    #[inline]
    pub fn get_pair(&self, key: u32) -> [Pattern; 2] {
        self.pairs[((key >> self.shift) & self.mask) as usize]
    }

    /// How many squares away along a line a stone can still change a pattern.
    #[inline]
    pub fn reach(&self) -> isize {
        self.reach
    }
}

/// Turns a board line key (absolute cell codes) into a line seen by `color`.
fn line_from_key(key: u32, color: Color) -> Line {
    let mut line = [EMPTY; LEN];
    line[MID] = OWN;
    for off in (-5isize..=5).filter(|&o| o != 0) {
        let code = (key >> (2 * key_slot(off))) & 3;
        line[(off + 5) as usize] = match code {
            0 => EMPTY,
            3 => WALL,
            c if c == color.cell() as u32 => OWN,
            _ => OPP,
        };
    }
    line
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Builds a key from a picture like `"..xx.?x.o.."`: `?` is the square (index 5),
    /// `x` own, `o` opponent, `#` wall, `.` empty. Eleven characters.
    pub fn key_of(pic: &str, color: Color) -> u32 {
        let cells: Vec<char> = pic.chars().collect();
        assert_eq!(cells.len(), 11, "{pic}");
        let own = color.cell() as u32;
        let opp = color.opp().cell() as u32;
        let mut key = 0;
        for off in (-5isize..=5).filter(|&o| o != 0) {
            let code = match cells[(off + 5) as usize] {
                'x' => own,
                'o' => opp,
                '#' => 3,
                _ => 0,
            };
            key |= code << (2 * key_slot(off));
        }
        key
    }

    fn pat(rule: Rule, pic: &str) -> Pattern {
        PatternTable::for_rule(rule).get(Color::Black, key_of(pic, Color::Black))
    }

    #[test]
    fn fives_and_fours() {
        let r = Rule::Freestyle;
        assert_eq!(pat(r, "...xx?xx..."), Pattern::F5);
        assert_eq!(pat(r, "..xxx?xx..."), Pattern::F5);
        assert_eq!(pat(r, "....x?xx..."), Pattern::F4);
        assert_eq!(pat(r, "...ox?xx..."), Pattern::B4);
        assert_eq!(pat(r, "..x.x?x...."), Pattern::B4);
        assert_eq!(pat(r, "....#?xxx.."), Pattern::B4);
    }

    #[test]
    fn threes_and_twos() {
        let r = Rule::Freestyle;
        assert_eq!(pat(r, "....x?x...."), Pattern::F3);
        assert_eq!(pat(r, "...ox?x...."), Pattern::B3);
        assert_eq!(pat(r, "...o.?xx.o."), Pattern::B3);
        assert_eq!(pat(r, ".....?x...."), Pattern::F2);
        assert_eq!(pat(r, ".....?....."), Pattern::F1);
        assert_eq!(pat(r, "ooooo?ooooo"), Pattern::Dead);
        assert_eq!(pat(r, "....o?xxxo."), Pattern::Dead);
    }

    #[test]
    fn exact_five_rules_see_overlines() {
        assert_eq!(pat(Rule::Standard, "...xx?xxx.."), Pattern::Overline);
        assert_eq!(pat(Rule::Freestyle, "...xx?xxx.."), Pattern::F5);
        // x x x x ? . x : five on the left only; the right would be six.
        assert_eq!(pat(Rule::Standard, ".xxxx?.x..."), Pattern::F5);
        // .xxx?.x : filling the gap makes six, so only the left end fives -> a plain four.
        assert_eq!(pat(Rule::Standard, "..xxx?.x..."), Pattern::B4);
        assert_eq!(pat(Rule::Freestyle, "..xxx?.x..."), Pattern::F4);
    }

    #[test]
    fn caro_needs_an_open_end() {
        assert_eq!(pat(Rule::Caro, "oxxxx?o...."), Pattern::Dead);
        assert_eq!(pat(Rule::Caro, "#xxxx?o...."), Pattern::F5);
        assert_eq!(pat(Rule::Freestyle, "oxxxx?o...."), Pattern::F5);
        // o x x x x ? . : the five would be blocked by o on the left only.
        assert_eq!(pat(Rule::Caro, "oxxxx?....."), Pattern::F5);
        assert_eq!(pat(Rule::CaroExact, "xxxxx?....."), Pattern::Overline);
    }

    #[test]
    fn renju_white_wins_with_overline() {
        let t = PatternTable::for_rule(Rule::Renju);
        assert_eq!(
            t.get(Color::White, key_of("...xx?xxx..", Color::White)),
            Pattern::F5
        );
        assert_eq!(
            t.get(Color::Black, key_of("...xx?xxx..", Color::Black)),
            Pattern::Overline
        );
    }
}
