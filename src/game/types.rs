//! Plain value types shared by every layer: colours, cells, moves and rules.

/// Largest board edge we accept. Gomocup uses 15 and 20; managers allow up to 22.
/// The padded layout below is sized from this constant, so raising it costs memory only.
pub const MAX_SIZE: usize = 32;
/// Minimum board edge: below five nobody can ever win.
pub const MIN_SIZE: usize = 5;
/// Wall cells around the board, wide enough that every scan of a line window
/// (five cells each side of a point) stays inside the array.
pub const PAD: usize = 5;
/// Row stride of the padded cell array.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded array.
pub const CELLS: usize = STRIDE * STRIDE;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    #[inline]
    pub fn idx(self) -> usize {
        self as usize
    }
    #[inline]
    pub fn cell(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// Contents of one square; `Wall` marks the padding and blocked squares (BOARD field 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// A square as an index into the padded cell array. `Move::NONE` is "no move".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(pub u16);

impl Move {
    pub const NONE: Move = Move(0);

    #[inline]
    pub fn from_xy(x: usize, y: usize) -> Move {
        Move(((y + PAD) * STRIDE + x + PAD) as u16)
    }
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn offset(self, delta: isize) -> Move {
        Move((self.0 as isize + delta) as u16)
    }
    /// The larger of the x and y distances between two squares.
    #[inline]
    pub fn distance(self, other: Move) -> usize {
        self.x()
            .abs_diff(other.x())
            .max(self.y().abs_diff(other.y()))
    }
}

/// The four line directions as steps in the padded array: horizontal, vertical, two diagonals.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// Game rule, decoded from the `INFO rule` bitmask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins (rule 0).
    Freestyle,
    /// Exactly five wins; overlines win for nobody (rule 1).
    Standard,
    /// Black: exactly five, forbidden double-three, double-four and overline. White: five or more (rule 4).
    Renju,
    /// Five or more wins unless both ends are blocked by opponent stones (rule 8).
    Caro,
    /// Exactly five, not blocked at both ends by opponent stones (rule 9).
    CaroExact,
}

impl Rule {
    /// Decodes the Gomocup bitmask. Bit 2 (continuous game) is ignored: play stops at the first win.
    pub fn from_bits(bits: i64) -> Rule {
        if bits & 4 != 0 {
            Rule::Renju
        } else if bits & 8 != 0 {
            if bits & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    pub fn bits(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// Whether a run of `len` stones of `color`, with `ends_blocked` opponent stones at
    /// its two ends (0..=2, walls not counted), wins under this rule.
    #[inline]
    pub fn run_wins(self, color: Color, len: usize, ends_blocked: u8) -> bool {
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
            Rule::Renju => match color {
                Color::Black => len == 5,
                Color::White => len >= 5,
            },
            Rule::Caro => len >= 5 && ends_blocked < 2,
            Rule::CaroExact => len == 5 && ends_blocked < 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_round_trips_coordinates() {
        for &(x, y) in &[(0, 0), (14, 14), (31, 0), (0, 31), (7, 3)] {
            let m = Move::from_xy(x, y);
            assert_eq!((m.x(), m.y()), (x, y));
            assert!(!m.is_none());
        }
    }

    #[test]
    fn rule_bits_decode() {
        assert_eq!(Rule::from_bits(0), Rule::Freestyle);
        assert_eq!(Rule::from_bits(1), Rule::Standard);
        assert_eq!(Rule::from_bits(2), Rule::Freestyle);
        assert_eq!(Rule::from_bits(3), Rule::Standard);
        assert_eq!(Rule::from_bits(4), Rule::Renju);
        assert_eq!(Rule::from_bits(8), Rule::Caro);
        assert_eq!(Rule::from_bits(9), Rule::CaroExact);
    }

    #[test]
    fn run_wins_per_rule() {
        assert!(Rule::Freestyle.run_wins(Color::Black, 6, 0));
        assert!(!Rule::Standard.run_wins(Color::White, 6, 0));
        assert!(!Rule::Renju.run_wins(Color::Black, 6, 0));
        assert!(Rule::Renju.run_wins(Color::White, 6, 0));
        assert!(!Rule::Caro.run_wins(Color::Black, 5, 2));
        assert!(Rule::Caro.run_wins(Color::Black, 6, 1));
        assert!(!Rule::CaroExact.run_wins(Color::Black, 6, 0));
    }
}
