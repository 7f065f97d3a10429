//! Zobrist keys, generated at compile time from a fixed seed so hashes are reproducible
//! across runs and platforms (the bench signature depends on it).

use super::types::{Cell, Move, CELLS};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x5EED_F1E5_F01D_u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, v) = splitmix(state);
            state = s;
            keys[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    keys
}

static STONE_KEYS: [[u64; CELLS]; 2] = make_keys();
const SIDE_KEY: u64 = splitmix(0xC0FF_EE00).1;

#[inline]
pub fn stone_key(m: Move, cell: Cell) -> u64 {
    match cell {
        Cell::Black => STONE_KEYS[0][m.idx()],
        Cell::White => STONE_KEYS[1][m.idx()],
        _ => 0,
    }
}

#[inline]
pub fn side_key() -> u64 {
    SIDE_KEY
}
