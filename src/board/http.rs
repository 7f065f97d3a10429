//! The HTTP side of the board: who may talk to it (Host and Origin must be the server's
//! own), how big a request may be, and replies with the headers every answer carries.

use serde_json::{json, Value};
use std::io::Read;
use tiny_http::{Header, Request, Response};

/// Largest request body: a 22x22 `.psq` is about 5 KB.
pub const MAX_BODY: usize = 64 * 1024;
/// Longest request target.
pub const MAX_URL: usize = 2048;

/// An answer before it is sent.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// A file name to offer the body as a download under.
    pub download: Option<&'static str>,
}

impl Reply {
    pub fn json(value: Value) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
            download: None,
        }
    }

    /// `{"error": why}` with an HTTP error status.
    pub fn error(status: u16, why: impl Into<String>) -> Reply {
        Reply {
            status,
            ..Reply::json(json!({ "error": why.into() }))
        }
    }

    pub fn asset(content_type: &'static str, text: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
            download: None,
        }
    }

    pub fn into_response(self) -> Response<std::io::Cursor<Vec<u8>>> {
        let mut r = Response::from_data(self.body).with_status_code(self.status);
        let mut headers = vec![
            (
                "Content-Type",
                format!("{}; charset=utf-8", self.content_type),
            ),
            ("Cache-Control", "no-store".to_string()),
            ("X-Content-Type-Options", "nosniff".to_string()),
            ("X-Frame-Options", "DENY".to_string()),
            (
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:".to_string(),
            ),
        ];
        if let Some(name) = self.download {
            headers.push((
                "Content-Disposition",
                format!("attachment; filename=\"{name}\""),
            ));
        }
        for (k, v) in headers {
            if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
                r = r.with_header(h);
            }
        }
        r
    }
}

/// The one value of header `name`; several copies count as none.
pub fn header<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    let mut found = req
        .headers()
        .iter()
        .filter(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name));
    let first = found.next()?;
    found.next().is_none().then(|| first.value.as_str())
}

/// Refuses requests from anywhere but this server's own page: the Host must be one of
/// `hosts` (so a DNS-rebound name is refused), an Origin must be `http://` + one of them,
/// and a POST must carry JSON (which a cross-site form cannot send without asking first).
pub fn guard(req: &Request, hosts: &[String]) -> Result<(), Reply> {
    if req.url().len() > MAX_URL {
        return Err(Reply::error(414, "request target too long"));
    }
    let host = header(req, "Host").ok_or_else(|| Reply::error(403, "missing Host header"))?;
    if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return Err(Reply::error(403, format!("foreign Host `{}`", short(host))));
    }
    if let Some(origin) = header(req, "Origin") {
        let own = hosts
            .iter()
            .any(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
        if !own {
            return Err(Reply::error(
                403,
                format!("foreign Origin `{}`", short(origin)),
            ));
        }
    }
    Ok(())
}

/// The body as JSON, refusing oversized, non-JSON and malformed ones.
pub fn json_body(req: &mut Request) -> Result<Value, Reply> {
    let is_json = header(req, "Content-Type").is_some_and(|t| {
        t.trim()
            .to_ascii_lowercase()
            .starts_with("application/json")
    });
    if !is_json {
        return Err(Reply::error(415, "POST bodies must be application/json"));
    }
    if req.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Reply::error(
            413,
            format!("request body over {MAX_BODY} bytes"),
        ));
    }
    let mut buf = Vec::new();
    let read = req
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut buf);
    if read.is_err() {
        return Err(Reply::error(400, "could not read the request body"));
    }
    if buf.len() > MAX_BODY {
        return Err(Reply::error(
            413,
            format!("request body over {MAX_BODY} bytes"),
        ));
    }
    serde_json::from_slice(&buf).map_err(|e| Reply::error(400, format!("bad JSON: {e}")))
}

pub fn short(s: &str) -> String {
    s.chars().take(60).collect()
}
