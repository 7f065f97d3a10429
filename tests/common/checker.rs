//! An exhaustive AND/OR solver for forced wins on its own array board, sharing nothing
//! with the engine: the tactics suite (tests/tactics.rs) and the forced-win conversion
//! suite (tests/forced_wins.rs) prove their positions with it. What it proves is in
//! tests/tactics.rs's module comment.
#![allow(dead_code)]

use std::collections::HashMap;

pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain square board: 0 empty, 1 black, 2 white.
#[derive(Clone)]
pub struct Grid {
    pub n: usize,
    pub cells: Vec<u8>,
}

impl Grid {
    pub fn new(n: usize) -> Grid {
        Grid {
            n,
            cells: vec![0; n * n],
        }
    }
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.n as i32 || y >= self.n as i32 {
            None
        } else {
            Some(self.cells[y as usize * self.n + x as usize])
        }
    }
    pub fn xy(&self, s: usize) -> (i32, i32) {
        ((s % self.n) as i32, (s / self.n) as i32)
    }
    pub fn sq(&self, x: i32, y: i32) -> usize {
        y as usize * self.n + x as usize
    }
    /// Stones of colour `c` in a row through the empty square `s` along `d` if `c` played there.
    pub fn run_len(&self, c: u8, s: usize, d: (i32, i32)) -> usize {
        let (x, y) = self.xy(s);
        let mut len = 1;
        for sign in [1, -1] {
            let (mut px, mut py) = (x + sign * d.0, y + sign * d.1);
            while self.get(px, py) == Some(c) {
                len += 1;
                px += sign * d.0;
                py += sign * d.1;
            }
        }
        len
    }
    pub fn makes_five(&self, c: u8, s: usize) -> bool {
        self.cells[s] == 0 && DIRS.iter().any(|&d| self.run_len(c, s, d) >= 5)
    }
    /// Every empty square where `c` makes five.
    pub fn completions(&self, c: u8) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&s| self.makes_five(c, s))
            .collect()
    }
    /// Empty squares on the four lines through `s`, at most four steps away.
    pub fn line_neighbours(&self, s: usize) -> Vec<(usize, (i32, i32))> {
        let (x, y) = self.xy(s);
        let mut out = Vec::with_capacity(32);
        for d in DIRS {
            for k in [-4, -3, -2, -1, 1, 2, 3, 4] {
                let (px, py) = (x + k * d.0, y + k * d.1);
                if self.get(px, py) == Some(0) {
                    out.push((self.sq(px, py), d));
                }
            }
        }
        out
    }
    /// Completion squares of `c` that appear once `c` stands on `s` (already placed):
    /// a new five always runs through the new stone, so only its four lines are looked at.
    pub fn new_completions(&self, c: u8, s: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for (t, d) in self.line_neighbours(s) {
            if self.run_len(c, t, d) >= 5 && !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
    /// How many five-square windows through the empty `s` hold at least `k` stones of `c`
    /// and none of the other colour.
    pub fn windows(&self, c: u8, s: usize, k: usize) -> usize {
        self.window_counts(c, s)[k..].iter().sum()
    }
    /// `[n0, n1, .., n5]`: windows through `s` free of the other colour, by stones of `c`.
    pub fn window_counts(&self, c: u8, s: usize) -> [usize; 6] {
        let (x, y) = self.xy(s);
        let mut counts = [0; 6];
        for d in DIRS {
            for start in -4..=0 {
                let mut mine = 0;
                let mut ok = true;
                for i in start..start + 5 {
                    match self.get(x + i * d.0, y + i * d.1) {
                        None => ok = false,
                        Some(v) if v == c => mine += 1,
                        Some(0) => {}
                        Some(_) => ok = false,
                    }
                }
                if ok {
                    counts[mine] += 1;
                }
            }
        }
        counts
    }
    /// Whether a stone of `c` lies on a line through `s` at most four steps away.
    pub fn has_line_neighbour(&self, c: u8, s: usize) -> bool {
        let (x, y) = self.xy(s);
        DIRS.iter()
            .any(|d| (-4..=4).any(|k| k != 0 && self.get(x + k * d.0, y + k * d.1) == Some(c)))
    }
    /// Distinct completion squares `c` has after playing the empty `s` (board restored).
    pub fn threats_after(&mut self, c: u8, s: usize, before: &[usize]) -> usize {
        self.cells[s] = c;
        let mut all: Vec<usize> = before.iter().copied().filter(|&t| t != s).collect();
        for t in self.new_completions(c, s) {
            if !all.contains(&t) {
                all.push(t);
            }
        }
        self.cells[s] = 0;
        all.len()
    }
}

/// The exhaustive checker. `None` from a search means the node cap was hit (no verdict).
pub struct Checker {
    pub g: Grid,
    pub att: u8,
    pub nodes: u64,
    cap: u64,
    zob: Vec<[u64; 2]>,
    hash: u64,
    tt: HashMap<(u64, u32, u32), bool>,
}

impl Checker {
    pub fn new(g: Grid, att: u8, cap: u64) -> Checker {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let zob: Vec<[u64; 2]> = (0..g.cells.len()).map(|_| [next(), next()]).collect();
        let mut hash = 0;
        for (s, &c) in g.cells.iter().enumerate() {
            if c != 0 {
                hash ^= zob[s][c as usize - 1];
            }
        }
        Checker {
            g,
            att,
            nodes: 0,
            cap,
            zob,
            hash,
            tt: HashMap::new(),
        }
    }
    pub fn def_color(&self) -> u8 {
        3 - self.att
    }
    pub fn put(&mut self, s: usize, c: u8) {
        self.g.cells[s] = c;
        self.hash ^= self.zob[s][c as usize - 1];
    }
    pub fn take(&mut self, s: usize) {
        let c = self.g.cells[s];
        self.hash ^= self.zob[s][c as usize - 1];
        self.g.cells[s] = 0;
    }
    /// Plays `s` for `c`; returns the new completion sets (attacker's, defender's).
    pub fn play(
        &mut self,
        s: usize,
        c: u8,
        ca: &[usize],
        cd: &[usize],
    ) -> (Vec<usize>, Vec<usize>) {
        self.put(s, c);
        let mut ca: Vec<usize> = ca.iter().copied().filter(|&t| t != s).collect();
        let mut cd: Vec<usize> = cd.iter().copied().filter(|&t| t != s).collect();
        let mine = if c == self.att { &mut ca } else { &mut cd };
        for t in self.g.new_completions(c, s) {
            if !mine.contains(&t) {
                mine.push(t);
            }
        }
        (ca, cd)
    }

    /// Does the attacker, to move, win within `r` plies?
    pub fn attack(&mut self, r: u32, threes: u32, ca: &[usize], cd: &[usize]) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.cap {
            return None;
        }
        if !ca.is_empty() {
            return Some(true);
        }
        if r < 3 {
            return Some(false);
        }
        let key = (self.hash, r * 2, threes);
        if let Some(&v) = self.tt.get(&key) {
            return Some(v);
        }
        let moves = if cd.len() >= 2 {
            Vec::new()
        } else if cd.len() == 1 {
            vec![cd[0]]
        } else {
            self.attack_moves(r, threes, ca)
        };
        let mut result = false;
        for m in moves {
            let (na, nd) = self.play(m, self.att, ca, cd);
            let spent = u32::from(na.is_empty());
            let v = if spent > threes {
                Some(false)
            } else {
                self.defend(r - 1, threes - spent, &na, &nd)
            };
            self.take(m);
            match v {
                None => return None,
                Some(true) => {
                    result = true;
                    break;
                }
                Some(false) => {}
            }
        }
        self.tt.insert(key, result);
        Some(result)
    }

    /// Attacker candidates, best first: with 3 plies left only double threats can win.
    pub fn attack_moves(&mut self, r: u32, threes: u32, ca: &[usize]) -> Vec<usize> {
        let att = self.att;
        let mut scored = Vec::new();
        for s in 0..self.g.cells.len() {
            // a four or a three needs a stone of the attacker within four steps on a line
            if self.g.cells[s] != 0 || !self.g.has_line_neighbour(att, s) {
                continue;
            }
            let fours = self.g.threats_after(att, s, ca);
            if r == 3 {
                if fours >= 2 {
                    scored.push((100, s));
                }
                continue;
            }
            if fours >= 1 {
                scored.push((10 * fours + self.g.windows(att, s, 2), s));
            } else if threes > 0 {
                let w = self.g.windows(att, s, 2);
                if w > 0 {
                    scored.push((w, s));
                }
            }
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, s)| s).collect()
    }

    /// Defender to move with `r` plies left in the bound (his move included): does the
    /// attacker still win whatever he plays?
    pub fn defend(&mut self, r: u32, threes: u32, ca: &[usize], cd: &[usize]) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.cap {
            return None;
        }
        if !cd.is_empty() {
            return Some(false);
        }
        if ca.len() >= 2 {
            return Some(true);
        }
        let def = self.def_color();
        if ca.len() == 1 {
            let m = ca[0];
            let (na, nd) = self.play(m, def, ca, cd);
            let v = self.attack(r - 1, threes, &na, &nd);
            self.take(m);
            return v;
        }
        if r < 4 {
            return Some(false);
        }
        let key = (self.hash, r * 2 + 1, threes);
        if let Some(&v) = self.tt.get(&key) {
            return Some(v);
        }
        // With 3 plies left after this move the attacker needs a double threat at once.
        let doubles: Option<Vec<usize>> = if r == 4 {
            let att = self.att;
            Some(
                (0..self.g.cells.len())
                    .filter(|&s| self.g.cells[s] == 0 && self.g.threats_after(att, s, ca) >= 2)
                    .collect(),
            )
        } else {
            None
        };
        // Replies that leave an attacker double threat untouched lose (see the module
        // comment) and are not searched; the rest go most likely refutation first:
        // blocks of the attacker's windows, then the defender's own fours and threes.
        let mut replies: Vec<(usize, usize)> = Vec::new();
        for s in 0..self.g.cells.len() {
            if self.g.cells[s] != 0 {
                continue;
            }
            if let Some(doubles) = &doubles {
                let (sx, sy) = self.g.xy(s);
                let near = doubles.iter().any(|&w| {
                    let (wx, wy) = self.g.xy(w);
                    let (dx, dy) = (sx - wx, sy - wy);
                    dx.abs().max(dy.abs()) <= 4 && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
                });
                if !doubles.is_empty() && !near && self.g.threats_after(def, s, cd) == 0 {
                    continue;
                }
            }
            let a = self.g.window_counts(self.att, s);
            let d = self.g.window_counts(def, s);
            let score = 4 * (a[2] + a[3] + a[4]) + 2 * (a[3] + a[4]) + 8 * (d[3] + d[4]) + d[2];
            replies.push((score, s));
        }
        replies.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut result = true;
        for (_, s) in replies {
            let (na, nd) = self.play(s, def, ca, cd);
            let v = self.attack(r - 1, threes, &na, &nd);
            self.take(s);
            match v {
                None => return None,
                Some(false) => {
                    result = false;
                    break;
                }
                Some(true) => {}
            }
        }
        self.tt.insert(key, result);
        Some(result)
    }

    /// Does the attacker win within `r` plies starting with `first`?
    pub fn wins_with(&mut self, first: usize, r: u32, threes: u32) -> Option<bool> {
        if self.g.cells[first] != 0 {
            return Some(false);
        }
        let ca = self.g.completions(self.att);
        let cd = self.g.completions(self.def_color());
        if ca.contains(&first) {
            return Some(true);
        }
        if !ca.is_empty() || cd.len() >= 2 || (cd.len() == 1 && cd[0] != first) {
            // a five elsewhere does not start with `first`; an unblocked five loses
            return Some(false);
        }
        let (na, nd) = self.play(first, self.att, &ca, &cd);
        let spent = u32::from(na.is_empty());
        let v = if spent > threes {
            Some(false)
        } else {
            self.defend(r - 1, threes - spent, &na, &nd)
        };
        self.take(first);
        v
    }

    /// Does the attacker win within `r` plies?
    pub fn wins(&mut self, r: u32, threes: u32) -> Option<bool> {
        let ca = self.g.completions(self.att);
        let cd = self.g.completions(self.def_color());
        self.attack(r, threes, &ca, &cd)
    }

    /// First moves (among the attacker's candidates) that win within `r` plies.
    pub fn winning_firsts(&mut self, r: u32, threes: u32) -> Option<Vec<usize>> {
        let ca = self.g.completions(self.att);
        let cd = self.g.completions(self.def_color());
        let cands = if cd.len() == 1 {
            vec![cd[0]]
        } else {
            self.attack_moves(r, threes, &ca)
        };
        let mut out = Vec::new();
        for m in cands {
            if self.wins_with(m, r, threes)? {
                out.push(m);
            }
        }
        out.sort();
        Some(out)
    }
}

/// `x,y;x,y;...` (a suite file's move list) as moves.
pub fn parse_moves(s: &str) -> Vec<(usize, usize)> {
    s.split(';')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (x, y) = t.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

/// Moves as `x,y;x,y;...`.
pub fn fmt_moves(ms: &[(usize, usize)]) -> String {
    ms.iter()
        .map(|(x, y)| format!("{x},{y}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// The board after `moves` (black first).
pub fn grid_of(size: usize, moves: &[(usize, usize)]) -> Grid {
    let mut g = Grid::new(size);
    for (i, &(x, y)) in moves.iter().enumerate() {
        let s = g.sq(x as i32, y as i32);
        assert_eq!(g.cells[s], 0, "move {i} on an occupied square");
        g.cells[s] = if i.is_multiple_of(2) { 1 } else { 2 };
    }
    g
}
