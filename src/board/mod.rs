//! Fivefold Board: a local web page to play and watch Gomocup brains. `serve` starts an
//! HTTP server on the given address (127.0.0.1 by default) that serves one page and its
//! JSON API, and a conductor thread that drives the brains named on the command line.
//! The page is plain HTML, CSS and JavaScript embedded in the binary.

mod analysis;
mod api;
mod conductor;
mod game;
mod http;
mod notation;
mod results;
mod table;

pub use api::Suite;
pub use notation::{parse_position, parse_psq, write_position, write_psq, Record};
pub use results::default_dir as default_data_dir;
pub use table::EngineDef;

use anyhow::{anyhow, Result};
use conductor::Shared;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use table::{Clock, Seat, Table};

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/app.css");

pub struct Config {
    pub host: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    pub engines: Vec<EngineDef>,
    pub suites: Vec<Suite>,
    /// Where the person's results are kept (`None`: in memory only).
    pub data_dir: Option<std::path::PathBuf>,
}

/// Runs the server until the process ends; prints the page's address on stdout first.
pub fn serve(config: Config) -> Result<()> {
    let server = tiny_http::Server::http(SocketAddr::new(config.host, config.port))
        .map_err(|e| anyhow!("cannot listen on {}:{}: {e}", config.host, config.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| anyhow!("not an IP address"))?;
    let hosts = own_hosts(addr);
    let mut table = first_table(config.engines);
    table.results = results::Results::load(config.data_dir.as_deref());
    let shared = Arc::new(Mutex::new(table));
    let conductor_state = Arc::clone(&shared);
    std::thread::spawn(move || conductor::run(conductor_state));
    println!("Fivefold Board: http://{}/", hosts[0]);
    for mut req in server.incoming_requests() {
        let reply = match http::guard(&req, &hosts) {
            Ok(()) => page_or_api(&mut req, &shared, &config.suites),
            Err(reply) => reply,
        };
        if reply.status >= 400 {
            log::info!(
                "{} {}: {}",
                req.method(),
                http::short(req.url()),
                reply.status
            );
        }
        let _ = req.respond(reply.into_response());
    }
    Ok(())
}

fn page_or_api(req: &mut tiny_http::Request, shared: &Shared, suites: &[Suite]) -> http::Reply {
    let get = *req.method() == tiny_http::Method::Get;
    match req.url() {
        "/" | "/index.html" if get => http::Reply::asset("text/html", PAGE),
        "/app.js" if get => http::Reply::asset("text/javascript", SCRIPT),
        "/app.css" if get => http::Reply::asset("text/css", STYLE),
        _ => api::route(req, shared, suites),
    }
}

/// The Host values this server answers to: its address and, on loopback, `localhost`.
fn own_hosts(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut hosts = vec![match addr.ip() {
        IpAddr::V4(ip) => format!("{ip}:{port}"),
        IpAddr::V6(ip) => format!("[{ip}]:{port}"),
    }];
    if addr.ip().is_loopback() {
        hosts.push(format!("localhost:{port}"));
    }
    hosts
}

/// The game on screen at start: 15x15 freestyle, a person against Fivefold's lowest
/// level (or against another person when no built-in engine is known).
fn first_table(engines: Vec<EngineDef>) -> Table {
    let white = match engines.iter().position(|e| e.builtin) {
        Some(id) => Seat::Engine { id, level: 1 },
        None => Seat::Human,
    };
    let game = match game::Game::new(15, crate::game::Rule::Freestyle) {
        Ok(g) => g,
        Err(e) => unreachable!("15x15 is a valid board: {e}"),
    };
    Table::new(engines, game, [Seat::Human, white], Clock::new(2000, 0))
}
