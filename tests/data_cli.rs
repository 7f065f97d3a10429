//! The data campaign's cluster recipe, run locally: docs/cluster/gen-shard.sh plays two
//! shards as a Slurm array task or a Kubernetes Indexed Job pod would (by environment),
//! and their files concatenated hold exactly the games of the same campaign in one shard.

use std::path::Path;
use std::process::Command;

fn fivefold_data() -> &'static str {
    env!("CARGO_BIN_EXE_fivefold-data")
}

/// Runs `docs/cluster/<script>` with `env` (and the tool and `out` set) and returns the
/// file `name` it wrote in `out`, checking that no temporary file was left beside it.
fn cluster_script(script: &str, out: &Path, env: &[(&str, &str)], name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/cluster")
        .join(script);
    let status = Command::new("bash")
        .arg(&path)
        .envs(env.iter().copied())
        .env("FIVEFOLD_DATA", fivefold_data())
        .env("OUT", out)
        .status()
        .expect("bash runs");
    assert!(status.success(), "{script} failed with {env:?}");
    assert!(!out.join(format!("{name}.part")).exists());
    std::fs::read(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs the campaign recipe with `env` and returns the shard file it wrote.
fn shard(out: &Path, env: &[(&str, &str)], index: &str) -> Vec<u8> {
    let campaign = [
        ("SEED", "11"),
        ("GAMES", "6"),
        ("SIZE", "9"),
        ("NODES", "300"),
    ];
    let env: Vec<_> = env.iter().chain(&campaign).copied().collect();
    cluster_script("gen-shard.sh", out, &env, &format!("shard-{index:0>5}.ffd"))
}

#[test]
fn two_cluster_shards_merge_into_the_campaign() {
    let dir = std::env::temp_dir().join(format!("fivefold-data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let slurm = shard(
        &dir.join("two"),
        &[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
        "0",
    );
    let k8s = shard(
        &dir.join("two"),
        &[("JOB_COMPLETION_INDEX", "1"), ("SHARDS", "2")],
        "1",
    );
    let whole = shard(&dir.join("one"), &[("SHARD", "0"), ("SHARDS", "1")], "0");

    let parse = |bytes: &[u8]| fivefold::data::format::parse_games(bytes).expect("valid data");
    let (a, b) = (parse(&slurm), parse(&k8s));
    assert_eq!((a.len(), b.len()), (3, 3));
    let mut joined = slurm.clone();
    joined.extend(&k8s);
    let mut from_shards = parse(&joined);
    let mut one = parse(&whole);
    let key = |g: &fivefold::data::GameRecord| g.plies.iter().map(|p| p.mv).collect::<Vec<_>>();
    from_shards.sort_by_key(key);
    one.sort_by_key(key);
    assert_eq!(from_shards, one);

    // The tool's own merge of the two shard files reads back as the same games.
    let merged = dir.join("merged.ffd");
    let status = Command::new(fivefold_data())
        .arg("merge")
        .arg("--out")
        .arg(&merged)
        .arg(dir.join("two/shard-00000.ffd"))
        .arg(dir.join("two/shard-00001.ffd"))
        .status()
        .expect("fivefold-data runs");
    assert!(status.success());
    let mut m = parse(&std::fs::read(&merged).expect("merged file"));
    m.sort_by_key(key);
    assert_eq!(m, one);

    // The probe counts every labelled ply after the opening once and ranks four orderings.
    let out = Command::new(fivefold_data())
        .arg("probe")
        .arg(&merged)
        .output()
        .expect("fivefold-data runs");
    assert!(out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    let labelled: usize = m
        .iter()
        .map(|g| {
            g.plies[g.opening as usize..]
                .iter()
                .filter(|p| p.is_labelled())
                .count()
        })
        .sum();
    assert!(labelled > 0);
    assert!(
        report.starts_with(&format!("All positions: {labelled} positions")),
        "{report}"
    );
    assert_eq!(
        report.matches("network policy alone").count(),
        2,
        "{report}"
    );
    assert!(report.contains("classical evaluation:"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs docs/cluster/relabel-shard.sh on `input` with `env`; returns the file it wrote.
fn relabel_shard(input: &Path, out: &Path, env: &[(&str, &str)], index: &str) -> Vec<u8> {
    let input = input.to_str().expect("a UTF-8 temporary path");
    let env: Vec<_> = env
        .iter()
        .copied()
        .chain([("IN", input), ("NODES", "1500")])
        .collect();
    cluster_script(
        "relabel-shard.sh",
        out,
        &env,
        &format!("relabel-{index:0>5}.ffd"),
    )
}

/// A fresh folder `name-<pid>` holding `campaign.ffd`: `games` games of seed `seed` on
/// 9x9 at 300 nodes a move.
fn small_campaign(name: &str, games: &str, seed: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let campaign = dir.join("campaign.ffd");
    let status = Command::new(fivefold_data())
        .args([
            "gen", "--games", games, "--seed", seed, "--size", "9", "--nodes", "300",
        ])
        .arg("--out")
        .arg(&campaign)
        .status()
        .expect("fivefold-data runs");
    assert!(status.success());
    (dir, campaign)
}

#[test]
fn a_relabelling_campaign_in_shards_keeps_the_games_and_their_order() {
    let (dir, campaign) = small_campaign("fivefold-relabel", "5", "3");
    let slurm = relabel_shard(
        &campaign,
        &dir.join("two"),
        &[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
        "0",
    );
    let k8s = relabel_shard(
        &campaign,
        &dir.join("two"),
        &[("JOB_COMPLETION_INDEX", "1"), ("SHARDS", "2")],
        "1",
    );
    let whole = relabel_shard(
        &campaign,
        &dir.join("one"),
        &[("SHARD", "0"), ("SHARDS", "1")],
        "0",
    );

    let parse = |bytes: &[u8]| fivefold::data::format::parse_games(bytes).expect("valid data");
    let before = parse(&std::fs::read(&campaign).expect("campaign file"));
    let (a, b) = (parse(&slurm), parse(&k8s));
    assert_eq!((a.len(), b.len()), (2, 3));
    let mut joined = slurm.clone();
    joined.extend(&k8s);
    let after = parse(&joined);
    assert_eq!(after, parse(&whole), "shards in order = the one-task run");
    assert_eq!(after.len(), before.len());
    let mut changed = 0;
    for (old, new) in before.iter().zip(&after) {
        assert_eq!((old.outcome, old.opening), (new.outcome, new.opening));
        let moves =
            |g: &fivefold::data::GameRecord| g.plies.iter().map(|p| p.mv).collect::<Vec<_>>();
        assert_eq!(moves(old), moves(new));
        for (p, q) in old.plies.iter().zip(&new.plies).skip(new.opening as usize) {
            assert!(q.is_labelled());
            changed += usize::from((p.best, p.score) != (q.best, q.score));
        }
    }
    assert!(changed > 0, "the deeper searches changed no label");

    // The control of a relabelling trial: `merge` picks the same block, labels kept.
    let control = dir.join("control.ffd");
    let status = Command::new(fivefold_data())
        .args(["merge", "--shard", "1", "--shards", "2", "--out"])
        .arg(&control)
        .arg(&campaign)
        .status()
        .expect("fivefold-data runs");
    assert!(status.success());
    let control = parse(&std::fs::read(&control).expect("control file"));
    assert_eq!(control, before[2..], "block 1 of 2, as relabelled above");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `relabel --engine`: another brain (here our own binary) labels every ply over the
/// protocol; moves and results stay, and the labels are that brain's.
#[test]
fn an_engine_given_as_a_command_line_relabels_a_campaign() {
    let (dir, campaign) = small_campaign("fivefold-engine", "3", "5");
    let out = dir.join("relabelled.ffd");
    let engine = env!("CARGO_BIN_EXE_pbrain-fivefold");
    let run = Command::new(fivefold_data())
        .args([
            "relabel",
            "--nodes",
            "3000",
            "--engine-scale",
            "1",
            "--engine",
            engine,
        ])
        .arg("--out")
        .arg(&out)
        .arg(&campaign)
        .output()
        .expect("fivefold-data runs");
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{log}");
    assert!(log.contains("plies labelled by the engine"), "{log}");
    let parse = |bytes: &[u8]| fivefold::data::format::parse_games(bytes).expect("valid data");
    let before = parse(&std::fs::read(&campaign).expect("campaign file"));
    // The same games and results, every ply after the opening labelled; how many labels
    // differ from the campaign's own.
    let changed = |after: &[fivefold::data::GameRecord]| {
        assert_eq!(before.len(), after.len());
        let mut changed = 0;
        for (old, new) in before.iter().zip(after) {
            assert_eq!((old.outcome, old.opening), (new.outcome, new.opening));
            for (p, q) in old.plies.iter().zip(&new.plies) {
                assert_eq!(p.mv, q.mv);
            }
            for q in &new.plies[new.opening as usize..] {
                assert!(q.is_labelled());
            }
            changed += old
                .plies
                .iter()
                .zip(&new.plies)
                .filter(|(p, q)| (p.best, p.score) != (q.best, q.score))
                .count();
        }
        changed
    };
    let after = parse(&std::fs::read(&out).expect("relabelled file"));
    assert!(changed(&after) > 0, "the engine changed no label");

    // The cluster script's ENGINE runs the same (one shard of one; the engine's hash
    // table grows on a thread of its own, so its labels need not repeat exactly).
    let script = cluster_script(
        "relabel-shard.sh",
        &dir.join("cluster"),
        &[
            ("SHARD", "0"),
            ("SHARDS", "1"),
            ("IN", campaign.to_str().expect("utf-8 path")),
            ("NODES", "3000"),
            ("ENGINE", engine),
            ("ENGINE_SCALE", "1"),
        ],
        "relabel-00000.ffd",
    );
    assert!(
        changed(&parse(&script)) > 0,
        "the script's engine changed no label"
    );

    // An engine that is not there is an error, not a hang.
    let status = Command::new(fivefold_data())
        .args(["relabel", "--engine", "/nonexistent/brain", "--out"])
        .arg(dir.join("x.ffd"))
        .arg(&campaign)
        .status()
        .expect("fivefold-data runs");
    assert!(!status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_shard_index_or_a_corrupt_file_is_an_error() {
    let out = Command::new(fivefold_data())
        .args([
            "gen", "--games", "2", "--seed", "1", "--shard", "2", "--shards", "2",
        ])
        .args(["--out", "/dev/null"])
        .output()
        .expect("fivefold-data runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not below --shards"));
    for cmd in ["relabel", "merge"] {
        let out = Command::new(fivefold_data())
            .args([cmd, "--shard", "3", "--shards", "3", "--out", "/dev/null"])
            .arg("/dev/null")
            .output()
            .expect("fivefold-data runs");
        assert!(!out.status.success(), "{cmd}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("not below --shards"));
    }

    let bad = std::env::temp_dir().join(format!("fivefold-bad-{}.ffd", std::process::id()));
    std::fs::write(&bad, b"FFDATA\x01\x00G\x00\x0f").expect("write");
    let out = Command::new(fivefold_data())
        .arg("stats")
        .arg(&bad)
        .output()
        .expect("fivefold-data runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated"));
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn openings_are_balanced_stone_lists_that_repeat_from_their_seed() {
    let path = std::env::temp_dir().join(format!("fivefold-open-{}.txt", std::process::id()));
    let run = |seed: &str| {
        let status = Command::new(fivefold_data())
            .args(["openings", "--count", "3", "--size", "9", "--seed", seed])
            .arg("--out")
            .arg(&path)
            .status()
            .expect("fivefold-data runs");
        assert!(status.success());
        std::fs::read_to_string(&path).expect("openings file")
    };
    let text = run("5");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    for line in &lines {
        let stones: Vec<(u32, u32)> = line
            .split_whitespace()
            .map(|s| {
                let (x, y) = s.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect();
        assert!((2..=6).contains(&stones.len()), "{line}");
        assert!(stones.iter().all(|&(x, y)| x < 9 && y < 9), "{line}");
    }
    assert_eq!(run("5"), text);
    assert_ne!(run("6"), text);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn the_netd_recipe_repeats_and_its_network_plays() {
    let dir = std::env::temp_dir().join(format!("fivefold-netd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    checked_recipe("netD", &["g2"], &dir);
    // The engine plays with the network the recipe made.
    use fivefold::driver::{parse_move, Brain, Output};
    let net = dir.join("a/netD.q");
    let cmd = format!(
        "'{}' --nn-file '{}'",
        env!("CARGO_BIN_EXE_pbrain-fivefold"),
        net.display()
    );
    let mut brain = Brain::spawn(&cmd, None).expect("pbrain-fivefold runs");
    brain.send("INFO timeout_turn 300").expect("send");
    let mut answer = |line: &str| {
        brain.send(line).expect("send");
        loop {
            match brain.recv(std::time::Duration::from_secs(10)) {
                Some(Output::Line(l)) if l.starts_with("MESSAGE") => continue,
                Some(Output::Line(l)) => return l,
                other => panic!("no answer to {line}: {other:?}"),
            }
        }
    };
    assert_eq!(answer("START 15"), "OK");
    let mv = answer("BEGIN");
    let on_board = |v: i64| (0..15).contains(&v);
    assert!(
        parse_move(&mv).is_some_and(|(x, y)| on_board(x) && on_board(y)),
        "{mv}"
    );
    brain.send("END").expect("send");
    let status = brain.exit_status(std::time::Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a network's recipe (`src/eval/nn/weights/reproduce.sh NET WORKDIR`) small: two
/// shards of two games of each campaign at 300 nodes a move, one epoch, the built-in
/// network standing for every parent. Returns whether it succeeded and what it printed
/// (its standard output, its errors and its exit status).
fn recipe(net: &str, work: &Path, expect: &str) -> (bool, String) {
    recipe_with(net, work, expect, &[])
}

/// `recipe` with more environment variables (`env` last, so they win).
fn recipe_with(net: &str, work: &Path, expect: &str, env: &[(&str, &str)]) -> (bool, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("src/eval/nn/weights/reproduce.sh"))
        .arg(net)
        .arg(work)
        .env("FIVEFOLD_DATA", fivefold_data())
        .env("FIVEFOLD_TRAIN", env!("CARGO_BIN_EXE_fivefold-train"))
        .env("PARENT", root.join("src/eval/nn/weights/freestyle.q"))
        .envs([("SMALL", "1"), ("EXPECT", expect)])
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    let text = [
        &out.stdout[..],
        &out.stderr[..],
        format!("{:?}", out.status).as_bytes(),
    ]
    .concat();
    (
        out.status.success(),
        String::from_utf8_lossy(&text).into_owned(),
    )
}

/// The hash a recipe printed for `name` (`NAME sha256 HEX`), or "" if none.
fn recipe_hash(text: &str, name: &str) -> String {
    let prefix = format!("{name} sha256 ");
    let line = text.lines().find_map(|l| l.strip_prefix(&prefix));
    line.map(str::to_string).unwrap_or_default()
}

/// Runs `net`'s recipe small in `dir/a` and checks it: it prints a hash, each of its
/// `campaigns` is the first two shards of its order (0 and 1) concatenated so, a second
/// run in `dir/b` makes the same network and passes the check, and a wrong expected hash
/// fails (reusing the first run's shards).
fn checked_recipe(net: &str, campaigns: &[&str], dir: &Path) {
    let (ok, first) = recipe(net, &dir.join("a"), "");
    assert!(ok, "the recipe failed: {first}");
    let hash = recipe_hash(&first, &format!("{net}.q"));
    assert_eq!(hash.len(), 64, "{first}");
    for campaign in campaigns {
        let folder = dir.join("a").join(campaign);
        let mut joined = Vec::new();
        for k in 0..2 {
            let shard = folder.join(format!("shard-0000{k}.ffd"));
            joined.extend(std::fs::read(&shard).expect("the shard exists"));
        }
        let file = std::fs::read(dir.join("a").join(format!("{campaign}.ffd"))).expect("ffd");
        assert_eq!(file, joined, "{campaign}");
        assert_eq!(recipe_hash(&first, &format!("{campaign}.ffd")).len(), 64);
    }
    let (ok, second) = recipe(net, &dir.join("b"), &hash);
    assert!(ok, "the check failed on a second run: {second}");
    assert_eq!(recipe_hash(&second, &format!("{net}.q")), hash);
    let (ok, _) = recipe(net, &dir.join("a"), &"0".repeat(64));
    assert!(!ok, "a wrong expected hash must fail the recipe");
}

/// Runs `net`'s recipe small (`checked_recipe`) in a temporary folder and checks that
/// each of its campaigns, named in order with its board size, holds games of that size,
/// and that the network has `channels` channels.
fn recipe_test(net: &str, campaigns: &[(&str, u8)], channels: usize) {
    let dir = std::env::temp_dir().join(format!("fivefold-{net}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let names: Vec<&str> = campaigns.iter().map(|(name, _)| *name).collect();
    checked_recipe(net, &names, &dir);
    for (campaign, size) in campaigns {
        let bytes = std::fs::read(dir.join(format!("a/{campaign}.ffd"))).expect("ffd");
        let games = fivefold::data::format::parse_games(&bytes).expect("parses");
        assert!(!games.is_empty());
        assert!(
            games.iter().all(|g| (g.width, g.height) == (*size, *size)),
            "{campaign}"
        );
    }
    let file = std::fs::read(dir.join(format!("a/{net}.q"))).expect("the network");
    assert_eq!(
        fivefold::eval::nn::file::file_channels(&file),
        Some(channels)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// netE's four campaigns (all 15x15), with which every later recipe begins, then `later`.
fn after_nete<'a>(later: &[(&'a str, u8)]) -> Vec<(&'a str, u8)> {
    let mut all = vec![("c5", 15), ("g2", 15), ("dA", 15), ("c20", 15)];
    all.extend_from_slice(later);
    all
}

#[test]
fn the_netk_recipe_plays_its_eight_campaigns_in_order_the_last_three_on_20x20() {
    recipe_test(
        "netK",
        &after_nete(&[("c20e", 15), ("g20", 20), ("h20", 20), ("i20", 20)]),
        64,
    );
}

#[test]
fn the_netj_recipe_plays_its_eight_campaigns_in_order_the_last_on_15x15() {
    recipe_test(
        "netJ",
        &after_nete(&[("c20e", 15), ("g20", 20), ("h20", 20), ("i15", 15)]),
        64,
    );
}

#[test]
fn the_neti_recipe_plays_its_seven_campaigns_in_order_the_last_two_on_20x20() {
    recipe_test(
        "netI",
        &after_nete(&[("c20e", 15), ("g20", 20), ("h20", 20)]),
        64,
    );
}

#[test]
fn the_neth_recipe_plays_its_six_campaigns_in_order_the_last_on_20x20() {
    recipe_test("netH", &after_nete(&[("c20e", 15), ("g20", 20)]), 64);
}

#[test]
fn the_netg_recipe_plays_its_five_campaigns_in_order_and_repeats() {
    recipe_test("netG", &after_nete(&[("c20e", 15)]), 64);
}

#[test]
fn the_nete_recipe_plays_its_four_campaigns_in_order_and_repeats() {
    recipe_test("netE", &after_nete(&[]), 32);
}

/// Writes `from` xz-compressed to `to` (the `xz` tool, as reproduce.sh uses it).
fn xz_to(from: &Path, to: &Path) {
    let out = Command::new("xz")
        .arg("-c")
        .arg(from)
        .output()
        .expect("xz runs (Debian's xz-utils)");
    assert!(out.status.success());
    std::fs::write(to, out.stdout).expect("writes");
}

/// Shards kept in `CAMPAIGNS/NAME/shard-NNNNN.ffd.xz` are unpacked instead of played: with
/// both of netD's small g2 shards kept and no generator to play with, the recipe makes
/// the network a playing run made; with one kept it plays the other alone; a campaign
/// whose sha256 is not the one `CAMPAIGNS/SHA256SUMS` records stops the recipe.
#[test]
fn the_recipe_unpacks_kept_shards_and_checks_their_campaign() {
    let dir = std::env::temp_dir().join(format!("fivefold-kept-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, played) = recipe("netD", &dir.join("a"), "");
    assert!(ok, "the recipe failed: {played}");
    let net = recipe_hash(&played, "netD.q");
    let campaign = recipe_hash(&played, "g2.ffd");
    let kept = |name: &str, shards: &[u32], sum: &str| {
        let folder = dir.join(name);
        std::fs::create_dir_all(folder.join("g2")).expect("mkdir");
        for k in shards {
            let shard = format!("g2/shard-0000{k}.ffd");
            xz_to(
                &dir.join("a").join(&shard),
                &folder.join(format!("{shard}.xz")),
            );
        }
        std::fs::write(folder.join("SHA256SUMS"), format!("{sum}  g2.ffd\n")).expect("sums");
        folder.to_string_lossy().into_owned()
    };
    let all = kept("all", &[0, 1], &campaign);
    let env = [
        ("CAMPAIGNS", all.as_str()),
        ("FIVEFOLD_DATA", "/no/generator"),
    ];
    let (ok, out) = recipe_with("netD", &dir.join("b"), &net, &env);
    assert!(ok, "a recipe with every shard kept failed: {out}");
    assert!(out.contains("g2: 2 shards unpacked"), "{out}");
    assert_eq!(recipe_hash(&out, "g2.ffd"), campaign);
    let one = kept("one", &[0], &campaign);
    let (ok, out) = recipe_with("netD", &dir.join("c"), &net, &[("CAMPAIGNS", one.as_str())]);
    assert!(ok, "a recipe with one shard kept failed: {out}");
    assert!(out.contains("g2: 1 shards unpacked from"), "{out}");
    assert!(out.contains("1 to play"), "{out}");
    let wrong = kept("wrong", &[0, 1], &"0".repeat(64));
    let env = [("CAMPAIGNS", wrong.as_str())];
    let (ok, out) = recipe_with("netD", &dir.join("d"), "", &env);
    assert!(
        !ok,
        "a campaign with another sha256 must stop the recipe: {out}"
    );
    assert!(out.contains("not the recorded"), "{out}");
    assert!(
        !dir.join("d/netD.q").exists(),
        "no training after a failed check"
    );
    // KEPT=1 checks the kept shards alone: no generator, no training.
    let only_kept = |campaigns: &str, work: &str| {
        let env = [
            ("CAMPAIGNS", campaigns),
            ("FIVEFOLD_DATA", "/no/generator"),
            ("KEPT", "1"),
        ];
        recipe_with("netD", &dir.join(work), "", &env)
    };
    let (ok, out) = only_kept(&all, "e");
    assert!(ok, "checking a whole kept campaign failed: {out}");
    assert!(out.contains("g2.ffd matches its recorded sha256"), "{out}");
    assert!(!dir.join("e/netD.q").exists(), "KEPT=1 trains nothing");
    let (ok, out) = only_kept(&one, "f");
    assert!(ok, "{out}");
    assert!(out.contains("g2: 1 of 2 shards kept, not checked"), "{out}");
    let (ok, out) = only_kept(&wrong, "g");
    assert!(!ok, "a kept campaign with another sha256 must fail: {out}");
    assert!(out.contains("not the recorded"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The campaigns kept in the repository (`src/eval/nn/weights/campaigns/`): all eight
/// of netK's are kept whole and each is the campaign netK was trained on (its recorded
/// sha256); C5 and H20 are whole since session 65, G2, dA and C20 since session 66, C20E
/// since session 67, G20 since session 68, I20 since session 70.
#[test]
fn the_repositorys_whole_kept_campaigns_are_the_ones_netk_was_trained_on() {
    let dir = std::env::temp_dir().join(format!("fivefold-repo-kept-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let env = [
        ("SMALL", ""),
        ("KEPT", "1"),
        ("FIVEFOLD_DATA", "/no/generator"),
    ];
    let (ok, out) = recipe_with("netK", &dir, "", &env);
    assert!(ok, "the kept campaigns failed their check: {out}");
    for whole in ["c5", "g2", "dA", "c20", "c20e", "g20", "h20", "i20"] {
        let line = format!("{whole}.ffd matches its recorded sha256");
        assert!(out.contains(&line), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
