//! Search parameters that a tuning run may set when the brain starts
//! (`pbrain-fivefold --param NAME=VALUE`, see `fivefold-spsa`). Games never set them: a
//! brain started without `--param` plays the defaults, which are the values that were
//! measured best (journal "Search parameters by SPSA").
//!
//! Each is an integer read with one relaxed atomic load (a plain load on x86), so the
//! search pays nothing for them being settable. Tables derived from them (the move-count
//! limits) are built on first use, so they must be set before the first search.

use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable integer: its name on the command line, its default and its bounds.
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    value: AtomicI32,
}

impl Param {
    const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Param {
        Param {
            name,
            default,
            min,
            max,
            value: AtomicI32::new(default),
        }
    }

    #[inline]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }
}

/// Reverse futility's margin per ply of depth (`alphabeta`, Step 3b).
pub static FUTILITY_MARGIN: Param = Param::new("futility_margin", 200, 50, 500);
/// The move-count limit is (`LMP_BASE` + depth^(`LMP_EXP` / 100) x 100) / 100 moves.
pub static LMP_BASE: Param = Param::new("lmp_base", 300, 100, 1_000);
pub static LMP_EXP: Param = Param::new("lmp_exp", 132, 90, 200);
/// Late-move reductions are ln(depth) x ln(move) x `LMR_SCALE` / 100 plies.
pub static LMR_SCALE: Param = Param::new("lmr_scale", 100, 40, 180);
/// The first aspiration window's half width.
pub static ASPIRATION_DELTA: Param = Param::new("aspiration_delta", 64, 8, 300);
/// The network value's share of the static evaluation, in thousandths.
pub static NN_VALUE_WEIGHT: Param = Param::new("nn_value_weight", 500, 0, 1_000);
/// Ordering points per policy logit below the node's best move.
pub static NN_ORDER_PER_LOGIT: Param = Param::new("nn_order_per_logit", 100, 0, 1_000);

/// Every parameter, for `set` and listings.
pub static ALL: [&Param; 7] = [
    &FUTILITY_MARGIN,
    &LMP_BASE,
    &LMP_EXP,
    &LMR_SCALE,
    &ASPIRATION_DELTA,
    &NN_VALUE_WEIGHT,
    &NN_ORDER_PER_LOGIT,
];

/// Sets a parameter from `NAME=VALUE`; an unknown name, a value that is not an integer
/// or one outside the parameter's bounds is an error naming it, and changes nothing.
pub fn set(assignment: &str) -> Result<(), String> {
    let (name, value) = assignment
        .split_once('=')
        .ok_or_else(|| format!("'{assignment}' is not NAME=VALUE"))?;
    let p = ALL
        .iter()
        .find(|p| p.name == name.trim())
        .ok_or_else(|| format!("unknown parameter '{}' (known: {})", name.trim(), names()))?;
    let v: i32 = value
        .trim()
        .parse()
        .map_err(|_| format!("parameter {}: '{}' is not an integer", p.name, value.trim()))?;
    if v < p.min || v > p.max {
        return Err(format!(
            "parameter {}: {v} is outside {}..={}",
            p.name, p.min, p.max
        ));
    }
    p.value.store(v, Ordering::Relaxed);
    Ok(())
}

fn names() -> String {
    ALL.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_within_their_bounds_and_names_are_unique() {
        for (i, p) in ALL.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(ALL[..i].iter().all(|q| q.name != p.name), "{}", p.name);
        }
    }

    #[test]
    fn bad_assignments_are_refused_and_change_nothing() {
        let before = LMR_SCALE.get();
        for bad in [
            "lmr_scale",
            "lmr_scale=abc",
            "lmr_scale=1000",
            "lmr_scale=-5",
            "no_such=3",
        ] {
            let e = set(bad).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
        assert_eq!(LMR_SCALE.get(), before);
        assert!(set("no_such=3").unwrap_err().contains("lmr_scale"));
    }

    #[test]
    fn a_good_assignment_sets_the_value() {
        // The default itself: other tests running at the same time see no change.
        set(&format!(
            " aspiration_delta = {} ",
            ASPIRATION_DELTA.default
        ))
        .unwrap();
        assert_eq!(ASPIRATION_DELTA.get(), ASPIRATION_DELTA.default);
    }
}
