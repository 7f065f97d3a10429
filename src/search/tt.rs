//! Transposition table: two `u64` words per entry (key, packed data), single slot per
//! index with depth-preferred replacement. Allocated zeroed so untouched pages cost nothing.
//!
//! Search threads share one table without locks: each word is an atomic read or written
//! with relaxed ordering (plain moves on x86), and the first word holds the key XOR the
//! data, so an entry torn by two threads writing at once fails the key check instead of
//! handing out another position's data.

use crate::game::Move;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    mask: usize,
    generation: u8,
}

const ENTRY_BYTES: usize = 16;
/// The smallest page size of the machines we run on.
const PAGE_BYTES: usize = 4096;

impl TranspositionTable {
    /// A table of at most `bytes` (rounded down to a power-of-two entry count, at least 1024).
    pub fn new(bytes: usize) -> TranspositionTable {
        let mut entries = 1024usize;
        while entries * 2 * ENTRY_BYTES <= bytes {
            entries *= 2;
        }
        let words = zeroed_atomics(entries * 2);
        // Touch every page now: a page's first write faults it in, which costs far more
        // inside a search than here, before the clock (the first move of a game searched
        // depth 8 in 110-119 ms instead of 169-176 ms with the default table; with two
        // threads the faults had made the search three times slower).
        for w in words.iter().step_by(PAGE_BYTES / 8) {
            w.store(0, Relaxed);
        }
        TranspositionTable {
            words,
            mask: entries - 1,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w.get_mut() = 0);
    }

    /// Marks later stores as newer, so old searches' entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    /// Asks the processor to fetch `key`'s entry into cache, so a probe after the move
    /// is made (forty squares of updates later) need not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let entry = self.words[self.slot(key)].as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint; the address is a live element of `words`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let i = self.slot(key);
        let data = self.words[i + 1].load(Relaxed);
        if self.words[i].load(Relaxed) ^ data != key || data == 0 {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(TtEntry {
            mv: Move(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            depth: (data >> 32) as u8 as i8 as i32,
            bound,
        })
    }

    #[inline]
    pub fn store(&self, key: u64, e: TtEntry) {
        let i = self.slot(key);
        let old = self.words[i + 1].load(Relaxed);
        let old_depth = (old >> 32) as u8 as i8 as i32;
        let old_gen = (old >> 48) as u8;
        let replace = self.words[i].load(Relaxed) ^ old != key
            || old == 0
            || old_gen != self.generation
            || e.depth >= old_depth - 2
            || e.bound == Bound::Exact;
        if !replace {
            return;
        }
        let data = e.mv.0 as u64
            | (e.score.clamp(-32767, 32767) as i16 as u16 as u64) << 16
            | (e.depth.clamp(-127, 127) as i8 as u8 as u64) << 32
            | (e.bound as u64) << 40
            | (self.generation as u64) << 48;
        self.words[i].store(key ^ data, Relaxed);
        self.words[i + 1].store(data, Relaxed);
    }
}

/// `n` atomics, all zero, from a zeroed allocation: the pages of a large table are only
/// touched when an entry is first stored in them.
fn zeroed_atomics(n: usize) -> Vec<AtomicU64> {
    let mut words = std::mem::ManuallyDrop::new(vec![0u64; n]);
    let (ptr, len, cap) = (words.as_mut_ptr(), words.len(), words.capacity());
    // SAFETY: `AtomicU64` has the same size, alignment and bit validity as `u64`, and the
    // vector's allocation is handed over whole (its original is never dropped).
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU64>(), len, cap) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1 << 20);
        let e = TtEntry {
            mv: Move(321),
            score: -2900,
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF_1234, e);
        assert_eq!(tt.probe(0xDEAD_BEEF_1234), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEF_1235), None);
    }

    #[test]
    fn deeper_entry_survives_shallow_store_of_same_search() {
        let mut tt = TranspositionTable::new(1 << 16);
        let deep = TtEntry {
            mv: Move(5),
            score: 10,
            depth: 9,
            bound: Bound::Lower,
        };
        let shallow = TtEntry {
            mv: Move(6),
            score: 11,
            depth: 1,
            bound: Bound::Upper,
        };
        tt.store(42, deep);
        tt.store(42, shallow);
        assert_eq!(tt.probe(42), Some(deep));
        tt.new_search();
        tt.store(42, shallow);
        assert_eq!(tt.probe(42), Some(shallow));
    }

    #[test]
    fn clear_forgets() {
        let mut tt = TranspositionTable::new(1 << 16);
        tt.store(
            7,
            TtEntry {
                mv: Move(1),
                score: 0,
                depth: 1,
                bound: Bound::Exact,
            },
        );
        tt.clear();
        assert_eq!(tt.probe(7), None);
    }

    #[test]
    fn threads_sharing_a_slot_never_read_each_others_data() {
        // Two keys on one slot, each stored with its own data by its own thread while the
        // other reads: a probe finds its own entry or nothing, never a torn mix.
        let tt = TranspositionTable::new(1 << 16);
        let keys = [0x1111_0000_0000_0005u64, 0x2222_0000_0000_0005u64];
        let entry = |k: usize| TtEntry {
            mv: Move(k as u16 + 1),
            score: 100 * (k as i32 + 1),
            depth: 3 + k as i32,
            bound: Bound::Exact,
        };
        let start = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            for k in 0..2 {
                let (tt, start) = (&tt, &start);
                s.spawn(move || {
                    start.wait();
                    for _ in 0..2_000_000 {
                        tt.store(keys[k], entry(k));
                        let got = tt.probe(keys[1 - k]);
                        assert!(got.is_none() || got == Some(entry(1 - k)), "{got:?}");
                    }
                });
            }
        });
    }
}
